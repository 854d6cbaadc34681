package main

import (
	"testing"
	"time"
)

// The idle collector asks for a collection once the hall has had no
// device event or new stream for idleFor and its heap has grown by half
// over the last live heap — once per cycle — and never while they come.
func TestIdleCollector(t *testing.T) {
	t0 := time.Unix(1_700_000_000, 0)
	grown := heapReading{live: 100, now: 250, cycles: 7}
	steps := []struct {
		at     time.Duration
		events uint64
		heap   heapReading
		want   bool
		why    string
	}{
		{0, 5, grown, false, "the first look only starts counting"},
		{4 * time.Second, 5, grown, false, "quiet for 4 s"},
		{5 * time.Second, 6, grown, false, "an event came"},
		{9 * time.Second, 6, grown, false, "quiet for 4 s since it"},
		{10 * time.Second, 6, heapReading{live: 100, now: 149, cycles: 7}, false, "quiet for 5 s, the heap grown by less than half"},
		{10 * time.Second, 6, grown, true, "quiet for 5 s, the heap 2.5 times the live one"},
		{10250 * time.Millisecond, 6, grown, false, "the collection asked for has not run yet"},
		{10500 * time.Millisecond, 6, heapReading{live: 120, now: 130, cycles: 8}, false, "collected: the heap is small again"},
		{60 * time.Second, 6, heapReading{live: 120, now: 300, cycles: 8}, true, "grown again, still quiet"},
		{61 * time.Second, 9, heapReading{live: 120, now: 400, cycles: 9}, false, "events came"},
	}
	var c idleCollector
	for _, s := range steps {
		if got := c.look(t0.Add(s.at), s.events, s.heap); got != s.want {
			t.Errorf("at %s (%s): collect %v, want %v", s.at, s.why, got, s.want)
		}
	}
}

// The case that moved the threshold from twice to one and a half times:
// a cycle taken while 10,000 clocks still connected found 186 MB live,
// the connected fleet held 286 MB and the heap stood at about 330 MB
// when the round began. Twice the live heap was never reached, and the
// next cycle's marking fell on the presses.
func TestIdleCollectorAfterAFleetConnected(t *testing.T) {
	t0 := time.Unix(1_700_000_000, 0)
	const mb = 1 << 20
	var c idleCollector
	c.look(t0, 10_000, heapReading{live: 186 * mb, now: 330 * mb, cycles: 12})
	if !c.look(t0.Add(idleFor), 10_000, heapReading{live: 186 * mb, now: 330 * mb, cycles: 12}) {
		t.Fatal("quiet for idleFor with the heap 1.8 times the live one: no collection asked for")
	}
}
