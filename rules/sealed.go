package rules

import "fmt"

// The sealed move of an adjourned game (2023/2018 Guidelines I, the 2009
// guidelines for adjourned games, 2005 Appendix A): found illegal when it
// is made at the resumption (I.8), the move that ended the game (I.10),
// or lost with its envelope (I.12).

// sealedMoveIllegal ends the game as lost by the sealer, whose sealed move
// was found illegal when it was made at the resumption (2023/2018 I.8.3,
// 2009 guideline 8(c), 2005 A8(c)). It is the same in every edition and
// whatever the supervision: not an ordinary illegal move with its
// penalty time, and whatever illegal moves he made before. I.8 excepts
// the cases of Art. 6.9, whose rule applies: drawn if the opponent cannot
// checkmate by any series of legal moves.
func (s *State) sealedMoveIllegal(e Event) {
	s.P[e.Side].Illegal++
	s.Sealed = false
	s.end(e.T, s.lossFor(e.Side), TermIllegalMove)
}

// sealedMoveEnds records that the sealed move, made at the resumption,
// ended the game: checkmate (the sealer wins) or stalemate or a dead
// position (drawn), Art. 5. It applies even when a player was late for
// the resumption and lost by default, or a flag fell since (2023/2018
// I.10: "that conclusion shall still apply"; 2009 guideline 10 and 2005
// A10 for a late sealer, whose opponent's flag may have fallen, A10(c)),
// until the sealer's opponent has answered the move.
func (s *State) sealedMoveEnds(e Event) error {
	switch {
	case s.Status == Finished && s.Termination != TermDefault && s.Termination != TermTime:
		return s.gameOver(e)
	case s.Status == Adjourned:
		return s.refuse(e, RefusedNotRunning, LawSealedMoveEnds,
			"the envelope is opened at the resumption, with the player who must answer the sealed move present; resume first")
	case s.Status != Finished:
		if err := s.inPlay(e); err != nil {
			return err
		}
	}
	if !s.Sealed {
		return s.refuse(e, RefusedNotApplicable, LawSealedMoveEnds,
			"no sealed move awaits an answer: the game was not resumed from an adjournment, or the sealed move was answered")
	}
	r, err := ParseResult(string(e.Result))
	if err != nil {
		return err
	}
	if win := winFor(s.Sealer); r != win && r != Draw {
		return s.refuse(e, RefusedInvalid, LawSealedMoveEnds,
			fmt.Sprintf("%s sealed the move: it ends the game with his checkmate (%s) or a draw (%s: stalemate, a dead position)", s.Sealer, win, Draw))
	}
	at := e.T
	if s.Status == Finished {
		at = s.EndedAt
	}
	s.end(at, r, TermNormal)
	s.Sealed = false
	s.QuickplayPostponed = false
	return nil
}

// envelopeLost resumes an adjourned game whose envelope is lost (2023/2018
// I.12, 2009 guideline 11(a), 2005 A11(a)): play continues from the
// adjourned position with the times recorded at the adjournment (the
// arbiter sets them first with set_clock, allowed while adjourned, if they
// cannot be re-established); the sealer makes on the board the move he
// states he sealed, so his clock runs and the move completes at his press
// like any other. Players not at the resumption are marked absent as with
// resume (I.9, I.10).
func (s *State) envelopeLost(e Event) error {
	if err := s.inPlay(e); err != nil {
		return err
	}
	if s.Status != Adjourned {
		return s.refuse(e, RefusedNotApplicable, LawEnvelopeLost, "only an adjourned game has an envelope with a sealed move")
	}
	s.Sealed = false
	s.markAbsentAtResumption(e)
	s.Status = Running
	return nil
}
