package rules_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"testing"

	"pgregory.net/rapid"

	"github.com/chesshall/hallclock/rules"
)

// The property tests draw random boards — any ruleset, time control
// (periods, increments, delays, hourglass) and regulations — and random
// histories, keeping only the events Apply accepts, and check what must
// hold whatever happens on the board.

// Positions a history may report. CanCheckmate decides them at once.
var propFENs = []string{
	"4k3/8/8/8/8/8/8/3QK3 w - - 0 1", // Black cannot checkmate
	"4k3/8/8/8/8/8/8/3QK3 b - - 0 1",
	"7k/8/8/8/8/5n2/P7/K7 w - - 0 1", // Black can: the white pawn blocks its own king
	"8/8/8/4k3/8/8/8/4K3 w - - 0 1",  // neither can
}

var propResults = rules.Results

var propTerminations = []rules.Termination{rules.TermNone, rules.TermNormal, rules.TermTime, rules.TermIllegalMove, rules.TermDefault, rules.TermQuickplayClaim, rules.TermArbiter, rules.TermAgreement}

// drawTimeControl draws a valid time control: sudden death, up to three
// periods with a few moves each (so periods change within short
// histories), any bonus on any period, or an hourglass; sometimes one
// per side (time odds).
func drawTimeControl(t *rapid.T) rules.TimeControl {
	bases := []int64{1, 5, 30, 60, 180, 300, 600, 900, 3600, 5400}
	if rapid.IntRange(0, 5).Draw(t, "hourglass?") == 0 {
		b := rapid.SampledFrom(bases).Draw(t, "hourglass base s")
		return rules.TimeControl{Hourglass: true, Periods: []rules.Period{{BaseMs: b * 1000}}}
	}
	tc := drawPeriods(t, bases, "")
	if rapid.IntRange(0, 3).Draw(t, "time odds?") == 0 {
		black := drawPeriods(t, bases, "black ")
		if black.String() != tc.String() {
			tc.Black = &black
		}
		if err := tc.Validate(); err != nil {
			t.Fatalf("drawn time control %v: %v", tc, err)
		}
	}
	return tc
}

// drawPeriods draws one control's periods, its draws' names prefixed.
func drawPeriods(t *rapid.T, bases []int64, prefix string) rules.TimeControl {
	n := rapid.IntRange(1, 3).Draw(t, prefix+"periods")
	tc := rules.TimeControl{Periods: make([]rules.Period, n)}
	for i := range tc.Periods {
		p := &tc.Periods[i]
		p.BaseMs = rapid.SampledFrom(bases).Draw(t, fmt.Sprintf("%sbase s %d", prefix, i)) * 1000
		if i > 0 && rapid.IntRange(0, 4).Draw(t, fmt.Sprintf("%sno base %d?", prefix, i)) == 0 {
			p.BaseMs = 0 // a later period may add no time
		}
		if i < n-1 {
			p.Moves = rapid.IntRange(1, 4).Draw(t, fmt.Sprintf("%smoves %d", prefix, i))
		}
		p.Bonus = rules.BonusKind(rapid.IntRange(0, 3).Draw(t, fmt.Sprintf("%sbonus kind %d", prefix, i)))
		if p.Bonus != rules.NoBonus {
			p.BonusMs = rapid.Int64Range(0, 10).Draw(t, fmt.Sprintf("%sbonus s %d", prefix, i)) * 1000
		}
	}
	if err := tc.Validate(); err != nil {
		t.Fatalf("drawn time control %v: %v", tc, err)
	}
	return tc
}

