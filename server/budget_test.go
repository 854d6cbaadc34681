package server

import (
	"context"
	"testing"
	"time"
)

// The watchers' budget: what is within it goes at once, what overdraws it
// waits (a watcher whose context cannot wait that long is refused), and
// the rate follows the hall's lag within its bounds.
func TestBudget(t *testing.T) {
	b := NewBudget(1<<20, 4<<20) // starts at 4 MiB/s, a burst of 4 MiB
	ctx := context.Background()
	if err := b.Spend(ctx, 4<<20); err != nil {
		t.Fatalf("spending the burst: %v", err)
	}
	// 2 MiB more needs half a second: a watcher that can wait 100 ms
	// is refused, not sent.
	short, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
	defer cancel()
	if err := b.Spend(short, 2<<20); err == nil {
		t.Errorf("spending 2 MiB beyond an empty 4 MiB/s budget within 100 ms: no error, want it refused")
	}

	if got := b.Rate(); got != 4<<20 {
		t.Errorf("rate = %v, want the max 4 MiB/s", got)
	}
	b.Adjust(true)
	if got := b.Rate(); got != 2<<20 {
		t.Errorf("behind once: rate = %v, want halved to 2 MiB/s", got)
	}
	for range 5 {
		b.Adjust(true)
	}
	if got := b.Rate(); got != 1<<20 {
		t.Errorf("behind six times: rate = %v, want the min 1 MiB/s", got)
	}
	b.Adjust(false)
	if got := b.Rate(); got != 1.25*(1<<20) {
		t.Errorf("caught up once: rate = %v, want raised by a quarter", got)
	}
	for range 20 {
		b.Adjust(false)
	}
	if got := b.Rate(); got != 4<<20 {
		t.Errorf("caught up for long: rate = %v, want the max", got)
	}

	var none *Budget
	if err := none.Spend(short, 1<<30); err != nil || none.Rate() != 0 {
		t.Errorf("a nil budget: Spend = %v, Rate = %v; want no wait, 0", err, none.Rate())
	}
}
