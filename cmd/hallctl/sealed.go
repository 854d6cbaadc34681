package main

import (
	"flag"
	"fmt"
	"strings"

	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// sealedMoveCommands are the arbiter's rulings on the sealed move of an
// adjourned game: found illegal at the resumption (Guidelines I.8), the
// move that ended the game (I.10), or lost with its envelope (I.12).
var sealedMoveCommands = map[string]func(c *cli, args []string) error{
	"sealed-illegal": (*cli).sealedIllegal,
	"sealed-ends":    (*cli).sealedEnds,
	"envelope-lost":  (*cli).envelopeLost,
}

// sealedIllegal rules the sealed move illegal: an illegal move by the
// player who sealed it, which the rules turn into the loss of the game.
// The sealer is read from the board, so the arbiter names only the board.
func (c *cli) sealedIllegal(args []string) error {
	pos, f, err := actionArgs(args, 1, "sealed-illegal BOARD")
	if err != nil {
		return err
	}
	id, err := c.boardID(pos[0])
	if err != nil {
		return err
	}
	b, err := c.arb.GetBoard(c.ctx, &pb.GetBoardRequest{BoardId: id})
	if err != nil {
		return err
	}
	sealer := b.GetState().GetSealer()
	if sealer == pb.Side_SIDE_UNSPECIFIED {
		return fmt.Errorf("board %s has no sealed move to rule on: it is made when the game resumes and stands once answered", pos[0])
	}
	return c.act(pos[0], &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_ILLEGAL_MOVE, Side: sealer}, f)
}

// sealedEnds records that the sealed move ended the game with RESULT: the
// sealer's checkmate, or a draw (stalemate, a dead position).
func (c *cli) sealedEnds(args []string) error {
	pos, f, err := actionArgs(args, 2, "sealed-ends BOARD RESULT (1-0, 0-1 or 1/2-1/2)")
	if err != nil {
		return err
	}
	return c.act(pos[0], &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_SEALED_MOVE_ENDS, Result: resultArg(pos[1])}, f)
}

// envelopeLost resumes an adjourned game whose envelope is lost: the
// sealer's clock runs and he makes the move he says he sealed.
func (c *cli) envelopeLost(args []string) error {
	var absent string
	pos, f, err := actionArgs(args, 1, "envelope-lost BOARD [-absent white|black|both]", func(fs *flag.FlagSet) {
		fs.StringVar(&absent, "absent", "", "white, black or both")
	})
	if err != nil {
		return err
	}
	a := &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_ENVELOPE_LOST}
	a.AbsentWhite = strings.Contains(absent, "white") || absent == "both"
	a.AbsentBlack = strings.Contains(absent, "black") || absent == "both"
	return c.act(pos[0], a, f)
}
