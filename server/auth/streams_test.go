package auth

import (
	"context"
	"errors"
	"testing"

	"github.com/chesshall/hallclock/server/hallerr"
)

// A token holds at most its limit of streams (a device's token its own);
// a released slot is free again, once however often it is released.
func TestStreamsLimit(t *testing.T) {
	sl := NewStreams(2, 1)
	arbiter := &Identity{TokenID: "tok-a", Role: RoleArbiter}
	device := &Identity{TokenID: "tok-d", Role: RoleDevice}
	r1, err := sl.Acquire(arbiter)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sl.Acquire(arbiter); err != nil {
		t.Fatal(err)
	}
	if _, err := sl.Acquire(arbiter); !errors.Is(err, hallerr.ErrTooManyStreams) {
		t.Fatalf("a third stream of a token limited to 2: %v, want ErrTooManyStreams", err)
	}
	if _, err := sl.Acquire(device); err != nil {
		t.Fatal(err)
	}
	if _, err := sl.Acquire(device); !errors.Is(err, hallerr.ErrTooManyStreams) {
		t.Fatalf("a second stream of a device's token: %v, want ErrTooManyStreams", err)
	}
	r1()
	r1()
	if got := sl.Open(); got != 2 {
		t.Errorf("Open = %d after releasing one of 3 twice, want 2", got)
	}
	if _, err := sl.Acquire(arbiter); err != nil {
		t.Errorf("a released slot is not free: %v", err)
	}
}

// Revoking a token ends its streams, tracked or tracking a context, and
// nobody else's; an untracked stream is not cut.
func TestStreamsCut(t *testing.T) {
	sl := NewStreams(8, 8)
	var cut, other, untracked int
	sl.Track("tok-a", func() { cut++ })
	sl.Track("tok-b", func() { other++ })
	untrack := sl.Track("tok-a", func() { untracked++ })
	untrack()
	ctx := context.Background()
	release := sl.TrackContext(context.Background(), "tok-a", &ctx)
	defer release()
	sl.Cut("tok-a")
	if cut != 1 || other != 0 || untracked != 0 || ctx.Err() == nil {
		t.Errorf("after Cut(tok-a): cut %d, other token %d, untracked %d, context %v; want 1, 0, 0, cancelled", cut, other, untracked, ctx.Err())
	}
}
