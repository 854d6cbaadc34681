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

// TestLoadBoardsIsEachBoardsReplay: for a hall of random boards — in two
// rounds and sections, with and without events, snapshots at any point,
// snapshots of another shape or that do not decode, events the rules now
// refuse, rulings — LoadBoards gives, board by board and in the order of
// Boards(""), what ReplayPassing and Head give each board alone.
func TestLoadBoardsIsEachBoardsReplay(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := MustOpen(t)
	mustBoards(t, s, 0)
	mustWrite(t, s, func(tx *Tx) error { return tx.CreateRound(&RoundRecord{ID: "r0", TournamentID: "t1", Number: 2}) })
	var boards, withSnapshot, unusable, passed atomic.Int64
	rapid.Check(t, func(rt *rapid.T) {
		cfg := genConfig(rt)
		evs, states := genHistory(rt, cfg)
		if oneIn(rt, 4, "no events") {
			evs, states = nil, states[:1]
		}
		if len(evs) > 0 && oneIn(rt, 6, "a refused event first") {
			evs = append([]rules.Event{press(rules.White, 0)}, evs...) // before the clock started
			states = append([]rules.State{states[0]}, states...)
		}
		n := boards.Add(1)
		id := fmt.Sprintf("L%d", n) // L1, L10, L2…: id order is not creation order
		round := rapid.SampledFrom([]string{"r0", "r1"}).Draw(rt, "round")
		section := rapid.SampledFrom([]string{"", "A", "B"}).Draw(rt, "section")
		snapAt := rapid.IntRange(-1, len(evs)).Draw(rt, "snapshot after") // -1: none
		mustWrite(t, s, func(tx *Tx) error {
			if err := tx.CreateBoard(&BoardRecord{ID: id, RoundID: round, Section: section, Number: int(n) + 1000, Config: cfg}); err != nil {
				return err
			}
			for i, e := range evs {
				if err := tx.AppendEvent(&EventRecord{BoardID: id, BoardSeq: uint64(i + 1), Event: e}); err != nil {
					return err
				}
			}
			if snapAt >= 0 {
				return tx.PutSnapshot(id, uint64(snapAt), states[snapAt])
			}
			return nil
		})
		if snapAt >= 0 {
			withSnapshot.Add(1)
			switch rapid.IntRange(0, 5).Draw(rt, "spoil the snapshot") {
			case 0:
				mustExec(t, s, `UPDATE snapshots SET state_type = 'json1-0000000000000000' WHERE board_id = ?`, id)
				unusable.Add(1)
			case 1:
				mustExec(t, s, `UPDATE snapshots SET state_json = '{"P": 7}' WHERE board_id = ?`, id)
				unusable.Add(1)
			}
		}

		got, err := s.LoadBoards(ctx)
		if err != nil {
			rt.Fatalf("LoadBoards: %v", err)
		}
		want, err := s.Boards(ctx, "")
		if err != nil {
			rt.Fatal(err)
		}
		if len(got) != len(want) {
			rt.Fatalf("LoadBoards gave %d boards, Boards %d", len(got), len(want))
		}
		for i, w := range want {
			g := got[i]
			if !reflect.DeepEqual(g.Board, w) {
				rt.Fatalf("board %d: LoadBoards has %+v, Boards %+v", i, g.Board, w)
			}
			st, seq, ps, err := s.ReplayPassing(ctx, w.ID)
			if err != nil {
				rt.Fatalf("ReplayPassing(%s): %v", w.ID, err)
			}
			head, err := s.Head(ctx, w.ID)
			if err != nil {
				rt.Fatal(err)
			}
			if g.Head != head || g.Head.BoardSeq != seq {
				rt.Fatalf("%s: LoadBoards' head %+v; Head %+v, ReplayPassing at event %d", w.ID, g.Head, head, seq)
			}
			if !reflect.DeepEqual(g.State, st) {
				rt.Fatalf("%s: LoadBoards' state\n%+v\nReplayPassing's\n%+v", w.ID, g.State, st)
			}
			if !reflect.DeepEqual(g.Passed, ps) {
				rt.Fatalf("%s: LoadBoards passed over %+v, ReplayPassing %+v", w.ID, g.Passed, ps)
			}
			if w.ID == id {
				passed.Add(int64(len(ps)))
			}
		}
	})
	t.Logf("%d boards, %d with a snapshot, %d of them unusable, %d events passed over", boards.Load(), withSnapshot.Load(), unusable.Load(), passed.Load())
	if unusable.Load() == 0 || passed.Load() == 0 || withSnapshot.Load() == unusable.Load() {
		t.Error("the generated halls missed a case: usable and unusable snapshots, events passed over")
	}
}

// The tails are read with one seek per board, not by scanning every event
// of the hall, and in the order they are folded, without a sort.
func TestLoadBoardsSeeksEachTail(t *testing.T) {
	t.Parallel()
	s := MustOpen(t)
	plan := queryPlan(t, s, tailQuery, stateType)
	if !strings.Contains(plan, "SEARCH e USING") || strings.Contains(plan, "SCAN e") || strings.Contains(plan, "TEMP B-TREE") {
		t.Errorf("the tails' plan reads more than each board's tail, or sorts:\n%s", plan)
	}
	if plan := queryPlan(t, s, lastRulingsQuery); !strings.Contains(plan, "events_rulings") {
		t.Errorf("the last rulings' query does not use the index events_rulings:\n%s", plan)
	}
}

func mustExec(tb testing.TB, s *Store, query string, args ...any) {
	tb.Helper()
	if _, err := s.wdb.ExecContext(context.Background(), query, args...); err != nil {
		tb.Fatal(err)
	}
}

// queryPlan is the detail column of EXPLAIN QUERY PLAN, a line a step.
func queryPlan(tb testing.TB, s *Store, query string, args ...any) string {
	tb.Helper()
	rows, err := s.rdb.QueryContext(context.Background(), "EXPLAIN QUERY PLAN "+query, args...)
	if err != nil {
		tb.Fatal(err)
	}
	defer rows.Close()
	var plan strings.Builder
	for rows.Next() {
		var id, parent, notused int
		var detail string
		if err := rows.Scan(&id, &parent, &notused, &detail); err != nil {
			tb.Fatal(err)
		}
		plan.WriteString(detail + "\n")
	}
	if err := rows.Err(); err != nil {
		tb.Fatal(err)
	}
	return plan.String()
}
