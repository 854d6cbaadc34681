// Package mono is the injectable clock of the server and the devices:
// everything that waits (flag timers, heartbeats, watchdogs, backoff) takes
// a Clock, so tests control time. The rules package never reads a clock.
//
// # Usage
//
//	c := mono.Real()                 // production
//	f := mono.NewFake(time.Unix(0, 0)) // tests: time moves only on f.Advance
//	t := c.AfterFunc(d, fn)          // fn runs in its own goroutine when due
//	t.Stop()
//
// # Concurrency
//
// Clocks and timers are safe for concurrent use. A Fake runs due AfterFunc
// callbacks in their own goroutines, after Advance has moved the time, so a
// callback may call back into the Fake.
package mono

import (
	"sort"
	"sync"
	"time"
)

// Clock tells time and schedules work.
type Clock interface {
	// Now returns the current time. For Real it carries Go's monotonic
	// reading, so differences are immune to wall-clock jumps.
	Now() time.Time
	// Since returns the time elapsed since t.
	Since(t time.Time) time.Duration
	// AfterFunc calls f in its own goroutine once d has elapsed.
	AfterFunc(d time.Duration, f func()) Timer
	// After returns a channel that receives the time once d has elapsed.
	After(d time.Duration) <-chan time.Time
}

// Timer is a scheduled call that can be stopped or moved.
type Timer interface {
	// Stop prevents the call if it has not run; it reports whether it did.
	Stop() bool
	// Reset reschedules the call d from now; it reports whether it was pending.
	Reset(d time.Duration) bool
}

// Real returns the system clock.
func Real() Clock { return realClock{} }

type realClock struct{}

func (realClock) Now() time.Time                         { return time.Now() }
func (realClock) Since(t time.Time) time.Duration        { return time.Since(t) }
func (realClock) After(d time.Duration) <-chan time.Time { return time.After(d) }
func (realClock) AfterFunc(d time.Duration, f func()) Timer {
	return time.AfterFunc(d, f)
}

// Fake is a Clock whose time moves only when Advance or Set is called.
type Fake struct {
	mu      sync.Mutex
	now     time.Time
	timers  []*fakeTimer
	running int        // timer functions started and not yet returned
	idle    *sync.Cond // broadcast when running drops to 0
}

// NewFake returns a Fake clock showing start.
func NewFake(start time.Time) *Fake {
	c := &Fake{now: start}
	c.idle = sync.NewCond(&c.mu)
	return c
}

type fakeTimer struct {
	c    *Fake
	when time.Time
	f    func()
	live bool
}

// Now returns the fake time.
func (c *Fake) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Since returns the fake time elapsed since t.
func (c *Fake) Since(t time.Time) time.Duration { return c.Now().Sub(t) }

// AfterFunc schedules f at now+d of the fake time.
func (c *Fake) AfterFunc(d time.Duration, f func()) Timer {
	c.mu.Lock()
	t := &fakeTimer{c: c, when: c.now.Add(d), f: f, live: true}
	c.timers = append(c.timers, t)
	c.mu.Unlock()
	if d <= 0 {
		c.Advance(0)
	}
	return t
}

// After returns a channel that receives the fake time once d has elapsed.
func (c *Fake) After(d time.Duration) <-chan time.Time {
	ch := make(chan time.Time, 1)
	c.AfterFunc(d, func() { ch <- c.Now() })
	return ch
}

// Advance moves the fake time forward by d and runs every timer now due,
// each in its own goroutine, in order of their due times.
func (c *Fake) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	var due []*fakeTimer
	keep := c.timers[:0]
	for _, t := range c.timers {
		switch {
		case !t.live:
		case !t.when.After(c.now):
			t.live = false
			due = append(due, t)
		default:
			keep = append(keep, t)
		}
	}
	c.timers = keep
	c.running += len(due)
	c.mu.Unlock()
	sort.SliceStable(due, func(i, j int) bool { return due[i].when.Before(due[j].when) })
	for _, t := range due {
		go func() {
			defer c.returned()
			t.f()
		}()
	}
}

func (c *Fake) returned() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.running--; c.running == 0 {
		c.idle.Broadcast()
	}
}

// Settle waits until every timer function that Advance started has
// returned, those they started in turn included: what the timers due so
// far do is done (what they hand to other goroutines may not be). A test
// waits on it instead of giving the timers real time to run. A timer
// function that blocks until the caller of Settle acts deadlocks it.
func (c *Fake) Settle() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for c.running > 0 {
		c.idle.Wait()
	}
}

// Pending returns the number of timers not yet due.
func (c *Fake) Pending() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, t := range c.timers {
		if t.live {
			n++
		}
	}
	return n
}

func (t *fakeTimer) Stop() bool {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	was := t.live
	t.live = false
	return was
}

func (t *fakeTimer) Reset(d time.Duration) bool {
	t.c.mu.Lock()
	was := t.live
	t.when = t.c.now.Add(d)
	if !was {
		t.live = true
		t.c.timers = append(t.c.timers, t)
	}
	t.c.mu.Unlock()
	if d <= 0 {
		t.c.Advance(0)
	}
	return was
}
