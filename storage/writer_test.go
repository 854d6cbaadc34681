package storage

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/chesshall/hallclock/rules"
)

func TestAppendAndReplay(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := MustOpen(t)
	mustBoards(t, s, 2)
	evs := []rules.Event{
		{Kind: rules.KindStart, T: 0},
		press(rules.White, 1_000),
		press(rules.Black, 5_000),
		{Kind: rules.KindPause, Side: rules.White, T: 6_000},
		{Kind: rules.KindAddTime, Side: rules.Black, Ms: 120_000, T: 6_000},
		{Kind: rules.KindResume, Side: rules.White, T: 8_000},
	}
	var recs []EventRecord
	devSeq := uint64(0)
	for i, e := range evs {
		r := EventRecord{BoardID: "b1", BoardSeq: uint64(i + 1), Event: e, Actor: "arbiter-1", Reason: "test"}
		if e.Kind == rules.KindPress {
			devSeq++
			r.DeviceID, r.DeviceSeq, r.Actor, r.Reason = "clk-1", devSeq, "clk-1", ""
		}
		mustWrite(t, s, func(tx *Tx) error { return tx.AppendEvent(&r) })
		if r.Seq == 0 || r.Wall.IsZero() {
			t.Fatalf("AppendEvent left Seq %d, Wall %v", r.Seq, r.Wall)
		}
		recs = append(recs, r)
		// Another board's events interleave in the hall-wide sequence.
		mustWrite(t, s, func(tx *Tx) error {
			return tx.AppendEvent(&EventRecord{BoardID: "b2", BoardSeq: uint64(i + 1), Event: rules.Event{Kind: rules.KindPosition, T: int64(i)}})
		})
	}
	got, err := s.Events(ctx, "b1", 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(evs) {
		t.Fatalf("Events(b1) returned %d events, want %d", len(got), len(evs))
	}
	for i := range got {
		want := recs[i]
		if !eventEqual(got[i], want) {
			t.Errorf("event %d = %+v, want %+v", i+1, got[i], want)
		}
		if i > 0 && got[i].Seq <= got[i-1].Seq {
			t.Errorf("seq %d after %d: not increasing", got[i].Seq, got[i-1].Seq)
		}
	}
	if got, _ := s.Events(ctx, "b1", 4); len(got) != 2 || got[0].BoardSeq != 5 {
		t.Errorf("Events(b1, after 4) = %d events starting at %d, want 2 starting at 5", len(got), got[0].BoardSeq)
	}
	all, err := s.EventsSince(ctx, 0, 0)
	if err != nil || len(all) != 2*len(evs) {
		t.Fatalf("EventsSince(0) = %d events, %v; want %d", len(all), err, 2*len(evs))
	}
	page, _ := s.EventsSince(ctx, all[3].Seq, 5)
	if len(page) != 5 || page[0].Seq != all[4].Seq {
		t.Errorf("EventsSince(%d, 5) = %d events from %d, want 5 from %d", all[3].Seq, len(page), page[0].Seq, all[4].Seq)
	}
	if last, _ := s.LastSeq(ctx); last != all[len(all)-1].Seq {
		t.Errorf("LastSeq() = %d, want %d", last, all[len(all)-1].Seq)
	}

	want, err := rules.Fold(mustConfig(t, "90m+30s"), evs)
	if err != nil {
		t.Fatal(err)
	}
	st, n, err := s.Replay(ctx, "b1")
	if err != nil || n != uint64(len(evs)) || !reflectEqual(st, want) {
		t.Errorf("Replay(b1) = %+v, %d, %v; want %+v, %d", st, n, err, want, len(evs))
	}
}

func TestDeviceSequences(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := MustOpen(t)
	mustBoards(t, s, 1)
	next := uint64(1)
	appendDev := func(seq uint64) error {
		return s.Write(ctx, func(tx *Tx) error {
			r := EventRecord{BoardID: "b1", BoardSeq: next, Event: press(rules.White, int64(next)), DeviceID: "clk-1", DeviceSeq: seq}
			if err := tx.AppendEvent(&r); err != nil {
				return err
			}
			next++
			return nil
		})
	}
	ack := func(seq uint64) error {
		return s.Write(ctx, func(tx *Tx) error { return tx.AckDevice("clk-1", seq) })
	}
	for _, c := range []struct {
		what string
		err  error
		want error
	}{
		{"event 1", appendDev(1), nil},
		{"event 1 again", appendDev(1), ErrDuplicate},
		{"event 3 after 1", appendDev(3), ErrGap},
		{"ack 2 (refused event)", ack(2), nil},
		{"ack 2 again", ack(2), ErrDuplicate},
		{"event 2 after its ack", appendDev(2), ErrDuplicate},
		{"ack 5 after 2", ack(5), ErrGap},
		{"event 3", appendDev(3), nil},
		{"ack 0", ack(0), nil}, // checked below: an error of no kind
	} {
		if c.want == nil && c.what != "ack 0" && c.err != nil {
			t.Errorf("%s: %v, want success", c.what, c.err)
		}
		if c.want != nil && !errors.Is(c.err, c.want) {
			t.Errorf("%s: %v, want %v", c.what, c.err, c.want)
		}
		if c.what == "ack 0" && c.err == nil {
			t.Errorf("ack 0 succeeded; device sequence numbers start at 1")
		}
	}
	if err := appendDev(3); err == nil || err.Error() != "storage: device clk-1: sequence 3 already committed (committed up to 3)" {
		t.Errorf("duplicate message = %v", err)
	}
	if err := ack(9); err == nil || err.Error() != "storage: device clk-1: sequence 9 after 3: 4 to 8 never received" {
		t.Errorf("gap message = %v", err)
	}
	// A resent event is a duplicate whatever board_seq the server gave it.
	err := s.Write(ctx, func(tx *Tx) error {
		return tx.AppendEvent(&EventRecord{BoardID: "b1", BoardSeq: 99, Event: press(rules.White, 0), DeviceID: "clk-1", DeviceSeq: 3})
	})
	if !errors.Is(err, ErrDuplicate) {
		t.Errorf("resent event with a wrong board_seq: %v, want ErrDuplicate", err)
	}
	// A refused operation changes nothing, even if the function goes on
	// and commits.
	mustWrite(t, s, func(tx *Tx) error {
		err := tx.AppendEvent(&EventRecord{BoardID: "b1", BoardSeq: 99, Event: press(rules.White, 0), DeviceID: "clk-1", DeviceSeq: 4})
		if !errors.Is(err, ErrConflict) {
			return fmt.Errorf("AppendEvent(board_seq 99) = %v, want ErrConflict", err)
		}
		return nil
	})
	if acked, err := s.DeviceAcked(ctx, "clk-1"); acked != 3 || err != nil {
		t.Errorf("DeviceAcked(clk-1) = %d, %v; want 3", acked, err)
	}
	for seq, want := range map[uint64]bool{0: false, 1: true, 2: true, 3: true, 4: false} {
		if got, err := s.DeviceSeqExists(ctx, "clk-1", seq); got != want || err != nil {
			t.Errorf("DeviceSeqExists(clk-1, %d) = %v, %v; want %v", seq, got, err, want)
		}
	}
	if acked, err := s.DeviceAcked(ctx, "clk-2"); acked != 0 || err != nil {
		t.Errorf("DeviceAcked(unknown) = %d, %v; want 0", acked, err)
	}
	// Events 1 and 3 are in the log, 2 only acknowledged.
	evs, _ := s.Events(ctx, "b1", 0)
	if len(evs) != 2 || evs[0].DeviceSeq != 1 || evs[1].DeviceSeq != 3 {
		t.Errorf("Events(b1) = %+v, want device sequences 1 and 3", evs)
	}
}

// TestRefusedDeviceEventInOneWrite is the server's pattern for a device
// event the rules refuse: acknowledge its sequence number and audit the
// refusal together, so that either both are committed or neither.
func TestRefusedDeviceEventInOneWrite(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := MustOpen(t)
	mustBoards(t, s, 1)
	published := 0
	mustWrite(t, s, func(tx *Tx) error {
		if err := tx.AckDevice("clk-1", 1); err != nil {
			return err
		}
		tx.AfterCommit(func() { published++ })
		return tx.AddAudit(&AuditRecord{BoardID: "b1", Actor: "clk-1", What: "press",
			Outcome: OutcomeRefused("FIDE 2023 Art. 6.6: the clock has not been started")})
	})
	if published != 1 {
		t.Errorf("AfterCommit ran %d times before Write returned, want 1", published)
	}
	if acked, _ := s.DeviceAcked(ctx, "clk-1"); acked != 1 {
		t.Errorf("DeviceAcked = %d, want 1", acked)
	}
	a, _ := s.Audit(ctx, "", 0, 10)
	if len(a) != 1 || a[0].Outcome != "refused: FIDE 2023 Art. 6.6: the clock has not been started" {
		t.Errorf("Audit() = %+v", a)
	}
	// A failing function rolls back its ack and audit, and its
	// AfterCommit never runs.
	err := s.Write(ctx, func(tx *Tx) error {
		tx.AfterCommit(func() { published++ })
		if err := tx.AckDevice("clk-1", 2); err != nil {
			return err
		}
		if err := tx.AddAudit(&AuditRecord{BoardID: "b1", Actor: "clk-1", What: "press", Outcome: OutcomeApplied}); err != nil {
			return err
		}
		return tx.AppendEvent(&EventRecord{BoardID: "b1", BoardSeq: 5, Event: press(rules.White, 0)})
	})
	if !errors.Is(err, ErrConflict) {
		t.Fatalf("Write() = %v, want ErrConflict", err)
	}
	if acked, _ := s.DeviceAcked(ctx, "clk-1"); acked != 1 {
		t.Errorf("DeviceAcked after a failed Write = %d, want 1", acked)
	}
	if a, _ := s.Audit(ctx, "b1", 0, 0); len(a) != 1 {
		t.Errorf("Audit after a failed Write has %d records, want 1", len(a))
	}
	if published != 1 {
		t.Errorf("AfterCommit of a failed function ran")
	}
}

func TestGroupCommit(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := MustOpen(t)
	const writers = 200
	boards := mustBoards(t, s, writers)
	commits0, writes0 := s.Stats()

	var wg sync.WaitGroup
	start := make(chan struct{})
	errs := make(chan error, writers)
	for _, b := range boards {
		wg.Go(func() {
			<-start
			errs <- s.Write(ctx, func(tx *Tx) error {
				return tx.AppendEvent(&EventRecord{BoardID: b, BoardSeq: 1, Event: rules.Event{Kind: rules.KindStart}})
			})
		})
	}
	close(start)
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Errorf("Write() = %v", err)
		}
	}
	commits, writes := s.Stats()
	commits, writes = commits-commits0, writes-writes0
	t.Logf("%d writes in %d commits", writes, commits)
	if writes != writers {
		t.Errorf("Stats() counts %d writes, want %d", writes, writers)
	}
	if commits >= writes {
		t.Errorf("%d writes took %d commits: not grouped", writes, commits)
	}
	if all, _ := s.EventsSince(ctx, 0, 0); len(all) != writers {
		t.Errorf("%d events stored, want %d", len(all), writers)
	}
}

