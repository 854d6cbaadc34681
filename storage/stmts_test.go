package storage

import (
	"context"
	"testing"

	"github.com/chesshall/hallclock/rules"
)

// The writer's prepared statements: a text that does not prepare still
// fails as it would unprepared, every time, and does not stop the texts
// that do prepare; a statement is prepared once, not per batch.
func TestStmtCache(t *testing.T) {
	s := MustOpen(t, Options{})
	mustBoards(t, s, 1)
	ctx := context.Background()
	for i := range 3 {
		err := s.Write(ctx, func(tx *Tx) error {
			_, err := tx.exec(`INSERT INTO no_such_table (x) VALUES (?)`, i)
			return err
		})
		if err == nil {
			t.Fatalf("write %d into a missing table: no error", i)
		}
		r := EventRecord{BoardID: "b1", BoardSeq: uint64(i + 1), Event: press(rules.Side(i%2), int64(i)), Actor: "test"}
		if err := s.Write(ctx, func(tx *Tx) error { return tx.AppendEvent(&r) }); err != nil {
			t.Fatalf("append %d after the failed write: %v", i, err)
		}
	}
	var prepared, failed int
	for _, p := range s.stmts.prepared {
		if p == nil {
			failed++
		} else {
			prepared++
		}
	}
	if failed != 1 || prepared == 0 {
		t.Errorf("cache after three rounds: %d prepared, %d that do not prepare; want some and exactly 1", prepared, failed)
	}
	evs, err := s.Events(ctx, "b1", 0)
	if err != nil || len(evs) != 3 {
		t.Fatalf("events of b1: %d, %v; want 3", len(evs), err)
	}
}
