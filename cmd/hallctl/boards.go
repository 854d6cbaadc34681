package main

import (
	"flag"
	"fmt"
	"text/tabwriter"

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
	req := &pb.ListBoardsRequest{Section: section}
	if round != "" {
		r, err := c.round(round)
		if err != nil {
			return err
		}
		req.RoundId = r.GetRoundId()
	}
	r, err := c.arb.ListBoards(c.ctx, req)
	if err != nil {
		return err
	}
	if len(r.GetBoards()) == 0 {
		fmt.Fprintln(c.out, "no boards")
		return nil
	}
	tw := tabwriter.NewWriter(c.out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ROUND\tNO\tSECTION\tWHITE\tBLACK\tCLOCK\tSTATUS\tWHITE TIME\tBLACK TIME\tMOVES\tRESULT\tBOARD")
	for _, b := range r.GetBoards() {
		st := b.GetState()
		clock := b.GetDeviceId()
		if st.GetSource() == pb.ClockSource_CLOCK_SOURCE_VIRTUAL {
			clock = "virtual"
		} else if !st.GetDeviceOnline() {
			clock += " (offline)"
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%d\t%s\t%s\n", roundName(b), b.GetNumber(), b.GetSection(),
			b.GetWhite().GetName(), b.GetBlack().GetName(), clock, statusName(st), clockTime(st.GetWhite().GetRemainingMs()),
			clockTime(st.GetBlack().GetRemainingMs()), st.GetWhite().GetMoves(), resultShown(st), b.GetBoardId())
	}
	return tw.Flush()
}

func (c *cli) board(args []string) error {
	if err := need(args, 1, "board BOARD"); err != nil {
		return err
	}
	id, err := c.boardID(args[0])
	if err != nil {
		return err
	}
	b, err := c.arb.GetBoard(c.ctx, &pb.GetBoardRequest{BoardId: id})
	if err != nil {
		return err
	}
	table := ""
	if b.GetTable() > 0 {
		table = fmt.Sprintf(", table %d", b.GetTable())
	}
	fmt.Fprintf(c.out, "%s round %d, board %s%d%s (%s)\n  %s – %s  clock %s  %s %s\n", b.GetTournamentName(), b.GetRoundNumber(),
		b.GetSection(), b.GetNumber(), table, b.GetBoardId(), playerName(b.GetWhite()), playerName(b.GetBlack()),
		or(b.GetDeviceId(), "-"), b.GetConfig().GetRuleset(), b.GetConfig().GetTimeControl())
	printTimeControl(c.out, b.GetTimeControlInfo())
	printDrawOdds(c.out, b.GetConfig())
	if b.GetConfig().GetBlindPlay() != nil {
		fmt.Fprintf(c.out, "  %s\n", blindWords(b))
	}
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

func (c *cli) devices(args []string) error {
	r, err := c.arb.ListDevices(c.ctx, &pb.ListDevicesRequest{})
	if err != nil {
		return err
	}
	names, err := c.boardNames()
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(c.out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "DEVICE\tONLINE\tBOARD\tBATTERY\tDRIFT PPM\tLAST SEEN\tFIRMWARE\tKIND")
	for _, d := range r.GetDevices() {
		kind := d.GetKind()
		if kind == "" {
			kind = "clock"
		}
		fmt.Fprintf(tw, "%s\t%v\t%s\t%d%%\t%.1f\t%s\t%s\t%s\n", d.GetDeviceId(), d.GetOnline(), names.name(d.GetBoardId()), d.GetBatteryPct(),
			d.GetDriftPpm(), at(d.GetLastSeenUnixMs(), "15:04:05", c.zone("")), or(d.GetFirmware(), "-"), kind)
	}
	return tw.Flush()
}

func (c *cli) watch(args []string) error {
	var round, board string
	if _, err := parse(args, func(fs *flag.FlagSet) { fs.StringVar(&round, "round", "", ""); fs.StringVar(&board, "board", "", "") }); err != nil {
		return err
	}
	if board != "" {
		id, err := c.boardID(board)
		if err != nil {
			return err
		}
		board = id
	}
	if round != "" {
		r, err := c.round(round)
		if err != nil {
			return err
		}
		round = r.GetRoundId()
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
	names, err := c.boardNames()
	if err != nil {
		return err
	}
	for {
		u, err := stream.Recv()
		if err != nil {
			return err
		}
		for _, b := range u.GetBoards() {
			fmt.Fprintf(c.out, "#%d %s ", u.GetSeq(), names.name(b.GetBoardId()))
			printState(c.out, b)
		}
	}
}

// roundName is a board's round as an arbiter names it: "Open 5".
func roundName(b *pb.Board) string {
	if b.GetTournamentName() == "" {
		return "-"
	}
	return fmt.Sprintf("%s %d", b.GetTournamentName(), b.GetRoundNumber())
}

// playerName is a player with title and rating: "GM Berzins, Arturs (2587)".
func playerName(p *pb.Player) string {
	s := p.GetName()
	if p.GetTitle() != "" {
		s = p.GetTitle() + " " + s
	}
	if p.GetRating() > 0 {
		s += fmt.Sprintf(" (%d)", p.GetRating())
	}
	return s
}
