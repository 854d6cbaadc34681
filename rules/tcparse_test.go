package rules

import (
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// tcpPeriod builds a period from seconds.
func tcpPeriod(moves int, baseSec int64, kind BonusKind, bonusSec int64) Period {
	return Period{Moves: moves, BaseMs: baseSec * 1000, Bonus: kind, BonusMs: bonusSec * 1000}
}

// tcpSD builds a time control of one sudden-death period of baseSec seconds
// with an optional bonus.
func tcpSD(baseSec int64, kind BonusKind, bonusSec int64) TimeControl {
	return TimeControl{Periods: []Period{tcpPeriod(0, baseSec, kind, bonusSec)}}
}

// tcpOf builds a time control from periods.
func tcpOf(periods ...Period) TimeControl { return TimeControl{Periods: periods} }

type ParseTimeControlTest struct {
	in   string
	want TimeControl
}

var parseTimeControlTests = []ParseTimeControlTest{
	// PGN TimeControl tag, seconds (rules.md §1; FIDE 2023 Art. 6.2-6.3).
	{"300", tcpSD(300, NoBonus, 0)},         // sudden death, FIDE 2023 Art. 6.2.1
	{"60", tcpSD(60, NoBonus, 0)},           // a bare number is always seconds
	{"600", tcpSD(600, NoBonus, 0)},         // ten minutes, FIDE 2023 Appendix A.1 vector
	{"5400", tcpSD(5400, NoBonus, 0)},       // standard 90 min
	{"180+2", tcpSD(180, Increment, 2)},     // Fischer increment, FIDE 2023 Art. 6.3.1
	{"600+1", tcpSD(600, Increment, 1)},     // game-type.json category-fide-2023-600p1
	{"2940+1", tcpSD(2940, Increment, 1)},   // game-type.json category-fide-2023-2940p1
	{"900+10", tcpSD(900, Increment, 10)},   // game-type.json category-fide-2018-900p10
	{"5400+30", tcpSD(5400, Increment, 30)}, // game-type.json category-fide-2018-5400p30
	{"840+1", tcpSD(840, Increment, 1)},     // game-type.json category-fide-2009-840p1
	{"900+5", tcpSD(900, Increment, 5)},     // conformance vectors
	{"300+60", tcpSD(300, Increment, 60)},   // the PGN tag 5 min + 60 s: never 300 minutes
	{"90+30", tcpSD(90, Increment, 30)},     // bare is seconds, whatever the ratio: 90 s + 30 s
	{"300+3600", tcpSD(300, Increment, 3600)},
	{"60+1", tcpSD(60, Increment, 1)},                                                      // one minute is not ambiguous
	{"5400d5", tcpSD(5400, SimpleDelay, 5)},                                                // delay, FIDE 2023 Art. 6.3.2 (time-delay mode)
	{"300d5", tcpSD(300, SimpleDelay, 5)},                                                  // timing-modes.json simple-delay-main-time-waits
	{"60d5", tcpSD(60, SimpleDelay, 5)},                                                    // delay-flag.json
	{"300b3", tcpSD(300, Bronstein, 3)},                                                    // Bronstein delay, rules.md §1
	{"60b5", tcpSD(60, Bronstein, 5)},                                                      // delay-flag.json
	{"300+0", tcpSD(300, NoBonus, 0)},                                                      // a zero bonus is no bonus
	{"300d0", tcpSD(300, NoBonus, 0)},                                                      // a zero delay is no delay
	{"*60", TimeControl{Hourglass: true, Periods: []Period{tcpPeriod(0, 60, NoBonus, 0)}}}, // hourglass, rules.md §1
	{"*1m", TimeControl{Hourglass: true, Periods: []Period{tcpPeriod(0, 60, NoBonus, 0)}}}, // hourglass with a unit
	{"40/5400+30:1800+30", tcpOf(tcpPeriod(40, 5400, Increment, 30), tcpPeriod(0, 1800, Increment, 30))},                                  // FIDE standard, Art. 6.2 / 6.3.1
	{"40/7200:20/3600:900+30", tcpOf(tcpPeriod(40, 7200, NoBonus, 0), tcpPeriod(20, 3600, NoBonus, 0), tcpPeriod(0, 900, Increment, 30))}, // increment from move 61, rules.md §1
	{"40/7200:3600", tcpOf(tcpPeriod(40, 7200, NoBonus, 0), tcpPeriod(0, 3600, NoBonus, 0))},                                              // periods.json
	{"40/600:300", tcpOf(tcpPeriod(40, 600, NoBonus, 0), tcpPeriod(0, 300, NoBonus, 0))},                                                  // periods.json
	{"40/5400:1800", tcpOf(tcpPeriod(40, 5400, NoBonus, 0), tcpPeriod(0, 1800, NoBonus, 0))},                                              // periods.json
	{"40/5400d5:1800b5", tcpOf(tcpPeriod(40, 5400, SimpleDelay, 5), tcpPeriod(0, 1800, Bronstein, 5))},                                    // a bonus on any period
	{"40/5400+30:0+30", tcpOf(tcpPeriod(40, 5400, Increment, 30), tcpPeriod(0, 0, Increment, 30))},                                        // later period may add no time
	{" 40 / 5400 + 30 : 1800 + 30 ", tcpOf(tcpPeriod(40, 5400, Increment, 30), tcpPeriod(0, 1800, Increment, 30))},                        // blanks around separators
	{"5400D5", tcpSD(5400, SimpleDelay, 5)}, // letters are case-insensitive
	{"300B3", tcpSD(300, Bronstein, 3)},
	{"0300", tcpSD(300, NoBonus, 0)}, // leading zeros

	// Times with units: minutes "m", hours "h", seconds "s"; bonuses in seconds.
	{"3m+2s", tcpSD(180, Increment, 2)},     // blitz, FIDE 2023 Appendix B.1
	{"3m+2", tcpSD(180, Increment, 2)},      // a bonus is seconds with or without its unit
	{"90m+30s", tcpSD(5400, Increment, 30)}, // FIDE standard 90 min + 30 s
	{"15m+10s", tcpSD(900, Increment, 10)},  // rapid, FIDE 2023 Appendix A.1
	{"45m+45s", tcpSD(2700, Increment, 45)},
	{"120m+30s", tcpSD(7200, Increment, 30)},
	{"30m+0s", tcpSD(1800, NoBonus, 0)},
	{"5md3", tcpSD(300, SimpleDelay, 3)},
	{"5m;d3s", tcpSD(300, SimpleDelay, 3)},
	{"3 m + 2 s", tcpSD(180, Increment, 2)}, // blanks
	{"40/90m+30s:30m+30s", tcpOf(tcpPeriod(40, 5400, Increment, 30), tcpPeriod(0, 1800, Increment, 30))},
	{"40/90m+30s, 30m+30s", tcpOf(tcpPeriod(40, 5400, Increment, 30), tcpPeriod(0, 1800, Increment, 30))}, // ',' between periods
	{"40/120m, 20/60m, 30m", tcpOf(tcpPeriod(40, 7200, NoBonus, 0), tcpPeriod(20, 3600, NoBonus, 0), tcpPeriod(0, 1800, NoBonus, 0))},
	{"40/90m,30m", tcpOf(tcpPeriod(40, 5400, NoBonus, 0), tcpPeriod(0, 1800, NoBonus, 0))},
	{"40/2h, 20/1h, 15m+30s", tcpOf(tcpPeriod(40, 7200, NoBonus, 0), tcpPeriod(20, 3600, NoBonus, 0), tcpPeriod(0, 900, Increment, 30))},
	{"G/60;d5", tcpSD(3600, SimpleDelay, 5)}, // US style, game in 60 (minutes by convention) with 5 s delay
	{"G/60 d5", tcpSD(3600, SimpleDelay, 5)},
	{"g/60;D5", tcpSD(3600, SimpleDelay, 5)},
	{"G/90;+30", tcpSD(5400, Increment, 30)},
	{"G/90+30", tcpSD(5400, Increment, 30)},
	{"G/90+30s", tcpSD(5400, Increment, 30)},
	{"G/5;b3", tcpSD(300, Bronstein, 3)},
	{"G / 5 ; b 3", tcpSD(300, Bronstein, 3)},
	{"G/5", tcpSD(300, NoBonus, 0)}, // G/ is minutes even without bonus
	{"G/15", tcpSD(900, NoBonus, 0)},
	{"SD/30", tcpSD(1800, NoBonus, 0)},
	{"sd/30", tcpSD(1800, NoBonus, 0)},
	{"40/120m, SD/30;d5", tcpOf(tcpPeriod(40, 7200, NoBonus, 0), tcpPeriod(0, 1800, SimpleDelay, 5))},
	{"40/120m,G/60", tcpOf(tcpPeriod(40, 7200, NoBonus, 0), tcpPeriod(0, 3600, NoBonus, 0))},
	{"40/120m:SD/30", tcpOf(tcpPeriod(40, 7200, NoBonus, 0), tcpPeriod(0, 1800, NoBonus, 0))}, // ':' with units
	{"90m", tcpSD(5400, NoBonus, 0)},
	{"90min", tcpSD(5400, NoBonus, 0)},
	{"90 MIN", tcpSD(5400, NoBonus, 0)},
	{"1h", tcpSD(3600, NoBonus, 0)},
	{"1h30", tcpSD(5400, NoBonus, 0)},
	{"1h30m", tcpSD(5400, NoBonus, 0)},
	{"1h 30 min + 30 sec", tcpSD(5400, Increment, 30)},
	{"1h30+30s", tcpSD(5400, Increment, 30)},
	{"5400s", tcpSD(5400, NoBonus, 0)},
	{"5400sec", tcpSD(5400, NoBonus, 0)},
	{"45s", tcpSD(45, NoBonus, 0)}, // shorter than a minute, said in seconds
	{"60s+30", tcpSD(60, Increment, 30)},
	{"60 s + 30", tcpSD(60, Increment, 30)},
	{"30s+2", tcpSD(30, Increment, 2)},
	{"30s+2s", tcpSD(30, Increment, 2)},
	{"1h30d5", tcpSD(5400, SimpleDelay, 5)},
	{"60sd5", tcpSD(60, SimpleDelay, 5)},
	{"G/3600s", tcpSD(3600, NoBonus, 0)}, // a unit overrides G/ minutes
	{"40/5400s, 30m+30", tcpOf(tcpPeriod(40, 5400, NoBonus, 0), tcpPeriod(0, 1800, Increment, 30))},
	{"40/90m:1800s", tcpOf(tcpPeriod(40, 5400, NoBonus, 0), tcpPeriod(0, 1800, NoBonus, 0))},
	{"40/90m+30s:0+30s", tcpOf(tcpPeriod(40, 5400, Increment, 30), tcpPeriod(0, 0, Increment, 30))}, // 0 needs no unit
	{"40/60s+30:30s+30", tcpOf(tcpPeriod(40, 60, Increment, 30), tcpPeriod(0, 30, Increment, 30))},
	{"*5m", TimeControl{Hourglass: true, Periods: []Period{tcpPeriod(0, 300, NoBonus, 0)}}},
	{"*30s", TimeControl{Hourglass: true, Periods: []Period{tcpPeriod(0, 30, NoBonus, 0)}}},

	// Limits.
	{"1000000", tcpSD(1_000_000, NoBonus, 0)},
	{"300s+3600", tcpSD(300, Increment, 3600)},
	{"1000/1s:1s", tcpOf(tcpPeriod(1000, 1, NoBonus, 0), tcpPeriod(0, 1, NoBonus, 0))},
}

func TestParseTimeControl(t *testing.T) {
	for _, test := range parseTimeControlTests {
		t.Run(test.in, func(t *testing.T) {
			got, err := ParseTimeControl(test.in)
			if err != nil {
				t.Errorf("ParseTimeControl(%q) error: %v", test.in, err)
				return
			}
			if !reflect.DeepEqual(got, test.want) {
				t.Errorf("ParseTimeControl(%q) = %v %+v, want %v %+v", test.in, got, got.Periods, test.want, test.want.Periods)
			}
			if err := got.Validate(); err != nil {
				t.Errorf("ParseTimeControl(%q).Validate() = %v, want nil", test.in, err)
			}
		})
	}
}

// rules.md §1 (the PGN tag is seconds). Never a guessed unit: a time
// without unit is seconds, or refused when
// it would make a period shorter than a minute (it may be minutes), with
// both readings in the message.
var bareTests = []struct {
	in      string
	baseSec int64 // 0: refused
	problem string
}{
	{"59+0", 0, "59 s? write 59m for 59 minutes, or 59s for seconds"},
	{"3+2", 0, "3 s + 2 s per move? write 3m+2s for 3 minutes, or 3s+2s for seconds"},
	{"1+0", 0, "1 s? write 1m for 1 minute, or 1s for seconds"},
	{"45", 0, "45 s? write 45m for 45 minutes, or 45s for seconds"},
	{"59d5", 0, "59 s with 5 s delay? write 59m;d5s for 59 minutes, or 59s;d5s for seconds"},
	{"*30", 0, "hourglass of 30 s? write *30m for 30 minutes, or *30s for seconds"},
	{"40/5400:30", 0, `period "30": 30 s? write 40/90m:30m for 30 minutes, or 40/5400s:30s for seconds`},
	{"2/10:30", 0, `period "2/10": 2 moves in 10 s?`},
	{"40/90m:1800", 0, `"1800": the time 1800 has no unit; a control with units needs one on every time: write 40/90m:1800m for minutes, or 40/5400s:1800s for seconds`},
	{"90+30s", 0, `"90+30s": the time 90 has no unit; a control with units needs one on every time: write 90m+30s for minutes, or 90s+30s for seconds`},
	{"40/120, 20/60, 30", 0, `"40/120": the time 120 has no unit (nor have 2 more periods); with ',' between periods every time needs its unit: write 40/120m:20/60m:30m for minutes, or 40/120s:20/60s:30s for seconds`},
	{"40/7200:SD/30", 0, `"40/7200": the time 7200 has no unit`},
	{"60+1", 60, ""},
	{"60+30", 60, ""},
	{"60+12", 60, ""},
	{"150+30", 150, ""},
	{"151+30", 151, ""},
	{"180+2", 180, ""},
	{"2940+1", 2940, ""},
	{"60b12", 60, ""},
	{"300", 300, ""},
}

func TestParseTimeControlNeverGuesses(t *testing.T) {
	for _, test := range bareTests {
		t.Run(test.in, func(t *testing.T) {
			got, err := ParseTimeControl(test.in)
			switch {
			case test.baseSec == 0 && err == nil:
				t.Errorf("ParseTimeControl(%q) = %v, want refused", test.in, got)
			case test.baseSec == 0:
				var ie *InputError
				if !errors.As(err, &ie) || ie.Value != test.in || !strings.Contains(ie.Problem, test.problem) {
					t.Errorf("ParseTimeControl(%q) error = %v, want problem containing %q", test.in, err, test.problem)
				}
			case err != nil:
				t.Errorf("ParseTimeControl(%q) error: %v", test.in, err)
			case got.Periods[0].BaseMs != test.baseSec*1000:
				t.Errorf("ParseTimeControl(%q) base = %d ms, want %d ms", test.in, got.Periods[0].BaseMs, test.baseSec*1000)
			}
		})
	}
}

type ParseTimeControlErrorTest struct {
	in      string
	value   string // InputError.Value
	problem string // contained in InputError.Problem
}

var parseTimeControlErrorTests = []ParseTimeControlErrorTest{
	// Nothing to read.
	{"", "", "empty"},
	{"   ", "   ", "empty"},
	{"-", "-", "no time control"}, // PGN: no time control
	{"?", "?", "no time control"}, // PGN: unknown
	// Move counts (FIDE 2023 Art. 6.2: a period's moves; the last covers the rest of the game).
	{"40/", "40/", "move count without a time"},
	{"40/ ", "40/", "move count without a time"},
	{"40/5400+30:40/", "40/", "move count without a time"},
	{"/60", "/60", "without a move count"},
	{"40/20/60", "40/20/60", "more than one '/'"},
	{"0/300:60", "0/300", "move count must be positive"},
	{"1001/300:60", "1001/300", "move count above 1000"},
	{"300:40/600", "300", "only the last period may be without a move count"},
	{"G/60, SD/30", "G/60", "only the last period may be without a move count"},
	{"90m, 30m", "90m", "only the last period may be without a move count"},
	{"90, 30", "90, 30", `"90": the time 90 has no unit`},
	{"40/300", "40/300", "the last period covers the rest of the game and takes no move count"},
	{"40/90+30", "40/90+30", "takes no move count"},
	{"40/5400:20/1800", "20/1800", "takes no move count"},
	// Times.
	{"0", "0", "the first period has no time"},
	{"0+5", "0+5", "the first period has no time"},
	{"40/0:300", "40/0", "the first period has no time"},
	{"-300", "-300", "negative"},
	{"300+-2", "300+-2", "negative"},
	{"1.5", "1.5", "decimal"},
	{"1.5m", "1.5m", "decimal"},
	{"300+1.5", "300+1.5", "decimal"},
	{".5", ".5", "decimal"},
	{"1h75", "1h75", "below 60"},
	{"+30", "+30", "increment or delay without a time"},
	{"d5", "d5", "increment or delay without a time"},
	{"300+", "300+", "missing increment"},
	{"300d", "300d", "missing delay"},
	{"300+2+3", "300+2+3", "more than one increment or delay"},
	{"300+2d3", "300+2d3", "more than one increment or delay"},
	{"300+1m", "300+1m", "increments and delays are given in seconds"},
	{"300;", "300;", "';' must be followed by an increment or delay"},
	{"G/60;5", "G/60;5", "';' must be followed by an increment or delay"},
	{"G60", "G60", `must be followed by "/"`},
	{"G/", "G/", "without a time"},
	// Hourglass (rules.md §1).
	{"*60+1", "*60+1", "an hourglass takes no increment or delay"},
	{"*60d1", "*60d1", "an hourglass takes no increment or delay"},
	{"*40/60", "*40/60", "an hourglass takes no move count"},
	{"*60:40", "*60:40", "an hourglass has exactly one period"},
	{"*60:60", "*60:60", "an hourglass has exactly one period"},
	{"*0", "*0", "the first period has no time"},
	{"*G/5", "*G/5", "an hourglass is written"},
	// Separators.
	{"300:", "300:", "empty period"},
	{":300", ":300", "empty period"},
	{"40/90,,30", "40/90,,30", "empty period"},
	{"40/90m, 30m:20m", "40/90m, 30m:20m", "mixes ':' and ','"},
	{"G/60:SD/30", "G/60", "only the last period may be without a move count"},
	// Garbage.
	{"x", "x", `unexpected "x"`},
	{"300x", "300x", `unexpected "x"`},
	{"300 5", "300 5", `unexpected "5"`},
	{"300s5", "300s5", `unexpected "5"`},
	{"５", "５", "unexpected character"},
	{"300\x00", "300\x00", "unexpected character"},
	{"300min30", "300min30", `unexpected "30"`},
	// Too large: no overflow.
	{"9999999999", "9999999999", "too large"},
	{"99999999999999999999999", "99999999999999999999999", "too large"},
	{"1000001", "1000001", "above 1000000 seconds"},
	{"G/16667", "G/16667", "above 1000000 seconds"},
	{"999999999h", "999999999h", "above 1000000 seconds"},
	{"40/600000:400001", "40/600000:400001", "total time above 1000000 seconds"},
	{"300+3601", "300+3601", "above 3600 seconds"},
	{"300+9999999999", "300+9999999999", "too large"},
	{strings.Repeat("1/1:", 32) + "1", strings.Repeat("1/1:", 32) + "1", "more than 32 periods"},
}

func TestParseTimeControlErrors(t *testing.T) {
	for _, test := range parseTimeControlErrorTests {
		t.Run(test.in, func(t *testing.T) {
			got, err := ParseTimeControl(test.in)
			if err == nil {
				t.Errorf("ParseTimeControl(%q) = %v, want error %q", test.in, got, test.problem)
				return
			}
			var ie *InputError
			if !errors.As(err, &ie) {
				t.Errorf("ParseTimeControl(%q) error %T %v, want *InputError", test.in, err, err)
				return
			}
			if !errors.Is(err, ErrInvalid) {
				t.Errorf("ParseTimeControl(%q) error %v is not ErrInvalid", test.in, err)
			}
			if ie.What != "time control" || ie.Value != test.value || !strings.Contains(ie.Problem, test.problem) || ie.Allowed == "" {
				t.Errorf("ParseTimeControl(%q) error = %+v, want value %q, problem containing %q", test.in, *ie, test.value, test.problem)
			}
		})
	}
}

type TimeControlStringTest struct {
	tc   TimeControl
	want string
}

var timeControlStringTests = []TimeControlStringTest{
	{tcpSD(300, NoBonus, 0), "300"},
	{tcpSD(60, NoBonus, 0), "60"},
	{tcpSD(180, Increment, 2), "180+2"},
	{tcpSD(5400, SimpleDelay, 5), "5400d5"},
	{tcpSD(300, Bronstein, 3), "300b3"},
	{tcpSD(300, Increment, 0), "300"},   // a kind with 0 ms is left out
	{tcpSD(60, Increment, 30), "60+30"}, // a bare number is seconds
	{tcpSD(30, Increment, 2), "30s+2s"}, // plain "30+2" is refused: it may be 30 minutes
	{tcpSD(150, Increment, 30), "150+30"},
	{tcpSD(60, SimpleDelay, 12), "60d12"},
	{tcpSD(59, Bronstein, 1), "59s;b1s"},
	{TimeControl{Hourglass: true, Periods: []Period{tcpPeriod(0, 60, NoBonus, 0)}}, "*60"},
	{tcpOf(tcpPeriod(40, 5400, Increment, 30), tcpPeriod(0, 1800, Increment, 30)), "40/5400+30:1800+30"},
	{tcpOf(tcpPeriod(40, 60, Increment, 30), tcpPeriod(0, 30, Increment, 30)), "40/60s+30s:30s+30s"}, // a period under a minute: every time in seconds with its unit
	{tcpOf(tcpPeriod(40, 7200, NoBonus, 0), tcpPeriod(20, 3600, NoBonus, 0), tcpPeriod(0, 900, Increment, 30)), "40/7200:20/3600:900+30"},
	// Invalid controls still print, as text ParseTimeControl refuses.
	{TimeControl{}, "-"},
	{TimeControl{Periods: []Period{{BaseMs: 1500}}}, "1.5"},
}

func TestTimeControlString(t *testing.T) {
	for _, test := range timeControlStringTests {
		t.Run(test.want, func(t *testing.T) {
			if got := test.tc.String(); got != test.want {
				t.Errorf("%+v.String() = %q, want %q", test.tc, got, test.want)
			}
		})
	}
}

// checkTimeControlRoundTrip checks the round-trip laws for a parsed or
// valid tc: y := tc.String() and u := tc.WithUnits() parse back to tc and
// print as y and u again.
func checkTimeControlRoundTrip(t interface{ Errorf(string, ...any) }, from string, tc TimeControl) {
	for _, form := range []struct {
		name  string
		write func(TimeControl) string
	}{{"String", TimeControl.String}, {"WithUnits", TimeControl.WithUnits}} {
		y := form.write(tc)
		back, err := ParseTimeControl(y)
		if err != nil {
			t.Errorf("%s: ParseTimeControl(%q) error: %v", from, y, err)
			continue
		}
		if !reflect.DeepEqual(back, tc) {
			t.Errorf("%s: ParseTimeControl(%q) = %+v, want %+v", from, y, back, tc)
		}
		if y2 := form.write(back); y2 != y {
			t.Errorf("%s: ParseTimeControl(%q).%s() = %q, want %q", from, y, form.name, y2, y)
		}
	}
}

func TestTimeControlRoundTrip(t *testing.T) {
	for _, test := range parseTimeControlTests {
		tc, err := ParseTimeControl(test.in)
		if err != nil {
			continue // reported by TestParseTimeControl
		}
		checkTimeControlRoundTrip(t, "from "+test.in, tc)
	}
	for _, test := range bareTests {
		tc, err := ParseTimeControl(test.in)
		if err != nil {
			continue
		}
		checkTimeControlRoundTrip(t, "from "+test.in, tc)
	}
}

type TimeControlValidateTest struct {
	tc      TimeControl
	problem string // "" for valid
}

var timeControlValidateTests = []TimeControlValidateTest{
	{tcpSD(300, NoBonus, 0), ""},
	{tcpSD(300, Increment, 0), ""}, // a kind with 0 ms means no bonus
	{tcpOf(tcpPeriod(40, 5400, Increment, 30), tcpPeriod(0, 1800, Increment, 30)), ""},
	{TimeControl{Hourglass: true, Periods: []Period{tcpPeriod(0, 60, NoBonus, 0)}}, ""},
	{TimeControl{}, "no periods"},
	{TimeControl{Periods: []Period{}}, "no periods"},
	{tcpSD(0, NoBonus, 0), "the first period has no time"},
	{tcpSD(-300, NoBonus, 0), "time is negative"},
	{TimeControl{Periods: []Period{{BaseMs: 300500}}}, "not a whole number of seconds"},
	{TimeControl{Periods: []Period{{BaseMs: 300000, Bonus: Increment, BonusMs: 1500}}}, "not a whole number of seconds"},
	{TimeControl{Periods: []Period{{BaseMs: 300000, BonusMs: 2000}}}, "without its kind"},
	{TimeControl{Periods: []Period{{BaseMs: 300000, Bonus: 9, BonusMs: 2000}}}, "unknown kind"},
	{TimeControl{Periods: []Period{{BaseMs: 300000, Bonus: -1, BonusMs: 2000}}}, "unknown kind"},
	{tcpSD(300, Increment, -2), "negative"},
	{tcpSD(300, Increment, 3601), "above 3600 seconds"},
	{tcpSD(1_000_001, NoBonus, 0), "above 1000000 seconds"},
	{TimeControl{Periods: []Period{{BaseMs: 1 << 62}}}, "above 1000000 seconds"},
	{tcpOf(tcpPeriod(40, 600_000, NoBonus, 0), tcpPeriod(0, 400_001, NoBonus, 0)), "total time above"},
	{tcpOf(tcpPeriod(0, 300, NoBonus, 0), tcpPeriod(0, 300, NoBonus, 0)), "only the last period may be without a move count"},
	{tcpOf(tcpPeriod(40, 300, NoBonus, 0)), "takes no move count"},
	{tcpOf(tcpPeriod(-40, 300, NoBonus, 0), tcpPeriod(0, 300, NoBonus, 0)), "move count must be positive"},
	{tcpOf(tcpPeriod(1001, 300, NoBonus, 0), tcpPeriod(0, 300, NoBonus, 0)), "move count above 1000"},
	{TimeControl{Hourglass: true, Periods: []Period{tcpPeriod(40, 60, NoBonus, 0), tcpPeriod(0, 60, NoBonus, 0)}}, "exactly one period"},
	{TimeControl{Hourglass: true, Periods: []Period{tcpPeriod(0, 60, Increment, 1)}}, "no increment or delay"},
	{TimeControl{Hourglass: true, Periods: []Period{tcpPeriod(0, 0, NoBonus, 0)}}, "no time"},
}

func TestTimeControlValidate(t *testing.T) {
	for i, test := range timeControlValidateTests {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			err := test.tc.Validate()
			switch {
			case test.problem == "" && err != nil:
				t.Errorf("%+v.Validate() = %v, want nil", test.tc, err)
			case test.problem == "":
				checkTimeControlRoundTrip(t, test.tc.String(), normalizeTimeControl(test.tc))
			case err == nil:
				t.Errorf("%+v.Validate() = nil, want %q", test.tc, test.problem)
			default:
				var ie *InputError
				if !errors.As(err, &ie) || !strings.Contains(ie.Problem, test.problem) {
					t.Errorf("%+v.Validate() = %v, want problem containing %q", test.tc, err, test.problem)
				}
			}
		})
	}
}

