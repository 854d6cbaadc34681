package rules

import (
	"errors"
	"reflect"
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
	{"45", tcpSD(45, NoBonus, 0)},           // bare, below 60: still seconds
	{"5400", tcpSD(5400, NoBonus, 0)},       // standard 90 min
	{"180+2", tcpSD(180, Increment, 2)},     // Fischer increment, FIDE 2023 Art. 6.3.1
	{"600+1", tcpSD(600, Increment, 1)},     // game-type.json category-fide-2023-600p1
	{"2940+1", tcpSD(2940, Increment, 1)},   // game-type.json category-fide-2023-2940p1
	{"900+10", tcpSD(900, Increment, 10)},   // game-type.json category-fide-2018-900p10
	{"5400+30", tcpSD(5400, Increment, 30)}, // game-type.json category-fide-2018-5400p30
	{"840+1", tcpSD(840, Increment, 1)},     // game-type.json category-fide-2009-840p1
	{"900+5", tcpSD(900, Increment, 5)},     // conformance vectors
	{"5400d5", tcpSD(5400, SimpleDelay, 5)}, // delay, FIDE 2023 Art. 6.3.2 (time-delay mode)
	{"300d5", tcpSD(300, SimpleDelay, 5)},   // timing-modes.json simple-delay-main-time-waits
	{"60d5", tcpSD(60, SimpleDelay, 5)},     // delay-flag.json
	{"300b3", tcpSD(300, Bronstein, 3)},     // Bronstein delay, rules.md §1
	{"60b5", tcpSD(60, Bronstein, 5)},       // delay-flag.json
	{"300+0", tcpSD(300, NoBonus, 0)},       // a zero bonus is no bonus
	{"300d0", tcpSD(300, NoBonus, 0)},       // a zero delay is no delay
	{"*60", TimeControl{Hourglass: true, Periods: []Period{tcpPeriod(0, 60, NoBonus, 0)}}},                                                // hourglass, rules.md §1
	{"*1m", TimeControl{Hourglass: true, Periods: []Period{tcpPeriod(0, 60, NoBonus, 0)}}},                                                // hourglass with a unit
	{"40/5400+30:1800+30", tcpOf(tcpPeriod(40, 5400, Increment, 30), tcpPeriod(0, 1800, Increment, 30))},                                  // FIDE standard, Art. 6.2 / 6.3.1
	{"40/7200:20/3600:900+30", tcpOf(tcpPeriod(40, 7200, NoBonus, 0), tcpPeriod(20, 3600, NoBonus, 0), tcpPeriod(0, 900, Increment, 30))}, // increment from move 61, rules.md §1
	{"40/7200:3600", tcpOf(tcpPeriod(40, 7200, NoBonus, 0), tcpPeriod(0, 3600, NoBonus, 0))},                                              // periods.json
	{"40/600:300", tcpOf(tcpPeriod(40, 600, NoBonus, 0), tcpPeriod(0, 300, NoBonus, 0))},                                                  // periods.json
	{"40/5400:1800", tcpOf(tcpPeriod(40, 5400, NoBonus, 0), tcpPeriod(0, 1800, NoBonus, 0))},                                              // periods.json
	{"40/5400d5:1800b5", tcpOf(tcpPeriod(40, 5400, SimpleDelay, 5), tcpPeriod(0, 1800, Bronstein, 5))},                                    // a bonus on any period
	{"40/60:30", tcpOf(tcpPeriod(40, 60, NoBonus, 0), tcpPeriod(0, 30, NoBonus, 0))},                                                      // ':' form: everything seconds
	{"40/60+30:30+30", tcpOf(tcpPeriod(40, 60, Increment, 30), tcpPeriod(0, 30, Increment, 30))},                                          // ':' form: no ambiguity rule
	{"40/5400+30:0+30", tcpOf(tcpPeriod(40, 5400, Increment, 30), tcpPeriod(0, 0, Increment, 30))},                                        // later period may add no time
	{" 40 / 5400 + 30 : 1800 + 30 ", tcpOf(tcpPeriod(40, 5400, Increment, 30), tcpPeriod(0, 1800, Increment, 30))},                        // blanks around separators
	{"5400D5", tcpSD(5400, SimpleDelay, 5)},                                                                                               // letters are case-insensitive
	{"300B3", tcpSD(300, Bronstein, 3)},
	{"0300", tcpSD(300, NoBonus, 0)}, // leading zeros

	// Everyday form: minutes for bases, seconds for increments and delays.
	{"90+30", tcpSD(5400, Increment, 30)},  // FIDE standard 90 min + 30 s (ambiguity rule: B <= 5*I)
	{"3+2", tcpSD(180, Increment, 2)},      // blitz, FIDE 2023 Appendix B.1 (B < 60)
	{"15+10", tcpSD(900, Increment, 10)},   // rapid, FIDE 2023 Appendix A.1
	{"45+45", tcpSD(2700, Increment, 45)},  // B < 60
	{"120+30", tcpSD(7200, Increment, 30)}, // B <= 5*I
	{"30+0", tcpSD(1800, NoBonus, 0)},      // B < 60 with a marker: minutes
	{"5d3", tcpSD(300, SimpleDelay, 3)},    // B < 60 with a delay
	{"3 + 2", tcpSD(180, Increment, 2)},    // blanks
	{"40/90+30, 30+30", tcpOf(tcpPeriod(40, 5400, Increment, 30), tcpPeriod(0, 1800, Increment, 30))}, // ',' ⇒ every base in minutes
	{"40/120, 20/60, 30", tcpOf(tcpPeriod(40, 7200, NoBonus, 0), tcpPeriod(20, 3600, NoBonus, 0), tcpPeriod(0, 1800, NoBonus, 0))},
	{"40/90,30", tcpOf(tcpPeriod(40, 5400, NoBonus, 0), tcpPeriod(0, 1800, NoBonus, 0))},
	{"G/60;d5", tcpSD(3600, SimpleDelay, 5)}, // US style, game in 60 with 5 s delay
	{"G/60 d5", tcpSD(3600, SimpleDelay, 5)},
	{"g/60;D5", tcpSD(3600, SimpleDelay, 5)},
	{"G/90;+30", tcpSD(5400, Increment, 30)},
	{"G/90+30", tcpSD(5400, Increment, 30)},
	{"G/5;b3", tcpSD(300, Bronstein, 3)},
	{"G / 5 ; b 3", tcpSD(300, Bronstein, 3)},
	{"G/5", tcpSD(300, NoBonus, 0)}, // G/ is minutes even without bonus
	{"SD/30", tcpSD(1800, NoBonus, 0)},
	{"sd/30", tcpSD(1800, NoBonus, 0)},
	{"40/120, SD/30;d5", tcpOf(tcpPeriod(40, 7200, NoBonus, 0), tcpPeriod(0, 1800, SimpleDelay, 5))},
	{"40/120,G/60", tcpOf(tcpPeriod(40, 7200, NoBonus, 0), tcpPeriod(0, 3600, NoBonus, 0))},

	// Explicit units override every default.
	{"90m", tcpSD(5400, NoBonus, 0)},
	{"90min", tcpSD(5400, NoBonus, 0)},
	{"90 MIN", tcpSD(5400, NoBonus, 0)},
	{"1h", tcpSD(3600, NoBonus, 0)},
	{"1h30", tcpSD(5400, NoBonus, 0)},
	{"1h30m", tcpSD(5400, NoBonus, 0)},
	{"1h 30 min + 30 sec", tcpSD(5400, Increment, 30)},
	{"5400s", tcpSD(5400, NoBonus, 0)},
	{"5400sec", tcpSD(5400, NoBonus, 0)},
	{"90m+30s", tcpSD(5400, Increment, 30)},
	{"90+30s", tcpSD(5400, Increment, 30)}, // a unit on the bonus does not decide the base
	{"180+2s", tcpSD(180, Increment, 2)},
	{"60s+30", tcpSD(60, Increment, 30)}, // canonical form of 60 s + 30 s
	{"60 s + 30", tcpSD(60, Increment, 30)},
	{"30s+2", tcpSD(30, Increment, 2)},
	{"1h30d5", tcpSD(5400, SimpleDelay, 5)},
	{"60sd5", tcpSD(60, SimpleDelay, 5)},
	{"G/3600s", tcpSD(3600, NoBonus, 0)}, // unit overrides G/ minutes
	{"40/5400s, 30m+30", tcpOf(tcpPeriod(40, 5400, NoBonus, 0), tcpPeriod(0, 1800, Increment, 30))},
	{"40/90m:1800", tcpOf(tcpPeriod(40, 5400, NoBonus, 0), tcpPeriod(0, 1800, NoBonus, 0))}, // unit in ':' form
	{"*5m", TimeControl{Hourglass: true, Periods: []Period{tcpPeriod(0, 300, NoBonus, 0)}}},

	// Limits.
	{"1000000", tcpSD(1_000_000, NoBonus, 0)},
	{"300s+3600", tcpSD(300, Increment, 3600)},
	{"300+3600", tcpSD(300*60, Increment, 3600)}, // 300 <= 5*3600: minutes
	{"1000/1:1", tcpOf(tcpPeriod(1000, 1, NoBonus, 0), tcpPeriod(0, 1, NoBonus, 0))},
}

