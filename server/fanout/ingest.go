package fanout

import (
	"context"
	"sync/atomic"
	"time"
)

// Ingest first. Watchers share the hall's CPU with the clocks, and a whole
// hall's watchers can want more than it has: at 10,000 boards each
// whole-hall watcher needs 1.5 MB/s of protobuf (2.5 MB/s of JSON), and
// coalescing saves nothing once every board changes within the interval.
// So while presses wait to be acknowledged — the worst receive-to-
// acknowledgement time of a sample (Ingest.Sample) over ingestLagLimit — the
// hall's watchers hold their next update back (ingestHold after the last
// such sample), and reading again get what changed meanwhile merged, or a
// fresh snapshot: rarer updates. However long ingest stays behind, a
// watcher gets an update at least every watchFloor, so that what a
// dashboard shows is never more than about a second old. (Held for up to
// 10 s, the watchers of a saturated hall showed states 5–22 s old; and
// every one of a thousand came back to a snapshot of the whole hall.)

const (
	// ingestLagLimit: a press acknowledged later than this after it
	// arrived means ingest is behind.
	ingestLagLimit = 500 * time.Millisecond
	// ingestHold is how long after the last sample that saw ingest behind
	// watchers are held back.
	ingestHold = time.Second
	// watchFloor is the longest a watcher is held back since its last
	// update: with the time to build and send the next, its view stays
	// under a second old.
	watchFloor = 500 * time.Millisecond
	// watchHoldStep is how often a held watcher looks again when a
	// behind function decides (NewIngest; tests).
	watchHoldStep = 25 * time.Millisecond
)

// Ingest keeps whether ingest was recently behind, and holds watchers
// back meanwhile (Hold, a Hub's HoldWith). Its times are real (time.Now):
// it is about the machine's load, not the hall's clock. Held watchers
// wait on release, closed when ingest is no longer behind: a thousand
// held watchers cost nothing while they wait.
type Ingest struct {
	// behindFn, if set, says whether ingest is behind instead (tests).
	behindFn func() bool

	worst atomic.Int64 // the worst receive-to-ack time (ns) since the last sample
	holds atomic.Uint64

	// release is read by every watcher at every update, without a lock;
	// only Sample (one goroutine) changes it.
	release     atomic.Pointer[chan struct{}] // nil while not behind
	behindUntil time.Time                     // Sample's own
}

// NewIngest returns a monitor of ingest; behind, if not nil, says whether
// ingest is behind in place of the acknowledgement times (tests), and
// is looked at every watchHoldStep while it is.
func NewIngest(behind func() bool) *Ingest { return &Ingest{behindFn: behind} }

// ObserveAck records how long a device event took from its arrival to its
// acknowledgement.
func (m *Ingest) ObserveAck(d time.Duration) {
	for {
		w := m.worst.Load()
		if int64(d) <= w || m.worst.CompareAndSwap(w, int64(d)) {
			return
		}
	}
}

// Sample takes the worst time since the last sample (call it from one
// goroutine, a few times a second): over ingestLagLimit, ingest is behind
// for ingestHold; once that has passed with no such sample, the held
// watchers are released.
func (m *Ingest) Sample(now time.Time) {
	worst := time.Duration(m.worst.Swap(0))
	switch r := m.release.Load(); {
	case worst > ingestLagLimit:
		m.behindUntil = now.Add(ingestHold)
		if r == nil {
			ch := make(chan struct{})
			m.release.Store(&ch)
		}
	case r != nil && !now.Before(m.behindUntil):
		m.release.Store(nil)
		close(*r)
	}
}

// Holds is how many watchers' updates were held back so far.
func (m *Ingest) Holds() uint64 { return m.holds.Load() }

// behind returns the channel closed when ingest is no longer behind, or
// nil if it is not behind.
func (m *Ingest) behind() <-chan struct{} {
	if r := m.release.Load(); r != nil {
		return *r
	}
	return nil
}

// Hold waits while ingest is behind, up to watchFloor since the watcher's
// last update (last); it returns ctx's error if ctx ends first.
func (m *Ingest) Hold(ctx context.Context, last time.Time) error {
	if m.behindFn != nil {
		return m.holdPolling(ctx, last)
	}
	release := m.behind()
	if release == nil {
		return nil
	}
	floor := watchFloor - time.Since(last)
	if floor <= 0 {
		return nil
	}
	m.holds.Add(1)
	t := time.NewTimer(floor)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-release:
	case <-t.C:
	}
	return nil
}

// holdPolling is Hold for a behind function (tests), which says nothing
// when it changes: it looks every watchHoldStep.
func (m *Ingest) holdPolling(ctx context.Context, last time.Time) error {
	if !m.behindFn() {
		return nil
	}
	m.holds.Add(1)
	t := time.NewTimer(watchHoldStep)
	defer t.Stop()
	for m.behindFn() && time.Since(last) < watchFloor {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
		t.Reset(watchHoldStep)
	}
	return nil
}
