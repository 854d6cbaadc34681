package standings

import (
	"errors"
	"strings"
	"testing"
)

// A round robin of four teams on two boards, worked by hand.
//
//	R1: A-B 1½-½, C-D 1-1; R2: A-C 1-1, B-D 2-0; R3: A-D ½-1½, B-C 1½-½
//	match points (2-1-0): A 3, B 4, C 2, D 3; game points: A 3, B 4, C 2½, D 2½
func teams4() TeamTournament {
	m := func(opp int, c Colour, gp Points, r Result) Match {
		return Match{Opponent: opp, Colour: c, GamePoints: gp, Result: r}
	}
	return TeamTournament{Boards: 2, RoundRobin: true, Teams: []Team{
		{Start: 1, Name: "A", Rounds: []Match{m(2, White, 150, Win), m(3, White, 100, Draw), m(4, White, 50, Loss)}},
		{Start: 2, Name: "B", Rounds: []Match{m(1, Black, 50, Loss), m(4, White, 200, Win), m(3, White, 150, Win)}},
		{Start: 3, Name: "C", Rounds: []Match{m(4, White, 100, Draw), m(1, Black, 100, Draw), m(2, Black, 50, Loss)}},
		{Start: 4, Name: "D", Rounds: []Match{m(3, Black, 100, Draw), m(2, Black, 0, Loss), m(1, Black, 150, Win)}},
	}}
}

func teamTable(t *testing.T, tt TeamTournament, list string) *Table {
	t.Helper()
	tbs, err := Parse(list)
	if err != nil {
		t.Fatal(err)
	}
	tab, err := ComputeTeams(tt, 0, tbs)
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

func TestTeamEvent(t *testing.T) {
	tab := teamTable(t, teams4(), "GPTS,BH,SB,BH:GP,SB:GP,EMGSB,EGMSB,WIN")
	for _, c := range []struct {
		start    int
		tb, want string
		why      string
	}{
		{2, "PTS", "4", "match points rank first, 2-1-0"},
		{1, "GPTS", "3", "team events: game points, the secondary score"},
		{4, "GPTS", "2.5", "team events"},
		{1, "BH", "9", "art. 8.1 on match points: 4 + 2 + 3"},
		{1, "SB", "10", "art. 9.1 on match points: opponents' match points × match points scored: 4×2 + 2×1 + 3×0"},
		{4, "SB", "8", "art. 9.1: 2×1 + 4×0 + 3×2"},
		{1, "SB:GP", "9.75", "art. 9.1 on game points: 4×1.5 + 2.5×1 + 2.5×0.5"},
		{1, "EMGSB", "9.5", "extended SB: opponents' match points × game points scored: 4×1.5 + 2×1 + 3×0.5"},
		{4, "EMGSB", "6.5", "2×1 + 4×0 + 3×1.5"},
		{1, "EGMSB", "10.5", "extended SB: opponents' game points × match points scored: 4×2 + 2.5×1 + 2.5×0"},
		{1, "BH:GP", "9", "art. 8.1 on game points: 4 + 2.5 + 2.5"},
		{2, "WIN", "2", "art. 7.1: matches won"},
	} {
		if got := get(t, tab, c.start, c.tb); got != c.want {
			t.Errorf("team %d %s = %s, want %s (%s)", c.start, c.tb, got, c.want, c.why)
		}
	}
	// A and D tie on 3 match points; A has more game points.
	if got := order(tab); got != "1:2 2:1 3:4 4:3" {
		t.Errorf("order %s", got)
	}
	// DE first: D beat A.
	if got := order(teamTable(t, teams4(), "DE,GPTS")); got != "1:2 2:4 3:1 4:3" {
		t.Errorf("DE order %s", got)
	}
	// Ranked by game points, match points break the tie of C and D.
	tt := teams4()
	tt.Primary = "GP"
	tab = teamTable(t, tt, "MPTS")
	if got := order(tab); got != "1:2 2:1 3:4 4:3" {
		t.Errorf("GP order %s", got)
	}
	if got := get(t, tab, 3, "PTS"); got != "2.5" {
		t.Errorf("GP primary: C has %s, want 2.5", got)
	}
}

func TestTeamErrors(t *testing.T) {
	tt := teams4()
	tt.Teams[0].Rounds[0].Result = Draw // 1½-½ is no draw
	var ie *InputError
	if _, err := ComputeTeams(tt, 0, nil); !errors.As(err, &ie) || ie.Player != 1 || ie.Round != 1 {
		t.Errorf("a result the game points contradict: %v", err)
	}
	tt = teams4()
	tt.Boards = 0
	if _, err := ComputeTeams(tt, 0, nil); err == nil {
		t.Error("no boards: want an error")
	}
	tbs, _ := Parse("BH:GP")
	if _, err := Compute(Tournament{Players: []Player{{Start: 1}}}, 0, tbs); err == nil {
		t.Error("BH:GP in an individual tournament: want an error")
	}
	for _, in := range []string{"BH:XP", "MPTS:GP", "EMGSB:MP"} {
		if _, err := Parse(in); err == nil {
			t.Errorf("Parse(%q): want an error", in)
		}
	}
}

// Every error of rounds that do not fit together is of kind
// ErrInconsistent, every refused list of kind ErrTieBreakList, so that a
// caller answers each precisely; each says what is allowed.
func TestErrorKinds(t *testing.T) {
	dup := build(t, Classic, false, "1: 2w1", "2: 1b0", "2: Z")
	one := build(t, Classic, false, "1: 2w1", "2: 3b0", "3: Z")
	tt := teams4()
	tt.Boards = 0
	tbs, _ := Parse("BH:GP")
	_, dupErr := Compute(dup, 0, nil)
	_, oneErr := Compute(one, 0, nil)
	_, teamErr := ComputeTeams(tt, 0, nil)
	_, listErr := Compute(one, 0, tbs)
	_, parseErr := Parse("BH,BUCHHOLZ")
	_, ptsErr := PointsOf(0.333)
	for _, c := range []struct {
		err  error
		kind error
		says string
	}{
		{dupErr, ErrInconsistent, "each player needs a start number of his own"},
		{oneErr, ErrInconsistent, "the two players of a game name each other"},
		{teamErr, ErrInconsistent, "want 1 or more"},
		{ptsErr, ErrInconsistent, "at most two decimals"},
		{listErr, ErrTieBreakList, "want one of individuals (no :MP or :GP"},
		{parseErr, ErrTieBreakList, "want one of"},
	} {
		if !errors.Is(c.err, c.kind) || c.err == nil || !strings.Contains(c.err.Error(), c.says) {
			t.Errorf("%v: want of kind %v, saying %q", c.err, c.kind, c.says)
		}
	}
}

// A team event with no list of its own ranks by the other score first,
// then by FIDE's recommended list for its kind.
func TestTeamDefaults(t *testing.T) {
	for _, c := range []struct {
		rr      bool
		primary string
		want    string
	}{
		{false, "", "GPTS,BH-C1,BH,DE"},
		{false, "MP", "GPTS,BH-C1,BH,DE"},
		{true, "", "GPTS,DE,WIN,SB,KS"},
		{false, "GP", "MPTS,BH-C1,BH,DE"},
	} {
		if got := Format(TeamDefaults(c.rr, c.primary)); got != c.want {
			t.Errorf("round robin %v, primary %q: %s, want %s", c.rr, c.primary, got, c.want)
		}
	}
	if TeamDefaults(false, "")[1] != DefaultSwiss[0] || len(DefaultSwiss) != 3 {
		t.Errorf("TeamDefaults changed FIDE's Swiss list: %v", DefaultSwiss)
	}
}
