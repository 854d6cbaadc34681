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
// (the hall was behind, not the device) gives the device more time. The
// test moves the fake clock and waits for its timers to have run
// (Settle), then reads what the watchdog did from the server's counters:
// it never gives the timers real time and hopes.
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
	// advance moves the clock and waits for the watchdogs due to have
	// run: what they decided is in the counters when it returns.
	advance := func(d time.Duration) {
		fake.Advance(d)
		fake.Settle()
	}
	cuts := func() uint64 { return h.Server.Stats().SilenceCuts }
	// alive: no link was cut for silence since the count was before.
	alive := func(l *rawLink, before uint64) bool {
		select {
		case <-l.done:
			return false
		default:
		}
		return cuts() == before
	}

	// Heard 2 s after connecting: at 3 s it is not cut, at 5 s it is.
	dev0 := boards[0].GetDeviceId()
	l0, _, _ := connectRaw(t, h, dev0, 0, 1)
	cut0 := cuts()
	advance(2 * time.Second)
	beat(l0, dev0)
	advance(time.Second)
	if !alive(l0, cut0) {
		t.Fatalf("device cut 1 s after its heartbeat: %v", l0.err)
	}
	advance(1900 * time.Millisecond)
	if !alive(l0, cut0) {
		t.Fatalf("device cut 2.9 s after its heartbeat: %v", l0.err)
	}
	advance(100 * time.Millisecond)
	if got := cuts() - cut0; got != 1 {
		t.Fatalf("links cut for silence 3 s after the heartbeat: %d, want 1", got)
	}
	if err := l0.ended(); codeOf(err) != codes.DeadlineExceeded {
		t.Fatalf("silent for 3 s: stream ended with %v, want DEADLINE_EXCEEDED", err)
	}

	// A check 2 s late (the clock jumps 5 s): more time, counted.
	dev1 := boards[1].GetDeviceId()
	l1, _, _ := connectRaw(t, h, dev1, 0, 1)
	late0, cut1 := h.Server.Stats().LateWatchdogs, cuts()
	advance(5 * time.Second)
	if !alive(l1, cut1) {
		t.Fatalf("device cut by a check 2 s late: %v", l1.err)
	}
	if got := h.Server.Stats().LateWatchdogs - late0; got != 1 {
		t.Errorf("late checks counted: %d, want 1", got)
	}
	// The next check, on time, cuts it: still nothing heard.
	advance(3 * time.Second)
	if err := l1.ended(); codeOf(err) != codes.DeadlineExceeded {
		t.Fatalf("silent, checked on time: stream ended with %v, want DEADLINE_EXCEEDED", err)
	}

	// Heard while its press waits for the board: a device whose messages
	// arrive is not silent, whatever the hall does with them.
	dev2 := boards[2].GetDeviceId()
	l2, _, _ := connectRaw(t, h, dev2, 0, 1)
	cut2 := cuts()
	for range 4 {
		advance(2 * time.Second)
		beat(l2, dev2)
	}
	if !alive(l2, cut2) {
		t.Fatalf("a device beating every 2 s was cut: %v", l2.err)
	}

	// While the hall is behind its own work, a silent clock is not cut;
	// once it has caught up, it is.
	dev3 := boards[3].GetDeviceId()
	l3, _, _ := connectRaw(t, h, dev3, 0, 1)
	overloaded.Store(true)
	late0, cut3 := h.Server.Stats().LateWatchdogs, cuts()
	for range 3 {
		advance(3 * time.Second)
		if !alive(l3, cut3) {
			t.Fatalf("a silent device was cut while the hall was overloaded: %v", l3.err)
		}
	}
	if got := h.Server.Stats().LateWatchdogs - late0; got < 3 {
		t.Errorf("checks put off while overloaded: %d, want at least 3 (this clock's)", got)
	}
	overloaded.Store(false)
	advance(3 * time.Second)
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
	received := h.Server.Stats().Received
	l.event(1, b.GetBoardId(), startAction(0), 300_000, 300_000)
	l.event(2, b.GetBoardId(), pressAction(pb.Side_SIDE_WHITE, 1000), 301_000, 300_000)
	for range 5 {
		l.heartbeat(1)
	}
	// Both events reach the hall: the first waits in the store, the
	// second behind it (the heartbeats wait unread behind that).
	halltest.Eventually(t, 5*time.Second, func() error {
		if got := h.Server.Stats().Received - received; got < 2 {
			return fmt.Errorf("the hall has %d of the device's messages, want its 2 events", got)
		}
		return nil
	})
	cuts := h.Server.Stats().SilenceCuts
	for i := range 10 {
		fake.Advance(time.Second) // every check on time
		fake.Settle()
		select {
		case <-l.done:
			t.Fatalf("cut %d s into a stalled commit, its next event waiting: %v", i+1, l.err)
		default:
		}
		if got := h.Server.Stats().SilenceCuts; got != cuts {
			t.Fatalf("cut for silence %d s into a stalled commit, its next event waiting", i+1)
		}
	}

	close(release)
	if err := <-writeDone; err != nil {
		t.Fatal(err)
	}
	for a := l.ack(); a.GetUpToSeq() < 2; a = l.ack() {
	}
	fake.Advance(3 * time.Second)
	fake.Settle()
	if err := l.ended(); codeOf(err) != codes.DeadlineExceeded {
		t.Fatalf("silent for 3 s once its events were handled: stream ended with %v, want DEADLINE_EXCEEDED", err)
	}
}
