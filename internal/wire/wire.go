// Package wire converts between the rules engine's vocabulary and the gRPC
// contract (proto/hall/v1), for the server and the clock devices alike, so
// both sides read the wire the same way.
package wire

import (
	"fmt"

	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
)

// Side converts a rules side to the wire.
func Side(s rules.Side) pb.Side {
	if s == rules.Black {
		return pb.Side_SIDE_BLACK
	}
	return pb.Side_SIDE_WHITE
}

// RulesSide converts a wire side; UNSPECIFIED is an error.
func RulesSide(s pb.Side) (rules.Side, error) {
	switch s {
	case pb.Side_SIDE_WHITE:
		return rules.White, nil
	case pb.Side_SIDE_BLACK:
		return rules.Black, nil
	}
	return rules.White, &rules.InputError{What: "side", Value: s.String(), Allowed: "SIDE_WHITE or SIDE_BLACK"}
}

// needsSide lists the kinds whose Side field is meaningful.
func needsSide(k rules.Kind) bool {
	switch k {
	case rules.KindArrive, rules.KindPress, rules.KindFlagClaim, rules.KindIllegalMove,
		rules.KindDrawClaimRejected, rules.KindQuickplayIncrement, rules.KindQuickplayClaim,
		rules.KindAddTime, rules.KindFlag, rules.KindIllegalMoveFound, rules.KindDeclareLost, rules.KindArbiterFlag:
		return true
	}
	return false
}

// NeedsSide reports whether actions of kind k must name a side.
func NeedsSide(k rules.Kind) bool { return needsSide(k) }

// Event converts a wire action to a rules event. byArbiter marks results
// recorded by the arbiter.
func Event(a *pb.ClockAction, byArbiter bool) (rules.Event, error) {
	if a == nil {
		return rules.Event{}, &rules.InputError{What: "action", Value: "", Problem: "missing"}
	}
	k := rules.Kind(a.GetKind())
	if !rules.Kind(a.GetKind()).Valid() || int32(a.GetKind()) != int32(k) {
		return rules.Event{}, &rules.InputError{What: "action kind", Value: a.GetKind().String(), Allowed: "an ACTION_KIND other than UNSPECIFIED"}
	}
	e := rules.Event{
		Kind: k, T: a.GetTMs(),
		AbsentWhite: a.GetAbsentWhite(), AbsentBlack: a.GetAbsentBlack(),
		Ms: a.GetMs(), WhiteMs: a.GetWhiteMs(), BlackMs: a.GetBlackMs(),
		ScheduleOverride: a.GetScheduleOverride(),
		Decision:         rules.Decision(a.GetDecision()),
		NoExtraTime:      a.GetNoExtraTime(),
		FEN:              a.GetFen(), SAN: a.GetSan(),
		Result: rules.Result(a.GetResult()), Termination: rules.Termination(a.GetTermination()),
		ByArbiter: byArbiter && k == rules.KindResult,
		Unplayed:  a.GetUnplayed() && k == rules.KindResult,
		Move:      int(a.GetMove()), SessionEndMs: a.GetSessionEndMs(),
	}
	if a.WhiteMoves != nil {
		m := int(a.GetWhiteMoves())
		e.WhiteMoves = &m
	}
	if a.BlackMoves != nil {
		m := int(a.GetBlackMoves())
		e.BlackMoves = &m
	}
	if k == rules.KindSetClock && a.GetToMove() != pb.Side_SIDE_UNSPECIFIED {
		s, err := RulesSide(a.GetToMove())
		if err != nil {
			return e, fmt.Errorf("set_clock to_move: %w", err)
		}
		e.ToMove = &s
	}
	if needsSide(k) {
		s, err := RulesSide(a.GetSide())
		if err != nil {
			return e, fmt.Errorf("%s needs a side: %w", k, err)
		}
		e.Side = s
	}
	return e, nil
}

// Action converts a rules event to the wire.
func Action(e rules.Event) *pb.ClockAction {
	a := &pb.ClockAction{
		Kind: pb.ActionKind(e.Kind), TMs: e.T,
		AbsentWhite: e.AbsentWhite, AbsentBlack: e.AbsentBlack,
		Ms: e.Ms, WhiteMs: e.WhiteMs, BlackMs: e.BlackMs,
		ScheduleOverride: e.ScheduleOverride,
		Decision:         pb.QuickplayDecision(e.Decision),
		NoExtraTime:      e.NoExtraTime,
		Fen:              e.FEN, San: e.SAN,
		Result: string(e.Result), Termination: string(e.Termination),
		Move: int32(e.Move), SessionEndMs: e.SessionEndMs,
		Unplayed: e.Unplayed,
	}
	if needsSide(e.Kind) {
		a.Side = Side(e.Side)
	}
	if e.Kind == rules.KindSetClock && e.ToMove != nil {
		a.ToMove = Side(*e.ToMove)
	}
	if e.WhiteMoves != nil {
		m := int32(*e.WhiteMoves)
		a.WhiteMoves = &m
	}
	if e.BlackMoves != nil {
		m := int32(*e.BlackMoves)
		a.BlackMoves = &m
	}
	return a
}

