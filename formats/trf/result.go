package trf

import (
	"fmt"

	"github.com/chesshall/hallclock/rules"
)

// Results of the hall that rules.Result has no constant for yet (the rules
// engine produces them as these strings).
const (
	halfZero rules.Result = "1/2-0" // White scores a half, Black nothing
	zeroHalf rules.Result = "0-1/2"
)

// codePairs maps each result to the codes of White and Black: of a game
// played, and of one that lasted less than one move.
var codePairs = []struct {
	result       rules.Result
	white, black Code
	quickW       Code
	quickB       Code
}{
	{rules.WhiteWins, Win, Loss, QuickWin, QuickLoss},
	{rules.BlackWins, Loss, Win, QuickLoss, QuickWin},
	{rules.Draw, Draw, Draw, QuickDraw, QuickDraw},
	{rules.BlackForfeit, ForfeitWin, ForfeitLoss, ForfeitWin, ForfeitLoss},
	{rules.WhiteForfeit, ForfeitLoss, ForfeitWin, ForfeitLoss, ForfeitWin},
	{rules.DoubleForfeit, ForfeitLoss, ForfeitLoss, ForfeitLoss, ForfeitLoss},
	{rules.BothLose, Loss, Loss, QuickLoss, QuickLoss},
	{halfZero, Draw, Loss, QuickDraw, QuickLoss},
	{zeroHalf, Loss, Draw, QuickLoss, QuickDraw},
	{rules.NoResult, NoCode, NoCode, NoCode, NoCode},
}

// Codes returns the TRF result codes of White and Black for a result of
// the hall: "1-0" is 1 and 0, "+-" is + and -, "--" is - and -, "0-0" is 0
// and 0, "1/2-0" is = and 0, "*" blank for both. When the game lasted less
// than one move (not rated), a game's codes are W, D and L instead;
// forfeits stay + and -.
func Codes(r rules.Result, lessThanOneMove bool) (white, black Code, err error) {
	for _, c := range codePairs {
		if c.result == r {
			if lessThanOneMove {
				return c.quickW, c.quickB, nil
			}
			return c.white, c.black, nil
		}
	}
	return 0, 0, fmt.Errorf("trf: result %q has no TRF codes (want 1-0, 0-1, 1/2-1/2, +-, -+, --, 0-0, 1/2-0, 0-1/2 or *)", r)
}

// ResultOf returns the hall's result for the codes of White and Black; a
// pair of codes that cannot go together ("1" and "1", "+" and "0") is an
// error.
func ResultOf(white, black Code) (rules.Result, error) {
	for _, c := range codePairs {
		if (c.white == white && c.black == black) || (c.quickW == white && c.quickB == black) {
			return c.result, nil
		}
	}
	return "", fmt.Errorf("results %q for White and %q for Black do not go together", white, black)
}

// Scoring is what a game scores: Win, Draw and Loss of a game played (the
// zero value is 1, ½, 0). A forfeit win, a full-point and a
// pairing-allocated bye score a win; a half-point bye a draw; a forfeit
// loss and a zero-point bye nothing.
type Scoring = rules.Scoring

// Score returns what a result code scores under sc.
func Score(c Code, sc Scoring) float64 {
	if sc == (Scoring{}) {
		sc = rules.ClassicScoring
	}
	switch c {
	case Win, QuickWin, ForfeitWin, FullBye, PairingBye:
		return sc.Win
	case Draw, QuickDraw, HalfBye:
		return sc.Draw
	case Loss, QuickLoss:
		return sc.Loss
	}
	return 0
}
