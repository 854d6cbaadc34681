package main

import (
	pb "github.com/chesshall/hallclock/proto/hall/v1"

	"github.com/chesshall/hallclock/internal/hallref"
)

// Tournaments, rounds and boards are named the way an arbiter sees them,
// in every command alike: a tournament by its name (any case) or id; a
// round as "5" (round 5 of the only tournament that has one), "Open:5"
// or its id (or the start of it); a board as "12" (board 12 of the only
// round that has one), "5.12", "Open:5.12", "5.A3" (section A) or its id
// (or the start of it). The server reads every name (package hallref), so
// that a name means the same to every command and to every other client;
// one that fits several is refused naming each.

// round finds a round by its name or id.
func (c *cli) round(ref string) (*pb.Round, error) {
	req := &pb.GetRoundRequest{RoundId: ref}
	if t, n, ok := hallref.SplitRound(ref); ok && t != "" {
		req = &pb.GetRoundRequest{Tournament: t, Number: int32(n)}
	}
	return c.arb.GetRound(c.ctx, req)
}

// boardID finds a board's id by its name or id.
func (c *cli) boardID(ref string) (string, error) {
	b, err := c.arb.GetBoard(c.ctx, &pb.GetBoardRequest{BoardId: ref})
	if err != nil {
		return "", err
	}
	return b.GetBoardId(), nil
}
