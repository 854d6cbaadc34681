package main

import (
	"flag"
	"fmt"
	"io"

	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// printTimeControl says a time control as the server read it, so that the
// arbiter who typed it sees what was set.
func printTimeControl(w io.Writer, info *pb.TimeControlInfo) {
	if info == nil {
		return
	}
	fmt.Fprintf(w, "  time control %s (%s): %s; %s\n", info.GetCanonical(), info.GetWithUnits(), info.GetWords(), info.GetGameType())
}

// describeTimeControl asks the server how it reads a time control,
// creating nothing.
func (c *cli) describeTimeControl(args []string) error {
	var ruleset string
	pos, err := parse(args, func(fs *flag.FlagSet) { fs.StringVar(&ruleset, "ruleset", "", "") })
	if err != nil {
		return err
	}
	if err := need(pos, 1, "timecontrol TC"); err != nil {
		return err
	}
	info, err := c.arb.DescribeTimeControl(c.ctx, &pb.DescribeTimeControlRequest{TimeControl: pos[0], Ruleset: ruleset})
	if err != nil {
		return err
	}
	printTimeControl(c.out, info)
	return nil
}
