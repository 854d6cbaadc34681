package rules

import "fmt"

// The arbiter's actions: time changes, clock settings, results, games
// declared lost, and the clock's own flag reports he relies on.

func (s *State) addTime(e Event) error {
	// Before the start the clock shows the time control, as for set_clock:
	// 12.9 and 13.5 change the remaining time of a game being played.
	if err := s.inPlay(e); err != nil {
		return err
	}
	if e.Ms > maxDurationMs || e.Ms < -maxDurationMs {
		return s.refuse(e, RefusedInvalid, LawArbiterPenalties, fmt.Sprintf("%d ms is beyond any game; at most %d ms can be given or taken at once", e.Ms, int64(maxDurationMs)))
	}
	p := &s.P[e.Side]
	if p.MainMs+e.Ms < 0 {
		return s.refuse(e, RefusedNegativeTime, LawArbiterPenalties,
			fmt.Sprintf("%s has %d ms left; at most %d ms can be taken away", e.Side, p.MainMs, p.MainMs))
	}
	p.MainMs += e.Ms
	return nil
}

func (s *State) setClock(e Event) error {
	if err := s.inPlay(e); err != nil {
		return err
	}
	if s.Status != Paused && s.Status != Adjourned {
		return s.refuse(e, RefusedRunning, LawClockSetting, "stop the clock before installing a setting")
	}
	if err := s.validTimes(e, LawClockSetting); err != nil {
		return err
	}
	for _, m := range []*int{e.WhiteMoves, e.BlackMoves} {
		if m != nil && (*m < 0 || *m > maxMoves) {
			return s.refuse(e, RefusedInvalid, LawClockSetting, fmt.Sprintf("move counters must be 0 to %d", maxMoves))
		}
	}
	if u := s.profile().Unsupervised; !s.Supervised() && s.P[White].Moves >= u.SettingLockMoves && s.P[Black].Moves >= u.SettingLockMoves {
		switch {
		case !u.ScheduleException:
			// 2009 A4(a), 2005 B4: no claim about the clock setting after
			// three moves each, and no exception for the schedule.
			return s.refuse(e, RefusedSettingLocked, LawSettingLock,
				fmt.Sprintf("both players have completed %d moves; the clock setting can no longer be changed, and this edition makes no exception for the event's schedule", u.SettingLockMoves))
		case !e.ScheduleOverride:
			return s.refuse(e, RefusedSettingLocked, LawSettingLock,
				fmt.Sprintf("both players have completed %d moves; the clock setting can no longer be changed unless the schedule would suffer (schedule_override)", u.SettingLockMoves))
		}
	}
	if e.ToMove != nil {
		if err := s.retraceCheck(e); err != nil {
			return err
		}
	}
	s.P[White].MainMs, s.P[Black].MainMs = e.WhiteMs, e.BlackMs
	for side, m := range [2]*int{e.WhiteMoves, e.BlackMoves} {
		if m == nil {
			continue
		}
		s.P[side].Moves = *m
		if s.Config.Regulations.PeriodChange == ByMoves {
			s.enterPeriod(Side(side), s.control(Side(side)).PeriodForMoves(*m), false)
		}
	}
	s.clearCorrectedFlags()
	if e.ToMove != nil {
		// A retrace (2018 D.2.9, 2009 E2.8): the game goes back to an
		// earlier position; the side to move there starts his move
		// afresh, and no move since is open to an illegal-move ruling.
		s.FEN = e.FEN
		s.HasLastMover = false
		s.Sealed = false
		s.startMove(*e.ToMove)
	}
	return nil
}

// retraceCheck refuses a set_clock that hands the move to e.ToMove when it
// cannot: the side is not a side, the clock is adjourned (the sealer has
// the move until the resumption, Guidelines I), or the position given is
// not a position.
func (s *State) retraceCheck(e Event) error {
	switch {
	case !e.ToMove.Valid():
		return s.refuse(e, RefusedInvalid, LawClockSetting, fmt.Sprintf("to_move %d is neither white nor black", *e.ToMove))
	case s.Status != Paused:
		return s.refuse(e, RefusedNotPaused, LawClockSetting,
			"the game is adjourned: the sealer keeps the move until the resumption; resume and pause the clock before retracing")
	case e.FEN != "":
		return ValidateFEN(e.FEN)
	}
	return nil
}

