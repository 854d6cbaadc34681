package main

import (
	"context"
	"runtime"
	"runtime/metrics"
	"time"
)

// Collecting while the hall is idle. The collector paces each cycle by the
// last one: a cycle starts early enough for its marking to finish in the
// heap's remaining room, if the live heap is about what it was. When
// 10,000 clocks connect, the live heap triples in seconds (their
// connections, streams and goroutine stacks), and the first cycle after
// them starts far too late: its marking, three times the work the pacer
// expected, fell on the presses as "assists" — at 1,000 presses a second,
// a cycle of 0.8 s in which every goroutine that allocated marked first
// and no press was acknowledged on time (benchmark p99 460–890 ms). So the
// server collects itself once it is idle (no device event, new clock
// stream or arbiter's command for idleFor) while its heap has grown by
// half over what the last cycle found live: the cycle after a fleet
// connected then runs before the round starts, on time the hall has
// spare, and the next is paced on the new live heap. During play a hall
// is never idle for long, and the collector runs as Go paces it.
//
// Clocks connecting and commands (a round starting) count as activity:
// a collection asked for while clocks still came measured a live heap of
// 186 MB where the connected fleet held 286 MB, and the heap never
// doubled that before the round began; the next cycle, paced on 186 MB,
// began with 62 MB of room and its marking fell on the presses (0.96-1.4
// s of assists, p99 0.5-0.8 s at 1,500-2,000 presses/s; bench saturation
// sweep, GODEBUG=gctrace=1, 2026-12-07). Idle for a second was too
// short: a cycle started in a pause of a second or two and was still
// marking, half a second of CPU, when the presses came back.

const (
	idleFor = 5 * time.Second
	// collect when the heap holds idleGrowthNum/idleGrowthDen times the
	// last live heap
	idleGrowthNum, idleGrowthDen = 3, 2
	idleLookFor                  = 250 * time.Millisecond
)

// heapReading is what the idle collector reads of the runtime.
type heapReading struct {
	live, now, cycles uint64 // live after the last cycle; heap objects now; cycles so far
}

// idleCollector decides when to collect (pure; its caller reads the
// runtime and collects).
type idleCollector struct {
	events      uint64    // the device events as last seen
	quietSince  time.Time // since when no event came
	forcedCycle uint64    // the cycle count after the last collection it asked for
	asked       bool
}

// look takes a reading at now with the device events applied so far, and
// says whether to collect now.
func (c *idleCollector) look(now time.Time, events uint64, h heapReading) bool {
	if events != c.events || c.quietSince.IsZero() {
		c.events, c.quietSince = events, now
		return false
	}
	if now.Sub(c.quietSince) < idleFor || h.live == 0 || h.now*idleGrowthDen < idleGrowthNum*h.live {
		return false
	}
	if c.asked && h.cycles <= c.forcedCycle {
		return false // the collection asked for has not run yet
	}
	c.asked, c.forcedCycle = true, h.cycles
	return true
}

var heapSamples = []metrics.Sample{
	{Name: "/gc/heap/live:bytes"},
	{Name: "/memory/classes/heap/objects:bytes"},
	{Name: "/gc/cycles/total:gc-cycles"},
}

func readHeap() heapReading {
	s := make([]metrics.Sample, len(heapSamples))
	copy(s, heapSamples)
	metrics.Read(s)
	var h heapReading
	for i, v := range []*uint64{&h.live, &h.now, &h.cycles} {
		if s[i].Value.Kind() == metrics.KindUint64 {
			*v = s[i].Value.Uint64()
		}
	}
	return h
}

// collectWhenIdle runs the idle collector until ctx ends; activity
// returns a count that grows with every device event applied, every
// clock stream welcomed and every arbiter's command.
func collectWhenIdle(ctx context.Context, activity func() uint64) {
	var c idleCollector
	t := time.NewTicker(idleLookFor)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-t.C:
			if c.look(now, activity(), readHeap()) {
				runtime.GC()
			}
		}
	}
}
