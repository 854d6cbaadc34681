package rules

import "strings"

// Result is the result of a game in PGN spelling (ASCII), plus the
// forfeit forms and the scores an arbiter may give by 12.9 (2023) or 12.2
// (2009): these nine strings and "*" are the whole vocabulary, so that
// other programs can rely on them.
type Result string

const (
	NoResult      Result = "*"
	WhiteWins     Result = "1-0"
	BlackWins     Result = "0-1"
	Draw          Result = "1/2-1/2"
	WhiteForfeit  Result = "-+"    // White did not come (or lost by default): Black wins by forfeit
	BlackForfeit  Result = "+-"    // Black lost by default: White wins by forfeit
	DoubleForfeit Result = "--"    // neither player came
	BothLose      Result = "0-0"   // both players lose (e.g. both guilty of a breach, 12.9 2009)
	WhiteHalf     Result = "1/2-0" // White scores a draw, Black nothing (12.9: a score reduced or raised; 2009 12.2(b))
	BlackHalf     Result = "0-1/2" // Black scores a draw, White nothing
)

// Results lists every result but NoResult.
var Results = []Result{WhiteWins, BlackWins, Draw, BlackForfeit, WhiteForfeit, DoubleForfeit, BothLose, WhiteHalf, BlackHalf}

// ParseResult reads a result as written above; "½" for "1/2" and "0.5-0.5"
// are also accepted and give the ASCII spelling.
func ParseResult(s string) (Result, error) {
	switch r := Result(strings.ReplaceAll(s, "½", "1/2")); r {
	case NoResult, WhiteWins, BlackWins, Draw, WhiteForfeit, BlackForfeit, DoubleForfeit, BothLose, WhiteHalf, BlackHalf:
		return r, nil
	case "0.5-0.5":
		return Draw, nil
	}
	return "", &InputError{What: "result", Value: s, Allowed: "1-0, 0-1, 1/2-1/2, +-, -+, --, 0-0, 1/2-0, 0-1/2 or *"}
}

// Score returns what the result scores for White and Black under sc (the
// zero Scoring means 1 / ½ / 0). A forfeit scores like a win and a loss; a
// half result scores a draw for one player and a loss for the other.
func (r Result) Score(sc Scoring) (white, black float64) {
	if sc == (Scoring{}) {
		sc = ClassicScoring
	}
	switch r {
	case WhiteWins, BlackForfeit:
		return sc.Win, sc.Loss
	case BlackWins, WhiteForfeit:
		return sc.Loss, sc.Win
	case Draw:
		return sc.Draw, sc.Draw
	case DoubleForfeit, BothLose:
		return sc.Loss, sc.Loss
	case WhiteHalf:
		return sc.Draw, sc.Loss
	case BlackHalf:
		return sc.Loss, sc.Draw
	}
	return 0, 0
}

// lossOf returns the results of a game lost by side: the opponent wins, or
// scores a draw; or both lose.
func lossOf(side Side) []Result {
	if side == White {
		return []Result{BlackWins, BlackHalf, BothLose}
	}
	return []Result{WhiteWins, WhiteHalf, BothLose}
}

// halfFor returns the result in which side scores a draw and the opponent
// nothing.
func halfFor(s Side) Result {
	if s == White {
		return WhiteHalf
	}
	return BlackHalf
}

// winFor returns the result in which side wins over the board.
func winFor(s Side) Result {
	if s == White {
		return WhiteWins
	}
	return BlackWins
}

// Termination says how a game ended.
type Termination string

const (
	TermNone           Termination = ""
	TermNormal         Termination = "normal"          // checkmate, resignation, stalemate, dead position
	TermTime           Termination = "time"            // a flag fell (6.9) or both did
	TermIllegalMove    Termination = "illegal_move"    // 7.5.5 and the older 7.4 / B6 / C3
	TermDefault        Termination = "default"         // a player did not arrive within the default time (6.7)
	TermQuickplayClaim Termination = "quickplay_claim" // III.5 / 10.2 upheld
	TermArbiter        Termination = "arbiter"         // the arbiter's decision (12.9, penalties, devices)
	TermAgreement      Termination = "agreement"       // draw agreed (9.1)
)

// ParseTermination reads a termination; the empty string is TermNone.
func ParseTermination(s string) (Termination, error) {
	switch Termination(s) {
	case TermNone, TermNormal, TermTime, TermIllegalMove, TermDefault, TermQuickplayClaim, TermArbiter, TermAgreement:
		return Termination(s), nil
	}
	return "", &InputError{What: "termination", Value: s,
		Allowed: "normal, time, illegal_move, default, quickplay_claim, arbiter or agreement"}
}
