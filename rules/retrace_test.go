package rules_test

import (
	"testing"

	"github.com/chesshall/hallclock/rules"
)

// A retrace names a side that exists (FIDE 2018 Appendix D.2.9), and a
// position that is one; a refused retrace changes nothing.
func TestRetraceRefusesWhatIsNoSideOrPosition(t *testing.T) {
	tc, err := rules.ParseTimeControl("5400+30")
	if err != nil {
		t.Fatal(err)
	}
	st, err := rules.Fold(rules.Config{Ruleset: rules.FIDE2018, TimeControl: tc}, []rules.Event{
		{Kind: rules.KindStart}, {Kind: rules.KindPress, T: 1000, Side: rules.White}, {Kind: rules.KindPause, T: 2000},
	})
	if err != nil {
		t.Fatal(err)
	}
	nobody, white := rules.Side(5), rules.White
	for name, e := range map[string]rules.Event{
		"side 5":    {Kind: rules.KindSetClock, T: 2000, WhiteMs: 1, BlackMs: 1, ToMove: &nobody},
		"bad FEN":   {Kind: rules.KindSetClock, T: 2000, WhiteMs: 1, BlackMs: 1, ToMove: &white, FEN: "not a position"},
		"time left": {Kind: rules.KindSetClock, T: 2000, WhiteMs: -1, BlackMs: 1, ToMove: &white},
	} {
		got, err := rules.Apply(st, e)
		if err == nil {
			t.Errorf("%s: accepted, want refused", name)
		}
		if got.ToMove != rules.Black || got.P[rules.White].MainMs == 1 {
			t.Errorf("%s: the refused retrace changed the board: %s to move, white %d ms", name, got.ToMove, got.P[rules.White].MainMs)
		}
	}
	got, err := rules.Apply(st, rules.Event{Kind: rules.KindSetClock, T: 2000, WhiteMs: 5_400_000, BlackMs: 5_400_000, ToMove: &white})
	if err != nil || got.ToMove != rules.White || got.HasLastMover {
		t.Errorf("retrace to White: %v, %s to move, last mover open %t; want White to move, nothing to rule", err, got.ToMove, got.HasLastMover)
	}
	if s := (rules.Event{Kind: rules.KindSetClock, WhiteMs: 1, BlackMs: 2, ToMove: &white}).String(); s != "set_clock@0 white=1ms black=2ms white to move" {
		t.Errorf("String() = %q", s)
	}
}
