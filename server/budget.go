package server

import (
	"context"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// Budget bounds the bytes per second all watchers of the hall are sent
// (WatchHall over gRPC, /api/watch and the dashboard over SSE), so that
// watchers take what ingest leaves rather than what they ask for. A
// watcher whose update would overdraw it waits its turn (first come,
// first served); meanwhile its feed goes on, and it then gets what it
// missed merged into one update, or a fresh snapshot: fresher, rarer
// updates, never a backlog.
//
// The rate adapts to the hall's own lag (lag.go): halved at every sample
// while goroutines wait too long to run, raised by a quarter at every
// sample while they do not, between min and max. A hall with spare CPU
// runs at max; one that ingest and watchers overload gives the watchers
// less until ingest keeps up.
type Budget struct {
	mu       sync.Mutex
	lim      *rate.Limiter
	min, max float64
}

// Default bounds of the watchers' budget, bytes per second.
const (
	budgetMin = 1 << 20   // 1 MiB/s: a 10k-board snapshot every few seconds
	budgetMax = 512 << 20 // more than loopback carries on two cores: no limit in practice
)

// NewBudget returns a budget starting at max.
func NewBudget(min, max float64) *Budget {
	return &Budget{lim: rate.NewLimiter(rate.Limit(max), int(max)), min: min, max: max}
}

// Spend waits until n bytes may be sent (or ctx ends). A nil budget
// never waits.
func (b *Budget) Spend(ctx context.Context, n int) error {
	if b == nil || n <= 0 {
		return nil
	}
	// Paid in parts of at most the burst (a big snapshot at a low rate).
	// A part that would wait over budgetWait is not booked: the watcher
	// tries again then, at the rate of then — a booking made while the
	// hall was behind would otherwise hold it back long after the hall
	// caught up.
	for n > 0 {
		part := min(n, b.lim.Burst())
		r := b.lim.ReserveN(time.Now(), part)
		wait, booked := budgetWait, false
		if d := r.Delay(); r.OK() && d <= budgetWait {
			wait, booked = d, true
		} else {
			r.Cancel()
		}
		if wait > 0 {
			t := time.NewTimer(wait)
			select {
			case <-ctx.Done():
				t.Stop()
				if booked {
					r.Cancel()
				}
				return ctx.Err()
			case <-t.C:
			}
		}
		if booked {
			n -= part
		}
	}
	return nil
}

// budgetWait is the longest a watcher books ahead.
const budgetWait = time.Second

// Adjust halves the rate if the hall is behind, else raises it by a
// quarter, within the bounds.
func (b *Budget) Adjust(behind bool) {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	r := float64(b.lim.Limit())
	if behind {
		r /= 2
	} else {
		r *= 1.25
	}
	r = min(max(r, b.min), b.max)
	now := time.Now()
	b.lim.SetLimitAt(now, rate.Limit(r))
	b.lim.SetBurstAt(now, max(int(r), 64<<10))
}

// Rate returns the budget now, bytes per second.
func (b *Budget) Rate() float64 {
	if b == nil {
		return 0
	}
	return float64(b.lim.Limit())
}