// normalizeTimeControl turns a bonus kind with 0 ms into NoBonus, as
// ParseTimeControl(tc.String()) does.
func normalizeTimeControl(tc TimeControl) TimeControl {
	out := TimeControl{Hourglass: tc.Hourglass, Periods: append([]Period(nil), tc.Periods...)}
	for i := range out.Periods {
		if out.Periods[i].BonusMs == 0 {
			out.Periods[i].Bonus = NoBonus
		}
	}
	return out
}

// genTimeControl generates valid time controls in whole seconds, often with
// small bases so that the ambiguity rule is exercised.
func genTimeControl() *rapid.Generator[TimeControl] {
	return rapid.Custom(func(t *rapid.T) TimeControl {
		if rapid.Bool().Draw(t, "hourglass") {
			b := rapid.OneOf(rapid.Int64Range(1, 120), rapid.Int64Range(1, 1_000_000)).Draw(t, "base")
			return TimeControl{Hourglass: true, Periods: []Period{tcpPeriod(0, b, NoBonus, 0)}}
		}
		n := rapid.IntRange(1, 5).Draw(t, "periods")
		tc := TimeControl{Periods: make([]Period, n)}
		for i := range tc.Periods {
			p := &tc.Periods[i]
			if i < n-1 {
				p.Moves = rapid.IntRange(1, tcMaxMoves).Draw(t, "moves")
			}
			lo := int64(0)
			if i == 0 {
				lo = 1
			}
			p.BaseMs = 1000 * rapid.OneOf(rapid.Int64Range(lo, 400), rapid.Int64Range(lo, 1_000_000/int64(n))).Draw(t, "base")
			p.Bonus = BonusKind(rapid.IntRange(int(NoBonus), int(Bronstein)).Draw(t, "kind"))
			if p.Bonus != NoBonus {
				p.BonusMs = 1000 * rapid.OneOf(rapid.Int64Range(1, 60), rapid.Int64Range(1, 3600)).Draw(t, "bonus")
			}
		}
		return tc
	})
}

