package storage

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"

	"pgregory.net/rapid"

	"github.com/chesshall/hallclock/rules"
)

// Time controls, positions, results and terminations the random histories
// draw from.
var (
	replayTimeControls = []string{"90m+30s", "40/90m+30s, 30m+30s", "G/60;d5", "40/5400+30:1800+30", "300d5", "*60", "3m+2s", "25m+10s"}
	replayFENs         = []string{
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
		"8/8/8/4k3/8/8/8/4K3 w - - 0 1", // neither side can checkmate
		"8/8/8/4k3/8/8/8/3QK3 b - - 0 1",
	}
	replayResults      = []rules.Result{rules.WhiteWins, rules.BlackWins, rules.Draw, rules.WhiteForfeit, rules.BlackForfeit, rules.DoubleForfeit, rules.BothLose}
	replayTerminations = []rules.Termination{rules.TermNormal, rules.TermTime, rules.TermArbiter, rules.TermAgreement}
	// Presses dominate real logs.
	replayKinds = []rules.Kind{
		rules.KindStart, rules.KindArrive, rules.KindPress, rules.KindPress, rules.KindPress, rules.KindPress,
		rules.KindPress, rules.KindPress, rules.KindPause, rules.KindResume, rules.KindAdjourn, rules.KindFlagClaim,
		rules.KindIllegalMove, rules.KindDrawClaimRejected, rules.KindQuickplayIncrement, rules.KindQuickplayClaim,
		rules.KindAddTime, rules.KindSetClock, rules.KindPosition,
	}
)

// genConfig draws a board configuration.
func genConfig(t *rapid.T) rules.Config {
	tc, err := rules.ParseTimeControl(rapid.SampledFrom(replayTimeControls).Draw(t, "time control"))
	if err != nil {
		t.Fatalf("ParseTimeControl: %v", err)
	}
	cfg := rules.Config{Ruleset: rapid.SampledFrom(rules.Rulesets).Draw(t, "ruleset"), TimeControl: tc}
	if rapid.Bool().Draw(t, "insufficient supervision") {
		cfg.Regulations.Supervision = rules.Insufficient
	}
	cfg.Regulations.QuickplayFinish = rapid.Bool().Draw(t, "quickplay finish")
	if rapid.Bool().Draw(t, "period change at flag") {
		cfg.Regulations.PeriodChange = rules.AtFlag
	}
	if rapid.Bool().Draw(t, "default time") {
		cfg.Regulations.DefaultTimeMs = rules.Ms(rapid.Int64Range(0, 3_600_000).Draw(t, "default ms"))
	}
	return cfg
}

// oneIn is true about once in n draws. (rapid favours small and extreme
// integers, so the value tested is one in the middle of the range.)
func oneIn(t *rapid.T, n int, label string) bool {
	return rapid.IntRange(0, 2*n-1).Draw(t, label)%n == n/2
}

// genEvent draws an event for a board in state st, mostly one the rules
// accept (the side to move presses, the clock starts first), sometimes
// not.
func genEvent(t *rapid.T, st rules.State) rules.Event {
	kind := rapid.SampledFrom(replayKinds).Draw(t, "kind")
	switch {
	case st.Status == rules.Waiting && !oneIn(t, 10, "not started first"):
		kind = rules.KindStart
	case oneIn(t, 60, "result now"): // games end, but not at once
		kind = rules.KindResult
	}
	dt := rapid.Int64Range(0, 10_000).Draw(t, "dt")
	if oneIn(t, 30, "long pause") {
		dt = rapid.Int64Range(0, 10_000_000).Draw(t, "dt long")
	}
	side := st.ToMove
	if oneIn(t, 5, "other side") {
		side = side.Other()
	}
	e := rules.Event{Kind: kind, T: st.At + dt, Side: side}
	switch e.Kind {
	case rules.KindStart:
		e.Side = rules.White
		e.AbsentWhite = oneIn(t, 10, "absent white")
		e.AbsentBlack = oneIn(t, 10, "absent black")
	case rules.KindQuickplayClaim:
		e.Decision = rapid.SampledFrom([]rules.Decision{rules.DecisionDraw, rules.DecisionPostpone, rules.DecisionReject}).Draw(t, "decision")
		e.NoExtraTime = rapid.Bool().Draw(t, "no extra time")
	case rules.KindAddTime:
		e.Ms = rapid.Int64Range(-300_000, 300_000).Draw(t, "ms")
	case rules.KindSetClock:
		e.WhiteMs = rapid.Int64Range(1, 7_200_000).Draw(t, "white ms")
		e.BlackMs = rapid.Int64Range(1, 7_200_000).Draw(t, "black ms")
		if rapid.Bool().Draw(t, "set moves") {
			w, b := rapid.IntRange(0, 60).Draw(t, "white moves"), rapid.IntRange(0, 60).Draw(t, "black moves")
			e.WhiteMoves, e.BlackMoves = &w, &b
		}
		e.ScheduleOverride = rapid.Bool().Draw(t, "schedule override")
	case rules.KindPosition:
		e.FEN = rapid.SampledFrom(replayFENs).Draw(t, "fen")
	case rules.KindResult:
		e.Result = rapid.SampledFrom(replayResults).Draw(t, "result")
		e.Termination = rapid.SampledFrom(replayTerminations).Draw(t, "termination")
		e.ByArbiter = rapid.Bool().Draw(t, "by arbiter")
	}
	return e
}

