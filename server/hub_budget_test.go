package server

import (
	"context"
	"errors"
	"testing"
	"time"

	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// The budget lets a burst go at once after a quiet spell, then one
// reservation per its size's worth of time; what a catch-up update sent
// beyond its reservation puts the next ones back.
func TestCatchUpBudget(t *testing.T) {
	t.Parallel()
	b := newCatchUpBudget(1000, 4000) // 1000 bytes a second
	t0 := time.Unix(0, 0)
	for i := range 4 {
		if d, _, n := b.reserve(t0, 1000); d != 0 || n != 1000 {
			t.Fatalf("reservation %d within the burst: wait %v for %d bytes, want none for 1000", i+1, d, n)
		}
	}
	d, r, _ := b.reserve(t0, 1000)
	if d != time.Second {
		t.Errorf("past the burst: wait %v, want 1s", d)
	}
	// Given back (its watcher went away), it is not waited for.
	r.CancelAt(t0)
	if d, _, _ := b.reserve(t0, 1000); d != time.Second {
		t.Errorf("after a reservation given back: wait %v, want 1s", d)
	}
	// Guessed 1000, sent 3000: the next waits 2 s more.
	b.settle(t0, 1000, 3000)
	if d, _, _ := b.reserve(t0, 1000); d != 4*time.Second {
		t.Errorf("after 2000 bytes beyond a reservation: wait %v, want 4s", d)
	}
	// A reservation larger than the burst takes the burst; an update
	// larger than it is settled in pieces.
	b = newCatchUpBudget(1000, 4000)
	if d, _, n := b.reserve(t0, 1<<20); d != 0 || n != 4000 {
		t.Errorf("1 MiB reserved: wait %v for %d bytes, want none for the burst, 4000", d, n)
	}
	b.settle(t0, 4000, 14000)
	if d, _, _ := b.reserve(t0, 1); d != 10*time.Second+time.Millisecond {
		t.Errorf("after 10000 bytes beyond: wait %v, want 10.001s", d)
	}
}

// A watcher the hold held takes its next update only when the budget has
// room; its first update (a snapshot) and one not held do not wait for it.
func TestHeldWatcherWaitsForTheBudget(t *testing.T) {
	t.Parallel()
	h := NewHub(0)
	held := true
	h.HoldWith(func(context.Context, time.Time) (bool, error) { return held, nil },
		newCatchUpBudget(1, catchUpFirstGuess)) // one byte a second: the first guess, then nothing
	seq := uint64(0)
	publish := func() {
		seq++
		h.Publish("R", &pb.BoardState{BoardId: "a", BoardSeq: seq}, seq)
	}
	publish()
	next := func(s *Sub) error {
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		defer cancel()
		u, err := s.NextUpdate(ctx)
		if err == nil {
			b, _ := u.Proto()
			s.Sent(len(b))
		}
		return err
	}
	a, b := h.Subscribe(Scope{}, 0, 0), h.Subscribe(Scope{}, 0, 0)
	if err := next(a); err != nil {
		t.Fatalf("a held watcher's snapshot: %v, want it at once", err)
	}
	if err := next(b); err != nil {
		t.Fatalf("a held watcher's snapshot: %v, want it at once", err)
	}
	publish()
	if err := next(a); err != nil {
		t.Fatalf("the first catch-up, within the burst: %v", err)
	}
	if err := next(b); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("a second catch-up with the budget spent: %v, want it waiting (deadline exceeded)", err)
	}
	held = false
	publish()
	if err := next(a); err != nil {
		t.Errorf("a watcher not held, with the budget spent: %v, want its update at once", err)
	}
}