// drawConfig draws a board configuration.
func drawConfig(t *rapid.T) rules.Config {
	cfg := rules.Config{
		Ruleset:     rapid.SampledFrom(append([]rules.Ruleset{""}, rules.Rulesets...)).Draw(t, "ruleset"),
		TimeControl: drawTimeControl(t),
	}
	reg := &cfg.Regulations
	if rapid.Bool().Draw(t, "insufficient supervision") {
		reg.Supervision = rules.Insufficient
	}
	reg.QuickplayFinish = rapid.Bool().Draw(t, "quickplay finish")
	if rapid.Bool().Draw(t, "period change at flag") {
		reg.PeriodChange = rules.AtFlag
	}
	reg.IncrementAtStart = rapid.Bool().Draw(t, "increment at start")
	if rapid.Bool().Draw(t, "default time set") {
		reg.DefaultTimeMs = rules.Ms(rapid.SampledFrom([]int64{0, 1, 60_000, 900_000}).Draw(t, "default ms"))
	}
	if rapid.IntRange(0, 3).Draw(t, "penalties set?") == 0 {
		reg.IllegalMovePenaltyMs = rules.Ms(rapid.Int64Range(0, 300_000).Draw(t, "illegal move penalty"))
		reg.DrawClaimPenaltyMs = rules.Ms(rapid.Int64Range(0, 300_000).Draw(t, "draw claim penalty"))
	}
	if rapid.Bool().Draw(t, "3/1/0") {
		reg.Scoring = rules.Scoring{Win: 3, Draw: 1, Loss: 0}
	}
	reg.DrawOdds = rapid.SampledFrom([]rules.DrawOdds{rules.NoDrawOdds, rules.NoDrawOdds, rules.DrawOddsWhite, rules.DrawOddsBlack}).Draw(t, "draw odds")
	return cfg
}