// genHistory draws a board's history: random events, keeping those the
// rules accept. states[i] is the state after the first i events.
func genHistory(t *rapid.T, cfg rules.Config) (evs []rules.Event, states []rules.State) {
	st, err := rules.NewState(cfg)
	if err != nil {
		t.Fatalf("NewState(%+v): %v", cfg, err)
	}
	states = append(states, st)
	n := rapid.IntRange(30, 300).Draw(t, "attempts")
	for range n {
		e := genEvent(t, st)
		next, err := rules.Apply(st, e)
		if err != nil {
			continue
		}
		evs = append(evs, e)
		states = append(states, next)
		st = next
	}
	return evs, states
}

// TestReplayEqualsFold: for random valid histories, stored and replayed
// with a snapshot at a random point, without one, and from scratch, every
// replay gives exactly the state the rules gave when the events happened:
// restarting the server rebuilds identical boards.
func TestReplayEqualsFold(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := MustOpen(t)
	mustBoards(t, s, 0)
	var boards atomic.Int64
	var events, snapshots atomic.Int64
	rapid.Check(t, func(rt *rapid.T) {
		cfg := genConfig(rt)
		evs, states := genHistory(rt, cfg)
		id := fmt.Sprintf("p%d", boards.Add(1))
		snapAt := rapid.IntRange(-1, len(evs)).Draw(rt, "snapshot after") // -1: none
		older := rapid.IntRange(0, max(snapAt, 0)).Draw(rt, "older snapshot written later")

		err := s.Write(ctx, func(tx *Tx) error {
			if err := tx.CreateBoard(&BoardRecord{ID: id, RoundID: "r1", Number: int(boards.Load()) + 1000, Config: cfg}); err != nil {
				return err
			}
			for i, e := range evs {
				if err := tx.AppendEvent(&EventRecord{BoardID: id, BoardSeq: uint64(i + 1), Event: e}); err != nil {
					return err
				}
				if i+1 == snapAt {
					if err := tx.PutSnapshot(id, uint64(snapAt), states[snapAt]); err != nil {
						return err
					}
				}
			}
			if snapAt == 0 {
				if err := tx.PutSnapshot(id, 0, states[0]); err != nil {
					return err
				}
			}
			if snapAt >= 0 { // an older snapshot does not replace a newer one
				return tx.PutSnapshot(id, uint64(older), states[older])
			}
			return nil
		})
		if err != nil {
			rt.Fatalf("Write: %v", err)
		}
		events.Add(int64(len(evs)))
		want := states[len(states)-1]

		for _, r := range []struct {
			name string
			fn   func(context.Context, string) (rules.State, uint64, error)
		}{{"Replay", s.Replay}, {"ReplayFromScratch", s.ReplayFromScratch}} {
			got, n, err := r.fn(ctx, id)
			if err != nil {
				rt.Fatalf("%s(%s): %v", r.name, id, err)
			}
			if n != uint64(len(evs)) {
				rt.Errorf("%s(%s) board seq = %d, want %d", r.name, id, n, len(evs))
			}
			if !reflect.DeepEqual(got, want) {
				rt.Errorf("%s(%s) =\n%+v\nwant (the fold of %v)\n%+v", r.name, id, got, evs, want)
			}
		}
		snap, n, err := s.Snapshot(ctx, id)
		if snapAt < 0 {
			if err == nil {
				rt.Errorf("Snapshot(%s) found one; none was written", id)
			}
			return
		}
		snapshots.Add(1)
		if err != nil || n != uint64(snapAt) || !reflect.DeepEqual(snap, states[snapAt]) {
			rt.Errorf("Snapshot(%s) = %+v, %d, %v; want the state after %d events\n%+v", id, snap, n, err, snapAt, states[snapAt])
		}
	})
	t.Logf("%d boards, %d events, %d snapshots", boards.Load(), events.Load(), snapshots.Load())
}

