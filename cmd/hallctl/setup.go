package main

import (
	"flag"
	"fmt"

	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

func (c *cli) tournament(args []string) error {
	var tc, ruleset string
	pos, err := parse(args, func(fs *flag.FlagSet) { fs.StringVar(&tc, "tc", "", ""); fs.StringVar(&ruleset, "ruleset", "", "") })
	if err != nil {
		return err
	}
	if err := need(pos, 1, "tournament NAME"); err != nil {
		return err
	}
	t, err := c.arb.CreateTournament(c.ctx, &pb.CreateTournamentRequest{Name: pos[0], DefaultConfig: &pb.ClockConfig{Ruleset: ruleset, TimeControl: tc}})
	if err != nil {
		return err
	}
	fmt.Fprintln(c.out, t.GetTournamentId())
	printTimeControl(c.out, t.GetTimeControlInfo())
	return nil
}

func (c *cli) createRound(args []string) error {
	var tc string
	pos, err := parse(args, func(fs *flag.FlagSet) { fs.StringVar(&tc, "tc", "", "") })
	if err != nil {
		return err
	}
	if err := need(pos, 2, "round TOURNAMENT NUMBER"); err != nil {
		return err
	}
	var n int32
	if _, err := fmt.Sscanf(pos[1], "%d", &n); err != nil {
		return fmt.Errorf("%w: round number %q", errUsage, pos[1])
	}
	req := &pb.CreateRoundRequest{TournamentId: pos[0], Number: n}
	if tc != "" {
		req.Config = &pb.ClockConfig{TimeControl: tc}
	}
	r, err := c.arb.CreateRound(c.ctx, req)
	if err != nil {
		return err
	}
	fmt.Fprintln(c.out, r.GetRoundId())
	printTimeControl(c.out, r.GetTimeControlInfo())
	return nil
}

func (c *cli) addBoard(args []string) error {
	var dev, section, tc string
	pos, err := parse(args, func(fs *flag.FlagSet) {
		fs.StringVar(&dev, "device", "", "")
		fs.StringVar(&section, "section", "", "")
		fs.StringVar(&tc, "tc", "", "")
	})
	if err != nil {
		return err
	}
	if err := need(pos, 4, "add-board ROUND NUMBER WHITE BLACK"); err != nil {
		return err
	}
	var n int32
	if _, err := fmt.Sscanf(pos[1], "%d", &n); err != nil {
		return fmt.Errorf("%w: board number %q", errUsage, pos[1])
	}
	req := &pb.AddBoardRequest{RoundId: pos[0], Number: n, Section: section, DeviceId: dev,
		White: &pb.Player{Name: pos[2]}, Black: &pb.Player{Name: pos[3]}}
	if tc != "" {
		req.Config = &pb.ClockConfig{TimeControl: tc}
	}
	b, err := c.arb.AddBoard(c.ctx, req)
	if err != nil {
		return err
	}
	fmt.Fprintln(c.out, b.GetBoardId())
	printTimeControl(c.out, b.GetTimeControlInfo())
	return nil
}