func TestParseTimeControl(t *testing.T) {
	for _, test := range parseTimeControlTests {
		got, err := ParseTimeControl(test.in)
		if err != nil {
			t.Errorf("ParseTimeControl(%q) error: %v", test.in, err)
			continue
		}
		if !reflect.DeepEqual(got, test.want) {
			t.Errorf("ParseTimeControl(%q) = %v %+v, want %v %+v", test.in, got, got.Periods, test.want, test.want.Periods)
		}
		if err := got.Validate(); err != nil {
			t.Errorf("ParseTimeControl(%q).Validate() = %v, want nil", test.in, err)
		}
	}
}

// The ambiguity rule of ParseTimeControl: a single B+I, BdI or BbI without
// a unit is minutes when B < 60 or B <= 5*I, seconds otherwise.
var ambiguityTests = []struct {
	in      string
	baseSec int64
}{
	{"59+0", 59 * 60},  // B < 60
	{"59+1", 59 * 60},  // B < 60
	{"60+1", 60},       // 60 > 5*1: seconds
	{"60+11", 60},      // 60 > 55: seconds
	{"60+12", 60 * 60}, // 60 <= 60: minutes
	{"60+30", 60 * 60}, // minutes; 60 s + 30 s is written "60s+30"
	{"150+30", 150 * 60},
	{"151+30", 151},
	{"180+2", 180},
	{"300+3", 300},
	{"600+5", 600},
	{"900+10", 900},
	{"2940+1", 2940},
	{"5400+30", 5400},
	{"1+0", 60},
	{"59d5", 59 * 60},
	{"60b12", 60 * 60},
	{"61b12", 61},
}

