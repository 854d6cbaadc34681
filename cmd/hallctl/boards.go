package main

import (
	"flag"
	"fmt"
	"text/tabwriter"
	"time"

	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

func (c *cli) boards(args []string) error {
	var round, section string
	if _, err := parse(args, func(fs *flag.FlagSet) {
		fs.StringVar(&round, "round", "", "")
		fs.StringVar(&section, "section", "", "")
	}); err != nil {
		return err
	}
	r, err := c.arb.ListBoards(c.ctx, &pb.ListBoardsRequest{RoundId: round, Section: section})
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(c.out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "BOARD\tNO\tSECTION\tWHITE\tBLACK\tCLOCK\tSTATUS\tWHITE TIME\tBLACK TIME\tMOVES\tRESULT")
	for _, b := range r.GetBoards() {
		st := b.GetState()
		clock := b.GetDeviceId()
		if st.GetSource() == pb.ClockSource_CLOCK_SOURCE_VIRTUAL {
			clock = "virtual"
		} else if !st.GetDeviceOnline() {
			clock += " (offline)"
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%d\t%s\n", b.GetBoardId(), b.GetNumber(), b.GetSection(),
			b.GetWhite().GetName(), b.GetBlack().GetName(), clock, statusName(st), clockTime(st.GetWhite().GetRemainingMs()),
			clockTime(st.GetBlack().GetRemainingMs()), st.GetWhite().GetMoves(), st.GetResult())
	}
	return tw.Flush()
}

func (c *cli) board(args []string) error {
	if err := need(args, 1, "board BOARD"); err != nil {
		return err
	}
	b, err := c.arb.GetBoard(c.ctx, &pb.GetBoardRequest{BoardId: args[0]})
	if err != nil {
		return err
	}
	fmt.Fprintf(c.out, "%s  board %d %s  %s – %s  clock %s  %s %s\n", b.GetBoardId(), b.GetNumber(), b.GetSection(),
		b.GetWhite().GetName(), b.GetBlack().GetName(), or(b.GetDeviceId(), "-"), b.GetConfig().GetRuleset(), b.GetConfig().GetTimeControl())
	printState(c.out, b.GetState())
	for _, p := range b.GetPending() {
		where := "sent"
		if !p.GetDeviceOnline() {
			where = "waiting for the device"
		}
		fmt.Fprintf(c.out, "  pending %s: %s (%s, by %s)\n", p.GetCommandId(), p.GetAction().GetKind(), where, p.GetIssuedBy())
	}
	return nil
}

func (c *cli) audit(args []string) error {
	if err := need(args, 1, "audit BOARD"); err != nil {
		return err
	}
	r, err := c.arb.AuditLog(c.ctx, &pb.AuditLogRequest{BoardId: args[0]})
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(c.out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "TIME\tWHO\tWHAT\tOUTCOME\tREASON")
	for _, e := range r.GetEntries() {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", time.UnixMilli(e.GetUnixMs()).Format("15:04:05.000"), e.GetActor(), e.GetWhat(), e.GetOutcome(), e.GetReason())
	}
	return tw.Flush()
}

func (c *cli) devices(args []string) error {
	r, err := c.arb.ListDevices(c.ctx, &pb.ListDevicesRequest{})
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(c.out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "DEVICE\tONLINE\tBOARD\tBATTERY\tDRIFT PPM\tLAST SEEN\tFIRMWARE")
	for _, d := range r.GetDevices() {
		fmt.Fprintf(tw, "%s\t%v\t%s\t%d%%\t%.1f\t%s\t%s\n", d.GetDeviceId(), d.GetOnline(), d.GetBoardId(), d.GetBatteryPct(),
			d.GetDriftPpm(), time.UnixMilli(d.GetLastSeenUnixMs()).Format("15:04:05"), d.GetFirmware())
	}
	return tw.Flush()
}

func (c *cli) watch(args []string) error {
	var round, board string
	if _, err := parse(args, func(fs *flag.FlagSet) { fs.StringVar(&round, "round", "", ""); fs.StringVar(&board, "board", "", "") }); err != nil {
		return err
	}
	w := pb.NewWatchClient(c.conn)
	var stream interface {
		Recv() (*pb.WatchUpdate, error)
	}
	var err error
	switch {
	case board != "":
		stream, err = w.WatchBoard(c.ctx, &pb.WatchBoardRequest{BoardId: board})
	case round != "":
		stream, err = w.WatchRound(c.ctx, &pb.WatchRoundRequest{RoundId: round})
	default:
		stream, err = w.WatchHall(c.ctx, &pb.WatchHallRequest{})
	}
	if err != nil {
		return err
	}
	for {
		u, err := stream.Recv()
		if err != nil {
			return err
		}
		for _, b := range u.GetBoards() {
			fmt.Fprintf(c.out, "#%d %s ", u.GetSeq(), b.GetBoardId())
			printState(c.out, b)
		}
	}
}
