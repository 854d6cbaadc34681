package rules

// DrawOdds names the side for whom a drawn game counts as a win: an
// Armageddon tie-break gives them to Black. The game's own result stays
// what happened on the board (a draw, PGN "1/2-1/2"); the result that
// counts — in standings, the TRF and the results lists — is the named
// side's win (Result.Counting). The empty value: no draw odds.
type DrawOdds string

const (
	NoDrawOdds    DrawOdds = ""
	DrawOddsWhite DrawOdds = "white"
	DrawOddsBlack DrawOdds = "black"
)

// ParseDrawOdds reads draw odds: "white", "black", or "" (or "none") for
// none.
func ParseDrawOdds(s string) (DrawOdds, error) {
	switch s {
	case "", "none":
		return NoDrawOdds, nil
	case "white", "black":
		return DrawOdds(s), nil
	}
	return "", &InputError{What: "draw odds", Value: s, Problem: "not a side",
		Allowed: `"white" or "black" (a draw counts as that side's win), or "" for none`}
}

// Counting returns the result that counts for r under draw odds o: a draw
// over the board counts as the favoured side's win; every other result
// (a win, a forfeit, the arbiter's scores) counts as it is.
func (r Result) Counting(o DrawOdds) Result {
	if r != Draw {
		return r
	}
	switch o {
	case DrawOddsWhite:
		return WhiteWins
	case DrawOddsBlack:
		return BlackWins
	}
	return r
}

// CountingResult is the result that counts for the board's game under its
// draw odds (Regulations.DrawOdds); Result stays what happened.
func (s *State) CountingResult() Result {
	return s.Result.Counting(s.Config.Regulations.DrawOdds)
}