// drawEvent draws an event for a board in state s: mostly one the rules
// may accept (presses by the side to move, the start first), at instants
// that favour the edges: the same instant, the next deadline, one
// millisecond either side of it.
func drawEvent(t *rapid.T, s rules.State) rules.Event {
	// Presses dominate real logs; a result or a deadline ends most games, so
	// they come seldom.
	kinds := []rules.Kind{
		rules.KindStart, rules.KindArrive, rules.KindPause, rules.KindResume, rules.KindAdjourn,
		rules.KindFlagClaim, rules.KindIllegalMove, rules.KindDrawClaimRejected, rules.KindQuickplayIncrement,
		rules.KindQuickplayClaim, rules.KindAddTime, rules.KindSetClock, rules.KindPosition, rules.KindFlag,
		rules.KindIllegalMoveFound, rules.KindFlagsUnordered, rules.KindDeclareLost, rules.KindArbiterFlag,
		rules.KindSealedMoveEnds, rules.KindEnvelopeLost,
	}
	var k rules.Kind
	switch roll := rapid.IntRange(0, 99).Draw(t, "kind roll"); {
	case s.Status == rules.Waiting && roll < 90:
		k = rules.KindStart
	case s.Status == rules.Adjourned && roll < 5:
		k = rules.KindEnvelopeLost
	case s.Sealed && s.Status != rules.Adjourned && roll < 10:
		k = rapid.SampledFrom([]rules.Kind{rules.KindSealedMoveEnds, rules.KindIllegalMove}).Draw(t, "sealed move ruling")
	case (s.Status == rules.Paused || s.Status == rules.Adjourned) && roll < 30:
		k = rules.KindResume
	case (s.Status == rules.Paused || s.Status == rules.Adjourned) && roll < 50:
		k = rules.KindSetClock
	case s.Status == rules.Paused && roll < 60:
		k = rules.KindIllegalMoveFound
	case s.Status == rules.Referred && roll < 60:
		k = rules.KindResult
	case roll < 3:
		k = rules.KindPause
	case roll < 60:
		k = rules.KindPress
	case roll < 62:
		k = rules.KindResult
	default:
		k = rapid.SampledFrom(kinds).Draw(t, "kind")
	}
	e := rules.Event{Kind: k, T: s.At}
	switch mode := rapid.IntRange(0, 19).Draw(t, "time mode"); mode {
	case 0, 1, 2: // same instant
	case 3: // long
		e.T += rapid.Int64Range(0, 400_000).Draw(t, "dt long")
	case 4, 5, 6: // around the next deadline: d-1, d, d+1
		if d, ok := s.NextDeadline(); ok {
			e.T = max(s.At, d+int64(mode-5))
		}
	default:
		e.T += rapid.Int64Range(0, 5_000).Draw(t, "dt")
	}
	e.Side = s.ToMove
	if rapid.IntRange(0, 4).Draw(t, "other side?") == 0 {
		e.Side = e.Side.Other()
	}
	switch k {
	case rules.KindIllegalMove:
		if s.HasLastMover && rapid.IntRange(0, 4).Draw(t, "not the last mover?") > 0 {
			e.Side = s.LastMover
		}
	case rules.KindFlagClaim:
		e.Side = e.Side.Other() // mostly the waiting side claims the running side's flag
	case rules.KindArrive:
		if s.P[rules.Black].Absent {
			e.Side = rules.Black
		}
		if s.P[rules.White].Absent {
			e.Side = rules.White
		}
	case rules.KindStart:
		e.Side = rules.White
		e.AbsentWhite = rapid.IntRange(0, 9).Draw(t, "absent white") == 0
		e.AbsentBlack = rapid.IntRange(0, 9).Draw(t, "absent black") == 0
	case rules.KindQuickplayClaim:
		e.Decision = rules.Decision(rapid.IntRange(1, 4).Draw(t, "decision"))
		e.NoExtraTime = rapid.Bool().Draw(t, "no extra time")
	case rules.KindArbiterFlag:
		e.Side = e.Side.Other() // mostly the flag that can have fallen: the side that ran
		if s.HasFlag && rapid.Bool().Draw(t, "the fallen flag?") {
			e.Side = s.FirstFlag
		}
	case rules.KindSealedMoveEnds:
		e.Result = rapid.SampledFrom(propResults).Draw(t, "result")
	case rules.KindResume, rules.KindEnvelopeLost:
		e.AbsentWhite = rapid.IntRange(0, 9).Draw(t, "absent white at the resumption") == 0
		e.AbsentBlack = rapid.IntRange(0, 9).Draw(t, "absent black at the resumption") == 0
	case rules.KindAdjourn:
		if rapid.Bool().Draw(t, "before the session's end") {
			e.SessionEndMs = e.T + rapid.Int64Range(0, 400_000).Draw(t, "to the session's end")
		}
	case rules.KindIllegalMoveFound:
		e.Side = rapid.SampledFrom([]rules.Side{rules.White, rules.Black}).Draw(t, "offender")
		e.Move = rapid.IntRange(0, 6).Draw(t, "move")
		e.WhiteMs = rapid.Int64Range(0, 600_000).Draw(t, "white ms")
		e.BlackMs = rapid.Int64Range(0, 600_000).Draw(t, "black ms")
		if rapid.Bool().Draw(t, "position before") {
			e.FEN = rapid.SampledFrom(propFENs).Draw(t, "fen")
		}
	case rules.KindDeclareLost:
		if rapid.Bool().Draw(t, "score given") {
			e.Result = rapid.SampledFrom(propResults).Draw(t, "result")
		}
	case rules.KindAddTime:
		e.Ms = rapid.Int64Range(-400_000, 400_000).Draw(t, "ms")
	case rules.KindSetClock:
		e.WhiteMs = rapid.Int64Range(0, 600_000).Draw(t, "white ms")
		e.BlackMs = rapid.Int64Range(0, 600_000).Draw(t, "black ms")
		if rapid.Bool().Draw(t, "set moves") {
			w, b := rapid.IntRange(0, 11).Draw(t, "white moves"), rapid.IntRange(0, 11).Draw(t, "black moves")
			e.WhiteMoves, e.BlackMoves = &w, &b
		}
		e.ScheduleOverride = rapid.Bool().Draw(t, "schedule override")
	case rules.KindPosition:
		e.FEN = rapid.SampledFrom(propFENs).Draw(t, "fen")
	case rules.KindResult:
		e.Result = rapid.SampledFrom(propResults).Draw(t, "result")
		e.Termination = rapid.SampledFrom(propTerminations).Draw(t, "termination")
		e.ByArbiter = rapid.Bool().Draw(t, "by arbiter")
	}
	return e
}

// step is one accepted event and the states around it.
type step struct {
	before rules.State
	e      rules.Event
	after  rules.State
}