// Property: every valid whole-second control survives String and
// ParseTimeControl unchanged.
func TestTimeControlRoundTripProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		tc := genTimeControl().Draw(t, "tc")
		if err := tc.Validate(); err != nil {
			t.Fatalf("generated %+v: Validate() = %v", tc, err)
		}
		checkTimeControlRoundTrip(t, "generated", tc)
	})
}

// Property (rules.md §1): ParseTimeControl never guesses a unit. Texts are drawn from
// typed parts — a base with or without a unit ("m", "min", "s", "h"), with
// or without "G/", an increment or delay with or without "s", one to three
// periods joined by ':' or ',' — and every period of an accepted text has
// exactly the base its text says: bare numbers seconds, "G/" minutes, a
// unit its own; a bare base is accepted only if it is 0 or at least a
// minute, in a control without ',' or any unit.
func TestParseTimeControlNeverGuessesProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 3).Draw(t, "periods")
		sep := rapid.SampledFrom([]string{":", ","}).Draw(t, "sep")
		texts := make([]string, n)
		want := make([]int64, n)
		anyUnit, anyBare := sep == "," && n > 1, false
		for i := range texts {
			base := rapid.Int64Range(0, 200).Draw(t, "base")
			if i == 0 && base == 0 {
				base = 1
			}
			var txt string
			switch unit := rapid.SampledFrom([]string{"", "", "m", "min", "s", "h", "G/"}).Draw(t, "unit"); unit {
			case "":
				txt, want[i] = strconv.FormatInt(base, 10), base*1000
				anyBare = anyBare || base != 0
				if base != 0 && base < 60 {
					anyUnit = true // refused for itself
				}
			case "m", "min":
				txt, want[i] = strconv.FormatInt(base, 10)+unit, base*60_000
				anyUnit = true
			case "s":
				txt, want[i] = strconv.FormatInt(base, 10)+unit, base*1000
				anyUnit = true
			case "h":
				base %= 20
				if i == 0 && base == 0 {
					base = 1
				}
				txt, want[i] = strconv.FormatInt(base, 10)+unit, base*3_600_000
				anyUnit = true
			case "G/":
				if i < n-1 {
					txt, want[i] = strconv.FormatInt(base, 10)+"m", base*60_000 // G/ takes no move count
				} else {
					txt, want[i] = "G/"+strconv.FormatInt(base, 10), base*60_000
				}
				anyUnit = true
			}
			if i < n-1 {
				txt = strconv.Itoa(rapid.IntRange(1, 60).Draw(t, "moves")) + "/" + txt
			}
			switch rapid.IntRange(0, 3).Draw(t, "bonus") {
			case 1:
				txt += "+" + strconv.Itoa(rapid.IntRange(1, 60).Draw(t, "inc"))
			case 2:
				txt += "+" + strconv.Itoa(rapid.IntRange(1, 60).Draw(t, "inc s")) + "s"
				anyUnit = true
			}
			texts[i] = txt
		}
		in := strings.Join(texts, sep)
		tc, err := ParseTimeControl(in)
		if anyBare && anyUnit {
			if err == nil {
				t.Fatalf("ParseTimeControl(%q) = %v, want refused: a time without unit is doubtful there", in, tc)
			}
			return
		}
		if err != nil {
			if !strings.Contains(err.Error(), "time above") {
				t.Fatalf("ParseTimeControl(%q) error: %v", in, err)
			}
			return
		}
		for i, p := range tc.Periods {
			if p.BaseMs != want[i] {
				t.Fatalf("ParseTimeControl(%q): period %d has %d ms, the text says %d ms", in, i+1, p.BaseMs, want[i])
			}
		}
		checkTimeControlRoundTrip(t, "from "+in, tc)
	})
}

