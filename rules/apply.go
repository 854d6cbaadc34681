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
	if e.Kind != KindStart && !e.Side.Valid() {
		return s, s.refuse(e, RefusedInvalid, "", fmt.Sprintf("side %d is neither white nor black", e.Side))
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
	default:
		err = n.refuse(e, RefusedInvalid, "", fmt.Sprintf("unknown action %s", e.Kind))
	}
	if err != nil {
		return s, err
	}
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

func (s *State) refuse(e Event, code RefusalCode, rule, reason string) error {
	return &Refusal{Event: e, Code: code, Rule: s.article(rule), Reason: reason}
}

// olderArticles gives, for the editions before 2018, the number of the
// article that holds a rule this package cites by its 2023 number.
var olderArticles = map[Ruleset]map[string]string{
	FIDE2009: {"6.6": "6.5", "6.7": "6.6", "6.10.2": "6.10(b)", "6.11": "6.12", "7.5.1": "7.4(a)", "12.9": "13.4",
		"Guidelines I": "Guidelines for adjourned games"},
	FIDE2005: {"6.6": "6.5", "6.7": "6.6", "6.10.2": "6.13", "6.11": "6.12", "7.5.1": "7.4(a)", "12.9": "13.4",
		"Guidelines I": "Appendix A"},
}

// article prefixes an article reference with the edition, renumbered for
// the older editions: "6.10.2" becomes "FIDE 2023 Art. 6.10.2" and
// "FIDE 2009 Art. 6.10(b)"; references that already name a source pass.
func (s *State) article(ref string) string {
	if ref == "" {
		return ""
	}
	if old, ok := olderArticles[s.Config.Ruleset][ref]; ok {
		ref = old
	}
	ed := map[Ruleset]string{FIDE2023: "FIDE 2023", FIDE2018: "FIDE 2018", FIDE2009: "FIDE 2009", FIDE2005: "FIDE 2005"}[s.Config.Ruleset]
	if ref[0] >= '0' && ref[0] <= '9' {
		return ed + " Art. " + ref
	}
	return ed + " " + ref
}

// inPlay refuses actions that need a started, unfinished game.
func (s *State) inPlay(e Event) error {
	switch s.Status {
	case Waiting:
		return s.refuse(e, RefusedNotStarted, "6.6", "the clock has not been started")
	case Finished:
		return s.gameOver(e)
	}
	return nil
}

func (s *State) gameOver(e Event) error {
	return s.refuse(e, RefusedGameOver, "5",
		fmt.Sprintf("the game is over (%s, %s); only the arbiter may change the result", s.Result, s.Termination))
}

// onBoard refuses actions during an adjournment, where the game is not
// being played (Guidelines I).
func (s *State) onBoard(e Event) error {
	if err := s.inPlay(e); err != nil {
		return err
	}
	if s.Status == Adjourned {
		return s.refuse(e, RefusedNotRunning, "Guidelines I", "the game is adjourned; resume it first")
	}
	return nil
}

