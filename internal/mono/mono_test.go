package mono

import (
	"sync"
	"testing"
	"time"
)

func TestFakeRunsDueTimersInOrder(t *testing.T) {
	c := NewFake(time.Unix(0, 0))
	got := make(chan int, 3)
	c.AfterFunc(2*time.Second, func() { got <- 2 })
	c.AfterFunc(time.Second, func() { got <- 1 })
	stopped := c.AfterFunc(1500*time.Millisecond, func() { got <- 99 })
	if !stopped.Stop() {
		t.Fatal("Stop of a pending timer = false, want true")
	}
	c.Advance(999 * time.Millisecond)
	if n := c.Pending(); n != 2 {
		t.Fatalf("Pending after 999ms = %d, want 2", n)
	}
	c.Advance(2 * time.Second)
	c.Settle()
	if n := len(got); n != 2 {
		t.Fatalf("%d timers ran, want 2 (the stopped one not)", n)
	}
	if a, b := <-got, <-got; a+b != 3 {
		t.Fatalf("ran %d and %d, want 1 and 2", a, b)
	}
}

func TestFakeResetMovesTheTimer(t *testing.T) {
	c := NewFake(time.Unix(0, 0))
	ran := make(chan struct{}, 1)
	tm := c.AfterFunc(time.Second, func() { ran <- struct{}{} })
	tm.Reset(3 * time.Second)
	c.Advance(2 * time.Second)
	c.Settle()
	if len(ran) != 0 {
		t.Fatal("timer ran at its old time after Reset")
	}
	c.Advance(time.Second)
	c.Settle()
	if len(ran) != 1 {
		t.Fatal("timer did not run at its new time")
	}
}

// Settle returns once the timer functions started so far, and those they
// started, have returned; not before.
func TestFakeSettle(t *testing.T) {
	c := NewFake(time.Unix(0, 0))
	release := make(chan struct{})
	var done []string
	var mu sync.Mutex
	note := func(s string) { mu.Lock(); done = append(done, s); mu.Unlock() }
	c.AfterFunc(time.Second, func() {
		<-release
		c.AfterFunc(0, func() { note("chained") }) // due at once: started from within
		note("first")
	})
	c.Advance(time.Second)
	settled := make(chan struct{})
	go func() { c.Settle(); close(settled) }()
	select {
	case <-settled:
		t.Fatal("Settle returned while a timer function ran")
	default:
	}
	close(release)
	<-settled
	mu.Lock()
	defer mu.Unlock()
	if len(done) != 2 {
		t.Errorf("after Settle: %v, want the timer and the one it started", done)
	}
	c.Settle() // nothing running: returns at once
}

func TestScaledRunsFaster(t *testing.T) {
	base := NewFake(time.Unix(0, 0))
	c := Scaled(base, 60)
	start := c.Now()
	fired := make(chan struct{})
	c.AfterFunc(time.Minute, func() { close(fired) })
	base.Advance(999 * time.Millisecond)
	base.Settle()
	select {
	case <-fired:
		t.Fatal("a one-minute timer fired after 59.94 scaled seconds")
	default:
	}
	base.Advance(time.Millisecond)
	<-fired
	if got := c.Since(start); got != time.Minute {
		t.Fatalf("Since = %v after one base second at 60x, want 1m", got)
	}
}
