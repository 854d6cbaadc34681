package hallref

import (
	"errors"
	"strings"
	"testing"
)

var (
	tournaments = []Tournament{{ID: "t-section", Name: "Section Test"}, {ID: "t-blitz", Name: "Blitz"}, {ID: "t-empty", Name: "Open 2025.x"}}
	rounds      = []Round{
		{ID: "r-st1", TournamentID: "t-section", Tournament: "Section Test", Number: 1},
		{ID: "r-st2", TournamentID: "t-section", Tournament: "Section Test", Number: 2},
		{ID: "r-bl1", TournamentID: "t-blitz", Tournament: "Blitz", Number: 1},
	}
	boards = []Board{
		{ID: "b-st1-1", RoundID: "r-st1", Number: 1}, {ID: "b-st1-2", RoundID: "r-st1", Number: 2},
		{ID: "b-st1-a3", RoundID: "r-st1", Section: "A", Number: 3},
		{ID: "b-st2-5", RoundID: "r-st2", Number: 5},
		{ID: "b-bl1-1", RoundID: "r-bl1", Number: 1},
	}
)

// outcome is a lookup's answer: the id found, or what the error says.
func outcome(id string, err error) string {
	var nf *NotFoundError
	var amb *AmbiguousError
	switch {
	case errors.As(err, &amb):
		return "ambiguous: " + strings.Join(amb.Candidates, ", ")
	case errors.As(err, &nf):
		return "not found: " + nf.Hint
	case err != nil:
		return "error: " + err.Error()
	}
	return id
}

func TestFindTournament(t *testing.T) {
	for _, c := range []struct{ ref, want string }{
		{"t-blitz", "t-blitz"},
		{"section test", "t-section"},
		{"  SECTION TEST ", "t-section"},
		{"t-sec", "t-section"}, // the start of an id
		{"t-", `not found: there are "Blitz", "Open 2025.x", "Section Test"`},
		{"Rapid", `not found: there are "Blitz", "Open 2025.x", "Section Test"`},
	} {
		t.Run(c.ref, func(t *testing.T) {
			got, err := FindTournament(c.ref, tournaments)
			if o := outcome(got.ID, err); o != c.want {
				t.Errorf("FindTournament(%q) = %s, want %s", c.ref, o, c.want)
			}
		})
	}
	// Tournaments that share a name (kept from before names were unique)
	// are named with their ids.
	two := []Tournament{{ID: "t-1", Name: "Open"}, {ID: "t-2", Name: "open"}}
	if _, err := FindTournament("Open", two); outcome("", err) != `ambiguous: "Open" (id t-1), "open" (id t-2)` {
		t.Errorf("two Opens: %v", err)
	}
}

func TestFindRound(t *testing.T) {
	for _, c := range []struct{ ref, want string }{
		{"r-bl1", "r-bl1"},
		{"Section Test:1", "r-st1"},
		{"section test: 2", "r-st2"},
		{"2", "r-st2"},
		{"1", "ambiguous: Blitz:1, Section Test:1"},
		{"Blitz:3", "not found: Blitz has rounds 1"},
		{"Open 2025.x:1", "not found: Open 2025.x has no round yet"},
		{"Rapid:1", `not found: there are "Blitz", "Open 2025.x", "Section Test"`},
		{"r-st", "ambiguous: Section Test:1, Section Test:2"},
		{"9", `not found: name one as 5, "Open:5" or by its id; hallctl rounds lists them`},
		{":1", `not found: name one as 5, "Open:5" or by its id; hallctl rounds lists them`},
	} {
		t.Run(c.ref, func(t *testing.T) {
			got, err := FindRound(c.ref, tournaments, rounds)
			if o := outcome(got.ID, err); o != c.want {
				t.Errorf("FindRound(%q) = %s, want %s", c.ref, o, c.want)
			}
		})
	}
}

func TestFindBoard(t *testing.T) {
	for _, c := range []struct{ ref, want string }{
		{"b-st1-2", "b-st1-2"},
		{"b-st2", "b-st2-5"},
		{"1.1", "ambiguous: Blitz:1.1, Section Test:1.1"},
		{"1.2", "b-st1-2"}, // only Section Test's round 1 has a board 2
		{"Section Test:1.1", "b-st1-1"},
		{"Blitz:1.1", "b-bl1-1"},
		{"Section Test:1.A3", "b-st1-a3"},
		{"1.a3", "b-st1-a3"},
		{"5", "b-st2-5"},
		{"1", "ambiguous: Blitz:1.1, Section Test:1.1"},
		{"2.1", "not found: round Section Test:2 has no board 1"},
		{"7.1", `not found: name one as 5, "Open:5" or by its id; hallctl rounds lists them`},
		{"A3", `not found: name one as 5.12 (round 5, board 12), "Open:5.12", 5.A3 (section A) or by its id; hallctl boards lists them`},
		{"1.4", `not found: name one as 5.12 (round 5, board 12), "Open:5.12", 5.A3 (section A) or by its id; hallctl boards lists them`},
	} {
		t.Run(c.ref, func(t *testing.T) {
			got, err := FindBoard(c.ref, tournaments, rounds, boards)
			if o := outcome(got.ID, err); o != c.want {
				t.Errorf("FindBoard(%q) = %s, want %s", c.ref, o, c.want)
			}
		})
	}
}

func TestSplitBoard(t *testing.T) {
	for _, c := range []struct {
		ref, round, section string
		number              int
		ok                  bool
	}{
		{"5.12", "5", "", 12, true},
		{"Open:5.A3", "Open:5", "A", 3, true},
		{"Open 2025.x:5.12", "Open 2025.x:5", "", 12, true},
		{"12", "", "", 12, true},
		{"b-1f3a", "", "", 0, false},
		{"5.", "", "", 0, false},
		{"x.12", "", "", 0, false},
	} {
		t.Run(c.ref, func(t *testing.T) {
			r, s, n, ok := SplitBoard(c.ref)
			if r != c.round || s != c.section || n != c.number || ok != c.ok {
				t.Errorf("SplitBoard(%q) = %q, %q, %d, %v; want %q, %q, %d, %v", c.ref, r, s, n, ok, c.round, c.section, c.number, c.ok)
			}
		})
	}
}