func FuzzParseTimeControl(f *testing.F) {
	for _, test := range parseTimeControlTests {
		f.Add(test.in)
	}
	for _, test := range parseTimeControlErrorTests {
		f.Add(test.in)
	}
	for _, test := range bareTests {
		f.Add(test.in)
	}
	for _, s := range []string{
		"999999999", "999999999s", "999999999m", "999999999h", "16666", "G/16666", "16666m40s",
		"1000000", "1000000+3600", "1+3600", "59+3600", "60s+3600", "*1000000", "*1000001",
		"1h59", "1h59m+3600s", "1000/1:1000/1:1", strings.Repeat("1/1:", 31) + "1",
		"G/1;b1", "SD/1;d3600", ";", ":", ",", "/", "*", "+", "s", "m", "h", "min", "sec",
		"\t300\t", "1e3", "0x10", "+300", "300-2", "1_000",
		"white 5m | black 4m", "white 60/5m:0+2s | black 60/4m:0+2s", "black=3m|white=3m+2s", "white 5m | black *4m",
		"white 5x | black 4m", "white | black", "|", "white 30s | black 20s", "white 40/90m+30s:30m+30s | black G/60;d5",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tc, err := ParseTimeControl(s)
		if err != nil {
			var ie *InputError
			if !errors.As(err, &ie) || ie.What != "time control" || ie.Problem == "" {
				t.Fatalf("ParseTimeControl(%q) error = %#v, want *InputError with a problem", s, err)
			}
			return
		}
		if err := tc.Validate(); err != nil {
			t.Fatalf("ParseTimeControl(%q) = %v, Validate() = %v", s, tc, err)
		}
		checkTimeControlRoundTrip(t, "from "+s, tc)
		if _, err := tc.Describe(FIDE2023); err != nil || tc.Words() == "" {
			t.Fatalf("ParseTimeControl(%q).Describe() = %v", s, err)
		}
	})
}
