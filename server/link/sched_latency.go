package link

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/chesshall/hallclock/internal/mono"
	"github.com/chesshall/hallclock/internal/schedlat"
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
	var prev schedlat.Hist
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
		h, ok := schedlat.Read()
		if !ok {
			return // not reported by this runtime
		}
		p99 := h.QuantileSince(prev, 0.99)
		prev = h
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
