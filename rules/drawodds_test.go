package rules

import (
	"errors"
	"testing"
)

func TestCounting(t *testing.T) {
	for _, c := range []struct {
		r    Result
		o    DrawOdds
		want Result
	}{
		{Draw, DrawOddsBlack, BlackWins},
		{Draw, DrawOddsWhite, WhiteWins},
		{Draw, NoDrawOdds, Draw},
		{WhiteWins, DrawOddsBlack, WhiteWins},
		{WhiteForfeit, DrawOddsWhite, WhiteForfeit},
		{WhiteHalf, DrawOddsBlack, WhiteHalf},
		{DoubleForfeit, DrawOddsBlack, DoubleForfeit},
		{NoResult, DrawOddsBlack, NoResult},
	} {
		if got := c.r.Counting(c.o); got != c.want {
			t.Errorf("%s under draw odds %q counts as %s, want %s", c.r, c.o, got, c.want)
		}
	}
}

func TestDrawOddsRefused(t *testing.T) {
	if _, err := ParseDrawOdds("blue"); !errors.Is(err, ErrInvalid) {
		t.Errorf("ParseDrawOdds(blue): %v", err)
	}
	tc, _ := ParseTimeControl("5m")
	_, err := NewState(Config{TimeControl: tc, Regulations: Regulations{DrawOdds: "Black"}})
	if !errors.Is(err, ErrInvalid) {
		t.Errorf("NewState with draw odds %q: %v, want an InputError", "Black", err)
	}
}
