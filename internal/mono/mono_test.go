package mono

import (
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
	a, b := <-got, <-got
	if a+b != 3 {
		t.Fatalf("ran %d and %d, want 1 and 2", a, b)
	}
	select {
	case v := <-got:
		t.Fatalf("stopped timer ran (%d)", v)
	case <-time.After(20 * time.Millisecond):
	}
}

func TestFakeResetMovesTheTimer(t *testing.T) {
	c := NewFake(time.Unix(0, 0))
	ran := make(chan struct{}, 1)
	tm := c.AfterFunc(time.Second, func() { ran <- struct{}{} })
	tm.Reset(3 * time.Second)
	c.Advance(2 * time.Second)
	select {
	case <-ran:
		t.Fatal("timer ran at its old time after Reset")
	case <-time.After(20 * time.Millisecond):
	}
	c.Advance(time.Second)
	<-ran
}

func TestScaledRunsFaster(t *testing.T) {
	base := NewFake(time.Unix(0, 0))
	c := Scaled(base, 60)
	start := c.Now()
	fired := make(chan struct{})
	c.AfterFunc(time.Minute, func() { close(fired) })
	base.Advance(999 * time.Millisecond)
	select {
	case <-fired:
		t.Fatal("a one-minute timer fired after 59.94 scaled seconds")
	case <-time.After(20 * time.Millisecond):
	}
	base.Advance(time.Millisecond)
	<-fired
	if got := c.Since(start); got != time.Minute {
		t.Fatalf("Since = %v after one base second at 60x, want 1m", got)
	}
}
