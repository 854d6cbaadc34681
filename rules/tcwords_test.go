package rules

import (
	"strings"
	"testing"
)

// The time control in words, as the API and hallctl answer an arbiter who
// set one (FIDE 2023 Art. 6.2: the periods, moves and increments set in
// advance; Appendix A.1 / B.1: the game type).
var describeTests = []struct {
	ruleset Ruleset
	tc      string
	want    string
}{
	{FIDE2023, "40/90m+30s:30m+30s", "90 min for 40 moves, then 30 min, +30 s per move from move 1; standard"},
	{FIDE2023, "40/5400+30:1800+30", "90 min for 40 moves, then 30 min, +30 s per move from move 1; standard"},
	{FIDE2023, "3m+2s", "3 min for the game, +2 s per move from move 1; blitz"},
	{FIDE2023, "180+2", "3 min for the game, +2 s per move from move 1; blitz"},
	{FIDE2023, "90+30", "1 min 30 s for the game, +30 s per move from move 1; rapid"}, // bare is seconds: say so
	{FIDE2023, "G/15", "15 min for the game; rapid"},
	{FIDE2023, "G/60;d5", "60 min for the game, 5 s delay per move from move 1; standard"},
	{FIDE2023, "300b3", "5 min for the game, 3 s Bronstein delay per move from move 1; blitz"},
	{FIDE2023, "40/7200:20/3600:900+30", "120 min for 40 moves, then 60 min for 20 moves, then 15 min, +30 s per move from move 61; standard"},
	{FIDE2023, "40/5400d5:1800b3", "90 min for 40 moves with 5 s delay per move, then 30 min with 3 s Bronstein delay per move; standard"},
	{FIDE2023, "40/5400+30:0+30", "90 min for 40 moves, then no more time, +30 s per move from move 1; standard"},
	{FIDE2023, "*60", "hourglass, 1 min each; blitz"},
	{FIDE2023, "30s+2s", "30 s for the game, +2 s per move from move 1; blitz"},
	{FIDE2023, "1/1m:1m", "1 min for 1 move, then 1 min; blitz"},
	{FIDE2009, "840+1", "14 min for the game, +1 s per move from move 1; rapid"}, // 2009 A1: 15 min with 60 increments
	{FIDE2005, "3600", "60 min for the game; rapid"},                             // 2005 B1: 60 minutes is rapid
	{FIDE2018, "40/120m, SD/30;d5", "120 min for 40 moves, then 30 min, 5 s delay per move from move 41; standard"},
}

func TestDescribe(t *testing.T) {
	for _, test := range describeTests {
		t.Run(string(test.ruleset)+" "+test.tc, func(t *testing.T) {
			tc, err := ParseTimeControl(test.tc)
			if err != nil {
				t.Errorf("ParseTimeControl(%q) error: %v", test.tc, err)
				return
			}
			got, err := tc.Describe(test.ruleset)
			if err != nil || got != test.want {
				t.Errorf("ParseTimeControl(%q).Describe(%s) = %q, %v, want %q", test.tc, test.ruleset, got, err, test.want)
			}
			if w := tc.Words(); !strings.HasPrefix(test.want, w+"; ") {
				t.Errorf("ParseTimeControl(%q).Words() = %q, want the words of %q", test.tc, w, test.want)
			}
		})
	}
	if w := (TimeControl{}).Words(); w != "no time control" {
		t.Errorf("TimeControl{}.Words() = %q", w)
	}
}

// WithUnits writes every time with its unit (rules.md §1; never a bare
// number an arbiter could misread).
var withUnitsTests = []struct{ tc, want string }{
	{"5400+30", "90m+30s"},
	{"40/5400+30:1800+30", "40/90m+30s:30m+30s"},
	{"180+2", "3m+2s"},
	{"90+30", "90s+30s"},
	{"5400d5", "90m;d5s"},
	{"300b3", "5m;b3s"},
	{"*60", "*1m"},
	{"40/5400+30:0+30", "40/90m+30s:0+30s"},
}

func TestWithUnits(t *testing.T) {
	for _, test := range withUnitsTests {
		t.Run(test.tc, func(t *testing.T) {
			tc, err := ParseTimeControl(test.tc)
			if err != nil {
				t.Errorf("ParseTimeControl(%q) error: %v", test.tc, err)
				return
			}
			if got := tc.WithUnits(); got != test.want {
				t.Errorf("ParseTimeControl(%q).WithUnits() = %q, want %q", test.tc, got, test.want)
			}
		})
	}
}
