package link

import (
	"context"
	"math"
	rtmetrics "runtime/metrics"
	"sync/atomic"
	"time"

	"github.com/chesshall/hallclock/internal/mono"
)

// The hall's own lag. Under overload every goroutine waits its turn to
// run, the receive loops of the clocks' streams too: a clock that beats
// every second is then read seconds late, and the silence watchdog would
// take hundreds of clocks offline for the hall's delay, not theirs (and
// their reconnections would add to the load). So the hall watches how
// long runnable goroutines wait to run — the Go runtime's scheduling
// latency — and while that is high it cuts no clock for silence; a dead
// connection is still found by gRPC keepalive.

// lagSample is how often the scheduling latency is read.
const lagSample = 250 * time.Millisecond

// lagLimit: over this p99 scheduling latency in a sample, the hall is
// behind.
const lagLimit = 200 * time.Millisecond

const schedLatencies = "/sched/latencies:seconds"

// Lag keeps whether the hall was recently behind its own work.
type Lag struct {
	behindUntil atomic.Int64 // Unix ns (server clock): behind until then
	last        atomic.Int64 // the last sample's p99, ns
}

// Watch samples the scheduling latency until ctx is done; after a sample
// over lagLimit the hall counts as behind for hold (on clock, the
// server's). tick, if set, is called at each sample with the real time
// (the ingest monitor samples with it).
func (m *Lag) Watch(ctx context.Context, clock mono.Clock, hold time.Duration, tick func(time.Time)) {
	samples := []rtmetrics.Sample{{Name: schedLatencies}}
	var prev []uint64
	t := time.NewTicker(lagSample)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if tick != nil {
			tick(time.Now())
		}
		rtmetrics.Read(samples)
		if samples[0].Value.Kind() != rtmetrics.KindFloat64Histogram {
			return // not reported by this runtime
		}
		h := samples[0].Value.Float64Histogram()
		p99 := quantileSince(prev, h.Counts, h.Buckets, 0.99)
		prev = append(prev[:0], h.Counts...)
		m.last.Store(int64(p99))
		if p99 > lagLimit {
			m.behindUntil.Store(clock.Now().Add(hold).UnixNano())
		}
	}
}

// Behind reports whether the hall was behind its own work lately, by
// clock (the server's).
func (m *Lag) Behind(clock mono.Clock) bool {
	return clock.Now().UnixNano() < m.behindUntil.Load()
}

// Last is the last sample's p99 scheduling latency.
func (m *Lag) Last() time.Duration { return time.Duration(m.last.Load()) }

// quantileSince returns the q quantile of what a cumulative histogram
// (counts per bucket; buckets are the len(counts)+1 boundaries, in
// seconds) counted since prev (nil: since the start), as the upper
// boundary of the bucket it falls in; 0 if nothing was counted.
func quantileSince(prev, counts []uint64, buckets []float64, q float64) time.Duration {
	var total uint64
	for i, c := range counts {
		if i < len(prev) {
			c -= prev[i]
		}
		total += c
	}
	if total == 0 {
		return 0
	}
	want := uint64(math.Ceil(q * float64(total))) // the rank of the quantile, 1-based
	var seen uint64
	for i, c := range counts {
		if i < len(prev) {
			c -= prev[i]
		}
		seen += c
		if seen >= want {
			hi := buckets[i+1]
			if hi > 1e9 { // +Inf
				hi = buckets[i]
			}
			return time.Duration(hi * float64(time.Second))
		}
	}
	return 0
}
