package main

import (
	"flag"
	"fmt"
	"strconv"
	"text/tabwriter"

	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// plan shows or changes a venue's hall plan: which clock sits at which table.
//
//	plan [-venue V]                  the plan
//	plan set TABLE DEVICE [...]      put devices at tables (pairs)
//	plan clear TABLE...              take tables' devices off the plan
//	plan learn ROUND                 the plan from a round's boards as they are now
func (c *cli) plan(args []string) error {
	var venue string
	var reset bool
	pos, err := parse(args, func(fs *flag.FlagSet) {
		fs.StringVar(&venue, "venue", "", "the venue (default: the hall)")
		fs.BoolVar(&reset, "reset", false, "with set or learn: clear the whole plan first")
	})
	if err != nil {
		return err
	}
	req := &pb.SetPlanRequest{Venue: venue, Clear: reset}
	switch {
	case len(pos) == 0:
		p, err := c.arb.GetPlan(c.ctx, &pb.GetPlanRequest{Venue: venue})
		if err != nil {
			return err
		}
		return c.printPlan(p)
	case pos[0] == "set" && len(pos) >= 3 && len(pos)%2 == 1:
		for i := 1; i < len(pos); i += 2 {
			t, err := strconv.Atoi(pos[i])
			if err != nil || t < 1 {
				return fmt.Errorf("%w: table %q: a number from 1", errUsage, pos[i])
			}
			req.Tables = append(req.Tables, &pb.PlanTable{Table: int32(t), DeviceId: pos[i+1]})
		}
	case pos[0] == "clear" && len(pos) >= 2:
		for _, s := range pos[1:] {
			t, err := strconv.Atoi(s)
			if err != nil || t < 1 {
				return fmt.Errorf("%w: table %q: a number from 1", errUsage, s)
			}
			req.Tables = append(req.Tables, &pb.PlanTable{Table: int32(t)})
		}
	case pos[0] == "learn" && len(pos) == 2:
		r, err := c.round(pos[1])
		if err != nil {
			return err
		}
		req.FromRoundId, req.Venue = r.GetRoundId(), r.GetVenue()
	default:
		return fmt.Errorf("%w: want plan, plan set TABLE DEVICE..., plan clear TABLE..., or plan learn ROUND", errUsage)
	}
	p, err := c.arb.SetPlan(c.ctx, req)
	if err != nil {
		return err
	}
	return c.printPlan(p)
}

func (c *cli) printPlan(p *pb.HallPlan) error {
	where := "the hall"
	if p.GetVenue() != "" {
		where = p.GetVenue()
	}
	if len(p.GetTables()) == 0 {
		fmt.Fprintf(c.out, "no clocks planned in %s (hallctl plan set TABLE DEVICE)\n", where)
		return nil
	}
	fmt.Fprintf(c.out, "hall plan of %s\n", where)
	tw := tabwriter.NewWriter(c.out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "TABLE\tCLOCK\tONLINE\tKEEPS BOARD\tSINCE")
	for _, t := range p.GetTables() {
		fmt.Fprintf(tw, "%d\t%s\t%v\t%s\t%s\n", t.GetTable(), t.GetDeviceId(), t.GetOnline(), or(t.GetBoardId(), "-"),
			at(t.GetUpdatedUnixMs(), "Jan 2 15:04", c.zone("")))
	}
	return tw.Flush()
}
