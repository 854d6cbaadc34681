package clockdev

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"sync"
	"testing"
	"time"

	hallv1 "github.com/chesshall/hallclock/proto/hall/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/grpc/test/bufconn"
	"google.golang.org/protobuf/proto"
)

const testToken = "secret-7"

// fakeHall is a ClockLink server speaking the device protocol, with knobs:
// it commits (acknowledges) events after ackDelay (never if negative),
// rejects what reject says, loses the first delivery of the seqs in lose
// (so the next one is a gap: OUT_OF_RANGE), can be down (every stream
// fails at once), and records everything it received.
type fakeHall struct {
	hallv1.UnsafeClockLinkServer

	lis *bufconn.Listener
	srv *grpc.Server

	mu            sync.Mutex
	down          bool
	acked         uint64 // committed for the device
	ackDelay      time.Duration
	hbMs          int64
	assignment    *hallv1.Assignment               // sent after each Welcome, if set
	commands      []*hallv1.Command                // sent after each Welcome until an event with their id commits
	reject        func(*hallv1.DeviceEvent) string // a rejection code, or ""
	lose          map[uint64]bool
	doubleWelcome bool // send Welcome twice on each stream

	hellos     []*hallv1.Hello
	recv       []uint64              // seq of every event received, in order
	got        []*hallv1.DeviceEvent // accepted (in seq order, per stream)
	dups       []*hallv1.DeviceEvent // received again after they were committed
	heartbeats []*hallv1.Heartbeat
	streams    int
	cur        *fakeStream
}

type fakeStream struct {
	out  chan *hallv1.ServerMessage
	kill chan error
}

func newFakeHall(t *testing.T) *fakeHall {
	t.Helper()
	h := &fakeHall{lis: bufconn.Listen(1 << 20), srv: grpc.NewServer(), hbMs: 60_000, lose: map[uint64]bool{}}
	hallv1.RegisterClockLinkServer(h.srv, h)
	go h.srv.Serve(h.lis)
	t.Cleanup(h.srv.Stop)
	return h
}

func (h *fakeHall) dial(t *testing.T) *grpc.ClientConn {
	t.Helper()
	cc, err := grpc.NewClient("passthrough:///bufnet",
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return h.lis.DialContext(ctx) }),
		grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cc.Close() })
	return cc
}

func (h *fakeHall) Connect(st grpc.BidiStreamingServer[hallv1.DeviceMessage, hallv1.ServerMessage]) error {
	md, _ := metadata.FromIncomingContext(st.Context())
	if a := md.Get("authorization"); len(a) != 1 || a[0] != "Bearer "+testToken {
		return status.Error(codes.Unauthenticated, "bad token")
	}
	h.mu.Lock()
	if h.down {
		h.mu.Unlock()
		return status.Error(codes.Unavailable, "hall server down")
	}
	h.mu.Unlock()
	first, err := st.Recv()
	if err != nil {
		return err
	}
	hello := first.GetHello()
	if hello == nil {
		return status.Error(codes.InvalidArgument, "Hello first")
	}
	fs := &fakeStream{out: make(chan *hallv1.ServerMessage, 1024), kill: make(chan error, 1)}
	h.mu.Lock()
	h.streams++
	h.hellos = append(h.hellos, proto.Clone(hello).(*hallv1.Hello))
	h.cur = fs
	last := h.acked // highest seq received on this stream
	w := &hallv1.ServerMessage{Msg: &hallv1.ServerMessage_Welcome{Welcome: &hallv1.Welcome{AckedSeq: h.acked, HeartbeatIntervalMs: h.hbMs}}}
	fs.out <- w
	if h.doubleWelcome {
		fs.out <- proto.Clone(w).(*hallv1.ServerMessage)
	}
	if h.assignment != nil {
		fs.out <- &hallv1.ServerMessage{Msg: &hallv1.ServerMessage_Assignment{Assignment: proto.Clone(h.assignment).(*hallv1.Assignment)}}
	}
	for _, c := range h.commands {
		fs.out <- &hallv1.ServerMessage{Msg: &hallv1.ServerMessage_Command{Command: proto.Clone(c).(*hallv1.Command)}}
	}
	h.mu.Unlock()

	ctx, cancel := context.WithCancel(st.Context())
	defer cancel()
	commitQ := make(chan *hallv1.DeviceEvent, 1024)
	recvErr := make(chan error, 1)
	go func() { // receive loop
		for {
			m, err := st.Recv()
			if err != nil {
				recvErr <- err
				return
			}
			h.mu.Lock()
			switch {
			case m.GetHeartbeat() != nil:
				h.heartbeats = append(h.heartbeats, m.GetHeartbeat())
			case m.GetEvent() != nil:
				ev := m.GetEvent()
				h.recv = append(h.recv, ev.GetSeq())
				switch {
				case h.lose[ev.GetSeq()]:
					delete(h.lose, ev.GetSeq())
				case ev.GetSeq() <= h.acked:
					h.dups = append(h.dups, ev)
					fs.out <- &hallv1.ServerMessage{Msg: &hallv1.ServerMessage_Ack{Ack: &hallv1.Ack{UpToSeq: h.acked}}}
				case ev.GetSeq() <= last:
					// received on this stream already, not yet committed: drop
				case ev.GetSeq() != last+1:
					h.mu.Unlock()
					recvErr <- status.Errorf(codes.OutOfRange, "sequence gap: got %d, resend from %d", ev.GetSeq(), last+1)
					return
				default:
					last = ev.GetSeq()
					h.got = append(h.got, ev)
					commitQ <- ev
				}
			}
			h.mu.Unlock()
		}
	}()
	go func() { // committer: in order, after ackDelay
		for {
			var ev *hallv1.DeviceEvent
			select {
			case <-ctx.Done():
				return
			case ev = <-commitQ:
			}
			h.mu.Lock()
			delay := h.ackDelay
			h.mu.Unlock()
			if delay < 0 {
				continue
			}
			select {
			case <-ctx.Done():
				return
			case <-time.After(delay):
			}
			h.mu.Lock()
			ack := &hallv1.Ack{UpToSeq: ev.GetSeq()}
			if ev.GetSeq() > h.acked {
				h.acked = ev.GetSeq()
			}
			if h.reject != nil {
				if code := h.reject(ev); code != "" {
					ack.Rejected = append(ack.Rejected, &hallv1.Rejection{Seq: ev.GetSeq(), Code: code, Message: "refused by the fake"})
				}
			}
			if id := ev.GetCommandId(); id != "" {
				keep := h.commands[:0]
				for _, c := range h.commands {
					if c.GetCommandId() != id {
						keep = append(keep, c)
					}
				}
				h.commands = keep
			}
			h.mu.Unlock()
			fs.out <- &hallv1.ServerMessage{Msg: &hallv1.ServerMessage_Ack{Ack: ack}}
		}
	}()
	for { // the only sender
		select {
		case m := <-fs.out:
			if err := st.Send(m); err != nil {
				return err
			}
		case err := <-fs.kill:
			return err
		case err := <-recvErr:
			if errors.Is(err, io.EOF) || status.Code(err) == codes.Canceled {
				return nil
			}
			return err
		}
	}
}

