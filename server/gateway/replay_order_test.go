package gateway

import "testing"

// A number applied is never applied again, a Hall-Start only above the
// last; the numbers a gateway skipped over (a message someone else wrote
// took one's place in the stream) and an event that came before the one
// it follows are applied once when the hall sends them again.
func TestOrderAdmits(t *testing.T) {
	var o order
	type step struct {
		n              uint64
		start, applied bool
		want           bool
	}
	for i, s := range []step{
		{n: 5, start: true, applied: true, want: true}, // the first message read, wherever the stream begins
		{n: 6, applied: true, want: true},
		{n: 6, want: false},                // again
		{n: 5, start: true, want: false},   // the stream's start again
		{n: 8, applied: true, want: true},  // 7 is missing: someone else's message took its place
		{n: 9, applied: false, want: true}, // an event after 7's on the same board: not applied yet
		{n: 10, applied: true, want: true},
		{n: 7, applied: true, want: true}, // the hall sends 7 and what followed again
		{n: 8, want: false},
		{n: 9, applied: true, want: true},
		{n: 10, want: false},
		{n: 7, want: false},
		{n: 9, want: false},
		{n: 10, start: true, want: false},
		{n: 11, start: true, applied: true, want: true}, // the hall restored: numbered above
		{n: 6, want: false},
		{n: 12, applied: true, want: true},
	} {
		if got := o.admit(s.n, s.start); got != s.want {
			t.Fatalf("step %d: admit(%d, start %v) = %v, want %v", i, s.n, s.start, got, s.want)
		}
		if s.want {
			o.record(s.n, s.start, s.applied)
		}
	}
}