// Regulations converts wire regulations to the rules'.
func Regulations(r *pb.Regulations) rules.Regulations {
	var g rules.Regulations
	if r == nil {
		return g
	}
	if r.GetSupervision() == pb.Supervision_SUPERVISION_INSUFFICIENT {
		g.Supervision = rules.Insufficient
	}
	g.QuickplayFinish = r.GetQuickplayFinish()
	if r.DefaultTimeMs != nil {
		g.DefaultTimeMs = rules.Ms(r.GetDefaultTimeMs())
	}
	if r.GetPeriodChange() == pb.PeriodChange_PERIOD_CHANGE_FLAG {
		g.PeriodChange = rules.AtFlag
	}
	g.IncrementAtStart = r.GetIncrementAtStart()
	if r.IllegalMovePenaltyMs != nil {
		g.IllegalMovePenaltyMs = rules.Ms(r.GetIllegalMovePenaltyMs())
	}
	if r.DrawClaimPenaltyMs != nil {
		g.DrawClaimPenaltyMs = rules.Ms(r.GetDrawClaimPenaltyMs())
	}
	if r.ResumptionDefaultMs != nil {
		g.ResumptionDefaultMs = rules.Ms(r.GetResumptionDefaultMs())
	}
	if s := r.GetScoring(); s != nil {
		g.Scoring = rules.Scoring{Win: s.GetWin(), Draw: s.GetDraw(), Loss: s.GetLoss()}
	}
	g.DrawOdds = rules.DrawOdds(r.GetDrawOdds()) // a wrong one is refused by rules.NewState
	if d, err := rules.ParseDrawOdds(r.GetDrawOdds()); err == nil {
		g.DrawOdds = d // "none" is none
	}
	return g
}

// WireRegulations converts rules regulations to the wire.
func WireRegulations(g rules.Regulations) *pb.Regulations {
	r := &pb.Regulations{
		QuickplayFinish:  g.QuickplayFinish,
		IncrementAtStart: g.IncrementAtStart,
	}
	if g.Supervision == rules.Insufficient {
		r.Supervision = pb.Supervision_SUPERVISION_INSUFFICIENT
	}
	if g.PeriodChange == rules.AtFlag {
		r.PeriodChange = pb.PeriodChange_PERIOD_CHANGE_FLAG
	}
	r.DefaultTimeMs = g.DefaultTimeMs
	r.IllegalMovePenaltyMs = g.IllegalMovePenaltyMs
	r.DrawClaimPenaltyMs = g.DrawClaimPenaltyMs
	r.ResumptionDefaultMs = g.ResumptionDefaultMs
	r.DrawOdds = string(g.DrawOdds)
	if g.Scoring != (rules.Scoring{}) {
		r.Scoring = &pb.Scoring{Win: g.Scoring.Win, Draw: g.Scoring.Draw, Loss: g.Scoring.Loss}
	}
	return r
}

// Config converts a wire clock configuration to the rules', parsing the
// time control and the ruleset.
func Config(c *pb.ClockConfig) (rules.Config, error) {
	r, err := rules.ParseRuleset(c.GetRuleset())
	if err != nil {
		return rules.Config{}, err
	}
	tc, err := rules.ParseTimeControl(c.GetTimeControl())
	if err != nil {
		return rules.Config{}, err
	}
	return rules.Config{Ruleset: r, TimeControl: tc, Regulations: Regulations(c.GetRegulations()), Blind: BlindPlay(c.GetBlindPlay())}, nil
}

// WireConfig converts a rules configuration to the wire. The time control
// is the canonical text of the stored control, not the text as it was
// entered: an older parser may have read that text otherwise (a bare
// "90+30" was 90 minutes), and a round or board built on it reads the text
// again. A configuration without a time control (a tournament's default
// that names none) writes none.
func WireConfig(c rules.Config) *pb.ClockConfig {
	tc := ""
	if len(c.TimeControl.Periods) > 0 || c.TimeControl.Black != nil {
		tc = c.TimeControl.String()
	}
	return &pb.ClockConfig{
		Ruleset:     string(c.Ruleset),
		TimeControl: tc,
		Regulations: WireRegulations(c.Regulations),
		BlindPlay:   WireBlindPlay(c.Blind),
	}
}

