package standings

import (
	"strconv"
	"strings"
	"testing"
)

// build makes a tournament from lines "START RATING: ROUND ROUND ...",
// each round a token: "2w1" (opponent 2, White, won), "3b=" (drawn),
// "4w0" (lost), "5b+" / "5w-" (forfeit won / lost), "2w*" (pending),
// "+" (forfeit won against nobody), or a bye: "U" (pairing-allocated),
// "F" (full-point), "H" (half-point), "Z" (zero-point).
func build(t *testing.T, sc Scoring, rr bool, lines ...string) Tournament {
	t.Helper()
	tour := Tournament{Scoring: sc, RoundRobin: rr}
	for _, l := range lines {
		head, rest, _ := strings.Cut(l, ":")
		f := strings.Fields(head)
		start, _ := strconv.Atoi(f[0])
		p := Player{Start: start, Name: "P" + f[0]}
		if len(f) > 1 {
			p.Rating, _ = strconv.Atoi(f[1])
		}
		for _, tok := range strings.Fields(rest) {
			p.Rounds = append(p.Rounds, token(t, tok))
		}
		tour.Players = append(tour.Players, p)
	}
	return tour
}

func token(t *testing.T, tok string) Round {
	t.Helper()
	switch tok {
	case "U":
		return Round{Result: PairingBye}
	case "F":
		return Round{Result: FullBye}
	case "H":
		return Round{Result: HalfBye}
	case "Z":
		return Round{Result: ZeroBye}
	case "+":
		return Round{Result: ForfeitWin}
	}
	n := len(tok)
	opp, err := strconv.Atoi(tok[:n-2])
	if err != nil {
		t.Fatalf("token %q", tok)
	}
	rd := Round{Opponent: opp, Colour: White}
	if tok[n-2] == 'b' {
		rd.Colour = Black
	}
	rd.Result = map[byte]Result{'1': Win, '=': Draw, '0': Loss, '+': ForfeitWin, '-': ForfeitLoss, '*': Pending}[tok[n-1]]
	return rd
}

func mustCompute(t *testing.T, tour Tournament, after int, list string) *Table {
	t.Helper()
	tbs, err := Parse(list)
	if err != nil {
		t.Fatal(err)
	}
	tab, err := Compute(tour, after, tbs)
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

// get returns the value of a tie-break ("PTS", "BH-C1") of a player.
func get(t *testing.T, tab *Table, start int, name string) string {
	t.Helper()
	for k, r := range tab.Rows {
		if r.Start == start {
			v, ok := tab.Value(k, name)
			if !ok {
				t.Fatalf("no %s in the table", name)
			}
			return v.String()
		}
	}
	t.Fatalf("no player %d", start)
	return ""
}

func order(tab *Table) string {
	var s []string
	for _, r := range tab.Rows {
		s = append(s, strconv.Itoa(r.Rank)+":"+strconv.Itoa(r.Start))
	}
	return strings.Join(s, " ")
}
