package conformance

import (
	"errors"
	"fmt"
	"strings"

	"github.com/chesshall/hallclock/rules"
)

// Failure says where a vector first went wrong.
type Failure struct {
	Vector Vector
	Step   int      // index of the step, -1 for the vector's setup
	Diffs  []string // "white_ms = 1000, want 2000", ...
}

func (f *Failure) Error() string {
	where := "setup"
	if f.Step >= 0 {
		s := f.Vector.Steps[f.Step]
		where = fmt.Sprintf("step %d (t=%d", f.Step+1, s.T)
		if s.Do != "" {
			where += " " + s.Do
			if s.Side != "" {
				where += " " + s.Side
			}
		}
		where += ")"
	}
	return fmt.Sprintf("%s: %s: %s: %s", f.Vector.File, f.Vector.Name, where, strings.Join(f.Diffs, "; "))
}

// Config builds the rules configuration of the vector.
func (v *Vector) Config() (rules.Config, error) {
	r, err := rules.ParseRuleset(v.Ruleset)
	if err != nil {
		return rules.Config{}, err
	}
	tc, err := rules.ParseTimeControl(v.TimeControl)
	if err != nil {
		return rules.Config{}, err
	}
	cfg := rules.Config{Ruleset: r, TimeControl: tc}
	if b := v.BlindPlay; b != nil {
		for side, p := range [2]*BlindPlayer{b.White, b.Black} {
			if p != nil {
				cfg.Blind.Players[side] = rules.BlindPlayer{VisuallyDisabled: p.VisuallyDisabled, Assistant: p.Assistant, Language: p.Language}
			}
		}
	}
	g := v.Regulations
	if g == nil {
		return cfg, nil
	}
	reg := &cfg.Regulations
	switch g.Supervision {
	case "", "adequate":
	case "insufficient":
		reg.Supervision = rules.Insufficient
	default:
		return cfg, fmt.Errorf("supervision %q: want adequate or insufficient", g.Supervision)
	}
	switch g.PeriodChange {
	case "", "moves":
	case "flag":
		reg.PeriodChange = rules.AtFlag
	default:
		return cfg, fmt.Errorf("period_change %q: want moves or flag", g.PeriodChange)
	}
	reg.QuickplayFinish = g.QuickplayFinish
	reg.IncrementAtStart = g.IncrementAtStart
	sec := func(p *int64) *int64 {
		if p == nil {
			return nil
		}
		return rules.Ms(*p * 1000)
	}
	d, err := rules.ParseDrawOdds(g.DrawOdds)
	if err != nil {
		return cfg, err
	}
	reg.DrawOdds = d
	reg.DefaultTimeMs = sec(g.DefaultTimeS)
	reg.IllegalMovePenaltyMs = sec(g.IllegalMovePenaltyS)
	reg.DrawClaimPenaltyMs = sec(g.DrawClaimPenaltyS)
	reg.ResumptionDefaultMs = sec(g.ResumptionDefaultS)
	if g.Scoring != nil {
		reg.Scoring = rules.Scoring{Win: g.Scoring[0], Draw: g.Scoring[1], Loss: g.Scoring[2]}
	}
	return cfg, nil
}

// Event builds the rules event of an action step.
func (s *Step) Event() (rules.Event, error) {
	k, err := rules.ParseKind(s.Do)
	if err != nil {
		return rules.Event{}, err
	}
	e := rules.Event{Kind: k, T: s.T, Ms: s.Ms, FEN: s.FEN, SAN: s.SAN, Move: s.Move, SessionEndMs: s.SessionEnd,
		WhiteMoves: s.WhiteMoves, BlackMoves: s.BlackMoves,
		ScheduleOverride: s.ScheduleOverride, NoExtraTime: s.NoExtraTime}
	if s.Side != "" {
		if e.Side, err = rules.ParseSide(s.Side); err != nil {
			return e, err
		}
	}
	if s.ToMove != "" {
		side, err := rules.ParseSide(s.ToMove)
		if err != nil {
			return e, err
		}
		e.ToMove = &side
	}
	for _, a := range s.Absent {
		side, err := rules.ParseSide(a)
		if err != nil {
			return e, err
		}
		if side == rules.White {
			e.AbsentWhite = true
		} else {
			e.AbsentBlack = true
		}
	}
	if s.WhiteMs != nil {
		e.WhiteMs = *s.WhiteMs
	}
	if s.BlackMs != nil {
		e.BlackMs = *s.BlackMs
	}
	if s.Decision != "" {
		if e.Decision, err = rules.ParseDecision(s.Decision); err != nil {
			return e, err
		}
	}
	e.Result = rules.Result(s.Result)
	e.Termination = rules.Termination(s.Termination)
	switch s.By {
	case "", "arbiter":
		e.ByArbiter = true
	case "players":
	default:
		return e, fmt.Errorf("by %q: want arbiter or players", s.By)
	}
	return e, nil
}