// drawHistory draws a board and up to n events, keeping those the rules
// accept.
func drawHistory(t *rapid.T, n int) (rules.Config, []step) {
	cfg := drawConfig(t)
	s, err := rules.NewState(cfg)
	if err != nil {
		t.Fatalf("NewState(%+v): %v", cfg, err)
	}
	var steps []step
	tries := rapid.IntRange(n/2, n).Draw(t, "events")
	after := 0 // events tried after the end of the game
	for range tries {
		if s.Over() {
			if after++; after > 3 {
				break
			}
		}
		e := drawEvent(t, s)
		next, err := rules.Apply(s, e)
		if err != nil {
			if !errors.Is(err, rules.ErrRefused) && !errors.Is(err, rules.ErrInvalid) {
				t.Fatalf("Apply(%v) = %v, want a *Refusal or *InputError", e, err)
			}
			continue
		}
		steps = append(steps, step{s, e, next})
		s = next
	}
	return cfg, steps
}

func events(steps []step) []rules.Event {
	es := make([]rules.Event, len(steps))
	for i, st := range steps {
		es[i] = st.e
	}
	return es
}

// cloneState copies s deeply, so that a change through a shared slice or
// pointer shows when the copy is compared with the original.
func cloneState(s rules.State) rules.State {
	c := s
	c.Config.TimeControl.Periods = append([]rules.Period(nil), s.Config.TimeControl.Periods...)
	if b := s.Config.TimeControl.Black; b != nil {
		cb := *b
		cb.Periods = append([]rules.Period(nil), b.Periods...)
		c.Config.TimeControl.Black = &cb
	}
	reg := &c.Config.Regulations
	for _, p := range []**int64{&reg.DefaultTimeMs, &reg.IllegalMovePenaltyMs, &reg.DrawClaimPenaltyMs} {
		if *p != nil {
			v := **p
			*p = &v
		}
	}
	return c
}

// basesAdded is the time the periods entered between from and to (exclusive,
// inclusive) add.
func basesAdded(tc rules.TimeControl, from, to int) int64 {
	var sum int64
	for p := from + 1; p <= to && p < len(tc.Periods); p++ {
		sum += tc.Periods[p].BaseMs
	}
	return sum
}

// checkTimeGrowth is invariant (a): from s to n (an event e, or time
// passing when e is nil) a player's remaining time grows only by an
// increment or a Bronstein return (a completed move), a period change,
// the hourglass, a penalty (illegal move, incorrect draw claim, quickplay
// finish), or the arbiter (add_time, set_clock). It returns what is wrong.
func checkTimeGrowth(s, n rules.State, e *rules.Event) []string {
	var bad []string
	cfg := n.Config
	for side := rules.White; side <= rules.Black; side++ {
		tc := cfg.TimeControl.For(side) // time odds: the side's own control
		before, after := s.P[side], n.P[side]
		gain := after.MainMs - before.MainMs
		// Any step may pass a flag at which the next period is added
		// (period change at the flag, at the same instant after an event).
		allowed := basesAdded(tc, before.Period, after.Period)
		cause := "a period change"
		if e == nil {
			if tc.Hourglass {
				if run, ok := s.Running(); ok && run != side {
					allowed += n.At - s.At
					cause = "the hourglass"
				}
			}
		} else {
			other := e.Side.Other()
			switch e.Kind {
			case rules.KindStart:
				if p := tc.Periods[0]; cfg.Regulations.IncrementAtStart && p.Bonus == rules.Increment {
					allowed += p.BonusMs
				}
				cause = "the increment at the start"
			case rules.KindPress, rules.KindResume:
				if before.Moves < after.Moves && before.FlagAt == rules.NoFlag {
					// The completed move's increment or Bronstein return, of the
					// period it belongs to (6.3.1: the period of its number, even
					// when an illegal move was ruled after the next period's
					// time was added), and the quickplay finish's five seconds.
					if p := tc.Periods[min(before.Period, tc.PeriodForMoves(before.Moves))]; p.Bonus == rules.Increment || p.Bonus == rules.Bronstein {
						allowed += p.BonusMs
					}
					allowed += s.QuickplayBonusMs
					cause = "a completed move"
				}
			case rules.KindIllegalMove:
				if side == other {
					allowed += n.IllegalMovePenaltyMs()
					cause = "the illegal-move penalty"
				}
			case rules.KindDrawClaimRejected:
				if side == other {
					allowed += n.DrawClaimPenaltyMs()
					cause = "the draw-claim penalty"
				}
			case rules.KindQuickplayIncrement, rules.KindQuickplayClaim:
				if side == other {
					allowed += 2 * 60_000
					cause = "the quickplay finish's two minutes"
				}
			case rules.KindAddTime:
				if side == e.Side && e.Ms > 0 {
					allowed += e.Ms
					cause = "the arbiter"
				}
			case rules.KindAdjourn:
				if tc.Hourglass && s.ToMove != side && e.SessionEndMs > e.T {
					// I.1.2: the time to the session's end is used by the sealer;
					// the hourglass gives it to his opponent.
					allowed += e.SessionEndMs - e.T
					cause = "the hourglass"
				}
			case rules.KindSetClock, rules.KindIllegalMoveFound:
				// The arbiter installs the times; an illegal move found later
				// then gives the opponent the penalty.
				continue
			}
		}
		if gain > allowed {
			what := "time passing"
			if e != nil {
				what = e.String()
			}
			bad = append(bad, fmt.Sprintf("%s: %s's time grew by %d ms, more than the %d ms of %s", what, side, gain, allowed, cause))
		}
	}
	return bad
}

