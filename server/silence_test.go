package server_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/grpc/codes"

	"github.com/chesshall/hallclock/internal/mono"
	"github.com/chesshall/hallclock/internal/testkit/halltest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/server"
	"github.com/chesshall/hallclock/storage"
)

// The silence watchdog on the server's clock (fake): a device is cut
// three heartbeat intervals after it was last heard, counted from the
// last message it sent; a check that runs more than an interval late
// (the hall was behind, not the device) gives the device more time.
func TestSilenceWatchdog(t *testing.T) {
	t.Parallel()
	fake := mono.NewFake(time.Unix(1_700_000_000, 0))
	var overloaded atomic.Bool
	h := halltest.Start(t, halltest.WithOptions(server.Options{Clock: fake, HeartbeatInterval: time.Second,
		Overloaded: overloaded.Load}))
	boards := h.Round(t, "300+2", 4)
	arb, ctx := h.Arbiter(t)
	lastSeen := func(dev string) int64 {
		t.Helper()
		ds, err := arb.ListDevices(ctx, &pb.ListDevicesRequest{})
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range ds.GetDevices() {
			if d.GetDeviceId() == dev {
				return d.GetLastSeenUnixMs()
			}
		}
		return 0
	}
	// beat sends a heartbeat and waits until the hall has it.
	beat := func(l *rawLink, dev string) {
		t.Helper()
		l.heartbeat(1)
		now := fake.Now().UnixMilli()
		halltest.Eventually(t, 5*time.Second, func() error {
			if got := lastSeen(dev); got != now {
				return fmt.Errorf("device %s last seen %d, want %d", dev, got, now)
			}
			return nil
		})
	}
	alive := func(l *rawLink) bool {
		select {
		case <-l.done:
			return false
		case <-time.After(100 * time.Millisecond): // the fake clock's timers run in goroutines
			return true
		}
	}

	// Heard 2 s after connecting: at 3 s it is not cut, at 5 s it is.
	dev0 := boards[0].GetDeviceId()
	l0, _, _ := connectRaw(t, h, dev0, 0, 1)
	fake.Advance(2 * time.Second)
	beat(l0, dev0)
	fake.Advance(time.Second)
	if !alive(l0) {
		t.Fatalf("device cut 1 s after its heartbeat: %v", l0.err)
	}
	fake.Advance(1900 * time.Millisecond)
	if !alive(l0) {
		t.Fatalf("device cut 2.9 s after its heartbeat: %v", l0.err)
	}
	fake.Advance(100 * time.Millisecond)
	if err := l0.ended(); codeOf(err) != codes.DeadlineExceeded {
		t.Fatalf("silent for 3 s: stream ended with %v, want DEADLINE_EXCEEDED", err)
	}

	// A check 2 s late (the clock jumps 5 s): more time, counted.
	dev1 := boards[1].GetDeviceId()
	l1, _, _ := connectRaw(t, h, dev1, 0, 1)
	late0 := h.Server.Stats().LateWatchdogs
	fake.Advance(5 * time.Second)
	if !alive(l1) {
		t.Fatalf("device cut by a check 2 s late: %v", l1.err)
	}
	if got := h.Server.Stats().LateWatchdogs - late0; got != 1 {
		t.Errorf("late checks counted: %d, want 1", got)
	}
	// The next check, on time, cuts it: still nothing heard.
	fake.Advance(3 * time.Second)
	if err := l1.ended(); codeOf(err) != codes.DeadlineExceeded {
		t.Fatalf("silent, checked on time: stream ended with %v, want DEADLINE_EXCEEDED", err)
	}

	// Heard while its press waits for the board: a device whose messages
	// arrive is not silent, whatever the hall does with them.
	dev2 := boards[2].GetDeviceId()
	l2, _, _ := connectRaw(t, h, dev2, 0, 1)
	for range 4 {
		fake.Advance(2 * time.Second)
		beat(l2, dev2)
	}
	if !alive(l2) {
		t.Fatalf("a device beating every 2 s was cut: %v", l2.err)
	}

	// While the hall is behind its own work, a silent clock is not cut;
	// once it has caught up, it is.
	dev3 := boards[3].GetDeviceId()
	l3, _, _ := connectRaw(t, h, dev3, 0, 1)
	overloaded.Store(true)
	late0 = h.Server.Stats().LateWatchdogs
	for range 3 {
		fake.Advance(3 * time.Second)
		if !alive(l3) {
			t.Fatalf("a silent device was cut while the hall was overloaded: %v", l3.err)
		}
	}
	if got := h.Server.Stats().LateWatchdogs - late0; got < 3 {
		t.Errorf("checks put off while overloaded: %d, want at least 3 (this clock's)", got)
	}
	overloaded.Store(false)
	fake.Advance(3 * time.Second)
	if err := l3.ended(); codeOf(err) != codes.DeadlineExceeded {
		t.Fatalf("silent once the hall caught up: stream ended with %v, want DEADLINE_EXCEEDED", err)
	}
}

// A device whose next message waits because the hall has not finished
// with its last one is heard: the hall, not the device, is behind. Its
// press waits for a commit that the store holds up (a stalled disk), its
// next event waits behind it, and the heartbeats it sends meanwhile wait
// unread behind that: it is not cut, however long the store takes. Once
// the store has caught up, silence counts again.
func TestSilenceNotCountedWhileEventWaits(t *testing.T) {
	t.Parallel()
	fake := mono.NewFake(time.Unix(1_700_000_000, 0))
	h := halltest.Start(t, halltest.WithOptions(server.Options{Clock: fake, HeartbeatInterval: time.Second,
		Overloaded: func() bool { return false }}))
	b := h.Round(t, "300+2", 1)[0]
	dev := b.GetDeviceId()
	l, _, _ := connectRaw(t, h, dev, 0, 1)

	// The store's writer is held inside a write of the test's own.
	held, release := make(chan struct{}), make(chan struct{})
	writeDone := make(chan error, 1)
	go func() {
		writeDone <- h.Store.Write(context.Background(), func(*storage.Tx) error {
			close(held)
			<-release
			return nil
		})
	}()
	<-held
	defer func() {
		select {
		case <-release:
		default:
			close(release)
		}
	}()
	l.event(1, b.GetBoardId(), startAction(0), 300_000, 300_000)
	l.event(2, b.GetBoardId(), pressAction(pb.Side_SIDE_WHITE, 1000), 301_000, 300_000)
	for range 5 {
		l.heartbeat(1)
	}
	// The messages reach the hall (real time; nothing of the hall shows
	// it: the first waits in the store, the rest behind it).
	time.Sleep(500 * time.Millisecond)
	for i := range 10 {
		fake.Advance(time.Second) // every check on time
		select {
		case <-l.done:
			t.Fatalf("cut %d s into a stalled commit, its next event waiting: %v", i+1, l.err)
		case <-time.After(20 * time.Millisecond):
		}
	}

	close(release)
	if err := <-writeDone; err != nil {
		t.Fatal(err)
	}
	for a := l.ack(); a.GetUpToSeq() < 2; a = l.ack() {
	}
	fake.Advance(3 * time.Second)
	if err := l.ended(); codeOf(err) != codes.DeadlineExceeded {
		t.Fatalf("silent for 3 s once its events were handled: stream ended with %v, want DEADLINE_EXCEEDED", err)
	}
}
