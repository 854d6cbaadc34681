package rules

// Project returns the state at instant t ≥ s.At: the running clock is run
// forward, and whatever happens by itself until t happens, in order — a
// flag falls (ending the game when supervised, 6.9; only recorded otherwise),
// a period is added at the flag (6.4), an absent player forfeits (6.7),
// both flags fall (2009 A6). A flag falls at the instant the main time
// (after any delay window) reaches zero, so a projection to that very
// instant already shows it; an absent player forfeits at any instant
// strictly after the default time. If t < s.At the state is returned
// unchanged.
//
// Projection composes: s.Project(t1).Project(t2) equals s.Project(t2).
func (s State) Project(t int64) State {
	if t < s.At {
		return s
	}
	for s.Status != Finished {
		f, okf := s.FlagDeadline()
		d, okd := s.defaultDeadline()
		okf = okf && f <= t
		okd = okd && d < t
		switch {
		case okf && (!okd || f <= d):
			s.advance(f)
			s.flagFalls(f)
		case okd:
			s.advance(d)
			s.forfeit(d)
		default:
			s.advance(t)
			return s
		}
	}
	s.At = t
	return s
}

// advance runs the clock from s.At to t (t ≥ s.At), with no event between.
func (s *State) advance(t int64) {
	e := t - s.At
	s.At = t
	side, ok := s.Running()
	if ok && e > 0 {
		s.use(side, e)
	}
	s.noteTimeTrouble()
}

// use charges e ms of thinking time to side's move in progress: the simple
// delay first, then the main time (never below zero), which an hourglass
// gives to the opponent. It returns the main time it used.
func (s *State) use(side Side, e int64) int64 {
	p := &s.P[side]
	p.MoveUsedMs += e
	p.UsedMs += e
	if s.movePeriod(side).Bonus == SimpleDelay {
		d := min(e, p.DelayLeftMs)
		p.DelayLeftMs -= d
		e -= d
	}
	used := min(e, p.MainMs)
	p.MainMs -= used
	if s.Config.TimeControl.Hourglass {
		s.P[side.Other()].MainMs += used
	}
	return used
}

// noteTimeTrouble marks the players who have less than five minutes in a
// period without an increment of 30 s or more a move (8.4). The mark stays
// for the rest of the period (enterPeriod clears it).
func (s *State) noteTimeTrouble() {
	for side := range s.P {
		p := &s.P[side]
		per := s.period(Side(side))
		big := per.Bonus == Increment && per.BonusMs >= timeTroubleIncr
		if p.MainMs < timeTroubleMs && !big {
			p.TimeTrouble = true
		}
	}
}

// enterPeriod puts side in period i (0-based), adding the bases of the
// periods entered when add; 8.4's time trouble ends with the period left.
func (s *State) enterPeriod(side Side, i int, add bool) {
	p := &s.P[side]
	if i == p.Period {
		return
	}
	for add && p.Period < i {
		p.Period++
		p.MainMs += s.control(side).Periods[p.Period].BaseMs
	}
	p.Period = i
	p.TimeTrouble = false
}

// flagFalls handles the running side's time running out at instant t.
func (s *State) flagFalls(t int64) {
	side := s.ToMove
	p := &s.P[side]
	tc := s.control(side)
	if s.Config.Regulations.PeriodChange == AtFlag && p.Period < tc.Last() &&
		p.Moves >= tc.MovesBefore(p.Period+1) {
		// 6.4: the moves of the period were completed, the next period's
		// time is added and play goes on.
		s.enterPeriod(side, p.Period+1, true)
		s.noteTimeTrouble()
		return
	}
	p.FlagAt = t
	if !s.HasFlag {
		s.HasFlag, s.FirstFlag = true, side
	}
	if s.Supervised() {
		// 6.8-6.9: the flag is observed at once; the game is lost, or drawn
		// if the opponent cannot checkmate by any series of legal moves.
		s.end(t, s.lossFor(side), TermTime)
		return
	}
	if pr := s.profile(); pr != nil && pr.Unsupervised.BothFlagsDraw && s.P[side.Other()].FlagAt != NoFlag {
		// 2009 A6 / 2005 B8: both flags have fallen: drawn.
		s.end(t, Draw, TermTime)
	}
	// Otherwise the flag is recorded and counts only when claimed (A.5.5).
}

// forfeit ends the game of absent players at instant t: at the start by
// default (6.7: +-, -+, --), at the resumption of an adjourned game as a
// game lost (Guidelines I.10, 2005 A10: the game was played: 1-0, 0-1, 0-0).
func (s *State) forfeit(t int64) {
	wa, ba := s.P[White].Absent, s.P[Black].Absent
	r := DoubleForfeit
	switch {
	case wa && !ba:
		r = WhiteForfeit
	case ba && !wa:
		r = BlackForfeit
	}
	if s.AtResumption {
		r = map[Result]Result{DoubleForfeit: BothLose, WhiteForfeit: BlackWins, BlackForfeit: WhiteWins}[r]
	}
	s.end(t, r, TermDefault)
}

// lossFor is the result when loser loses on time, by illegal moves or by a
// penalty: a win for the opponent, or a draw if the opponent cannot
// checkmate by any possible series of legal moves (6.9, 7.5.5). With no
// known position, the opponent is taken to be able to checkmate.
func (s *State) lossFor(loser Side) Result {
	if s.FEN != "" {
		if can, err := CanCheckmate(s.FEN, loser.Other()); err == nil && !can {
			return Draw
		}
	}
	return winFor(loser.Other())
}

// end finishes the game at instant t.
func (s *State) end(t int64, r Result, term Termination) {
	s.Status = Finished
	s.Result, s.Termination = r, term
	s.EndedAt = t
	s.HasLastMover = false
}

// movePeriod returns the period side's move in progress belongs to. It is
// the period in force, except after an illegal move was ruled: the
// replacement of the last move of a period is still a move of that period
// and earns its increment (6.3.1: "after each completed move of that
// period"), although the next period's time was added already.
func (s *State) movePeriod(side Side) Period {
	p := &s.P[side]
	tc := s.control(side)
	return tc.Periods[min(p.Period, tc.PeriodForMoves(p.Moves))]
}

// startMove starts side's move: its clock is the one to run next, with a
// fresh delay.
func (s *State) startMove(side Side) {
	s.ToMove = side
	p := &s.P[side]
	p.MoveUsedMs = 0
	p.DelayLeftMs = 0
	if per := s.movePeriod(side); per.Bonus == SimpleDelay {
		p.DelayLeftMs = per.BonusMs
	}
}

// completeMove completes side's move (a press, or the sealed move at the
// resumption): increment or Bronstein return of the period the move
// belongs to, the move counter, the period change by moves, and the
// opponent's move starts. A sealed move made at the resumption is
// answered by it, or is this move.
func (s *State) completeMove(side Side) {
	p := &s.P[side]
	tc := s.control(side)
	s.Sealed = false
	if p.FlagAt == NoFlag {
		// No increment is earned by a move completed after the flag fell.
		switch per := s.movePeriod(side); per.Bonus {
		case Increment:
			p.MainMs += per.BonusMs
		case Bronstein:
			p.MainMs += min(p.MoveUsedMs, per.BonusMs)
		}
		p.MainMs += s.QuickplayBonusMs
	}
	p.Moves++
	if s.Config.Regulations.PeriodChange == ByMoves && p.FlagAt == NoFlag {
		s.enterPeriod(side, max(p.Period, tc.PeriodForMoves(p.Moves)), true)
	}
	s.HasLastMover, s.LastMover = true, side
	s.startMove(side.Other())
}
