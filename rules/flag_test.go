package rules_test

import (
	"testing"

	"github.com/chesshall/hallclock/rules"
)

type ArbiterFlagTest struct {
	cfg  rules.Config
	rule string       // the article of the refusal, "" when the call is accepted
	want rules.Result // the result after the call
}

// Black's flag falls in a rapid game (900 s, White moved at 1 s) and the
// arbiter calls it at 905 s.
var arbiterFlagTests = []ArbiterFlagTest{
	// FIDE 2023 Appendix A.5.5, 2018 A.4.5: he shall call a flag fall he observes.
	{config(rules.FIDE2023, "900", insufficient), "", rules.WhiteWins},
	{config(rules.FIDE2018, "900", insufficient), "", rules.WhiteWins},
	{config(rules.FIDE2023, "300", insufficient), "", rules.WhiteWins}, // B.3: blitz as A.5
	// FIDE 2009 Appendix A4(d), 2005 B7: he refrains; only a claim counts.
	{config(rules.FIDE2009, "900", insufficient), "FIDE 2009 Appendix A4(d)", rules.NoResult},
	{config(rules.FIDE2009, "300", insufficient), "FIDE 2009 Appendix A4(d)", rules.NoResult}, // B3: blitz as A4
	{config(rules.FIDE2005, "900", defaults), "FIDE 2005 Appendix B7", rules.NoResult},        // 2005: B governs every rapid game
	{config(rules.FIDE2005, "300", defaults), "FIDE 2005 Appendix B7", rules.NoResult},        // C2: blitz as B
	// Adequate supervision (Art. 6.8, 6.9): the flag was observed when it
	// fell and ended the game; nothing is left to call.
	{config(rules.FIDE2023, "900", defaults), "FIDE 2023 Art. 5", rules.WhiteWins},
	{config(rules.FIDE2009, "900", defaults), "FIDE 2009 Art. 5", rules.WhiteWins},
}

func TestArbiterFlag(t *testing.T) {
	for _, test := range arbiterFlagTests {
		s, ok := fold(t, test.cfg, []rules.Event{at(0, start), press(1000, rules.White)})
		if !ok {
			continue
		}
		n, err := rules.Apply(s, by(905_000, rules.KindArbiterFlag, rules.Black))
		if test.rule != "" {
			if r := rules.RefusalOf(err); r == nil || r.Rule != test.rule {
				t.Errorf("%s %v: arbiter calls Black's flag = %v, want refused under %s", test.cfg.Ruleset, test.cfg.TimeControl, err, test.rule)
			}
			n = s.Project(905_000)
		} else if err != nil {
			t.Errorf("%s %v: arbiter calls Black's flag = %v, want accepted", test.cfg.Ruleset, test.cfg.TimeControl, err)
		}
		if n.Result != test.want || (test.want != rules.NoResult && n.Termination != rules.TermTime) {
			t.Errorf("%s %v: after the arbiter calls Black's flag: %s %s, want %s", test.cfg.Ruleset, test.cfg.TimeControl, n.Result, n.Termination, test.want)
		}
	}
}
