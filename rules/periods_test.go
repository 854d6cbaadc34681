package rules_test

import (
	"testing"

	"github.com/chesshall/hallclock/rules"
)

type ReplacementMoveTest struct {
	ruleset rules.Ruleset
	tc      string
	think   int64 // how long the replacement move takes, ms
	want    int64 // White's time after it, ms
}

// White's second move is the last of period 1 and is ruled illegal after
// the period-2 time was added (at 3 s White has completed it with 2 s
// used). The replacement is still a move of period 1: it earns period 1's
// increment, delay or Bronstein return (FIDE 2023 Art. 6.3.1: "after each
// completed move of that period"; 2009 and 2005 Art. 6.2(a)), and the
// period-2 base is not added again.
var replacementMoveTests = []ReplacementMoveTest{
	{rules.FIDE2023, "2/3600+10:1800+30", 1000, 3600_000 - 2000 + 10_000 + 10_000 + 1800_000 - 1000 + 10_000},
	{rules.FIDE2018, "2/3600+30:1800+10", 1000, 3600_000 - 2000 + 30_000 + 30_000 + 1800_000 - 1000 + 30_000},
	{rules.FIDE2009, "2/3600+10:1800", 1000, 3600_000 - 2000 + 10_000 + 10_000 + 1800_000 - 1000 + 10_000},
	{rules.FIDE2005, "2/3600:1800+30", 1000, 3600_000 - 2000 + 1800_000 - 1000},
	// A simple delay of period 1: nine seconds cost no main time.
	{rules.FIDE2023, "2/3600d10:1800", 9000, 3600_000 + 1800_000},
	// A Bronstein delay of period 1: the 4 s used come back.
	{rules.FIDE2009, "2/3600b5:1800+30", 4000, 3600_000 + 1800_000},
}

func TestReplacementMoveEarnsItsPeriodsBonus(t *testing.T) {
	for _, test := range replacementMoveTests {
		cfg := config(test.ruleset, test.tc, defaults)
		s, ok := fold(t, cfg, []rules.Event{at(0, start), press(1000, rules.White), press(2000, rules.Black), press(3000, rules.White),
			by(3000, rules.KindIllegalMove, rules.White), press(3000+test.think, rules.White)})
		if !ok {
			continue
		}
		w := s.P[rules.White]
		if w.MainMs != test.want || w.Moves != 2 || w.Period != 1 {
			t.Errorf("%s %s: after the replacement move White has %d ms, %d moves, period %d; want %d ms, 2 moves, period 2",
				test.ruleset, test.tc, w.MainMs, w.Moves, w.Period+1, test.want)
		}
	}
}
