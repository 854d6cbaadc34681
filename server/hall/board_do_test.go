package hall

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"testing/synctest"

	"go.uber.org/goleak"

	"github.com/chesshall/hallclock/server/hallerr"
)

// actorForTest is a board with nothing but its actor, on a hall context
// that the test ends.
func actorForTest(t *testing.T) *Board {
	t.Helper()
	sctx, stop := context.WithCancel(context.Background())
	b := &Board{h: &Hall{ctx: sctx}, quit: make(chan struct{})}
	t.Cleanup(func() { stop(); b.h.wg.Wait() })
	return b
}

// A caller that gives up while its function runs on the actor waits for
// it: the function never writes into what the caller has handed on (the
// race seen when a BoardAction's reply was marshalled while the actor
// still filled in its state).
func TestDoWaitsForAFunctionThatStarted(t *testing.T) {
	t.Parallel()
	synctest.Test(t, testDoWaitsForAFunctionThatStarted)
}

func testDoWaitsForAFunctionThatStarted(t *testing.T) {
	b := actorForTest(t)
	ctx, cancel := context.WithCancel(context.Background())
	started, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	free := func() { once.Do(func() { close(release) }) }
	t.Cleanup(free) // before the actor stops, whatever happens
	var wrote bool
	ret := make(chan error, 1)
	go func() {
		ret <- b.do(ctx, func() {
			close(started)
			<-release
			wrote = true
		})
	}()
	<-started
	cancel()
	synctest.Wait() // everything but the function has run as far as it can
	select {
	case err := <-ret:
		t.Fatalf("do returned %v while its function was still running", err)
	default:
	}
	free()
	if err := <-ret; err != nil || !wrote {
		t.Errorf("do = %v, function finished %v; want nil after the function ran to its end", err, wrote)
	}
}

// A function the actor has not taken yet when its caller gives up never
// runs.
func TestDoAbandonsAFunctionNotStarted(t *testing.T) {
	t.Parallel()
	synctest.Test(t, testDoAbandonsAFunctionNotStarted)
}

func testDoAbandonsAFunctionNotStarted(t *testing.T) {
	b := actorForTest(t)
	busy, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	free := func() { once.Do(func() { close(release) }) }
	t.Cleanup(free)
	go b.do(context.Background(), func() { close(busy); <-release })
	<-busy
	ctx, cancel := context.WithCancel(context.Background())
	ran := make(chan struct{}, 1)
	ret := make(chan error, 1)
	go func() { ret <- b.do(ctx, func() { ran <- struct{}{} }) }()
	synctest.Wait() // its function queued behind the busy one
	b.mu.Lock()
	queued := len(b.queue)
	b.mu.Unlock()
	if queued != 1 {
		t.Fatalf("%d functions queued behind the busy one, want 1", queued)
	}
	cancel()
	if err := <-ret; !errors.Is(err, context.Canceled) {
		t.Errorf("do = %v, want context.Canceled", err)
	}
	free()
	// Whatever comes after it runs; the abandoned one does not.
	if err := b.do(context.Background(), func() {}); err != nil {
		t.Fatal(err)
	}
	select {
	case <-ran:
		t.Error("the abandoned function ran")
	default:
	}
}

// Functions run one at a time, each sender's in the order sent, whether
// their callers ran them (an idle board) or a goroutine took the queue:
// the counter below has no lock but the actor's, so the race detector
// would see two at once.
func TestActorRunsOneAtATimeInOrder(t *testing.T) {
	t.Parallel()
	b := actorForTest(t)
	const senders, each = 8, 200
	var ran int
	last := make([]int, senders)
	var bad []string
	var wg sync.WaitGroup
	for s := range senders {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				f := func() {
					ran++
					if i > 0 && last[s] != i-1 {
						bad = append(bad, fmt.Sprintf("sender %d: %d ran after %d", s, i, last[s]))
					}
					last[s] = i
				}
				switch i % 3 {
				case 0:
					if err := b.do(context.Background(), f); err != nil {
						t.Error(err)
						return
					}
				default:
					b.post(f)
				}
			}
		}()
	}
	wg.Wait()
	// Everything posted before this do ran before it.
	var total int
	if err := b.do(context.Background(), func() { total = ran }); err != nil {
		t.Fatal(err)
	}
	if total != senders*each || len(bad) > 0 {
		t.Errorf("%d of %d functions ran; out of order: %v", total, senders*each, bad)
	}
}

// An idle board holds no goroutine: the queue's goroutine ends with it.
func TestIdleActorHoldsNoGoroutine(t *testing.T) {
	b := actorForTest(t)
	before := goleak.IgnoreCurrent()
	block := make(chan struct{})
	b.post(func() { <-block })
	for range 100 {
		b.post(func() {})
	}
	close(block)
	if err := b.do(context.Background(), func() {}); err != nil {
		t.Fatal(err)
	}
	if err := goleak.Find(before); err != nil {
		t.Errorf("an idle board still holds a goroutine: %v", err)
	}
}

// Nothing of a withdrawn board runs, nor anything after shutdown; do says
// which.
func TestActorStops(t *testing.T) {
	t.Parallel()
	b := actorForTest(t)
	b.closeQuit()
	ran := false
	if err := b.do(context.Background(), func() { ran = true }); !errors.Is(err, hallerr.ErrUnknownBoard) || ran {
		t.Errorf("do on a withdrawn board = %v, ran %v; want hallerr.ErrUnknownBoard, not run", err, ran)
	}

	b = actorForTest(t)
	sctx, stop := context.WithCancel(context.Background())
	b.h.ctx = sctx
	stop()
	b.post(func() { ran = true })
	if err := b.do(context.Background(), func() { ran = true }); !errors.Is(err, hallerr.ErrShuttingDown) || ran {
		t.Errorf("do after shutdown = %v, ran %v; want hallerr.ErrShuttingDown, not run", err, ran)
	}
}