func mustProfile(r rules.Ruleset) *rules.Profile {
	p, err := rules.ProfileOf(r)
	if err != nil {
		panic(err)
	}
	return p
}

// checkState is invariant (d) for one state.
func checkState(s rules.State) []string {
	var bad []string
	for side := rules.White; side <= rules.Black; side++ {
		p := s.P[side]
		if p.MainMs < 0 {
			bad = append(bad, fmt.Sprintf("%s has %d ms, below 0", side, p.MainMs))
		}
		if p.Moves < 0 {
			bad = append(bad, fmt.Sprintf("%s has %d moves, below 0", side, p.Moves))
		}
		if n := len(s.Config.TimeControl.For(side).Periods); p.Period < 0 || p.Period >= n {
			bad = append(bad, fmt.Sprintf("%s is in period %d of %d", side, p.Period, n))
		}
		if p.Illegal < 0 || p.Illegal > mustProfile(s.Config.Ruleset).IllegalMovesToLose {
			bad = append(bad, fmt.Sprintf("%s has %d illegal moves", side, p.Illegal))
		}
		if p.FlagAt != rules.NoFlag && (p.FlagAt > s.At || p.FlagAt < s.StartedAt) {
			bad = append(bad, fmt.Sprintf("%s's flag fell at %d, outside [%d, %d]", side, p.FlagAt, s.StartedAt, s.At))
		}
		if p.DelayLeftMs < 0 || p.MoveUsedMs < 0 {
			bad = append(bad, fmt.Sprintf("%s's move: delay left %d ms, used %d ms", side, p.DelayLeftMs, p.MoveUsedMs))
		}
	}
	if s.Status == rules.Referred && s.Result != rules.NoResult {
		bad = append(bad, fmt.Sprintf("a referred claim with result %q", s.Result))
	}
	for side := rules.White; side <= rules.Black; side++ {
		p := s.P[side]
		ps := s.Config.TimeControl.For(side).Periods
		per := ps[min(max(p.Period, 0), len(ps)-1)]
		big := per.Bonus == rules.Increment && per.BonusMs >= 30_000
		if p.MainMs < 5*60_000 && !big && !p.TimeTrouble {
			bad = append(bad, fmt.Sprintf("%s has %d ms without a 30 s increment but is not in time trouble (8.4)", side, p.MainMs))
		}
	}
	if s.Over() != (s.Result != rules.NoResult) {
		bad = append(bad, fmt.Sprintf("status %v with result %q", s.Status, s.Result))
	}
	if s.Over() && s.EndedAt > s.At {
		bad = append(bad, fmt.Sprintf("ended at %d, after the state's instant %d", s.EndedAt, s.At))
	}
	if s.HasFlag && s.P[s.FirstFlag].FlagAt == rules.NoFlag {
		bad = append(bad, fmt.Sprintf("first flag %v has not fallen", s.FirstFlag))
	}
	if c := mustProfile(s.Config.Ruleset).GameType(s.Config.TimeControl); s.Category != c {
		bad = append(bad, fmt.Sprintf("category %v, want %v", s.Category, c))
	}
	return bad
}

