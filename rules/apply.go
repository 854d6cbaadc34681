package rules

import "fmt"

// Apply returns the state after event e, or a *Refusal (or *InputError for a
// malformed event) saying which rule forbids it; a refused event changes
// nothing. The state is first projected to e.T (see Project), so flags that
// fell before e.T have fallen; e.T must not be before s.At.
func Apply(s State, e Event) (State, error) {
	if e.T < s.At {
		return s, s.refuse(e, RefusedTimeBackwards, "",
			fmt.Sprintf("the event is at %d ms but the board is already at %d ms; events must come in time order", e.T, s.At))
	}
	if e.T > maxInstantMs {
		return s, s.refuse(e, RefusedInvalid, "",
			fmt.Sprintf("the event is at %d ms; a board's time line ends at %d ms", e.T, int64(maxInstantMs)))
	}
	if e.Kind != KindStart && e.Kind != KindFlagsUnordered && !e.Side.Valid() {
		return s, s.refuse(e, RefusedInvalid, "", fmt.Sprintf("side %d is neither white nor black", e.Side))
	}
	if s.profile() == nil {
		return s, &InputError{What: "ruleset", Value: string(s.Config.Ruleset), Problem: "no such ruleset", Allowed: rulesetList()}
	}
	n := s.Project(e.T)
	var err error
	switch e.Kind {
	case KindStart:
		err = n.start(e)
	case KindArrive:
		err = n.arrive(e)
	case KindPress:
		err = n.press(e)
	case KindPause:
		err = n.pause(e)
	case KindResume:
		err = n.resume(e)
	case KindAdjourn:
		err = n.adjourn(e)
	case KindFlagClaim:
		err = n.flagClaim(e)
	case KindIllegalMove:
		err = n.illegalMove(e)
	case KindDrawClaimRejected:
		err = n.drawClaimRejected(e)
	case KindQuickplayIncrement:
		err = n.quickplayIncrement(e)
	case KindQuickplayClaim:
		err = n.quickplayClaim(e)
	case KindAddTime:
		err = n.addTime(e)
	case KindSetClock:
		err = n.setClock(e)
	case KindPosition:
		err = n.position(e)
	case KindResult:
		err = n.result(e)
	case KindFlag:
		err = n.flagSeen(e)
	case KindIllegalMoveFound:
		err = n.illegalMoveFound(e)
	case KindFlagsUnordered:
		err = n.flagsUnordered(e)
	case KindDeclareLost:
		err = n.declareLost(e)
	case KindArbiterFlag:
		err = n.arbiterFlag(e)
	case KindSealedMoveEnds:
		err = n.sealedMoveEnds(e)
	case KindEnvelopeLost:
		err = n.envelopeLost(e)
	default:
		err = n.refuse(e, RefusedInvalid, "", fmt.Sprintf("unknown action %s", e.Kind))
	}
	if err != nil {
		return s, err
	}
	n.noteTimeTrouble()
	return n.Project(e.T), nil
}

// Fold applies events in order to the fresh state of cfg and stops at the
// first refusal, returning the state before it and the error.
func Fold(cfg Config, events []Event) (State, error) {
	s, err := NewState(cfg)
	if err != nil {
		return s, err
	}
	return FoldFrom(s, events)
}

// FoldFrom applies events in order to s.
func FoldFrom(s State, events []Event) (State, error) {
	for i, e := range events {
		n, err := Apply(s, e)
		if err != nil {
			return s, fmt.Errorf("event %d (%s): %w", i, e, err)
		}
		s = n
	}
	return s, nil
}

// refuse builds the Refusal of e, citing law as the board's ruleset holds
// it ("" for none).
func (s *State) refuse(e Event, code RefusalCode, law Law, reason string) error {
	rule := ""
	if p := s.profile(); p != nil && law != "" {
		rule = p.Cite(law)
	}
	return &Refusal{Event: e, Code: code, Rule: rule, Reason: reason}
}

// inPlay refuses actions that need a started game without a result or a
// referred claim.
func (s *State) inPlay(e Event) error {
	switch s.Status {
	case Waiting:
		return s.refuse(e, RefusedNotStarted, LawStart, "the clock has not been started")
	case Finished:
		return s.gameOver(e)
	case Referred:
		return s.refuse(e, RefusedGameOver, LawQuickplayNoArbiter,
			fmt.Sprintf("%s's claim ended the game and was referred to the arbiter; only his decision (a result) ends it", s.ReferredBy))
	}
	return nil
}

func (s *State) gameOver(e Event) error {
	return s.refuse(e, RefusedGameOver, LawGameOver,
		fmt.Sprintf("the game is over (%s, %s); only the arbiter may change the result", s.Result, s.Termination))
}

// onBoard refuses actions during an adjournment, where the game is not
// being played (Guidelines I).
func (s *State) onBoard(e Event) error {
	if err := s.inPlay(e); err != nil {
		return err
	}
	if s.Status == Adjourned {
		return s.refuse(e, RefusedNotRunning, LawAdjourn, "the game is adjourned; resume it first")
	}
	return nil
}

// validTimes refuses remaining times the arbiter cannot set (6.10.2).
func (s *State) validTimes(e Event, law Law) error {
	if e.WhiteMs < 0 || e.BlackMs < 0 {
		return s.refuse(e, RefusedNegativeTime, law, "remaining times must be 0 or more milliseconds")
	}
	if e.WhiteMs > maxDurationMs || e.BlackMs > maxDurationMs {
		return s.refuse(e, RefusedInvalid, law, fmt.Sprintf("remaining times must be at most %d milliseconds", int64(maxDurationMs)))
	}
	return nil
}

// clearCorrectedFlags drops the flags of the players who have time again
// after the arbiter set the clocks: a correct setting replaces the flags
// it corrects.
func (s *State) clearCorrectedFlags() {
	for i := range s.P {
		if s.P[i].MainMs > 0 {
			s.P[i].FlagAt = NoFlag
		}
	}
	s.HasFlag = false
	if w, b := s.P[White].FlagAt, s.P[Black].FlagAt; w != NoFlag || b != NoFlag {
		s.HasFlag = true
		s.FirstFlag = White
		if w == NoFlag || (b != NoFlag && b < w) {
			s.FirstFlag = Black
		}
	}
}