func TestFailingWriteDoesNotSinkTheBatch(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := MustOpen(t)
	mustBoards(t, s, 3)
	release := blockWriter(t, s)
	commits0, _ := s.Stats()

	errBad := errors.New("the arbiter changed their mind")
	fns := map[string]func(tx *Tx) error{
		"b1": func(tx *Tx) error {
			return tx.AppendEvent(&EventRecord{BoardID: "b1", BoardSeq: 1, Event: rules.Event{Kind: rules.KindStart}})
		},
		"b2": func(tx *Tx) error { // writes, then fails: rolled back alone
			if err := tx.AppendEvent(&EventRecord{BoardID: "b2", BoardSeq: 1, Event: rules.Event{Kind: rules.KindStart}}); err != nil {
				return err
			}
			return errBad
		},
		"b3": func(tx *Tx) error {
			return tx.AppendEvent(&EventRecord{BoardID: "b3", BoardSeq: 1, Event: rules.Event{Kind: rules.KindStart}})
		},
	}
	var mu sync.Mutex
	results := map[string]error{}
	var wg sync.WaitGroup
	for b, fn := range fns {
		wg.Go(func() {
			err := s.Write(ctx, fn)
			mu.Lock()
			results[b] = err
			mu.Unlock()
		})
	}
	waitFor(t, "three queued writes", func() bool { return len(s.queue) == 3 })
	release()
	wg.Wait()

	if results["b1"] != nil || results["b3"] != nil || !errors.Is(results["b2"], errBad) {
		t.Errorf("Write results = %v; want b1, b3 nil and b2 %v", results, errBad)
	}
	if commits, _ := s.Stats(); commits-commits0 != 2 {
		t.Errorf("%d commits, want 2 (the blocking write's, then one for the three)", commits-commits0)
	}
	for b, want := range map[string]int{"b1": 1, "b2": 0, "b3": 1} {
		if evs, _ := s.Events(ctx, b, 0); len(evs) != want {
			t.Errorf("board %s has %d events, want %d", b, len(evs), want)
		}
	}
}

