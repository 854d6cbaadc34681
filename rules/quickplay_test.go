package rules_test

import (
	"testing"

	"github.com/chesshall/hallclock/rules"
)

type QuickplayScopeTest struct {
	ruleset rules.Ruleset
	tc      string
	rule    string // the article of the refusal, "" when the claim is heard
}

// Which time controls have a quickplay finish, for a claim in the last
// period with under two minutes left. 2009 and 2005 Art. 10.1 define it
// as the phase in which all remaining moves must be made in a limited
// time: the last period decides. 2023 and 2018 Guidelines III.2.2 apply
// only to "games without increment" — and III.3.1 to every period of such
// games —, so an increment or delay in any period excludes the game.
var quickplayScopeTests = []QuickplayScopeTest{
	{rules.FIDE2009, "2/3600+30:1800", ""},
	{rules.FIDE2009, "2/3600d10:1800", ""},
	{rules.FIDE2005, "2/3600b5:1800", ""},
	{rules.FIDE2005, "2/3600:1800", ""},
	{rules.FIDE2009, "2/3600:1800+30", "FIDE 2009 Art. 10.1"},
	{rules.FIDE2005, "2/3600:1800d5", "FIDE 2005 Art. 10.1"},
	{rules.FIDE2009, "*5400", "FIDE 2009 Art. 10.1"},
	{rules.FIDE2023, "2/3600:1800", ""},
	{rules.FIDE2023, "2/3600+30:1800", "FIDE 2023 Guidelines III.2.2"},
	{rules.FIDE2018, "2/3600d5:1800", "FIDE 2018 Guidelines III.2.2"},
	{rules.FIDE2018, "2/3600:1800+30", "FIDE 2018 Guidelines III.2.2"},
}

func TestQuickplayScope(t *testing.T) {
	for _, test := range quickplayScopeTests {
		cfg := config(test.ruleset, test.tc, quickplay)
		// Both players complete the two moves of period 1, then White
		// thinks until 100 s are left; an hourglass has no periods to pass.
		history := []rules.Event{at(0, start), press(1000, rules.White), press(2000, rules.Black), press(3000, rules.White), press(4000, rules.Black)}
		if cfg.TimeControl.Hourglass {
			history = withTimes(100_000, 200_000)
		}
		s, ok := fold(t, cfg, history)
		if !ok {
			continue
		}
		s = s.Project(s.At + s.P[rules.White].MainMs - 100_000)
		_, err := rules.Apply(s, claim(s.At, rules.White, rules.DecisionDraw))
		switch r := rules.RefusalOf(err); {
		case test.rule == "" && err != nil:
			t.Errorf("%s %s: claim in the last period = %v, want it heard (10.2 / III.5)", test.ruleset, test.tc, err)
		case test.rule != "" && (r == nil || r.Rule != test.rule || r.Code != rules.RefusedNotApplicable):
			t.Errorf("%s %s: claim in the last period = %v, want refused under %s", test.ruleset, test.tc, err, test.rule)
		}
	}
}