// checkStep checks invariants (a), (d) and the end of a game for one
// accepted event.
func checkStep(st step) []string {
	s, e, n := st.before, st.e, st.after
	bad := checkState(n)
	if n.At != e.T {
		bad = append(bad, fmt.Sprintf("Apply(%v) left the board at %d", e, n.At))
	}
	p := s.Project(e.T)
	bad = append(bad, checkTimeGrowth(s, p, nil)...)
	bad = append(bad, checkTimeGrowth(p, n, &e)...)
	if p.Over() {
		// A finished game stays finished; only the arbiter changes its result,
		// or a sealed move that ended it replaces a default or a flag after the
		// resumption (Guidelines I.10); a clock may confirm the flag that ended
		// it.
		switch {
		case e.Kind == rules.KindResult && e.ByArbiter:
			if !n.Over() || n.EndedAt != p.EndedAt {
				bad = append(bad, fmt.Sprintf("arbiter's %v reopened the game or moved its end: %v at %d, was %d", e, n.Status, n.EndedAt, p.EndedAt))
			}
		case e.Kind == rules.KindSealedMoveEnds:
			if !n.Over() || n.EndedAt != p.EndedAt || !p.Sealed || n.Sealed ||
				(p.Termination != rules.TermDefault && p.Termination != rules.TermTime) || n.Termination != rules.TermNormal {
				bad = append(bad, fmt.Sprintf("%v after %v (%s, sealed %t): %v %s %s at %d", e, p.Result, p.Termination, p.Sealed, n.Status, n.Result, n.Termination, n.EndedAt))
			}
		case e.Kind == rules.KindFlag:
			if !reflect.DeepEqual(n, p) {
				bad = append(bad, fmt.Sprintf("%v after the end changed the state", e))
			}
		default:
			bad = append(bad, fmt.Sprintf("%v accepted after the end (%v)", e, p.Result))
		}
	}
	return bad
}

// TestApplyInvariants checks invariants (a), (d) and (e) on random
// histories: times grow only for a reason of the Laws, nothing goes
// negative, a finished game stays finished, and Apply leaves its input
// alone.
func TestApplyInvariants(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		cfg, steps := drawHistory(t, 60)
		for _, st := range steps {
			for _, b := range checkStep(st) {
				t.Errorf("%v: %s", cfg.TimeControl, b)
			}
		}
		if len(steps) == 0 {
			return
		}
		last := steps[len(steps)-1].after
		// A snapshot of the board survives JSON.
		b, err := json.Marshal(last)
		var got rules.State
		if err == nil {
			err = json.Unmarshal(b, &got)
		}
		if err != nil || !reflect.DeepEqual(got, last) {
			t.Fatalf("JSON round trip of %+v = %+v, %v", last, got, err)
		}
		// (e): Apply, accepted or refused, and Project leave their input as it was.
		for range 5 {
			e := drawEvent(t, last)
			orig := cloneState(last)
			n, err := rules.Apply(last, e)
			if !reflect.DeepEqual(last, orig) {
				t.Fatalf("Apply(%v) changed its input", e)
			}
			if err != nil && !reflect.DeepEqual(n, last) {
				t.Fatalf("Apply(%v) = %v and a changed state, want the state unchanged", e, err)
			}
			last.Project(e.T + 1_000_000)
			if !reflect.DeepEqual(last, orig) {
				t.Fatalf("Project(%d) changed its receiver", e.T+1_000_000)
			}
		}
	})
}

