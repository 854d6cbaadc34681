package rules

// BonusKind says what a period gives per move: nothing, a Fischer increment,
// a simple (US) delay or a Bronstein delay. Append only: do not reorder.
type BonusKind int8

const (
	NoBonus     BonusKind = iota // sudden death: nothing per move
	Increment                    // Fischer: BonusMs added after each completed move (6.3.1 2023)
	SimpleDelay                  // main time starts after BonusMs each move (6.3.2 2023, "time-delay mode")
	Bronstein                    // main time runs at once; up to BonusMs of the move's time is given back at the press
)

// Period is one period of a time control. Moves is the number of moves that
// must be completed in it; 0 means "the rest of the game" and is only allowed
// (and required) in the last period. BaseMs is the time the period adds;
// time saved in one period carries into the next.
type Period struct {
	Moves   int
	BaseMs  int64
	Bonus   BonusKind
	BonusMs int64
}

// TimeControl is the time control of a game: one or more periods, or an
// hourglass (Hourglass true, exactly one period with no moves and no bonus,
// where the time one player uses is added to the opponent's).
//
// The zero value is not a valid time control; build one with
// ParseTimeControl or fill Periods and call Validate.
//
// The two players may have different controls (time odds; an Armageddon
// game, White 5 min and Black 4): Periods and Hourglass are then White's,
// and Black holds Black's own. Black is nil when both play under the same
// control; it never has a Black of its own, and neither side's control is
// an hourglass. Methods that read one control (MovesBefore, SixtyMoveMs,
// ...) read White's; take a side's with For.
type TimeControl struct {
	Periods   []Period
	Hourglass bool
	Black     *TimeControl `json:",omitempty"`
}

// For returns the control side plays under, with no Black of its own.
func (tc TimeControl) For(side Side) TimeControl {
	if side == Black && tc.Black != nil {
		return TimeControl{Periods: tc.Black.Periods, Hourglass: tc.Black.Hourglass}
	}
	return TimeControl{Periods: tc.Periods, Hourglass: tc.Hourglass}
}

// PerSide reports whether the two players have different controls.
func (tc TimeControl) PerSide() bool { return tc.Black != nil }

// withBlack returns white's control with black's as Black, or white's
// alone when the two are the same.
func withBlack(white, black TimeControl) TimeControl {
	white.Black = nil
	black.Black = nil
	if white.String() == black.String() {
		return white
	}
	return TimeControl{Periods: white.Periods, Hourglass: white.Hourglass, Black: &black}
}

// MovesBefore returns the number of moves a player has completed when
// period p (0-based) starts: the sum of the move counts of periods 0..p-1.
func (tc TimeControl) MovesBefore(p int) int {
	n := 0
	for i := 0; i < p && i < len(tc.Periods); i++ {
		n += tc.Periods[i].Moves
	}
	return n
}

// PeriodForMoves returns the 0-based period in force, under period change
// by moves, for a player who has completed the given number of moves.
func (tc TimeControl) PeriodForMoves(moves int) int {
	n := 0
	for i, p := range tc.Periods {
		if p.Moves == 0 || i == len(tc.Periods)-1 {
			return i
		}
		n += p.Moves
		if moves < n {
			return i
		}
	}
	return len(tc.Periods) - 1
}

// HasBonus reports whether any period has an increment or a delay.
func (tc TimeControl) HasBonus() bool {
	for _, p := range tc.Periods {
		if p.Bonus != NoBonus && p.BonusMs > 0 {
			return true
		}
	}
	return false
}

// Last returns the index of the last period.
func (tc TimeControl) Last() int { return len(tc.Periods) - 1 }
