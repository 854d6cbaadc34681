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

// connectWatched connects a raw link for dev and waits until its silence
// watchdog is armed on the fake clock: the watchdog starts after the
// Assignment is sent, so a test that moved the clock as soon as the
// Assignment came could move it before the watchdog counted from there.
func connectWatched(t *testing.T, h *halltest.Hall, fake *mono.Fake, dev string) (*rawLink, *pb.Welcome) {
	t.Helper()
	before := fake.Pending()
	l, w, _ := connectRaw(t, h, dev, 0, 1)
	halltest.Eventually(t, 5*time.Second, func() error {
		if fake.Pending() <= before {
			return fmt.Errorf("device %s's silence watchdog is not armed yet", dev)
		}
		return nil
	})
	return l, w
}

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
	l0, _ := connectWatched(t, h, fake, dev0)
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
	l1, _ := connectWatched(t, h, fake, dev1)
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
	l2, _ := connectWatched(t, h, fake, dev2)
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
	l3, _ := connectWatched(t, h, fake, dev3)
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

// A fleet larger than the heartbeat budget is told to beat less often,
// and a clock of it that falls silent is still shown offline within
// seconds: with a budget of 2 clocks a second, a hall of 8 names 4 s in
// its Welcome, and a clock last heard at t is taken offline — its board
// shows the device offline to the dashboard's watchers — at t + 8 s, not
// before. A hall within its budget names the shortest interval (the
// watchdog test above).
func TestHeartbeatIntervalGrowsWithTheFleet(t *testing.T) {
	t.Parallel()
	fake := mono.NewFake(time.Unix(1_700_000_000, 0))
	h := halltest.Start(t, halltest.WithOptions(server.Options{Clock: fake, HeartbeatInterval: time.Second,
		HeartbeatBudget: 2, Overloaded: func() bool { return false }}))
	boards := h.Round(t, "300+2", 8)
	b := boards[0]
	dev := b.GetDeviceId()
	l, w := connectWatched(t, h, fake, dev)
	if got := w.GetHeartbeatIntervalMs(); got != 4000 {
		t.Fatalf("Welcome of a clock of 8 with a budget of 2 a second: heartbeat every %d ms, want 4000", got)
	}
	online := func(want bool) {
		t.Helper()
		halltest.Eventually(t, 5*time.Second, func() error {
			st, _, _ := h.Server.Hub().State(b.GetBoardId())
			if got := st.GetDeviceOnline(); got != want {
				return fmt.Errorf("board %s: the watchers see device_online %v, want %v", b.GetBoardId(), got, want)
			}
			return nil
		})
	}
	online(true)
	cuts := h.Server.Stats().SilenceCuts
	advance := func(d time.Duration) {
		fake.Advance(d)
		fake.Settle()
	}
	// Heard 3 s in (within its interval), then silent.
	advance(3 * time.Second)
	received := h.Server.Stats().Received
	l.heartbeat(1)
	halltest.Eventually(t, 5*time.Second, func() error {
		if h.Server.Stats().Received == received {
			return fmt.Errorf("the heartbeat has not reached the hall")
		}
		return nil
	})
	advance(7900 * time.Millisecond)
	if got := h.Server.Stats().SilenceCuts - cuts; got != 0 {
		t.Fatalf("a clock beating every 4 s was cut 7.9 s after its heartbeat (%d cuts)", got)
	}
	online(true)
	advance(100 * time.Millisecond)
	if err := l.ended(); codeOf(err) != codes.DeadlineExceeded {
		t.Fatalf("silent for two intervals (8 s): stream ended with %v, want DEADLINE_EXCEEDED", err)
	}
	online(false)
}

// What the clocks last said reaches the store in batches: the devices'
// records due (every 30 s each) are gathered for a quarter of a second and
// written in one Write, not one each from every heartbeat.
func TestLastHeardWrittenTogether(t *testing.T) {
	t.Parallel()
	fake := mono.NewFake(time.Unix(1_700_000_000, 0))
	// No readiness probe writes meanwhile: the test counts writes.
	h := halltest.Start(t, halltest.WithOptions(server.Options{Clock: fake, HeartbeatInterval: time.Second,
		Overloaded: func() bool { return false }, ReadinessInterval: time.Hour}))
	boards := h.Round(t, "300+2", 3)
	var links []*rawLink
	for _, b := range boards {
		l, _, _ := connectRaw(t, h, b.GetDeviceId(), 0, 1)
		links = append(links, l)
	}
	ctx := context.Background()
	lastSeen := func() map[string]int64 {
		t.Helper()
		ds, err := h.Store.Devices(ctx)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]int64{}
		for _, d := range ds {
			out[d.ID] = d.LastSeen.UnixMilli()
		}
		return out
	}
	// Each beats within its silence; the records are due (the first
	// heartbeat of each).
	fake.Advance(2 * time.Second)
	fake.Settle()
	at := fake.Now().UnixMilli()
	received := h.Server.Stats().Received
	for _, l := range links {
		l.heartbeat(1)
	}
	halltest.Eventually(t, 5*time.Second, func() error {
		if got := h.Server.Stats().Received - received; got < 3 {
			return fmt.Errorf("the hall has %d of the 3 heartbeats", got)
		}
		return nil
	})
	for _, b := range boards {
		if got := lastSeen()[b.GetDeviceId()]; got == at {
			t.Fatalf("device %s's heartbeat was written before the gathering ended", b.GetDeviceId())
		}
	}
	_, writes := h.Store.Stats()
	fake.Advance(250 * time.Millisecond)
	fake.Settle()
	halltest.Eventually(t, 5*time.Second, func() error {
		seen := lastSeen()
		for _, b := range boards {
			if got := seen[b.GetDeviceId()]; got != at {
				return fmt.Errorf("device %s last seen %d in the store, want %d", b.GetDeviceId(), got, at)
			}
		}
		return nil
	})
	if _, w := h.Store.Stats(); w-writes != 1 {
		t.Errorf("writes for the 3 devices' records: %d, want 1", w-writes)
	}
}