func TestWritePanicRollsBackAndRepanics(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := MustOpen(t)
	mustBoards(t, s, 1)
	func() {
		defer func() {
			if v := recover(); v != "flag fell twice" {
				t.Errorf("recover() = %v, want the function's panic", v)
			}
		}()
		s.Write(ctx, func(tx *Tx) error {
			if err := tx.AppendEvent(&EventRecord{BoardID: "b1", BoardSeq: 1, Event: rules.Event{Kind: rules.KindStart}}); err != nil {
				return err
			}
			panic("flag fell twice")
		})
	}()
	if evs, _ := s.Events(ctx, "b1", 0); len(evs) != 0 {
		t.Errorf("the panicking function's event was committed")
	}
	// The writer goes on.
	mustWrite(t, s, func(tx *Tx) error {
		return tx.AppendEvent(&EventRecord{BoardID: "b1", BoardSeq: 1, Event: rules.Event{Kind: rules.KindStart}})
	})
}

func TestWriteContextCancelled(t *testing.T) {
	t.Parallel()
	s := MustOpen(t)
	mustBoards(t, s, 1)

	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	ran := false
	if err := s.Write(cancelled, func(tx *Tx) error { ran = true; return nil }); !errors.Is(err, context.Canceled) || ran {
		t.Errorf("Write(cancelled ctx) = %v, ran %v; want context.Canceled, not run", err, ran)
	}

	// Cancelled while queued behind a busy writer: never runs.
	release := blockWriter(t, s)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	var ranQueued bool
	go func() {
		done <- s.Write(ctx, func(tx *Tx) error {
			ranQueued = true
			return tx.AppendEvent(&EventRecord{BoardID: "b1", BoardSeq: 1, Event: rules.Event{Kind: rules.KindStart}})
		})
	}()
	waitFor(t, "the queued write", func() bool { return len(s.queue) == 1 })
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("Write cancelled while queued = %v, want context.Canceled", err)
	}
	release()
	mustWrite(t, s, func(tx *Tx) error { return nil }) // the writer has passed the abandoned request
	if ranQueued {
		t.Errorf("the function of a Write cancelled while queued ran")
	}
	if evs, _ := s.Events(context.Background(), "b1", 0); len(evs) != 0 {
		t.Errorf("board b1 has %d events, want 0", len(evs))
	}

	// Cancelled while running: the commit decides.
	ctx, cancel = context.WithCancel(context.Background())
	err := s.Write(ctx, func(tx *Tx) error {
		cancel()
		return tx.AppendEvent(&EventRecord{BoardID: "b1", BoardSeq: 1, Event: rules.Event{Kind: rules.KindStart}})
	})
	if err != nil {
		t.Errorf("Write whose ctx was cancelled while its function ran = %v, want nil (committed)", err)
	}
	if evs, _ := s.Events(context.Background(), "b1", 0); len(evs) != 1 {
		t.Errorf("board b1 has %d events, want 1", len(evs))
	}
}