// TestReplayIgnoresUnusableSnapshots: a snapshot of another shape of
// rules.State, or one that does not decode, is a cache miss.
func TestReplayIgnoresUnusableSnapshots(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := MustOpen(t)
	mustBoards(t, s, 1)
	evs := []rules.Event{{Kind: rules.KindStart}, press(rules.White, 2_000), press(rules.Black, 9_000)}
	cfg := mustConfig(t, "90m+30s")
	want, err := rules.Fold(cfg, evs)
	if err != nil {
		t.Fatal(err)
	}
	mustWrite(t, s, func(tx *Tx) error {
		for i, e := range evs {
			if err := tx.AppendEvent(&EventRecord{BoardID: "b1", BoardSeq: uint64(i + 1), Event: e}); err != nil {
				return err
			}
		}
		wrong, _ := rules.NewState(cfg) // a wrong state: the cache must not be trusted
		return tx.PutSnapshot("b1", 3, wrong)
	})
	for _, c := range []struct{ name, update string }{
		{"other type", `UPDATE snapshots SET state_type = 'json1-0000000000000000'`},
		{"garbage", `UPDATE snapshots SET state_json = '{"P": 7}'`},
	} {
		if _, err := s.wdb.ExecContext(ctx, `UPDATE snapshots SET state_type = ?`, stateType); err != nil {
			t.Fatal(err)
		}
		if _, err := s.wdb.ExecContext(ctx, c.update); err != nil {
			t.Fatal(err)
		}
		got, n, err := s.Replay(ctx, "b1")
		if err != nil || n != 3 || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: Replay(b1) = %+v, %d, %v; want %+v, 3", c.name, got, n, err, want)
		}
	}
}

// An event the rules of this version refuse — acknowledged under an
// earlier version whose rules took it — keeps Replay from reading the log
// (it names the event), while ReplayPassing passes over it and returns it,
// the state as the rules read the rest of the log.
func TestReplayPassingAnEventTheRulesNowRefuse(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := MustOpen(t)
	mustBoards(t, s, 1)
	early := press(rules.White, 500) // a press before the clock started: refused today
	evs := []rules.Event{early, {Kind: rules.KindStart, T: 1_000}, press(rules.White, 2_000), press(rules.Black, 9_000)}
	mustWrite(t, s, func(tx *Tx) error {
		for i, e := range evs {
			if err := tx.AppendEvent(&EventRecord{BoardID: "b1", BoardSeq: uint64(i + 1), Event: e}); err != nil {
				return err
			}
		}
		return nil
	})
	cfg := mustConfig(t, "90m+30s")
	if _, err := rules.Fold(cfg, evs[:1]); err == nil {
		t.Fatal("the rules take a press before the start: the test needs an event they refuse")
	}
	want, err := rules.Fold(cfg, evs[1:])
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Replay(ctx, "b1"); err == nil || !strings.Contains(err.Error(), "replaying event 1") {
		t.Errorf("Replay = %v, want an error naming event 1", err)
	}
	got, seq, passed, err := s.ReplayPassing(ctx, "b1")
	if err != nil || seq != 4 || !reflect.DeepEqual(got, want) {
		t.Errorf("ReplayPassing = %+v, %d, %v; want %+v, 4", got, seq, err, want)
	}
	if len(passed) != 1 || passed[0].BoardSeq != 1 || passed[0].Event.Kind != rules.KindPress || passed[0].Refusal == nil {
		t.Errorf("passed over %+v, want event 1 (the press) with its refusal", passed)
	}
}
