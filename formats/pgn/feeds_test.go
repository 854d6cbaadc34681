package pgn

import (
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/chesshall/hallclock/internal/testkit/pgncheck"
	"github.com/chesshall/hallclock/rules"
)

// usedCases are the shared cases of testdata/used.json: the time a move
// took, as [%emt] writes it here and as the dashboard's "used" does
// (server/dashboard tests the page's side on the same file).
func usedCases(t *testing.T) []struct {
	Ms   int64  `json:"ms"`
	Emt  string `json:"emt"`
	Used string `json:"used"`
} {
	t.Helper()
	b, err := os.ReadFile("testdata/used.json")
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Cases []struct {
			Ms   int64  `json:"ms"`
			Emt  string `json:"emt"`
			Used string `json:"used"`
		} `json:"cases"`
	}
	if err := json.Unmarshal(b, &f); err != nil || len(f.Cases) == 0 {
		t.Fatalf("testdata/used.json: %v", err)
	}
	return f.Cases
}

// seconds reads h:mm:ss or m:ss.
func seconds(s string) int64 {
	var n int64
	for _, p := range strings.Split(s, ":") {
		v, _ := strconv.ParseInt(p, 10, 64)
		n = n*60 + v
	}
	return n
}

// [%emt] cuts to whole seconds, as the page's "used" does: the two name
// the same second for every case.
func TestEmtAndUsedAgree(t *testing.T) {
	for _, c := range usedCases(t) {
		if got := clockTime(c.Ms); got != c.Emt {
			t.Errorf("clockTime(%d) = %q, want %q", c.Ms, got, c.Emt)
		}
		if seconds(c.Emt) != c.Ms/1000 || seconds(c.Used) != c.Ms/1000 {
			t.Errorf("case %d ms: emt %q and used %q do not both say %d s", c.Ms, c.Emt, c.Used, c.Ms/1000)
		}
	}
}

// A game on a clock without an e-board: no move is known, yet each press
// carries its clock and the time it took, as a comment (PGN's movetext
// holds legal moves only), which pgn-extract reads without complaint.
func TestPressesWithoutAnEBoard(t *testing.T) {
	var l log
	l.add(0, rules.Event{Kind: rules.KindStart}).
		add(5000, press(rules.White, "")).  // 180 - 5 + 2 = 177 s: 0:02:57, took 0:00:05
		add(12500, press(rules.Black, "")). // 180 - 7.5 + 2 = 174.5: 0:02:54, took 0:00:07
		add(15000, press(rules.White, "")). // 177 - 2.5 + 2 = 176.5: 0:02:56, took 0:00:02
		add(20000, rules.Event{Kind: rules.KindResult, Result: rules.Draw, Termination: rules.TermAgreement})
	g := Game{Event: "Blitz", Round: 1, Board: 3, White: berzins, Black: schroder, Config: config(t, "180+2"), Log: l}
	out := string(write(t, Options{}, g))
	flat := strings.Join(strings.Fields(out), " ")
	for _, want := range []string{
		"{White, move 1: [%clk 0:02:57] [%emt 0:00:05]}",
		"{Black, move 1: [%clk 0:02:54] [%emt 0:00:07]}",
		"{White, move 2: [%clk 0:02:56] [%emt 0:00:02]}",
		"{Draw agreed} 1/2-1/2",
	} {
		if !strings.Contains(flat, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	if gs := pgncheck.Read(t, []byte(out)); len(gs) != 1 || len(gs[0].Moves) != 0 || gs[0].Tags["Result"] != "1/2-1/2" {
		t.Errorf("pgn-extract read %+v", gs)
	}
	if strings.Contains(string(write(t, Options{NoClocks: true}, g)), "%clk") {
		t.Errorf("NoClocks still writes the presses' clocks")
	}
	// With an e-board, presses are moves, not comments.
	var e log
	e.add(0, rules.Event{Kind: rules.KindStart}).add(5000, press(rules.White, "e4"))
	g.Log = e
	if out := string(write(t, Options{}, g)); strings.Contains(out, "move 1:") || !strings.Contains(out, "1. e4 {[%clk 0:02:57] [%emt 0:00:05]}") {
		t.Errorf("an e-board game:\n%s", out)
	}
}

// Board 1 of two sections of one round: their Round tags differ in the
// RoundAndBoard form ("1.1", "1.2": the game's place in the round), their
// Board tags say each board's number in its section, and pgn-extract
// reads them.
func TestRoundTagAcrossSections(t *testing.T) {
	var l log
	l.add(0, rules.Event{Kind: rules.KindStart})
	a := Game{Event: "Open (A)", Round: 1, Board: 1, Place: 1, White: berzins, Black: schroder, Config: config(t, "180+2"), Log: l}
	b := a
	b.Event, b.Place = "Open (B)", 2
	out := write(t, Options{Round: RoundAndBoard}, a, b)
	gs := pgncheck.Read(t, out)
	if len(gs) != 2 || gs[0].Tags["Round"] != "1.1" || gs[1].Tags["Round"] != "1.2" || gs[0].Tags["Board"] != "1" || gs[1].Tags["Board"] != "1" {
		t.Errorf("pgn-extract read %+v of\n%s", gs, out)
	}
	b.Place = 0 // no place: the board's number, as before
	if out := string(write(t, Options{Round: RoundAndBoard}, b)); !strings.Contains(out, `[Round "1.1"]`) {
		t.Errorf("a game without a place:\n%s", out)
	}
	if out := string(write(t, Options{}, b)); !strings.Contains(out, `[Round "1"]`) {
		t.Errorf("the archive's Round tag:\n%s", out)
	}
}