// TestFoldSplit is invariant (b): folding a history in two parts gives the
// same state as folding it at once.
func TestFoldSplit(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		cfg, steps := drawHistory(t, 40)
		es := events(steps)
		whole, err := rules.Fold(cfg, es)
		if err != nil {
			t.Fatalf("Fold of accepted events = %v", err)
		}
		if len(steps) > 0 && !reflect.DeepEqual(whole, steps[len(steps)-1].after) {
			t.Fatalf("Fold(%v) differs from applying the events one by one", es)
		}
		k := rapid.IntRange(0, len(es)).Draw(t, "split")
		head, err := rules.Fold(cfg, es[:k])
		if err != nil {
			t.Fatalf("Fold(first %d) = %v", k, err)
		}
		got, err := rules.FoldFrom(head, es[k:])
		if err != nil {
			t.Fatalf("FoldFrom(Fold(first %d), rest) = %v", k, err)
		}
		if !reflect.DeepEqual(got, whole) {
			t.Fatalf("FoldFrom(Fold(first %d), rest) = %+v, want %+v", k, got, whole)
		}
	})
}

// TestProjectCommutes is invariant (c): projecting to any instant up to an
// event and then applying it is the same as applying it; and projections
// compose.
func TestProjectCommutes(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		_, steps := drawHistory(t, 40)
		for i, st := range steps {
			s, e := st.before, st.e
			t1 := rapid.Int64Range(s.At, e.T).Draw(t, fmt.Sprintf("t1 %d", i))
			got, err := rules.Apply(s.Project(t1), e)
			if err != nil {
				t.Fatalf("Apply(Project(%d), %v) = %v, want accepted as from the state at %d", t1, e, err, s.At)
			}
			if !reflect.DeepEqual(got, st.after) {
				t.Fatalf("Apply(Project(%d), %v) = %+v, want %+v", t1, e, got, st.after)
			}
			t2 := e.T + rapid.Int64Range(0, 400_000).Draw(t, fmt.Sprintf("t2 %d", i))
			if a, b := s.Project(t1).Project(t2), s.Project(t2); !reflect.DeepEqual(a, b) {
				t.Fatalf("Project(%d).Project(%d) = %+v, want Project(%d) = %+v", t1, t2, a, t2, b)
			}
			if p := s.Project(s.At - 1); !reflect.DeepEqual(p, s) {
				t.Fatalf("Project(%d) of a state at %d changed it", s.At-1, s.At)
			}
		}
	})
}

// TestNextDeadline checks that nothing changes by itself before
// NextDeadline and something does at it (a flag falls, a period is added
// at the flag, an absent player forfeits).
func TestNextDeadline(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		_, steps := drawHistory(t, 40)
		for _, st := range steps {
			s := st.after
			d, ok := s.NextDeadline()
			if !ok {
				if p := s.Project(s.At + 10_000_000); changedByItself(s, p) {
					t.Fatalf("NextDeadline() = none, but by %d: %+v", s.At+10_000_000, p)
				}
				continue
			}
			if d < s.At {
				t.Fatalf("NextDeadline() = %d, before the state's instant %d", d, s.At)
			}
			if f, okf := s.FlagDeadline(); okf && f < d {
				t.Fatalf("FlagDeadline() = %d, before NextDeadline() = %d", f, d)
			}
			if d > s.At {
				if p := s.Project(d - 1); changedByItself(s, p) {
					t.Fatalf("NextDeadline() = %d, but at %d already: %+v", d, d-1, p)
				}
			}
			if p := s.Project(d); !changedByItself(s, p) {
				t.Fatalf("NextDeadline() = %d, but nothing happened by then: %+v", d, p)
			}
		}
	})
}

// changedByItself reports whether p, a projection of s, shows something
// that happens by itself: a flag, a period, the end of the game.
func changedByItself(s, p rules.State) bool {
	for side := range s.P {
		if s.P[side].FlagAt != p.P[side].FlagAt || s.P[side].Period != p.P[side].Period {
			return true
		}
	}
	return s.Status != p.Status
}
