package server

import (
	"context"
	"time"

	"golang.org/x/time/rate"
)

// catchUpBudget bounds the bytes per second that held watchers' catch-up
// updates may take, hall-wide (ingest_first.go). A watcher held back while
// ingest was behind takes, when let go, everything that changed meanwhile
// merged into one update: at 10,000 boards ~2 MB for a whole-hall watcher.
// Let go together (ingest caught up, or their watchFloor ran out at the
// same time) a thousand of them wanted ~2 GB at once, and ingest fell
// behind again; each now reserves its update's bytes from this budget
// first and waits its turn. A held watcher reserves what its last
// catch-up update took (at first catchUpFirstGuess) and the difference is
// settled once it is sent (Sub.Sent): an update larger than guessed puts
// the next ones back.
type catchUpBudget struct {
	lim *rate.Limiter
}

const (
	// catchUpRate is the budget: a few per cent of a core's sending.
	catchUpRate = 16 << 20 // bytes per second
	// catchUpBurst is what may go at once after a quiet spell, and the
	// most one reservation takes (larger ones are settled in pieces).
	catchUpBurst      = 4 << 20
	catchUpFirstGuess = 64 << 10
)

func newCatchUpBudget(bytesPerSecond, burst int) *catchUpBudget {
	return &catchUpBudget{lim: rate.NewLimiter(rate.Limit(bytesPerSecond), burst)}
}

// reserve takes n bytes (at most the burst) from the budget at now and
// returns how long to wait before sending them and the reservation (nil if
// none was taken).
func (b *catchUpBudget) reserve(now time.Time, n int) (time.Duration, *rate.Reservation, int) {
	n = max(1, min(n, b.lim.Burst()))
	r := b.lim.ReserveN(now, n)
	if !r.OK() {
		return 0, nil, 0
	}
	return r.DelayFrom(now), r, n
}

// settle charges what was sent beyond what was reserved; the budget owes
// it, and later reservations wait for it.
func (b *catchUpBudget) settle(now time.Time, reserved, sent int) {
	for extra := sent - reserved; extra > 0; {
		k := min(extra, b.lim.Burst())
		b.lim.ReserveN(now, k)
		extra -= k
	}
}

// wait reserves n bytes and waits for them, or for ctx: a watcher that
// goes away while it waits gives its reservation back, so that those
// behind it do not wait for bytes never sent.
func (b *catchUpBudget) wait(ctx context.Context, n int) (int, error) {
	d, r, reserved := b.reserve(time.Now(), n)
	if d <= 0 {
		return reserved, nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		r.CancelAt(time.Now())
		return 0, ctx.Err()
	case <-t.C:
		return reserved, nil
	}
}

// holdBack waits on the hub's hold and, if it held the watcher, for the
// budget to have room for its catch-up update.
func (s *Sub) holdBack(ctx context.Context) error {
	h := s.h
	if h.hold == nil {
		return nil
	}
	held, err := h.hold(ctx, s.lastAt)
	if err != nil || !held || s.held || h.budget == nil || !s.started {
		// A watcher's first update (its snapshot) is not a catch-up: a
		// new dashboard waits for the hold, not for the budget.
		return err
	}
	s.held = true
	if s.guess == 0 {
		s.guess = catchUpFirstGuess
	}
	s.reserved, err = h.budget.wait(ctx, s.guess)
	return err
}

// Sent tells the hub that the watcher's last update went out in n bytes:
// a catch-up update settles its reservation. Senders call it after each
// update.
func (s *Sub) Sent(n int) {
	if !s.held {
		return
	}
	s.held = false
	s.guess = n
	if s.h.budget != nil {
		s.h.budget.settle(time.Now(), s.reserved, n)
	}
	s.reserved = 0
}
