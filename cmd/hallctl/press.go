package main

import (
	"flag"
	"fmt"

	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// press records a press on a board's virtual clock, as the dashboard's
// Press button does: the arbiter presses for the side that completed its
// move (by default the side to move). A board with a clock device is
// pressed by its players, not from here.
func (c *cli) press(args []string) error {
	var san, fen string
	pos, f, err := actionArgs(args, -1, "press BOARD [SIDE]", func(fs *flag.FlagSet) {
		fs.StringVar(&san, "san", "", "the move, in SAN, for the record (e.g. Nf3)")
		fs.StringVar(&fen, "fen", "", "the position after the move (FEN)")
	})
	if err != nil {
		return err
	}
	if len(pos) < 1 || len(pos) > 2 {
		return fmt.Errorf("%w: press BOARD [SIDE] (SIDE: white or black; default: the side to move)", errUsage)
	}
	b, err := c.arb.GetBoard(c.ctx, &pb.GetBoardRequest{BoardId: pos[0]})
	if err != nil {
		return err
	}
	if b.GetState().GetSource() != pb.ClockSource_CLOCK_SOURCE_VIRTUAL {
		return fmt.Errorf("board %s is not on a virtual clock: its players press their clock; move it to one first (hallctl virtual %s)", pos[0], pos[0])
	}
	s := b.GetState().GetToMove()
	if len(pos) == 2 {
		if s, err = side(pos[1]); err != nil {
			return err
		}
	}
	return c.act(b.GetBoardId(), &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_PRESS, Side: s, San: san, Fen: fen}, f)
}
