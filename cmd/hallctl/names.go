package main

import (
	"github.com/chesshall/hallclock/internal/hallref"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// boardNames names boards as arbiters do, in the form every command reads
// back (hallref.BoardName): "5.12", "5.A3" in a section, and "Open:5.12"
// where more than one tournament has a round 5. A board the caller may
// not see keeps its id.
type boardNames struct {
	c      *cli
	names  map[string]string // board id → name
	looked map[string]bool   // ids not found, looked up again once
}

func (c *cli) boardNames() (*boardNames, error) {
	n := &boardNames{c: c, looked: map[string]bool{}}
	return n, n.load()
}

func (n *boardNames) load() error {
	rs, err := n.c.arb.ListRounds(n.c.ctx, &pb.ListRoundsRequest{})
	if err != nil {
		return err
	}
	var rounds []hallref.Round
	for _, r := range rs.GetRounds() {
		rounds = append(rounds, hallref.Round{ID: r.GetRoundId(), TournamentID: r.GetTournamentId(), Tournament: r.GetTournamentName(), Number: int(r.GetNumber())})
	}
	bs, err := n.c.arb.ListBoards(n.c.ctx, &pb.ListBoardsRequest{})
	if err != nil {
		return err
	}
	n.names = map[string]string{}
	for _, b := range bs.GetBoards() {
		n.names[b.GetBoardId()] = hallref.BoardName(hallref.Board{ID: b.GetBoardId(), RoundID: b.GetRoundId(), Section: b.GetSection(), Number: int(b.GetNumber())}, rounds)
	}
	return nil
}

// name returns a board's name; a board added since the names were read
// is looked up once.
func (n *boardNames) name(id string) string {
	if id == "" {
		return "-"
	}
	if s, ok := n.names[id]; ok {
		return s
	}
	if !n.looked[id] {
		n.looked[id] = true
		if n.load() == nil {
			if s, ok := n.names[id]; ok {
				return s
			}
		}
	}
	return id
}
