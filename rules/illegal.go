package rules

import "fmt"

// Illegal moves: ruled at once (7.5.1 with 7.5.5, or on the opponent's
// claim before his move under the appendices), or found later in a game
// the Competition Rules govern (7.5.1: "if during a game it is found").

// illegalClaimLaw is the article under which, where the appendices govern,
// an illegal move can be ruled only before the opponent's next move.
func (s *State) illegalClaimLaw() Law {
	if s.Category == Blitz {
		return LawBlitzIllegalClaim
	}
	return LawIllegalClaim
}

func (s *State) illegalMove(e Event) error {
	if err := s.onBoard(e); err != nil {
		return err
	}
	off := e.Side
	if s.Sealed && off == s.Sealer {
		// The sealed move, made at the resumption, is the one found
		// illegal: the sealer loses (I.8.3), no penalty time.
		s.sealedMoveIllegal(e)
		return nil
	}
	if !s.HasLastMover || s.LastMover != off {
		if !s.Supervised() {
			return s.refuse(e, RefusedMoveStands, s.illegalClaimLaw(),
				off.String()+" has not completed the last move; an illegal move can only be ruled before the opponent's next move, after that it stands")
		}
		return s.refuse(e, RefusedMoveStands, LawIllegalMove,
			off.String()+" has not completed the last move; rule an illegal move found at an earlier move with illegal_move_found, with the clock paused")
	}
	p := &s.P[off]
	if p.Moves > 0 { // the arbiter may have set the counter since (6.10.2)
		p.Moves--
	}
	s.HasLastMover = false
	// 7.1, 7.5.1: the position before the irregularity is reinstated, the
	// offender is to move again; the clock times stand but for the penalty.
	s.startMove(off)
	if !s.Supervised() && s.Category == Blitz && s.profile().Unsupervised.BlitzIllegalMoveWins {
		// 2009 B3(c), 2005 C3: the opponent claims a win, drawn if he
		// cannot checkmate.
		p.Illegal++
		s.end(e.T, s.lossFor(off), TermIllegalMove)
		return nil
	}
	s.penalise(e.T, off)
	return nil
}

// penalise counts a completed illegal move of off: the opponent receives
// the penalty time, or the game is lost when it is the one that loses
// (7.5.5; 7.4(b) before 2018) — drawn if the opponent cannot checkmate.
func (s *State) penalise(t int64, off Side) {
	p := &s.P[off]
	p.Illegal++
	if p.Illegal >= s.profile().IllegalMovesToLose {
		s.end(t, s.lossFor(off), TermIllegalMove)
		return
	}
	s.P[off.Other()].MainMs += s.IllegalMovePenaltyMs()
}

// illegalMoveFound rules e.Side's move e.Move (from 1) illegal when it is
// found later, from an e-board's history (7.5.1): the position before it
// is reinstated (e.FEN, if known), the move counters go back to it, the
// offender is to move, the arbiter sets the remaining times (6.10.2) and
// then the penalty applies (7.5.5). The clock must be paused. Where the
// appendices govern rapid and blitz (insufficient supervision; always in
// 2005) an illegal move stands once the opponent has moved, so this is
// refused there.
func (s *State) illegalMoveFound(e Event) error {
	if err := s.onBoard(e); err != nil {
		return err
	}
	off := e.Side
	if !s.Supervised() {
		return s.refuse(e, RefusedMoveStands, s.illegalClaimLaw(),
			"in this game an illegal move can only be ruled before the opponent's next move (illegal_move), after that it stands")
	}
	if s.Status != Paused {
		return s.refuse(e, RefusedRunning, LawClockSetting, "pause the clock before reinstating an earlier position")
	}
	if e.Move < 1 || e.Move > s.P[off].Moves {
		return s.refuse(e, RefusedInvalid, LawIllegalMove,
			fmt.Sprintf("%s has completed %d moves; the illegal one must be one of them (1 to %d)", off, s.P[off].Moves, s.P[off].Moves))
	}
	if err := s.validTimes(e, LawClockSetting); err != nil {
		return err
	}
	if e.FEN != "" {
		if err := ValidateFEN(e.FEN); err != nil {
			return err
		}
	}
	// Before White's move n each side has completed n-1 moves; before
	// Black's move n, White has completed n and Black n-1.
	moves := [2]int{e.Move - 1, e.Move - 1}
	if off == Black {
		moves[White] = e.Move
	}
	for side := range s.P {
		p := &s.P[side]
		p.Moves = min(p.Moves, moves[side])
		s.enterPeriod(Side(side), min(p.Period, s.control(Side(side)).PeriodForMoves(p.Moves)), false)
	}
	s.P[White].MainMs, s.P[Black].MainMs = e.WhiteMs, e.BlackMs
	s.clearCorrectedFlags()
	s.FEN = e.FEN // the position before the illegal move, or unknown
	s.HasLastMover = false
	s.startMove(off)
	s.penalise(e.T, off)
	return nil
}
