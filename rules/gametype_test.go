package rules

import "testing"

type SixtyMoveMsTest struct {
	tc   string
	want int64 // seconds
}

// T of rules.md §2 (FIDE 2023 Appendix A.1 / B.1: "the allotted time plus 60
// times any increment").
var sixtyMoveMsTests = []SixtyMoveMsTest{
	{"600", 600},
	{"180+2", 180 + 60*2},
	{"600+1", 600 + 60},
	{"2940+1", 2940 + 60},
	{"5400+30", 5400 + 60*30},
	{"300d5", 300 + 60*5}, // delays count like increments, rules.md §2
	{"300b5", 300 + 60*5},
	{"*60", 60},    // hourglass: T is the base
	{"*900", 900},  // hourglass: T is the base
	{"300+0", 300}, // no bonus
	// Multi-period: bases of the periods that start within the first 60 moves.
	{"40/5400+30:1800+30", 5400 + 1800 + 60*30},
	{"40/7200:20/3600:900+30", 7200 + 3600}, // period 3 starts at move 61
	{"40/7200:3600", 7200 + 3600},
	{"40/600:300", 600 + 300},
	{"60/600:300", 600},                      // period 2 starts at move 61
	{"59/600:300+10", 600 + 300 + 10},        // period 2 starts at move 60; move 60 earns its increment
	{"20/300+5:600", 300 + 600 + 20*5},       // moves 21..60 earn nothing
	{"40/5400:1800+30", 5400 + 1800 + 20*30}, // increment from move 41
	{"40/5400d5:1800b3", 5400 + 1800 + 40*5 + 20*3},
	{"30/600:30/300:600", 600 + 300}, // period 3 starts at move 61
	{"30/600:29/300:600", 600 + 300 + 600},
	{"10/60+1:10/60+2:10/60+3:1000+4", 3*60 + 1000 + 10*1 + 10*2 + 10*3 + 30*4},
}

func TestGameTypeSixtyMoveMs(t *testing.T) {
	for _, test := range sixtyMoveMsTests {
		t.Run(test.tc, func(t *testing.T) {
			tc, err := ParseTimeControl(test.tc)
			if err != nil {
				t.Errorf("ParseTimeControl(%q) error: %v", test.tc, err)
				return
			}
			if got := tc.SixtyMoveMs(); got != test.want*1000 {
				t.Errorf("ParseTimeControl(%q).SixtyMoveMs() = %d, want %d", test.tc, got, test.want*1000)
			}
		})
	}
	if got := (TimeControl{}).SixtyMoveMs(); got != 0 {
		t.Errorf("TimeControl{}.SixtyMoveMs() = %d, want 0", got)
	}
}

type GameTypeTest struct {
	ruleset Ruleset
	tc      string
	want    Category
}

var gameTypeTests = []GameTypeTest{
	// game-type.json, "FIDE Appendix A.1, B.1 of each edition".
	{FIDE2023, "600", Blitz},
	{FIDE2023, "660", Rapid},
	{FIDE2023, "600+1", Rapid},
	{FIDE2023, "3600", Standard},
	{FIDE2023, "2940+1", Rapid},
	{FIDE2023, "180+2", Blitz},
	{FIDE2018, "900+10", Rapid},
	{FIDE2018, "5400+30", Standard},
	{FIDE2009, "840", Blitz},
	{FIDE2009, "900", Rapid},
	{FIDE2009, "840+1", Rapid},
	{FIDE2009, "3600", Standard},
	{FIDE2005, "900", Rapid},
	{FIDE2005, "600", Blitz},

	// FIDE 2023 Appendix B.1: blitz T <= 10 min; A.1: rapid 10 < T < 60 min.
	{FIDE2023, "601", Rapid},
	{FIDE2023, "3599", Rapid},
	{FIDE2023, "3m+2s", Blitz},      // 180 + 120 s
	{FIDE2023, "5m+5s", Blitz},      // 300 + 300 s = 10 min
	{FIDE2023, "10m+5s", Rapid},     // 600 + 300 s
	{FIDE2023, "45m+15s", Standard}, // 2700 + 900 s = 60 min
	{FIDE2023, "G/5;d5", Blitz},     // delay counts like an increment
	{FIDE2023, "G/5;b6", Rapid},
	{FIDE2023, "*600", Blitz}, // hourglass: T is the base
	{FIDE2023, "*601", Rapid},
	{FIDE2023, "40/5400+30:1800+30", Standard},
	{FIDE2023, "40/600:300", Rapid}, // 600 + 300 s
	{FIDE2023, "60/600:300", Blitz}, // period 2 starts at move 61: T = 600 s
	{FIDE2023, "40/1800:20/1800:900+30", Standard},
	{FIDE2023, "40/1800:20/1799:900+30", Rapid}, // period 3 starts at move 61
	{"", "600", Blitz},                          // the empty ruleset is fide-2023
	{"", "601", Rapid},
	{"", "3600", Standard},
	// FIDE 2018 Appendix A.1 / B.1: the same thresholds as 2023.
	{FIDE2018, "600", Blitz},
	{FIDE2018, "601", Rapid},
	{FIDE2018, "3599", Rapid},
	{FIDE2018, "3600", Standard},
	// FIDE 2009 Appendix B1: blitz T < 15 min; A1: rapid 15 <= T < 60 min.
	{FIDE2009, "899", Blitz},
	{FIDE2009, "600", Blitz},
	{FIDE2009, "3599", Rapid},
	{FIDE2009, "45m+15s", Standard},
	{FIDE2009, "*900", Rapid},
	// FIDE 2005 Appendix C (blitz) T < 15 min; B (rapidplay) 15 <= T <= 60 min.
	{FIDE2005, "899", Blitz},
	{FIDE2005, "3600", Rapid},
	{FIDE2005, "45m+15s", Rapid}, // exactly 60 min is still rapid in 2005
	{FIDE2005, "3601", Standard},
	{FIDE2005, "40/7200:3600", Standard},
}

func TestGameType(t *testing.T) {
	for _, test := range gameTypeTests {
		t.Run(string(test.ruleset)+" "+test.tc, func(t *testing.T) {
			tc, err := ParseTimeControl(test.tc)
			if err != nil {
				t.Errorf("ParseTimeControl(%q) error: %v", test.tc, err)
				return
			}
			if got, err := GameType(test.ruleset, tc); err != nil || got != test.want {
				t.Errorf("GameType(%q, %q) = %v, want %v (T = %d ms)", test.ruleset, test.tc, got, test.want, tc.SixtyMoveMs())
			}
		})
	}
}
