package rules

import "fmt"

// Claims: time-win claims, both flags down without their order, incorrect
// draw claims and the quickplay finish.

func (s *State) flagClaim(e Event) error {
	if err := s.onBoard(e); err != nil {
		return err
	}
	claimant, opp := e.Side, e.Side.Other()
	if s.P[opp].FlagAt == NoFlag {
		return s.refuse(e, RefusedNoFlag, LawFlag, opp.String()+"'s flag has not fallen")
	}
	if s.profile().Unsupervised.OwnFlagMustStand && !s.Supervised() && s.P[claimant].FlagAt != NoFlag {
		return s.refuse(e, RefusedOwnFlag, LawOwnFlag, "the claimant's own flag has fallen too")
	}
	loser := opp
	if s.P[claimant].FlagAt != NoFlag && s.HasFlag {
		// Both flags are down: the first to fall decides (A.5.5, III.3).
		loser = s.FirstFlag
	}
	s.end(e.T, s.lossFor(loser), TermTime)
	return nil
}

// flagsUnordered is a clock's report that both flags have fallen and it
// cannot say which first (a defective clock, 6.10.1). Where the appendices
// draw every game with both flags down (2009 A6, 2005 B8), it is drawn.
// Otherwise, by the profile's FlagOrder: in the last period the game is
// drawn (III.3.1.2, 2009 6.11(b)); in another one play continues
// (III.3.1.1, 2009 6.11(a), 2005 6.11): the flags are set aside and the
// clock is paused for the arbiter to install the times (set_clock) and
// resume. Where the text has no rule (2023 and 2018 outside the quickplay
// guidelines), the report is refused: the arbiter decides.
func (s *State) flagsUnordered(e Event) error {
	if err := s.onBoard(e); err != nil {
		return err
	}
	prof := s.profile()
	if !s.Supervised() && prof.Unsupervised.BothFlagsDraw {
		s.bothFlagsDown(e.T)
		s.end(e.T, Draw, TermTime)
		return nil
	}
	rule := prof.UnorderedFlags
	if rule == FlagOrderGuidelines {
		if err := s.guidelinesApply(e); err != nil {
			return err
		}
		rule = FlagOrderByPeriod
	}
	switch rule {
	case FlagOrderNoRule:
		return s.refuse(e, RefusedNotApplicable, LawDefectiveClock,
			"this edition has no rule for flags whose order is unknown; the arbiter replaces the clock and sets the times (set_clock) or records the result")
	case FlagOrderByPeriod:
		if s.P[White].Period == s.control(White).Last() && s.P[Black].Period == s.control(Black).Last() {
			s.bothFlagsDown(e.T)
			s.end(e.T, Draw, TermTime)
			return nil
		}
	}
	// Play continues: the flags are set aside, the clock stops for the
	// arbiter to set the times of the replacement clock.
	for i := range s.P {
		s.P[i].MainMs, s.P[i].FlagAt = 0, NoFlag
	}
	s.HasFlag = false
	s.Status = Paused
	return nil
}

// bothFlagsDown records both flags fallen at t, the order unknown.
func (s *State) bothFlagsDown(t int64) {
	for i := range s.P {
		s.P[i].MainMs = 0
		if s.P[i].FlagAt == NoFlag {
			s.P[i].FlagAt = t
		}
	}
	if !s.HasFlag {
		s.HasFlag, s.FirstFlag = true, s.ToMove
	}
}

func (s *State) drawClaimRejected(e Event) error {
	if err := s.onBoard(e); err != nil {
		return err
	}
	s.P[e.Side.Other()].MainMs += s.DrawClaimPenaltyMs()
	return nil
}

