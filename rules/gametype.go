package rules

// SixtyMoveMs returns T of rules.md §2 (FIDE Appendix A.1 / B.1), the time
// for 60 moves, in milliseconds: the base times of every period that starts
// within the first 60 moves (period p starts within them when fewer than 60
// moves come before it, MovesBefore(p) < 60), plus what moves 1 to 60 earn
// by increment, each move earning the bonus of the period it belongs to
// (periods changing by move count, as PeriodForMoves). Simple and Bronstein
// delays count like increments. For an hourglass T is the base. A control
// without periods gives 0.
func (tc TimeControl) SixtyMoveMs() int64 {
	if len(tc.Periods) == 0 {
		return 0
	}
	if tc.Hourglass {
		return tc.Periods[0].BaseMs
	}
	var t int64
	for p := range tc.Periods {
		if tc.MovesBefore(p) < 60 {
			t += tc.Periods[p].BaseMs
		}
	}
	for done := 0; done < 60; done++ { // move done+1 is made with done moves completed
		p := tc.Periods[tc.PeriodForMoves(done)]
		if p.Bonus != NoBonus && p.BonusMs > 0 {
			t += p.BonusMs
		}
	}
	return t
}

// GameType returns the category of a game played with tc under the ruleset
// r ("" is DefaultRuleset), from T = tc.SixtyMoveMs() and the thresholds of
// its profile (Appendix A.1 / B.1):
//
//	fide-2023, fide-2018: blitz T ≤ 10 min, rapid 10 min < T < 60 min, standard T ≥ 60 min
//	fide-2009:            blitz T < 15 min, rapid 15 min ≤ T < 60 min, standard T ≥ 60 min
//	fide-2005:            blitz T < 15 min, rapid 15 min ≤ T ≤ 60 min, standard T > 60 min
//
// An unknown ruleset is an *InputError.
func GameType(r Ruleset, tc TimeControl) (Category, error) {
	p, err := ProfileOf(r)
	if err != nil {
		return Standard, err
	}
	return p.GameType(tc), nil
}
