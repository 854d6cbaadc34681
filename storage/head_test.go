package storage

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"pgregory.net/rapid"
)

// Head says what reading the whole log says: the last event, its hall
// sequence number, and the last event of a ruling kind.
func TestHeadAgreesWithTheLog(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := MustOpen(t)
	mustBoards(t, s, 0)
	var boards atomic.Int64
	rulings := 0
	rapid.Check(t, func(rt *rapid.T) {
		cfg := genConfig(rt)
		evs, _ := genHistory(rt, cfg)
		n := boards.Add(1)
		id := fmt.Sprintf("h%d", n)
		mustWrite(t, s, func(tx *Tx) error {
			if err := tx.CreateBoard(&BoardRecord{ID: id, RoundID: "r1", Number: int(n) + 1000, Config: cfg}); err != nil {
				return err
			}
			for i, e := range evs {
				if err := tx.AppendEvent(&EventRecord{BoardID: id, BoardSeq: uint64(i + 1), Event: e}); err != nil {
					return err
				}
			}
			return nil
		})
		stored, err := s.Events(ctx, id, 0)
		if err != nil {
			rt.Fatal(err)
		}
		var want Head
		for _, e := range stored {
			want.BoardSeq, want.Seq = e.BoardSeq, e.Seq
			if slices.Contains(RulingKinds, e.Event.Kind) {
				want.LastRuling = e.BoardSeq
			}
		}
		if want.LastRuling > 0 {
			rulings++
		}
		got, err := s.Head(ctx, id)
		if err != nil || got != want {
			rt.Fatalf("Head = %+v, %v; the log says %+v", got, err, want)
		}
	})
	if rulings == 0 {
		t.Error("no generated history had a ruling: the test checked nothing of LastRuling")
	}
}

// The query for the last ruling names exactly RulingKinds and SQLite
// answers it from the partial index events_rulings, not the board's log.
func TestRulingKindsUseTheIndex(t *testing.T) {
	t.Parallel()
	for _, k := range RulingKinds {
		if !strings.Contains(lastRulingQuery, "'"+k.String()+"'") {
			t.Errorf("the last-ruling query does not name %s", k)
		}
	}
	if n := strings.Count(lastRulingQuery, "'"); n != 2*len(RulingKinds) {
		t.Errorf("the last-ruling query names %d kinds, RulingKinds has %d", n/2, len(RulingKinds))
	}
	plan := queryPlan(t, MustOpen(t), lastRulingQuery, "b1")
	if !strings.Contains(plan, "events_rulings") {
		t.Errorf("the last-ruling query does not use the index events_rulings:\n%s", plan)
	}
}
