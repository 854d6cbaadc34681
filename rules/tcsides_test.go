package rules

import (
	"errors"
	"strings"
	"testing"
)

func TestParseTimeControlPerSide(t *testing.T) {
	for _, c := range []struct {
		in, str, units string
		white, black   int64 // first period's base, ms
	}{
		{"white 5m | black 4m", "white 300 | black 240", "white 5m | black 4m", 300_000, 240_000},
		{"Black: 4m | White: 5m", "white 300 | black 240", "white 5m | black 4m", 300_000, 240_000},
		{"white=60/5m:0+2s|black=60/4m:0+2s", "white 60/300:0+2 | black 60/240:0+2", "white 60/5m:0+2s | black 60/4m:0+2s", 300_000, 240_000},
		{"white 3m+2s | black 3m", "white 180+2 | black 180", "white 3m+2s | black 3m", 180_000, 180_000},
	} {
		tc, err := ParseTimeControl(c.in)
		if err != nil {
			t.Fatalf("%q: %v", c.in, err)
		}
		if !tc.PerSide() {
			t.Fatalf("%q: not per side", c.in)
		}
		if got := tc.String(); got != c.str {
			t.Errorf("%q: String %q, want %q", c.in, got, c.str)
		}
		if got := tc.WithUnits(); got != c.units {
			t.Errorf("%q: WithUnits %q, want %q", c.in, got, c.units)
		}
		if w, b := tc.For(White).Periods[0].BaseMs, tc.For(Black).Periods[0].BaseMs; w != c.white || b != c.black {
			t.Errorf("%q: bases %d/%d, want %d/%d", c.in, w, b, c.white, c.black)
		}
		for _, text := range []string{tc.String(), tc.WithUnits()} {
			back, err := ParseTimeControl(text)
			if err != nil || back.String() != tc.String() {
				t.Errorf("%q: %q reads back as %q, %v", c.in, text, back.String(), err)
			}
		}
		if err := tc.Validate(); err != nil {
			t.Errorf("%q: Validate: %v", c.in, err)
		}
	}
}

func TestParseTimeControlPerSideEqualIsOne(t *testing.T) {
	tc, err := ParseTimeControl("white 5m | black 300s")
	if err != nil {
		t.Fatal(err)
	}
	if tc.PerSide() || tc.String() != "300" {
		t.Errorf("equal sides: %q per side %v, want one control 300", tc.String(), tc.PerSide())
	}
}

func TestParseTimeControlPerSideRefused(t *testing.T) {
	for in, want := range map[string]string{
		"white 5m | black 4m | white 3m": "two parts",
		"5m | 4m":                        `starts with "white" or "black"`,
		"white 5m | white 4m":            "given twice",
		"white | black 4m":               "no control given for white",
		"white *5m | black *4m":          "hourglass",
		"white 5m | black 4":             "4 s?",
		"white 5m | black 4x":            "unexpected",
	} {
		_, err := ParseTimeControl(in)
		var ie *InputError
		if !errors.As(err, &ie) || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want an InputError saying %q", in, err, want)
		}
	}
	bad := TimeControl{Periods: []Period{{BaseMs: 300_000}}, Black: &TimeControl{Periods: []Period{{BaseMs: 240_000}}, Hourglass: true}}
	if err := bad.Validate(); err == nil {
		t.Error("a per-side hourglass passes Validate")
	}
	bad.Black = &TimeControl{Periods: []Period{{BaseMs: 1500}}}
	if err := bad.Validate(); err == nil {
		t.Error("Black's fraction of a second passes Validate")
	}
}

// TestGameTypePerSide: the appendices define rapid and blitz by the time
// of "each player" (A.1, B.1): a game is of a type when each side's
// control is; controls of different types make neither, so standard.
func TestGameTypePerSide(t *testing.T) {
	for _, c := range []struct {
		r    Ruleset
		tc   string
		want Category
	}{
		{FIDE2023, "white 5m | black 4m", Blitz},
		{FIDE2023, "white 60/5m:0+2s | black 60/4m:0+2s", Blitz},
		{FIDE2023, "white 25m | black 15m", Rapid},
		{FIDE2023, "white 11m | black 10m", Standard},
		{FIDE2009, "white 15m | black 14m", Standard},
		{FIDE2009, "white 15m | black 59m", Rapid},
		{FIDE2023, "white 90m+30s | black 45m+30s", Standard},
	} {
		tc, err := ParseTimeControl(c.tc)
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := GameType(c.r, tc); got != c.want {
			t.Errorf("%s %q: %v, want %v", c.r, c.tc, got, c.want)
		}
	}
}

func TestDescribePerSide(t *testing.T) {
	tc, err := ParseTimeControl("white 60/5m:0+2s | black 60/4m:0+2s")
	if err != nil {
		t.Fatal(err)
	}
	got, err := tc.Describe(FIDE2023)
	want := "White 5 min for 60 moves, then no more time, +2 s per move from move 61; Black 4 min for 60 moves, then no more time, +2 s per move from move 61; blitz"
	if err != nil || got != want {
		t.Errorf("Describe: %q, %v\nwant %q", got, err, want)
	}
}

// TestStatePerSide: each clock runs under its own control: its own base,
// its own increment.
func TestStatePerSide(t *testing.T) {
	tc, err := ParseTimeControl("white 3m+2s | black 2m")
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewState(Config{Ruleset: FIDE2023, TimeControl: tc})
	if err != nil {
		t.Fatal(err)
	}
	if s.P[White].MainMs != 180_000 || s.P[Black].MainMs != 120_000 {
		t.Fatalf("start: %d/%d", s.P[White].MainMs, s.P[Black].MainMs)
	}
	for _, e := range []Event{{Kind: KindStart, T: 0}, {Kind: KindPress, T: 1000, Side: White}, {Kind: KindPress, T: 3000, Side: Black}} {
		if s, err = Apply(s, e); err != nil {
			t.Fatal(err)
		}
	}
	if s.P[White].MainMs != 181_000 || s.P[Black].MainMs != 118_000 {
		t.Errorf("after a move each: %d/%d, want 181000/118000", s.P[White].MainMs, s.P[Black].MainMs)
	}
}