// push sends m on the current stream.
func (h *fakeHall) push(m *hallv1.ServerMessage) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.cur != nil {
		h.cur.out <- m
	}
}

// drop ends the current stream with err.
func (h *fakeHall) drop(err error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.cur != nil {
		select {
		case h.cur.kill <- err:
		default:
		}
		h.cur = nil
	}
}

func (h *fakeHall) set(f func(h *fakeHall)) {
	h.mu.Lock()
	defer h.mu.Unlock()
	f(h)
}

func (h *fakeHall) snapshot() (got, dups []*hallv1.DeviceEvent, hellos []*hallv1.Hello, acked uint64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]*hallv1.DeviceEvent(nil), h.got...), append([]*hallv1.DeviceEvent(nil), h.dups...),
		append([]*hallv1.Hello(nil), h.hellos...), h.acked
}

func (h *fakeHall) received() []uint64 {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]uint64(nil), h.recv...)
}

// testDevice starts a Device on h (Run in the background, stopped and
// closed at the end of the test).
func testDevice(t *testing.T, h *fakeHall, cfg Config) *Device {
	t.Helper()
	cfg.DeviceID, cfg.Token, cfg.Firmware = "CLK-1", testToken, "test"
	cfg.Conn = h.dial(t)
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Rand == nil {
		cfg.Rand = rand.New(rand.NewPCG(1, 2))
	}
	if cfg.MaxBackoff == 0 {
		cfg.MaxBackoff = 400 * time.Millisecond
	}
	d, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- d.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if !errors.Is(err, context.Canceled) {
				t.Errorf("Run = %v, want context.Canceled", err)
			}
		case <-time.After(5 * time.Second):
			t.Error("Run did not return after its context was cancelled")
		}
		d.Close()
	})
	return d
}

// waitFor polls cond until it holds or 5 seconds pass.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// testAssignment is board B1 with a "300" (5 minutes) sudden-death clock
// and the given history.
func testAssignment(board, tc string, history ...*hallv1.ClockAction) *hallv1.Assignment {
	return &hallv1.Assignment{
		BoardId: board, Tournament: "Open", Round: 1, BoardNumber: 1,
		White: &hallv1.Player{Name: "Anna"}, Black: &hallv1.Player{Name: "Boris"},
		Config:  &hallv1.ClockConfig{Ruleset: "fide-2023", TimeControl: tc},
		History: history,
	}
}

// assignedOutbox returns a memory outbox holding a saved assignment, as a
// device that was assigned before the test would have.
func assignedOutbox(t *testing.T, a *hallv1.Assignment) Outbox {
	t.Helper()
	ob := NewMemoryOutbox()
	if err := ob.SaveBoard(a); err != nil {
		t.Fatal(err)
	}
	return ob
}

func action(kind hallv1.ActionKind, t int64, side hallv1.Side) *hallv1.ClockAction {
	return &hallv1.ClockAction{Kind: kind, TMs: t, Side: side}
}

func seqs(evs []*hallv1.DeviceEvent) []uint64 {
	out := make([]uint64, len(evs))
	for i, ev := range evs {
		out[i] = ev.GetSeq()
	}
	return out
}