// guidelinesApply refuses what the quickplay finish of the ruleset does
// not cover for this game: not announced (III.2.1), blitz (III.2.2; 2009
// B3(b) without adequate supervision; 2005 C2), an increment or a delay
// (III.2.2: in any period of the game; 10.1: in the last period, the phase
// in which all remaining moves must be made in a limited time), an
// hourglass, five seconds a move introduced already (III.4).
func (s *State) guidelinesApply(e Event) error {
	q := s.profile().Quickplay
	if q.Announced && !s.Config.Regulations.QuickplayFinish {
		return s.refuse(e, RefusedNotApplicable, LawQuickplayAnnounced, "the event did not announce the quickplay-finish guidelines")
	}
	if s.Category == Blitz && !(q.BlitzWhenSupervised && s.Supervised()) {
		why := "the quickplay finish does not apply to blitz games"
		if q.BlitzWhenSupervised {
			why += " without adequate supervision"
		}
		return s.refuse(e, RefusedNotApplicable, LawQuickplayBlitz, why)
	}
	for _, side := range [2]Side{White, Black} { // time odds: either side's control may have a bonus
		tc := s.control(side)
		switch last := tc.Periods[tc.Last()]; {
		case tc.Hourglass:
			return s.refuse(e, RefusedNotApplicable, LawQuickplayIncrement, "an hourglass game has no quickplay finish: a player's time grows while his opponent thinks")
		case q.LastPeriodOnly && last.Bonus != NoBonus && last.BonusMs > 0:
			return s.refuse(e, RefusedNotApplicable, LawQuickplayIncrement,
				"the last period has an increment or delay: its moves need not be made in a limited time, so there is no quickplay finish")
		case !q.LastPeriodOnly && tc.HasBonus():
			return s.refuse(e, RefusedNotApplicable, LawQuickplayIncrement,
				"only games without increment or delay in any period have a quickplay finish")
		}
	}
	if s.QuickplayBonusMs > 0 {
		return s.refuse(e, RefusedNotApplicable, LawQuickplayRequest, "five seconds a move were already introduced; the game now has an increment")
	}
	return nil
}

// quickplay refuses a III.4 / III.5 / III.6 / 10.2 / Appendix D action
// that the Laws do not allow for this game or at this moment.
func (s *State) quickplay(e Event) error {
	if err := s.onBoard(e); err != nil {
		return err
	}
	q := s.profile().Quickplay
	claim := LawQuickplayClaim
	refer := e.Kind == KindQuickplayClaim && e.Decision == DecisionRefer
	switch {
	case e.Kind == KindQuickplayIncrement && !q.FiveSecondRequest:
		return s.refuse(e, RefusedNotApplicable, LawQuickplayClaim,
			"requesting five seconds a move (Guidelines III.4) is not part of this edition; claim a draw instead")
	case e.Kind == KindQuickplayIncrement:
		claim = LawQuickplayRequest
	case refer && !q.NoArbiter:
		return s.refuse(e, RefusedNotApplicable, LawQuickplayClaim,
			"this edition has no rule for a claim with no arbiter present: the claimant stops the clocks and summons the arbiter")
	case refer:
		claim = LawQuickplayNoArbiter
	}
	if err := s.guidelinesApply(e); err != nil {
		return err
	}
	side := e.Side
	if !refer && side != s.ToMove {
		// III.4, III.5, 10.2: the player having the move. III.6 and
		// Appendix D do not ask for it.
		return s.refuse(e, RefusedNotToMove, claim, side.String()+" does not have the move")
	}
	if s.P[side].Period != s.control(side).Last() {
		return s.refuse(e, RefusedNotApplicable, LawQuickplayFinish, "not in the quickplay finish: "+side.String()+" is not in the last period")
	}
	switch {
	case refer && s.P[side].FlagAt != NoFlag:
		return s.refuse(e, RefusedOwnFlag, claim, "the claim must come before the claimant's flag falls")
	case !refer && s.HasFlag:
		return s.refuse(e, RefusedOwnFlag, claim, "a flag has fallen already")
	}
	if left := s.P[side].MainMs; left >= quickplayLimit {
		return s.refuse(e, RefusedTimeLimit, claim,
			fmt.Sprintf("%s has %d ms left; the claim needs less than two minutes (120000 ms)", side, left))
	}
	return nil
}

func (s *State) quickplayIncrement(e Event) error {
	if err := s.quickplay(e); err != nil {
		return err
	}
	s.QuickplayBonusMs = quickplayBonus
	s.P[e.Side.Other()].MainMs += quickplayExtra
	return nil
}

func (s *State) quickplayClaim(e Event) error {
	if e.Decision < DecisionDraw || e.Decision > DecisionRefer {
		return s.refuse(e, RefusedInvalid, "", "a quickplay claim needs the arbiter's decision: draw, postpone or reject; or refer when no arbiter is present")
	}
	if err := s.quickplay(e); err != nil {
		return err
	}
	opp := e.Side.Other()
	switch e.Decision {
	case DecisionDraw:
		s.end(e.T, Draw, TermQuickplayClaim)
	case DecisionPostpone:
		if !e.NoExtraTime {
			s.P[opp].MainMs += quickplayExtra
		}
		s.QuickplayPostponed, s.QuickplayClaimant = true, e.Side
	case DecisionReject:
		s.P[opp].MainMs += quickplayExtra
	case DecisionRefer:
		// III.6.1, Appendix D1: the claim concludes the game; III.6.2, D2:
		// it is referred to the arbiter, whose decision is final.
		s.Status = Referred
		s.ReferredBy = e.Side
		s.HasLastMover = false
	}
	return nil
}
