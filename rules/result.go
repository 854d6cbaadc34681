package rules

// Result is the result of a game in PGN spelling, plus the forfeit forms.
type Result string

const (
	NoResult      Result = "*"
	WhiteWins     Result = "1-0"
	BlackWins     Result = "0-1"
	Draw          Result = "1/2-1/2"
	WhiteForfeit  Result = "-+"  // White did not come (or lost by default): Black wins by forfeit
	BlackForfeit  Result = "+-"  // Black lost by default: White wins by forfeit
	DoubleForfeit Result = "--"  // neither player came
	BothLose      Result = "0-0" // both players lose (e.g. both guilty of a breach, 12.9 2009)
)

// ParseResult reads a result as PGN writes it ("½-½" is also accepted).
func ParseResult(s string) (Result, error) {
	switch Result(s) {
	case NoResult, WhiteWins, BlackWins, Draw, WhiteForfeit, BlackForfeit, DoubleForfeit, BothLose:
		return Result(s), nil
	case "½-½", "0.5-0.5":
		return Draw, nil
	}
	return "", &InputError{What: "result", Value: s, Allowed: "1-0, 0-1, 1/2-1/2, +-, -+, --, 0-0 or *"}
}

// Score returns what the result scores for White and Black under sc (the
// zero Scoring means 1 / ½ / 0). A forfeit scores like a win and a loss.
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
	}
	return 0, 0
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