func TestCloseDrainsQueuedWrites(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := t.TempDir() + "/hall.db"
	s, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	boards := mustBoards(t, s, 50)
	release := blockWriter(t, s)
	var wg sync.WaitGroup
	errs := make(chan error, len(boards))
	for _, b := range boards {
		wg.Go(func() {
			errs <- s.Write(ctx, func(tx *Tx) error {
				return tx.AppendEvent(&EventRecord{BoardID: b, BoardSeq: 1, Event: rules.Event{Kind: rules.KindStart}})
			})
		})
	}
	waitFor(t, "50 queued writes", func() bool { return len(s.queue) == len(boards) })
	closed := make(chan error, 1)
	go func() { closed <- s.Close() }()
	waitFor(t, "Close to begin", s.closed.Load)
	release()
	if err := <-closed; err != nil {
		t.Errorf("Close() = %v", err)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Errorf("queued Write() = %v, want nil (drained by Close)", err)
		}
	}
	select {
	case <-s.stopped:
	default:
		t.Errorf("the writer goroutine is still running after Close")
	}
	if err := s.Write(ctx, func(tx *Tx) error { return nil }); !errors.Is(err, ErrClosed) {
		t.Errorf("Write after Close = %v, want ErrClosed", err)
	}
	if _, err := s.Board(ctx, "b1"); !errors.Is(err, ErrClosed) {
		t.Errorf("Board after Close = %v, want ErrClosed", err)
	}
	if err := s.Close(); err != nil {
		t.Errorf("second Close() = %v", err)
	}

	s2 := mustOpenAt(t, path, Options{})
	all, err := s2.EventsSince(ctx, 0, 0)
	if err != nil || len(all) != len(boards) {
		t.Errorf("after reopening: %d events, %v; want %d", len(all), err, len(boards))
	}
}

func TestTxNotUsableAfterItsFunction(t *testing.T) {
	t.Parallel()
	s := MustOpen(t)
	mustBoards(t, s, 1)
	var kept *Tx
	mustWrite(t, s, func(tx *Tx) error { kept = tx; return nil })
	mustWrite(t, s, func(tx *Tx) error {
		err := kept.AppendEvent(&EventRecord{BoardID: "b1", BoardSeq: 1, Event: rules.Event{Kind: rules.KindStart}})
		if err == nil {
			return fmt.Errorf("a kept Tx appended an event")
		}
		return nil
	})
}