func (s *State) result(e Event) error {
	if s.Status == Finished && !e.ByArbiter {
		return s.gameOver(e)
	}
	if s.Status == Referred && !e.ByArbiter {
		return s.inPlay(e)
	}
	if s.Status == Waiting && !e.ByArbiter {
		// A game ends over the board only once it has begun: the clock
		// reports players' results (checkmate, resignation, agreement) of
		// a game it has timed. A game that never started is decided by
		// the arbiter (a default, a forfeit), not by the players' clock.
		return s.refuse(e, RefusedNotStarted, LawStart, "the clock has not been started: only the arbiter records the result of a game that did not begin (a default or a forfeit)")
	}
	r, err := ParseResult(string(e.Result))
	if err != nil {
		return err
	}
	if r == NoResult {
		return s.refuse(e, RefusedInvalid, "", "a result event needs a result: 1-0, 0-1, 1/2-1/2, +-, -+, --, 0-0, 1/2-0, 0-1/2")
	}
	term, err := ParseTermination(string(e.Termination))
	if err != nil {
		return err
	}
	if term == TermNone {
		switch {
		case r == WhiteForfeit || r == BlackForfeit || r == DoubleForfeit:
			term = TermDefault
		case s.Status == Referred:
			term = TermQuickplayClaim // III.6.2, Appendix D2: the arbiter decides the claim
		default:
			term = TermNormal
		}
	}
	at := e.T
	if s.Status == Finished {
		at = s.EndedAt
	}
	s.end(at, r, term)
	s.QuickplayPostponed = false
	return nil
}

// declareLost ends the game as lost by e.Side, on the arbiter's decision
// (12.9; a sounding phone, 2023 11.3.2.1, 2009/2005 12.2(b)). The
// opponent's score is e.Result when the arbiter gives it (a result in
// which the offender scores nothing), else the profile's DeclaredLost.
func (s *State) declareLost(e Event) error {
	if err := s.inPlay(e); s.Status != Referred && err != nil {
		return err
	}
	off := e.Side
	r := Result(e.Result)
	if r != "" {
		var err error
		if r, err = ParseResult(string(r)); err != nil {
			return err
		}
		ok := false
		for _, l := range lossOf(off) {
			ok = ok || r == l
		}
		if !ok {
			return s.refuse(e, RefusedInvalid, LawDeclaredLost,
				fmt.Sprintf("%s is declared lost: the result must score nothing for %s (%s, %s or %s)", off, off, lossOf(off)[0], lossOf(off)[1], lossOf(off)[2]))
		}
	} else {
		switch s.profile().DeclaredLost {
		case OpponentWins:
			r = winFor(off.Other())
		case OpponentWinsIfHeCan:
			if r = s.lossFor(off); r == Draw {
				r = halfFor(off.Other())
			}
		case OpponentByArbiter:
			return s.refuse(e, RefusedInvalid, LawDeclaredLost,
				"the arbiter determines the opponent's score: give the result ("+string(lossOf(off)[0])+", "+string(lossOf(off)[1])+" or "+string(lossOf(off)[2])+")")
		}
	}
	s.end(e.T, r, TermArbiter)
	s.QuickplayPostponed = false
	return nil
}

// flagSeen checks a clock's report that e.Side's flag fell by e.T (or
// that an absent player's default time passed). The projection
// to e.T has already made it fall if the rules agree; otherwise the report
// is refused, so a defective or lying clock cannot end a game.
func (s *State) flagSeen(e Event) error {
	if s.P[e.Side].FlagAt != NoFlag && s.P[e.Side].FlagAt <= e.T {
		return nil
	}
	if s.Status == Finished && s.Termination == TermDefault && s.EndedAt <= e.T {
		return nil // the default time passed: the clock reports the forfeit
	}
	if s.Status == Finished {
		return s.gameOver(e)
	}
	return s.refuse(e, RefusedNoFlag, LawFlag, fmt.Sprintf("%s's flag has not fallen by %d ms: %d ms left", e.Side, e.T, s.P[e.Side].MainMs))
}

// arbiterFlag is the arbiter calling e.Side's fallen flag. Where the
// Competition Rules govern, the flag was observed when it fell (a
// networked clock's report is the arbiter observing it) and ended the
// game (6.8, 6.9), so there is nothing left to call. Where the appendices
// govern, a flag counts when claimed; in 2023 and 2018 the arbiter also
// calls a flag he observes (A.5.5, A.4.5), which ends the game as a valid
// claim does: lost, or drawn if the opponent cannot checkmate, and the
// first flag decides when both fell. In 2009 and 2005 he refrains from
// it (A4(d), B7): only the player's claim counts.
func (s *State) arbiterFlag(e Event) error {
	side := e.Side
	if err := s.onBoard(e); err != nil {
		return err
	}
	if s.P[side].FlagAt == NoFlag {
		return s.refuse(e, RefusedNoFlag, LawFlag, fmt.Sprintf("%s's flag has not fallen: %d ms left", side, s.P[side].MainMs))
	}
	if !s.Supervised() && !s.profile().Unsupervised.ArbiterCallsFlag {
		return s.refuse(e, RefusedNotApplicable, LawArbiterFlag,
			"the arbiter refrains from calling a flag in this game; it counts only on the opponent's valid claim (flag_claim)")
	}
	loser := side
	if s.P[side.Other()].FlagAt != NoFlag && s.HasFlag {
		loser = s.FirstFlag // both flags are down: the first to fall decides (A.5.5, III.3)
	}
	s.end(e.T, s.lossFor(loser), TermTime)
	return nil
}
