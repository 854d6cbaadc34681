package main

import (
	"fmt"
	"strconv"
	"strings"

	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// Rounds and boards are named the way an arbiter sees them: a round as
// "5" (round 5 of the only tournament that has one), "Open:5" (round 5
// of the tournament "Open") or its id (or the start of it); a board as
// "5.12" (board 12 of round 5), "Open:5.12", "Open:5.A12" (section A)
// or its id (or the start of it).

// round finds a round by reference.
func (c *cli) round(ref string) (*pb.Round, error) {
	rs, err := c.arb.ListRounds(c.ctx, &pb.ListRoundsRequest{})
	if err != nil {
		return nil, err
	}
	tournament, number, named := splitRoundRef(ref)
	var found []*pb.Round
	for _, r := range rs.GetRounds() {
		switch {
		case r.GetRoundId() == ref:
			return r, nil
		case named && r.GetNumber() == number && (tournament == "" || strings.EqualFold(r.GetTournamentName(), tournament) || r.GetTournamentId() == tournament):
			found = append(found, r)
		case !named && len(ref) >= 4 && strings.HasPrefix(r.GetRoundId(), ref):
			found = append(found, r)
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		return nil, fmt.Errorf("no round %q (hallctl rounds lists them; name one as 5, \"Open:5\" or by id)", ref)
	}
	var names []string
	for _, r := range found {
		names = append(names, fmt.Sprintf("%s:%d", r.GetTournamentName(), r.GetNumber()))
	}
	return nil, fmt.Errorf("round %q is ambiguous: %s", ref, strings.Join(names, ", "))
}

// splitRoundRef reads "5" or "Open:5".
func splitRoundRef(ref string) (tournament string, number int32, ok bool) {
	n := ref
	if i := strings.LastIndex(ref, ":"); i >= 0 {
		tournament, n = strings.TrimSpace(ref[:i]), ref[i+1:]
	}
	v, err := strconv.Atoi(strings.TrimSpace(n))
	if err != nil || v < 1 {
		return "", 0, false
	}
	return tournament, int32(v), true
}

// board finds a board id by reference.
func (c *cli) boardID(ref string) (string, error) {
	if i := strings.LastIndex(ref, "."); i > 0 {
		roundRef, rest := ref[:i], ref[i+1:]
		section := strings.TrimRight(rest, "0123456789")
		if n, err := strconv.Atoi(rest[len(section):]); err == nil && n > 0 {
			if r, err := c.round(roundRef); err == nil {
				bs, err := c.arb.ListBoards(c.ctx, &pb.ListBoardsRequest{RoundId: r.GetRoundId()})
				if err != nil {
					return "", err
				}
				for _, b := range bs.GetBoards() {
					if b.GetNumber() == int32(n) && strings.EqualFold(b.GetSection(), section) {
						return b.GetBoardId(), nil
					}
				}
				return "", fmt.Errorf("round %s:%d has no board %s%d", r.GetTournamentName(), r.GetNumber(), section, n)
			}
		}
	}
	if len(ref) < 4 || strings.Count(ref, "-") > 1 {
		return ref, nil // an id as given: the server says if it is unknown
	}
	bs, err := c.arb.ListBoards(c.ctx, &pb.ListBoardsRequest{})
	if err != nil {
		return "", err
	}
	var found []string
	for _, b := range bs.GetBoards() {
		if b.GetBoardId() == ref {
			return ref, nil
		}
		if strings.HasPrefix(b.GetBoardId(), ref) {
			found = append(found, b.GetBoardId())
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		return ref, nil
	}
	return "", fmt.Errorf("board %q is ambiguous: %s", ref, strings.Join(found, ", "))
}
