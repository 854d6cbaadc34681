package rules

import "fmt"

// The actions of play: the start, arrivals, presses, pausing, adjourning
// and resuming.

func (s *State) start(e Event) error {
	if s.Status != Waiting {
		return s.refuse(e, RefusedStarted, LawStart, "the clock was started already at "+fmt.Sprint(s.StartedAt)+" ms")
	}
	s.Status = Running
	s.StartedAt, s.DefaultFrom = e.T, e.T
	s.P[White].Absent, s.P[Black].Absent = e.AbsentWhite, e.AbsentBlack
	if s.Config.Regulations.IncrementAtStart {
		for side := range s.P {
			if p := s.control(Side(side)).Periods[0]; p.Bonus == Increment {
				s.P[side].MainMs += p.BonusMs
			}
		}
	}
	s.startMove(White) // 6.6: at the time set for the start, White's clock is started
	return nil
}

func (s *State) arrive(e Event) error {
	if err := s.inPlay(e); err != nil {
		return err
	}
	if !s.P[e.Side].Absent {
		return s.refuse(e, RefusedPresent, s.absenceLaw(), e.Side.String()+" is already at the board")
	}
	s.P[e.Side].Absent = false
	return nil
}

// absenceLaw is the rule on absent players: the default time of the start
// (6.7), or the resumption of an adjourned game (Guidelines I.9).
func (s *State) absenceLaw() Law {
	if s.AtResumption {
		return LawResumption
	}
	return LawDefaultTime
}

func (s *State) press(e Event) error {
	if err := s.onBoard(e); err != nil {
		return err
	}
	if s.Status != Running {
		// No clock runs: a press cannot complete a move.
		return s.refuse(e, RefusedNotRunning, LawStopClock, "the clock is paused; only the arbiter restarts it")
	}
	if e.Side != s.ToMove {
		// 6.2.1: only the side whose clock runs can complete a move; a press
		// on the other side changes nothing.
		return nil
	}
	if s.P[e.Side].Absent {
		return s.refuse(e, RefusedAbsent, s.absenceLaw(), e.Side.String()+" has not arrived; record the arrival first")
	}
	if e.FEN != "" {
		if err := ValidateFEN(e.FEN); err != nil {
			return err
		}
	}
	s.completeMove(e.Side)
	if e.FEN != "" {
		s.FEN = e.FEN
	}
	return nil
}

func (s *State) pause(e Event) error {
	if err := s.onBoard(e); err != nil {
		return err
	}
	if s.Status != Running {
		return s.refuse(e, RefusedNotRunning, LawStopClock, "the clock is already paused")
	}
	s.Status = Paused
	return nil
}

// resume restarts a paused clock, or resumes an adjourned game: the sealed
// move is completed and the clock of the player who must answer it is
// started, whether or not he is there (Guidelines I.9.1, I.9.2). Players
// not at the board at the resumption (e.AbsentWhite, e.AbsentBlack) lose
// once its default time has passed without their arrival (I.10, 2005 A10);
// with the sealer absent, his opponent answers and the sealer's clock runs
// (I.9.3).
func (s *State) resume(e Event) error {
	if err := s.inPlay(e); err != nil {
		return err
	}
	switch s.Status {
	case Paused:
		if e.AbsentWhite || e.AbsentBlack {
			return s.refuse(e, RefusedNotApplicable, LawResumption,
				"players are marked absent only at the resumption of an adjourned game; a paused game resumes with the players at the board")
		}
	case Adjourned:
		sealer := s.ToMove
		s.completeMove(sealer)
		s.Sealed, s.Sealer = true, sealer // made on the board, open to rulings until answered (I.8, I.10)
		s.markAbsentAtResumption(e)
	default:
		return s.refuse(e, RefusedNotPaused, LawStopClock, "the clock is not paused")
	}
	s.Status = Running
	return nil
}

// adjourn seals the move of the side to move and stops the clock
// (Guidelines I.1). Adjourned before the session's nominal end
// (e.SessionEndMs after e.T), the sealer is considered to have sealed at
// the end: the time to it is charged to him (I.1.2); if it would use up
// his time, the adjournment is refused and play goes on.
func (s *State) adjourn(e Event) error {
	if err := s.onBoard(e); err != nil {
		return err
	}
	if e.SessionEndMs < 0 || e.SessionEndMs > maxInstantMs {
		return s.refuse(e, RefusedInvalid, LawAdjournEarly, fmt.Sprintf("the session's end must be a board time from 0 to %d ms", int64(maxInstantMs)))
	}
	if charge := e.SessionEndMs - e.T; charge > 0 {
		side := s.ToMove
		if charge > maxDurationMs {
			return s.refuse(e, RefusedInvalid, LawAdjournEarly,
				fmt.Sprintf("the session ends %d ms after the adjournment; at most %d ms can be charged", charge, int64(maxDurationMs)))
		}
		p := s.P[side]
		if main := charge - p.DelayLeftMs; main <= 0 || main < p.MainMs { // a simple delay is used first
			s.use(side, charge)
		} else {
			return s.refuse(e, RefusedNegativeTime, LawAdjournEarly,
				fmt.Sprintf("the %d ms to the session's end would use up %s's %d ms; he cannot adjourn before his flag falls, play on", charge, side, p.MainMs))
		}
	}
	s.Status = Adjourned
	s.Sealed, s.Sealer = true, s.ToMove
	return nil
}

// markAbsentAtResumption records the players not at the resumption of an
// adjourned game; they lose once its default time has passed (I.10).
func (s *State) markAbsentAtResumption(e Event) {
	if e.AbsentWhite || e.AbsentBlack {
		s.P[White].Absent, s.P[Black].Absent = e.AbsentWhite, e.AbsentBlack
		s.DefaultFrom, s.AtResumption = e.T, true
	}
}

func (s *State) position(e Event) error {
	if s.Status == Finished {
		return s.gameOver(e)
	}
	if err := ValidateFEN(e.FEN); err != nil {
		return err
	}
	s.FEN = e.FEN
	return nil
}
