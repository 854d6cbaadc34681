package standings

import (
	"errors"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for in, want := range map[string]string{
		"BH-C1,BH,SB":        "BH-C1,BH,SB",
		" bh/m2 , sb-c1,de ": "BH-M2,SB-C1,DE",
		"PTS,BH":             "BH", // points always rank first (art. 4.2)
		"ARO-C1,TPR,PTP,APRO,AOB,PS-C1,KS,WIN,WON,BPG,BWG,GE": "ARO-C1,TPR,PTP,APRO,AOB,PS-C1,KS,WIN,WON,BPG,BWG,GE",
		"": "",
	} {
		tbs, err := Parse(in)
		if err != nil {
			t.Errorf("Parse(%q): %v", in, err)
			continue
		}
		if got := Format(tbs); got != want {
			t.Errorf("Parse(%q) = %q, want %q", in, got, want)
		}
	}
	for in, c := range map[string]struct {
		item int
		says string
	}{
		"BH,XYZ":   {2, "unknown tie-break \"XYZ\""},
		"BH-C3":    {1, "want C1, C2"},
		"WIN-C1":   {1, "WIN takes no cut"},
		"ARO-M1":   {1, "ARO takes no median"},
		"BH,,SB":   {2, "empty"},
		"SB,BH,SB": {3, "listed twice"},
		"BH-":      {1, "modifier"},
		"BH-X1":    {1, "modifier \"X1\""},
	} {
		_, err := Parse(in)
		var pe *ParseError
		if !errors.As(err, &pe) {
			t.Errorf("Parse(%q): %v, want a *ParseError", in, err)
			continue
		}
		if pe.Item != c.item || !strings.Contains(err.Error(), c.says) {
			t.Errorf("Parse(%q): item %d %q, want item %d saying %q", in, pe.Item, err, c.item, c.says)
		}
	}
}

func TestDefaults(t *testing.T) {
	if got := Format(Defaults(false)); got != "BH-C1,BH,DE" {
		t.Errorf("Swiss defaults %s", got)
	}
	if got := Format(Defaults(true)); got != "DE,WIN,SB,KS" {
		t.Errorf("round robin defaults %s", got)
	}
	// A copy: changing it leaves the package's list alone.
	d := Defaults(true)
	d[0].Name = "BH"
	if DefaultRoundRobin[0].Name != "DE" {
		t.Error("Defaults returned the package's own slice")
	}
}

func TestValueExact(t *testing.T) {
	for _, c := range []struct {
		v  Value
		s  string
		f1 string
	}{
		{Points(2050).Value(), "20.5", "20.5"},
		{Points(3525).Value(), "35.25", "35.3"},
		{Int(45), "45", "45.0"},
		{Int(2450), "2450", "2450.0"},
		{-Points(150).Value(), "-1.5", "-1.5"},
		{Value(1), "0.0001", "0.0"},
		{0, "0", "0.0"},
	} {
		if got := c.v.String(); got != c.s {
			t.Errorf("String() = %q, want %q", got, c.s)
		}
		if got := c.v.Fixed(1); got != c.f1 {
			t.Errorf("Fixed(1) of %s = %q, want %q", c.s, got, c.f1)
		}
	}
	// 0.1 + 0.2 added a thousand times is exact, unlike float64.
	var sum Points
	for range 1000 {
		p, err := PointsOf(0.1)
		if err != nil {
			t.Fatal(err)
		}
		sum += p
		q, _ := PointsOf(0.2)
		sum += q
	}
	if sum.String() != "300" {
		t.Errorf("sum %s, want 300", sum)
	}
	if _, err := PointsOf(0.333); err == nil {
		t.Error("PointsOf(0.333): want an error (three decimals)")
	}
	if got := divRound(Int(1340)+5000, 10, Unit/100); got.String() != "134.05" {
		t.Errorf("divRound: %s, want 134.05 (half up)", got)
	}
}

// Ratings, FIDE Tie-Break Regulations art. 10, through the FIDE Rating
// Regulations' tables (B.02 8.1.1, 8.1.2).
func TestRatingTieBreaks(t *testing.T) {
	// 1 (2000) beats 2 (1800), draws 3 (2200), loses to 4 (unrated).
	tour := build(t, Classic, false,
		"1 2000: 2w1 3b= 4w0",
		"2 1800: 1b0 4w1 3w0",
		"3 2200: 4b1 1w= 2b1",
		"4 0: 3w0 2b0 1b1",
	)
	tab := mustCompute(t, tour, 0, "ARO,ARO-C1,TPR,PTP,APPO")
	for _, c := range []struct {
		start    int
		tb, want string
		why      string
	}{
		{1, "ARO", "2000", "art. 10.1: (1800 + 2200) / 2, the unrated opponent left out"},
		{1, "ARO-C1", "2000", "art. 14.1: no cut while a game was against an unrated player"},
		{3, "ARO-C1", "1900", "art. 14.1: not cut: one game was against an unrated player"},
		{1, "TPR", "2193", "art. 10.2: ARO 2000 + dp(0.75) = 193"},
		{2, "TPR", "1300", "art. 10.2: two rated games lost: ARO 2100 + dp(0) = -800"},
		{2, "PTP", "1200", "art. 10.3: nothing scored: the lowest rating less 800"},
		// art. 10.3: 1.5 of 2 against 2000 and 1800: at 2103 the expected
		// scores are 0.64 (D=103) + 0.86 (D=303) = 1.50; at 2102, 0.64 + 0.85.
		{3, "PTP", "2103", "art. 10.3: the lowest rating expected to score 1.5"},
		// art. 10.3 for 1: 1.5 of 2 against 1800 and 2200: at 2240,
		// 0.94 (D=440) + 0.56 (D=40) = 1.50; at 2239, 0.94 + 0.55.
		{1, "PTP", "2240", "art. 10.3"},
		// art. 10.3 for 4: 1 of 3 against 2200, 1800, 2000: at 1855,
		// 0.11 + 0.58 + 0.31 = 1.00; at 1854, 0.11 + 0.58 + 0.30.
		{4, "PTP", "1855", "art. 10.3"},
		{4, "APPO", "1848", "art. 10.5: (2240 + 1200 + 2103) / 3 = 1847.67, rounded"},
		{3, "APPO", "1765", "art. 10.5: (1855 + 2240 + 1200) / 3"},
		{1, "APPO", "1719", "art. 10.5: (1200 + 2103 + 1855) / 3 = 1719.33"},
	} {
		if got := get(t, tab, c.start, c.tb); got != c.want {
			t.Errorf("player %d %s = %s, want %s (%s)", c.start, c.tb, got, c.want, c.why)
		}
	}
}