func TestParseTimeControlAmbiguity(t *testing.T) {
	for _, test := range ambiguityTests {
		got, err := ParseTimeControl(test.in)
		if err != nil {
			t.Errorf("ParseTimeControl(%q) error: %v", test.in, err)
			continue
		}
		if got.Periods[0].BaseMs != test.baseSec*1000 {
			t.Errorf("ParseTimeControl(%q) base = %d ms, want %d ms", test.in, got.Periods[0].BaseMs, test.baseSec*1000)
		}
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
	{"90, 30", "90", "only the last period may be without a move count"},
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
	{"*0", "*0", "the first period has no time"},
	{"*G/5", "*G/5", "an hourglass is written"},
	// Separators.
	{"300:", "300:", "empty period"},
	{":300", ":300", "empty period"},
	{"40/90,,30", "40/90,,30", "empty period"},
	{"40/90, 30:20", "40/90, 30:20", "mixes ':'"},
	{"G/60:SD/30", "G/60", `"G/" and "SD/" are everyday forms`},
	{"40/7200:SD/30", "SD/30", `"G/" and "SD/" are everyday forms`},
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
		got, err := ParseTimeControl(test.in)
		if err == nil {
			t.Errorf("ParseTimeControl(%q) = %v, want error %q", test.in, got, test.problem)
			continue
		}
		var ie *InputError
		if !errors.As(err, &ie) {
			t.Errorf("ParseTimeControl(%q) error %T %v, want *InputError", test.in, err, err)
			continue
		}
		if !errors.Is(err, ErrInvalid) {
			t.Errorf("ParseTimeControl(%q) error %v is not ErrInvalid", test.in, err)
		}
		if ie.What != "time control" || ie.Value != test.value || !strings.Contains(ie.Problem, test.problem) || ie.Allowed == "" {
			t.Errorf("ParseTimeControl(%q) error = %+v, want value %q, problem containing %q", test.in, *ie, test.value, test.problem)
		}
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
	{tcpSD(300, Increment, 0), "300"},      // a kind with 0 ms is left out
	{tcpSD(60, Increment, 30), "60s+30"},   // plain "60+30" would read as 60 min
	{tcpSD(30, Increment, 2), "30s+2"},     // plain "30+2" would read as 30 min
	{tcpSD(150, Increment, 30), "150s+30"}, // 150 <= 5*30
	{tcpSD(151, Increment, 30), "151+30"},
	{tcpSD(60, Increment, 11), "60+11"},
	{tcpSD(60, SimpleDelay, 12), "60sd12"},
	{tcpSD(59, Bronstein, 1), "59sb1"},
	{TimeControl{Hourglass: true, Periods: []Period{tcpPeriod(0, 60, NoBonus, 0)}}, "*60"},
	{tcpOf(tcpPeriod(40, 5400, Increment, 30), tcpPeriod(0, 1800, Increment, 30)), "40/5400+30:1800+30"},
	{tcpOf(tcpPeriod(40, 60, Increment, 30), tcpPeriod(0, 30, Increment, 30)), "40/60+30:30+30"}, // ':' is always seconds
	{tcpOf(tcpPeriod(40, 7200, NoBonus, 0), tcpPeriod(20, 3600, NoBonus, 0), tcpPeriod(0, 900, Increment, 30)), "40/7200:20/3600:900+30"},
	// Invalid controls still print, as text ParseTimeControl refuses.
	{TimeControl{}, "-"},
	{TimeControl{Periods: []Period{{BaseMs: 1500}}}, "1.5"},
}

func TestTimeControlString(t *testing.T) {
	for _, test := range timeControlStringTests {
		if got := test.tc.String(); got != test.want {
			t.Errorf("%+v.String() = %q, want %q", test.tc, got, test.want)
		}
	}
}

// checkTimeControlRoundTrip checks the round-trip law for a parsed or valid
// tc: y := tc.String() parses back to tc and prints as y again.
func checkTimeControlRoundTrip(t interface{ Errorf(string, ...any) }, from string, tc TimeControl) {
	y := tc.String()
	back, err := ParseTimeControl(y)
	if err != nil {
		t.Errorf("%s: ParseTimeControl(%q) error: %v", from, y, err)
		return
	}
	if !reflect.DeepEqual(back, tc) {
		t.Errorf("%s: ParseTimeControl(%q) = %+v, want %+v", from, y, back, tc)
	}
	if y2 := back.String(); y2 != y {
		t.Errorf("%s: ParseTimeControl(%q).String() = %q, want %q", from, y, y2, y)
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
	for _, test := range ambiguityTests {
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
	for _, test := range timeControlValidateTests {
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

func FuzzParseTimeControl(f *testing.F) {
	for _, test := range parseTimeControlTests {
		f.Add(test.in)
	}
	for _, test := range parseTimeControlErrorTests {
		f.Add(test.in)
	}
	for _, s := range []string{
		"999999999", "999999999s", "999999999m", "999999999h", "16666", "G/16666", "16666m40s",
		"1000000", "1000000+3600", "1+3600", "59+3600", "60s+3600", "*1000000", "*1000001",
		"1h59", "1h59m+3600s", "1000/1:1000/1:1", strings.Repeat("1/1:", 31) + "1",
		"G/1;b1", "SD/1;d3600", ";", ":", ",", "/", "*", "+", "s", "m", "h", "min", "sec",
		"\t300\t", "1e3", "0x10", "+300", "300-2", "1_000",
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
		_ = GameType(FIDE2023, tc)
	})
}