// Run replays the vector and returns its first failure, or nil if it passes.
func (v *Vector) Run() *Failure {
	fail := func(step int, diffs ...string) *Failure { return &Failure{Vector: *v, Step: step, Diffs: diffs} }
	cfg, err := v.Config()
	if err != nil {
		return fail(-1, err.Error())
	}
	st, err := rules.NewState(cfg)
	if err != nil {
		return fail(-1, err.Error())
	}
	for i, step := range v.Steps {
		if step.Do == announce {
			if err := step.announce(st); err != nil {
				return fail(i, err.Error())
			}
		} else if step.Do != "" {
			e, err := step.Event()
			if err != nil {
				return fail(i, err.Error())
			}
			next, err := step.permitted(st, e)
			if err == nil {
				next, err = rules.Apply(st, e)
			}
			switch {
			case step.Refused && err == nil:
				return fail(i, "accepted, want refused")
			case !step.Refused && err != nil:
				return fail(i, "refused, want accepted: "+err.Error())
			case step.Refused && !errors.Is(err, rules.ErrRefused) && !errors.Is(err, rules.ErrInvalid):
				return fail(i, "failed without a typed refusal: "+err.Error())
			}
			if err == nil {
				st = next
			}
		}
		if step.Expect != nil {
			if diffs := Check(st.Project(step.T), step.Expect); len(diffs) > 0 {
				return fail(i, diffs...)
			}
		}
	}
	return nil
}

// Check compares a state with the keys of an expectation.
func Check(s rules.State, x *Expect) []string {
	var diffs []string
	num := func(name string, got int64, want *int64) {
		if want != nil && got != *want {
			diffs = append(diffs, fmt.Sprintf("%s = %d, want %d", name, got, *want))
		}
	}
	inum := func(name string, got int, want *int) {
		if want != nil && got != *want {
			diffs = append(diffs, fmt.Sprintf("%s = %d, want %d", name, got, *want))
		}
	}
	str := func(name, got string, want *string) {
		if want != nil && got != *want {
			diffs = append(diffs, fmt.Sprintf("%s = %q, want %q", name, got, *want))
		}
	}
	flt := func(name string, got float64, want *float64) {
		if want != nil && got != *want {
			diffs = append(diffs, fmt.Sprintf("%s = %g, want %g", name, got, *want))
		}
	}
	w, b := &s.P[rules.White], &s.P[rules.Black]
	num("white_ms", w.MainMs, x.WhiteMs)
	num("black_ms", b.MainMs, x.BlackMs)
	running := "none"
	if side, ok := s.Running(); ok {
		running = side.String()
	}
	str("running", running, x.Running)
	inum("white_moves", w.Moves, x.WhiteMoves)
	inum("black_moves", b.Moves, x.BlackMoves)
	inum("white_period", w.Period+1, x.WhitePeriod)
	inum("black_period", b.Period+1, x.BlackPeriod)
	str("status", s.Status.String(), x.Status)
	flag := "none"
	if s.HasFlag {
		flag = s.FirstFlag.String()
	}
	str("flag", flag, x.Flag)
	str("result", string(s.Result), x.Result)
	str("termination", string(s.Termination), x.Termination)
	str("category", s.Category.String(), x.Category)
	str("counting_result", string(s.CountingResult()), x.CountingResult)
	inum("white_illegal", w.Illegal, x.WhiteIllegal)
	inum("black_illegal", b.Illegal, x.BlackIllegal)
	ws, bs := s.Score()
	flt("white_score", ws, x.WhiteScore)
	flt("black_score", bs, x.BlackScore)
	boolean := func(name string, got bool, want *bool) {
		if want != nil && got != *want {
			diffs = append(diffs, fmt.Sprintf("%s = %t, want %t", name, got, *want))
		}
	}
	boolean("white_time_trouble", w.TimeTrouble, x.WhiteTimeTrouble)
	boolean("black_time_trouble", b.TimeTrouble, x.BlackTimeTrouble)
	referred := "none"
	if s.Status == rules.Referred {
		referred = s.ReferredBy.String()
	}
	str("referred_by", referred, x.ReferredBy)
	str("to_move", s.ToMove.String(), x.ToMove)
	num("white_used_ms", w.UsedMs, x.WhiteUsedMs)
	num("black_used_ms", b.UsedMs, x.BlackUsedMs)
	return diffs
}
