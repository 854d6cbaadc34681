package storage

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chesshall/hallclock/internal/testkit/faultfs"
	"github.com/chesshall/hallclock/rules"
)

// The writer keeps each board's last event and each device's sequence in
// memory instead of asking the database per event; a function rolled back
// takes its changes back there too, so the numbers go on from what is
// committed.
func TestSequencesFollowRollbacks(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := MustOpen(t)
	mustBoards(t, s, 1)
	ev := func(boardSeq, devSeq uint64) *EventRecord {
		return &EventRecord{BoardID: "b1", BoardSeq: boardSeq, DeviceID: "clk-1", DeviceSeq: devSeq,
			Event: rules.Event{Kind: rules.KindStart}}
	}
	mustWrite(t, s, func(tx *Tx) error { return tx.AppendEvent(ev(1, 1)) })
	errLater := errors.New("refused after writing")
	if err := s.Write(ctx, func(tx *Tx) error {
		if err := tx.AppendEvent(&EventRecord{BoardID: "b1", BoardSeq: 2, DeviceID: "clk-1", DeviceSeq: 2,
			Event: rules.Event{Kind: rules.KindPress, T: 1000, Side: rules.White}}); err != nil {
			return err
		}
		return errLater
	}); !errors.Is(err, errLater) {
		t.Fatalf("Write = %v, want %v", err, errLater)
	}
	func() {
		defer func() { recover() }()
		s.Write(ctx, func(tx *Tx) error {
			if err := tx.AckDevice("clk-1", 2); err != nil {
				return err
			}
			panic("after acknowledging")
		})
	}()
	// Both rolled back: event 2 and device sequence 2 are still free.
	mustWrite(t, s, func(tx *Tx) error {
		last, err := tx.LastBoardSeq("b1")
		if err != nil || last != 1 {
			return fmt.Errorf("LastBoardSeq = %d, %v; want 1", last, err)
		}
		if acked, err := tx.DeviceAcked("clk-1"); err != nil || acked != 1 {
			return fmt.Errorf("DeviceAcked = %d, %v; want 1", acked, err)
		}
		return tx.AppendEvent(&EventRecord{BoardID: "b1", BoardSeq: 2, DeviceID: "clk-1", DeviceSeq: 2,
			Event: rules.Event{Kind: rules.KindPress, T: 1000, Side: rules.White}})
	})
	// And what the writer remembers is what the database holds.
	err := s.Write(ctx, func(tx *Tx) error { return tx.AppendEvent(ev(2, 3)) })
	if !errors.Is(err, ErrConflict) {
		t.Errorf("a second event 2 = %v, want ErrConflict", err)
	}
	err = s.Write(ctx, func(tx *Tx) error { return tx.AckDevice("clk-1", 2) })
	if !errors.Is(err, ErrDuplicate) {
		t.Errorf("device sequence 2 again = %v, want ErrDuplicate", err)
	}
	// A board deleted is forgotten.
	mustBoards(t, s, 1) // b2
	mustWrite(t, s, func(tx *Tx) error {
		if _, err := tx.LastBoardSeq("b2"); err != nil {
			return err
		}
		return tx.DeleteBoard("b2")
	})
	if err := s.Write(ctx, func(tx *Tx) error { _, err := tx.LastBoardSeq("b2"); return err }); !errors.Is(err, ErrNotFound) {
		t.Errorf("LastBoardSeq of a deleted board = %v, want ErrNotFound", err)
	}
}

// When a commit fails (a full disk), nothing of the batch stands, in the
// database or in what the writer remembers: once space is freed the
// board's numbers go on from the last committed event.
func TestSequencesAfterAFailedCommit(t *testing.T) {
	t.Parallel()
	dir := faultfs.Small(t, 4<<20)
	s := mustOpenAt(t, filepath.Join(dir, "hall.db"), Options{})
	ctx := context.Background()
	mustBoards(t, s, 1)
	filler := faultfs.Fill(t, dir)
	var (
		next uint64 = 1
		werr error
	)
	for ; werr == nil && next < 2000; next++ {
		werr = s.Write(ctx, func(tx *Tx) error {
			if err := tx.AppendEvent(&EventRecord{BoardID: "b1", BoardSeq: next, Event: rules.Event{Kind: rules.KindPress, T: int64(next), Side: rules.White},
				Reason: strings.Repeat("x", 3000)}); err != nil {
				return err
			}
			return nil
		})
	}
	if werr == nil {
		t.Fatal("writes still commit on a full disk")
	}
	failed := next - 1
	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	evs, err := s.Events(ctx, "b1", 0)
	if err != nil {
		t.Fatal(err)
	}
	if uint64(len(evs)) != failed-1 {
		t.Fatalf("%d events stored; the write of event %d failed", len(evs), failed)
	}
	mustWrite(t, s, func(tx *Tx) error {
		return tx.AppendEvent(&EventRecord{BoardID: "b1", BoardSeq: failed, Event: rules.Event{Kind: rules.KindPress, T: int64(failed), Side: rules.White}})
	})
}

// Under load the writer starts commits at most every CommitEvery, the
// writes that arrive meanwhile sharing the next one; a write after a quiet
// spell does not wait.
func TestCommitEveryGathersWrites(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	const every = 50 * time.Millisecond
	s := MustOpen(t, Options{CommitEvery: every})
	boards := mustBoards(t, s, 8)
	commits0, _ := s.Stats()
	start := time.Now()
	var wg sync.WaitGroup
	for _, b := range boards {
		wg.Go(func() {
			for n := uint64(1); time.Since(start) < 6*every; n++ {
				if err := s.Write(ctx, func(tx *Tx) error {
					return tx.AppendEvent(&EventRecord{BoardID: b, BoardSeq: n, Event: rules.Event{Kind: rules.KindPress, T: int64(n), Side: rules.White}})
				}); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	commits, writes := s.Stats()
	if n := commits - commits0; n > uint64(elapsed/every)+2 {
		t.Errorf("%d commits in %s, one every %s at most: want at most %d", n, elapsed, every, elapsed/every+2)
	}
	if writes-commits < 8 {
		t.Errorf("%d writes in %d commits: nothing was gathered", writes, commits)
	}

	// After a quiet spell, even with an hour between commits, a write
	// commits at once.
	q := MustOpen(t, Options{CommitEvery: time.Hour})
	done := make(chan error, 1)
	go func() {
		done <- q.Write(ctx, func(tx *Tx) error {
			return tx.AddAudit(&AuditRecord{Actor: "test", What: "alone", Outcome: OutcomeApplied})
		})
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("a lone write waited for the commit interval")
	}
}