func (s *State) start(e Event) error {
	if s.Status != Waiting {
		return s.refuse(e, RefusedStarted, "6.6", "the clock was started already at "+fmt.Sprint(s.StartedAt)+" ms")
	}
	s.Status = Running
	s.StartedAt = e.T
	s.P[White].Absent, s.P[Black].Absent = e.AbsentWhite, e.AbsentBlack
	if s.Config.Regulations.IncrementAtStart {
		if p := s.Config.TimeControl.Periods[0]; p.Bonus == Increment {
			s.P[White].MainMs += p.BonusMs
			s.P[Black].MainMs += p.BonusMs
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
		return s.refuse(e, RefusedPresent, "6.7", e.Side.String()+" is already at the board")
	}
	s.P[e.Side].Absent = false
	return nil
}

func (s *State) press(e Event) error {
	if err := s.onBoard(e); err != nil {
		return err
	}
	if s.Status != Running {
		return s.refuse(e, RefusedNotRunning, "6.11", "the clock is paused; only the arbiter restarts it")
	}
	if e.Side != s.ToMove {
		// 6.2.1: only the side whose clock runs can complete a move; a press
		// on the other side changes nothing.
		return nil
	}
	if s.P[e.Side].Absent {
		return s.refuse(e, RefusedAbsent, "6.7", e.Side.String()+" has not arrived; record the arrival first")
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
		return s.refuse(e, RefusedNotRunning, "6.11", "the clock is already paused")
	}
	s.Status = Paused
	return nil
}

func (s *State) resume(e Event) error {
	if err := s.inPlay(e); err != nil {
		return err
	}
	switch s.Status {
	case Paused:
	case Adjourned:
		// Guidelines I.9: the sealed move is completed and the clock of the
		// player who must answer it is started.
		s.completeMove(s.ToMove)
	default:
		return s.refuse(e, RefusedNotPaused, "6.11", "the clock is not paused")
	}
	s.Status = Running
	return nil
}

func (s *State) adjourn(e Event) error {
	if err := s.onBoard(e); err != nil {
		return err
	}
	s.Status = Adjourned
	return nil
}

func (s *State) flagClaim(e Event) error {
	if err := s.onBoard(e); err != nil {
		return err
	}
	claimant, opp := e.Side, e.Side.Other()
	if s.P[opp].FlagAt == NoFlag {
		return s.refuse(e, RefusedNoFlag, "6.8", opp.String()+"'s flag has not fallen")
	}
	if ownFlagMustStand(s.Config.Ruleset) && s.P[claimant].FlagAt != NoFlag {
		return s.refuse(e, RefusedOwnFlag, map[Ruleset]string{FIDE2009: "Appendix A5", FIDE2005: "Appendix B8"}[s.Config.Ruleset],
			"the claimant's own flag has fallen too")
	}
	loser := opp
	if s.P[claimant].FlagAt != NoFlag && s.HasFlag {
		// Both flags are down: the first to fall decides (Guidelines III.3).
		loser = s.FirstFlag
	}
	s.end(e.T, s.lossFor(loser), TermTime)
	return nil
}

func (s *State) illegalMove(e Event) error {
	if err := s.onBoard(e); err != nil {
		return err
	}
	off := e.Side
	if !s.HasLastMover || s.LastMover != off {
		rule := "7.5.1"
		if !s.supervised() {
			rule = s.illegalClaimArticle()
		}
		return s.refuse(e, RefusedMoveStands, rule,
			off.String()+" has not completed the last move; an illegal move can only be ruled before the opponent's next move, after that it stands")
	}
	p := &s.P[off]
	if p.Moves > 0 { // the arbiter may have set the counter since (6.10.2)
		p.Moves--
	}
	p.Illegal++
	s.HasLastMover = false
	// 7.1, 7.5.1: the position before the irregularity is reinstated, the
	// offender is to move again; the clock times stand but for the penalty.
	s.startMove(off)
	switch {
	case !s.supervised() && s.Category == Blitz && blitzIllegalMoveLoses(s.Config.Ruleset):
		// 2009 B3(c), 2005 C3: the opponent claims a win.
		s.end(e.T, s.lossFor(off), TermIllegalMove)
	case p.Illegal >= IllegalMovesToLose(s.Config.Ruleset):
		s.end(e.T, s.lossFor(off), TermIllegalMove)
	default:
		s.P[off.Other()].MainMs += IllegalMovePenaltyMs(s.Config, s.Category)
	}
	return nil
}

func (s *State) drawClaimRejected(e Event) error {
	if err := s.onBoard(e); err != nil {
		return err
	}
	s.P[e.Side.Other()].MainMs += DrawClaimPenaltyMs(s.Config, s.Category)
	return nil
}

// quickplay refuses a III.4 / III.5 / 10.2 action that the Laws do not allow
// for this game or at this moment.
func (s *State) quickplay(e Event) error {
	if err := s.onBoard(e); err != nil {
		return err
	}
	r := s.Config.Ruleset
	tc := s.Config.TimeControl
	if r.modern() {
		if !s.Config.Regulations.QuickplayFinish {
			return s.refuse(e, RefusedNotApplicable, "Guidelines III.2.1", "the event did not announce the quickplay-finish guidelines")
		}
		if s.Category == Blitz {
			return s.refuse(e, RefusedNotApplicable, "Guidelines III.2.2", "the quickplay-finish guidelines do not apply to blitz games")
		}
	} else {
		if e.Kind == KindQuickplayIncrement {
			return s.refuse(e, RefusedNotApplicable, "Art. 10.2", "requesting five seconds a move (Guidelines III.4) is not part of this edition; claim under 10.2 instead")
		}
		if s.Category == Blitz {
			return s.refuse(e, RefusedNotApplicable, map[Ruleset]string{FIDE2009: "Appendix B3(b)", FIDE2005: "Appendix C2"}[r], "Art. 10.2 does not apply to blitz games")
		}
	}
	// The articles of the request or claim (III.4, III.5; 10.2), of the
	// quickplay finish (III.1; 10.1) and of games with an increment (III.2.2;
	// 10.1: not all remaining moves in a limited time).
	claim, finish, bonus := "Guidelines III.5", "Guidelines III.1", "Guidelines III.2.2"
	if e.Kind == KindQuickplayIncrement {
		claim = "Guidelines III.4"
	}
	if !r.modern() {
		claim, finish, bonus = "Art. 10.2", "Art. 10.1", "Art. 10.1"
	}
	if tc.HasBonus() || tc.Hourglass {
		return s.refuse(e, RefusedNotApplicable, bonus, "only games without increment or delay have a quickplay finish")
	}
	if s.QuickplayBonusMs > 0 {
		return s.refuse(e, RefusedNotApplicable, "Guidelines III.4", "five seconds a move were already introduced; the game now has an increment")
	}
	side := e.Side
	if side != s.ToMove {
		return s.refuse(e, RefusedNotToMove, claim, side.String()+" does not have the move")
	}
	if s.P[side].Period != tc.Last() {
		return s.refuse(e, RefusedNotApplicable, finish, "not in the quickplay finish: "+side.String()+" is not in the last period")
	}
	if s.HasFlag {
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
	if e.Decision < DecisionDraw || e.Decision > DecisionReject {
		return s.refuse(e, RefusedInvalid, "", "a quickplay claim needs the arbiter's decision: draw, postpone or reject")
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
	}
	return nil
}

func (s *State) addTime(e Event) error {
	// Before the start the clock shows the time control, as for set_clock:
	// 12.9 and 13.5 change the remaining time of a game being played.
	if err := s.inPlay(e); err != nil {
		return err
	}
	if e.Ms > maxDurationMs || e.Ms < -maxDurationMs {
		return s.refuse(e, RefusedInvalid, "12.9", fmt.Sprintf("%d ms is beyond any game; at most %d ms can be given or taken at once", e.Ms, int64(maxDurationMs)))
	}
	p := &s.P[e.Side]
	if p.MainMs+e.Ms < 0 {
		return s.refuse(e, RefusedNegativeTime, "12.9",
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
		return s.refuse(e, RefusedRunning, "6.10.2", "stop the clock before installing a setting")
	}
	if e.WhiteMs < 0 || e.BlackMs < 0 {
		return s.refuse(e, RefusedNegativeTime, "6.10.2", "remaining times must be 0 or more milliseconds")
	}
	if e.WhiteMs > maxDurationMs || e.BlackMs > maxDurationMs {
		return s.refuse(e, RefusedInvalid, "6.10.2", fmt.Sprintf("remaining times must be at most %d milliseconds", int64(maxDurationMs)))
	}
	for _, m := range []*int{e.WhiteMoves, e.BlackMoves} {
		if m != nil && (*m < 0 || *m > maxMoves) {
			return s.refuse(e, RefusedInvalid, "6.10.2", fmt.Sprintf("move counters must be 0 to %d", maxMoves))
		}
	}
	if n := settingLockMoves(s.Config.Ruleset); !s.supervised() && !e.ScheduleOverride &&
		s.P[White].Moves >= n && s.P[Black].Moves >= n {
		return s.refuse(e, RefusedSettingLocked, s.lockArticle(),
			fmt.Sprintf("both players have completed %d moves; the clock setting can no longer be changed unless the schedule would suffer", n))
	}
	s.P[White].MainMs, s.P[Black].MainMs = e.WhiteMs, e.BlackMs
	tc := s.Config.TimeControl
	for side, m := range [2]*int{e.WhiteMoves, e.BlackMoves} {
		if m == nil {
			continue
		}
		s.P[side].Moves = *m
		if s.Config.Regulations.PeriodChange == ByMoves {
			s.P[side].Period = tc.PeriodForMoves(*m)
		}
	}
	// A correct setting replaces the flags it corrects.
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
	return nil
}

// lockArticle is the article that locks the clock setting of insufficiently
// supervised rapid and blitz (blitz follows the rapid appendix: 2023 B.3,
// 2018 B.4, 2009 B3(a), 2005 C2).
func (s *State) lockArticle() string {
	switch s.Config.Ruleset {
	case FIDE2018:
		return "Appendix A.4.1.1"
	case FIDE2009:
		return "Appendix A4(a)"
	case FIDE2005:
		return "Appendix B4"
	}
	return "Appendix A.5.1.1"
}

// illegalClaimArticle is the article under which, without adequate
// supervision, an illegal move can be ruled only before the opponent's
// next move.
func (s *State) illegalClaimArticle() string {
	blitz := s.Category == Blitz
	switch s.Config.Ruleset {
	case FIDE2018:
		return "Appendix A.4.2"
	case FIDE2009:
		if blitz {
			return "Appendix B3(c)"
		}
		return "Appendix A4(c)"
	case FIDE2005:
		if blitz {
			return "Appendix C3"
		}
		return "Appendix B6"
	}
	return "Appendix A.5.2"
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

func (s *State) result(e Event) error {
	if s.Status == Finished && !e.ByArbiter {
		return s.gameOver(e)
	}
	r, err := ParseResult(string(e.Result))
	if err != nil {
		return err
	}
	if r == NoResult {
		return s.refuse(e, RefusedInvalid, "", "a result event needs a result: 1-0, 0-1, 1/2-1/2, +-, -+, --, 0-0")
	}
	term, err := ParseTermination(string(e.Termination))
	if err != nil {
		return err
	}
	if term == TermNone {
		term = TermNormal
		if r == WhiteForfeit || r == BlackForfeit || r == DoubleForfeit {
			term = TermDefault
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
	return s.refuse(e, RefusedNoFlag, "6.8", fmt.Sprintf("%s's flag has not fallen by %d ms: %d ms left", e.Side, e.T, s.P[e.Side].MainMs))
}
