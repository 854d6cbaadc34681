package main

import (
	"testing"
	"time"
)

// A watcher's view is as old as the oldest acknowledged press it has not
// seen; seeing it (or a later state of its board) makes the next one the
// oldest.
func TestViewAge(t *testing.T) {
	f := &fleet{}
	set := &watcherSet{f: f}
	w := &watcher{set: set, sampled: true, seen: map[string]uint64{}}
	t0 := time.Unix(1000, 0)
	if got := w.viewAgeLocked(&f.ackLog, t0); got != 0 {
		t.Errorf("age with nothing acknowledged = %s, want 0", got)
	}
	f.ackLog.add("b1", 5, t0)
	f.ackLog.add("b2", 3, t0.Add(100*time.Millisecond))
	f.ackLog.add("b1", 6, t0.Add(200*time.Millisecond))
	now := t0.Add(time.Second)
	if got := w.viewAgeLocked(&f.ackLog, now); got != time.Second {
		t.Errorf("age before any update = %s, want 1s", got)
	}
	w.seen["b1"] = 5
	if got := w.viewAgeLocked(&f.ackLog, now); got != 900*time.Millisecond {
		t.Errorf("age having seen b1@5 = %s, want 900ms (b2@3 acknowledged at 100ms)", got)
	}
	w.seen["b2"] = 9
	if got := w.viewAgeLocked(&f.ackLog, now); got != 800*time.Millisecond {
		t.Errorf("age having seen b2 = %s, want 800ms (b1@6)", got)
	}
	w.seen["b1"] = 6
	if got := w.viewAgeLocked(&f.ackLog, now); got != 0 {
		t.Errorf("age having seen everything = %s, want 0", got)
	}
	// A new measurement starts from an empty log.
	f.ackLog.reset()
	set.ws = []*watcher{w}
	tr := set.ageFrom()
	f.ackLog.add("b3", 1, now)
	w.noteAge(now.Add(300 * time.Millisecond))
	if got := tr.maxAge(); got != 300*time.Millisecond {
		t.Errorf("max age after a reset = %s, want 300ms", got)
	}
}
