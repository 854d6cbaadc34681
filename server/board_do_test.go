package server

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"
)

// actorForTest is a board actor with nothing but its mailbox, on a server
// context that the test ends.
func actorForTest(t *testing.T) *board {
	t.Helper()
	sctx, stop := context.WithCancel(context.Background())
	b := &board{srv: &Server{ctx: sctx}, mailbox: make(chan func(), 4)}
	done := make(chan struct{})
	go func() { defer close(done); b.run(sctx) }()
	t.Cleanup(func() { stop(); <-done })
	return b
}

// A caller that gives up while its function runs on the actor waits for
// it: the function never writes into what the caller has handed on (the
// race seen when a BoardAction's reply was marshalled while the actor
// still filled in its state).
func TestDoWaitsForAFunctionThatStarted(t *testing.T) {
	t.Parallel()
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
	select {
	case err := <-ret:
		t.Fatalf("do returned %v while its function was still running", err)
	case <-time.After(50 * time.Millisecond):
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
	time.Sleep(20 * time.Millisecond) // queued behind the busy one
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