// BlindPlay converts the wire's play under the rules for visually
// disabled players to the rules'; nil is the zero value (not under them).
func BlindPlay(b *pb.BlindPlay) rules.BlindPlay {
	var out rules.BlindPlay
	for s, p := range [2]*pb.BlindPlayer{b.GetWhite(), b.GetBlack()} {
		out.Players[s] = rules.BlindPlayer{VisuallyDisabled: p.GetVisuallyDisabled(), Assistant: p.GetAssistant(), Language: p.GetLanguage()}
	}
	return out
}

// WireBlindPlay converts the rules' play under the rules for visually
// disabled players to the wire: nil for the zero value, so that a board
// not under them says nothing of it.
func WireBlindPlay(b rules.BlindPlay) *pb.BlindPlay {
	if b == (rules.BlindPlay{}) {
		return nil
	}
	player := func(p rules.BlindPlayer) *pb.BlindPlayer {
		if p == (rules.BlindPlayer{}) {
			return nil
		}
		return &pb.BlindPlayer{VisuallyDisabled: p.VisuallyDisabled, Assistant: p.Assistant, Language: p.Language}
	}
	return &pb.BlindPlay{White: player(b.Players[rules.White]), Black: player(b.Players[rules.Black])}
}

func player(p rules.Player) *pb.PlayerClock {
	c := &pb.PlayerClock{
		RemainingMs:  p.MainMs,
		Moves:        int32(p.Moves),
		Period:       int32(p.Period + 1),
		IllegalMoves: int32(p.Illegal),
		Absent:       p.Absent,
		DelayLeftMs:  p.DelayLeftMs,
		TimeTrouble:  p.TimeTrouble,
		UsedMs:       p.UsedMs,
	}
	if p.FlagAt != rules.NoFlag {
		at := p.FlagAt
		c.FlagAtMs = &at
	}
	return c
}

// State converts a rules state to the wire's BoardState; the caller fills
// the board's identity and live fields (board_seq, device_online, ...).
func State(s rules.State) *pb.BoardState {
	b := &pb.BoardState{
		Status:             pb.BoardStatus(s.Status),
		ToMove:             Side(s.ToMove),
		AtMs:               s.At,
		White:              player(s.P[rules.White]),
		Black:              player(s.P[rules.Black]),
		Result:             string(s.Result),
		CountingResult:     string(s.CountingResult()),
		Termination:        string(s.Termination),
		Category:           s.Category.String(),
		Fen:                s.FEN,
		QuickplayPostponed: s.QuickplayPostponed,
	}
	if side, ok := s.Running(); ok {
		b.Running = Side(side)
	}
	if s.HasFlag {
		b.FirstFlag = Side(s.FirstFlag)
	}
	if s.Status == rules.Referred {
		b.ClaimReferredBy = Side(s.ReferredBy)
	}
	if s.Sealed {
		b.Sealer = Side(s.Sealer)
	}
	b.WhiteScore, b.BlackScore = s.Score()
	if d, ok := s.NextDeadline(); ok {
		b.NextDeadlineMs = d
	}
	return b
}

// TimeControlInfo says a time control as the server read it, for an
// arbiter who entered it: canonical and with units, in words, and its game
// type under the ruleset. An unknown ruleset is an *rules.InputError.
func TimeControlInfo(r rules.Ruleset, tc rules.TimeControl) (*pb.TimeControlInfo, error) {
	p, err := rules.ProfileOf(r)
	if err != nil {
		return nil, err
	}
	info := &pb.TimeControlInfo{
		Canonical:   tc.String(),
		WithUnits:   tc.WithUnits(),
		Words:       tc.Words(),
		GameType:    p.GameType(tc).String(),
		SixtyMoveMs: tc.SixtyMoveMs(),
		Ruleset:     string(p.Ruleset),
		Hourglass:   tc.Hourglass,
	}
	info.Periods = periodInfos(tc.For(rules.White))
	if tc.PerSide() {
		black := tc.For(rules.Black)
		info.BlackPeriods, info.BlackSixtyMoveMs = periodInfos(black), black.SixtyMoveMs()
	}
	return info, nil
}

func periodInfos(tc rules.TimeControl) []*pb.PeriodInfo {
	var out []*pb.PeriodInfo
	for _, per := range tc.Periods {
		pi := &pb.PeriodInfo{Moves: int32(per.Moves), BaseMs: per.BaseMs, Bonus: bonusNames[per.Bonus]}
		if pi.Bonus != "" {
			pi.BonusMs = per.BonusMs
		}
		out = append(out, pi)
	}
	return out
}

// bonusNames are PeriodInfo.bonus's words for what a period gives a move.
var bonusNames = map[rules.BonusKind]string{
	rules.Increment: "increment", rules.SimpleDelay: "delay", rules.Bronstein: "bronstein",
}
