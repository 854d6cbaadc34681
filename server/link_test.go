package server_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/chesshall/hallclock/clockdev"
	"github.com/chesshall/hallclock/internal/testkit/halltest"
	"github.com/chesshall/hallclock/internal/wire"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
	"github.com/chesshall/hallclock/server"
)

// The ClockLink protocol spoken by hand, message by message, as a clock's
// firmware would: the contract of hall.proto's ClockLink comment.

// rawLink is one ClockLink stream driven by the test.
type rawLink struct {
	t      *testing.T
	stream rawStream
	cancel context.CancelFunc
	msgs   chan *pb.ServerMessage
	done   chan struct{}
	err    error // why the stream ended; read after done is closed
}

// rawStream is a ClockLink stream over either transport (gRPC's
// ClockLink_ConnectClient, clockdev/wsdial's): CloseSend ends it in order.
type rawStream interface {
	clockdev.Stream
	CloseSend() error
}

// openRawLink opens a ClockLink stream over gRPC with dev's token
// (nothing sent yet).
func openRawLink(t *testing.T, h *halltest.Hall, dev string) *rawLink {
	t.Helper()
	return openRawLinkOn(t, h.GRPC(t), dev, h.DeviceToken(t, dev))
}

// openRawLinkOn opens a ClockLink stream on tr with token.
func openRawLinkOn(t *testing.T, tr clockdev.Transport, dev, token string) *rawLink {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	s, err := tr.Open(ctx, token)
	if err != nil {
		cancel()
		t.Fatalf("Connect(%s): %v", dev, err)
	}
	stream := s.(rawStream)
	l := &rawLink{t: t, stream: stream, cancel: cancel, msgs: make(chan *pb.ServerMessage, 1024), done: make(chan struct{})}
	go func() {
		defer close(l.done)
		for {
			m, err := stream.Recv()
			if err != nil {
				l.err = err
				return
			}
			select {
			case l.msgs <- m:
			case <-ctx.Done():
				l.err = ctx.Err()
				return
			}
		}
	}()
	t.Cleanup(func() { cancel(); <-l.done })
	return l
}

func (l *rawLink) send(m *pb.DeviceMessage) {
	l.t.Helper()
	if err := l.stream.Send(m); err != nil && !errors.Is(err, io.EOF) {
		l.t.Fatalf("Send(%v): %v", m, err)
	}
}

func (l *rawLink) hello(dev string, lastAcked, next uint64) {
	l.t.Helper()
	l.send(&pb.DeviceMessage{Msg: &pb.DeviceMessage_Hello{Hello: &pb.Hello{
		DeviceId: dev, Firmware: "raw-test", LastAckedSeq: lastAcked, NextSeq: next}}})
}

func (l *rawLink) event(seq uint64, boardID string, a *pb.ClockAction, whiteMs, blackMs int64) {
	l.t.Helper()
	l.send(&pb.DeviceMessage{Msg: &pb.DeviceMessage_Event{Event: &pb.DeviceEvent{
		Seq: seq, BoardId: boardID, Action: a, WhiteMs: whiteMs, BlackMs: blackMs}}})
}

func (l *rawLink) heartbeat(deviceMs int64) {
	l.t.Helper()
	l.send(&pb.DeviceMessage{Msg: &pb.DeviceMessage_Heartbeat{Heartbeat: &pb.Heartbeat{DeviceMs: deviceMs, BatteryPct: 80}}})
}

// next returns the next server message; it fails the test if none comes
// within 5 s or the stream ends.
func (l *rawLink) next() *pb.ServerMessage {
	l.t.Helper()
	timer := time.NewTimer(5 * time.Second)
	defer timer.Stop()
	select {
	case m := <-l.msgs:
		return m
	case <-l.done:
		select {
		case m := <-l.msgs:
			return m
		default:
		}
		l.t.Fatalf("stream ended while a message was expected: %v", l.err)
	case <-timer.C:
		l.t.Fatalf("no server message within 5s")
	}
	return nil
}

func (l *rawLink) welcome() *pb.Welcome {
	l.t.Helper()
	m := l.next()
	if m.GetWelcome() == nil {
		l.t.Fatalf("first server message = %v, want a Welcome", m)
	}
	return m.GetWelcome()
}

func (l *rawLink) assignment() *pb.Assignment {
	l.t.Helper()
	m := l.next()
	if m.GetAssignment() == nil {
		l.t.Fatalf("server message = %v, want an Assignment", m)
	}
	return m.GetAssignment()
}

// ack returns the next Ack, skipping Assignments and Commands (the server
// resends the board after a rejection).
func (l *rawLink) ack() *pb.Ack {
	l.t.Helper()
	for {
		m := l.next()
		if a := m.GetAck(); a != nil {
			return a
		}
	}
}

// ended waits for the stream to end and returns why.
func (l *rawLink) ended() error {
	l.t.Helper()
	select {
	case <-l.done:
		return l.err
	case <-time.After(5 * time.Second):
		l.t.Fatalf("stream still open after 5s, want it ended")
	}
	return nil
}

// connectRaw opens a stream over gRPC, says Hello and reads the Welcome
// and the Assignment.
func connectRaw(t *testing.T, h *halltest.Hall, dev string, lastAcked, next uint64) (*rawLink, *pb.Welcome, *pb.Assignment) {
	t.Helper()
	return connectRawOn(t, h, h.GRPC(t), dev, lastAcked, next)
}

// connectRawOn is connectRaw over tr.
func connectRawOn(t *testing.T, h *halltest.Hall, tr clockdev.Transport, dev string, lastAcked, next uint64) (*rawLink, *pb.Welcome, *pb.Assignment) {
	t.Helper()
	l := openRawLinkOn(t, tr, dev, h.DeviceToken(t, dev))
	l.hello(dev, lastAcked, next)
	w := l.welcome()
	return l, w, l.assignment()
}

// rawClock keeps the rules' state of a board on the test's side, to give
// each event the displayed times a correct device would report.
type rawClock struct {
	t  *testing.T
	st rules.State
}

func newRawClock(t *testing.T, b *pb.Board) *rawClock {
	t.Helper()
	cfg, err := wire.Config(b.GetConfig())
	if err != nil {
		t.Fatal(err)
	}
	st, err := rules.NewState(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return &rawClock{t: t, st: st}
}

// apply applies a to the test's clock and returns the displayed times after it.
func (c *rawClock) apply(a *pb.ClockAction) (whiteMs, blackMs int64) {
	c.t.Helper()
	e, err := wire.Event(a, false)
	if err != nil {
		c.t.Fatal(err)
	}
	n, err := rules.Apply(c.st, e)
	if err != nil {
		c.t.Fatalf("test clock refuses %v: %v", a, err)
	}
	c.st = n
	return n.P[rules.White].MainMs, n.P[rules.Black].MainMs
}

func startAction(t int64) *pb.ClockAction {
	return &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_START, TMs: t}
}

func pressAction(side pb.Side, t int64) *pb.ClockAction {
	return &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_PRESS, Side: side, TMs: t}
}

// sendApplied sends an event the rules accept and checks it is acknowledged
// without a rejection.
func sendApplied(t *testing.T, l *rawLink, c *rawClock, seq uint64, boardID string, a *pb.ClockAction) {
	t.Helper()
	w, b := c.apply(a)
	l.event(seq, boardID, a, w, b)
	ack := l.ack()
	if ack.GetUpToSeq() != seq || len(ack.GetRejected()) != 0 {
		t.Fatalf("Ack after event %d = %v, want up_to_seq %d without rejections", seq, ack, seq)
	}
}

func eventCount(t *testing.T, h *halltest.Hall, boardID string) int {
	t.Helper()
	evs, err := h.Store.Events(context.Background(), boardID, 0)
	if err != nil {
		t.Fatal(err)
	}
	return len(evs)
}

func fetchBoard(t *testing.T, h *halltest.Hall, boardID string) *pb.Board {
	t.Helper()
	arb, ctx := h.Arbiter(t)
	b, err := arb.GetBoard(ctx, &pb.GetBoardRequest{BoardId: boardID})
	if err != nil {
		t.Fatalf("GetBoard(%s): %v", boardID, err)
	}
	return b
}

func codeOf(err error) codes.Code {
	if s, ok := status.FromError(err); ok {
		return s.Code()
	}
	return codes.Unknown
}

// overTransports runs f over each ClockLink transport (gRPC, WebSocket),
// each on a hall of its own: the same session behind either door.
func overTransports(t *testing.T, f func(t *testing.T, h *halltest.Hall, tr clockdev.Transport), opts ...halltest.Option) {
	t.Helper()
	for _, name := range []string{"grpc", "websocket"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			h := halltest.Start(t, opts...)
			tr := h.GRPC(t)
			if name == "websocket" {
				tr = h.WebSocket(t)
			}
			f(t, h, tr)
		})
	}
}

// A new device is welcomed with acked_seq 0 and its assignment; each event
// is acknowledged once committed; on the next connection the Welcome says
// what is committed and the Assignment carries the board's whole history.
func TestLinkWelcomeAssignmentAndAcks(t *testing.T) {
	t.Parallel()
	overTransports(t, func(t *testing.T, h *halltest.Hall, tr clockdev.Transport) {
		b := h.Round(t, "300+2", 1)[0]
		id, dev := b.GetBoardId(), b.GetDeviceId()

		l, w, a := connectRawOn(t, h, tr, dev, 0, 1)
		if w.GetAckedSeq() != 0 {
			t.Errorf("Welcome.acked_seq of a new device = %d, want 0", w.GetAckedSeq())
		}
		if w.GetHeartbeatIntervalMs() != 1000 {
			t.Errorf("Welcome.heartbeat_interval_ms = %d, want 1000 (the default)", w.GetHeartbeatIntervalMs())
		}
		if a.GetBoardId() != id || a.GetWhite().GetName() != "White 1" || a.GetConfig().GetTimeControl() != "300+2" || len(a.GetHistory()) != 0 {
			t.Errorf("Assignment = %v, want board %s, White 1, 300+2 and no history", a, id)
		}
		if !fetchBoard(t, h, id).GetState().GetDeviceOnline() {
			t.Errorf("device_online = false while the device is connected, want true")
		}

		clk := newRawClock(t, b)
		actions := []*pb.ClockAction{startAction(0), pressAction(pb.Side_SIDE_WHITE, 1500), pressAction(pb.Side_SIDE_BLACK, 4000)}
		for i, act := range actions {
			seq := uint64(i + 1)
			sendApplied(t, l, clk, seq, id, act)
			// DESIGN §4: acknowledged means durable — when the Ack arrives the
			// event is committed, with its device sequence number.
			evs, err := h.Store.Events(context.Background(), id, 0)
			if err != nil {
				t.Fatal(err)
			}
			if len(evs) != int(seq) {
				t.Fatalf("after Ack %d the store holds %d events, want %d", seq, len(evs), seq)
			}
			if e := evs[seq-1]; e.DeviceID != dev || e.DeviceSeq != seq || e.BoardSeq != seq {
				t.Errorf("stored event %d = device %s seq %d board_seq %d, want device %s seq %d board_seq %d",
					seq, e.DeviceID, e.DeviceSeq, e.BoardSeq, dev, seq, seq)
			}
			if acked, _ := h.Store.DeviceAcked(context.Background(), dev); acked != seq {
				t.Errorf("DeviceAcked after Ack %d = %d, want %d", seq, acked, seq)
			}
		}
		if err := l.stream.CloseSend(); err != nil {
			t.Fatal(err)
		}
		if err := l.ended(); !errors.Is(err, io.EOF) {
			t.Errorf("stream after CloseSend ended with %v, want io.EOF (a clean end)", err)
		}

		// The next connection: Welcome.acked_seq says what is committed, the
		// Assignment carries the history to fold.
		_, w, a = connectRawOn(t, h, tr, dev, 3, 4)
		if w.GetAckedSeq() != 3 {
			t.Errorf("Welcome.acked_seq after 3 events = %d, want 3", w.GetAckedSeq())
		}
		if len(a.GetHistory()) != len(actions) {
			t.Fatalf("Assignment history has %d actions, want %d", len(a.GetHistory()), len(actions))
		}
		for i, act := range actions {
			if !proto.Equal(a.GetHistory()[i], act) {
				t.Errorf("Assignment history[%d] = %v, want %v", i, a.GetHistory()[i], act)
			}
		}
		if a.GetState().GetBoardSeq() != 3 || a.GetState().GetWhite().GetMoves() != 1 || a.GetState().GetBlack().GetMoves() != 1 {
			t.Errorf("Assignment state = %v, want board_seq 3 and one move each", a.GetState())
		}

		// A restarted hall keeps no history in memory: it reads it from the
		// store when the device connects, the same actions.
		h.Restart(t)
		_, _, a = connectRawOn(t, h, tr, dev, 3, 4)
		if len(a.GetHistory()) != len(actions) {
			t.Fatalf("after a restart, Assignment history has %d actions, want %d", len(a.GetHistory()), len(actions))
		}
		for i, act := range actions {
			if !proto.Equal(a.GetHistory()[i], act) {
				t.Errorf("after a restart, Assignment history[%d] = %v, want %v", i, a.GetHistory()[i], act)
			}
		}
	})
}

// A duplicate — a resend of an acknowledged seq, on the same stream or after
// a reconnect with a stale Hello — is dropped and acknowledged again;
// nothing is applied twice (DESIGN §4; hall.proto ClockLink).
func TestLinkDuplicateDroppedAndAcknowledgedAgain(t *testing.T) {
	t.Parallel()
	overTransports(t, func(t *testing.T, h *halltest.Hall, tr clockdev.Transport) {
		b := h.Round(t, "300+2", 1)[0]
		id, dev := b.GetBoardId(), b.GetDeviceId()
		l, _, _ := connectRawOn(t, h, tr, dev, 0, 1)
		clk := newRawClock(t, b)
		start, pw := startAction(0), pressAction(pb.Side_SIDE_WHITE, 2000)
		sendApplied(t, l, clk, 1, id, start)
		sendApplied(t, l, clk, 2, id, pw)
		w2, b2 := clk.st.P[rules.White].MainMs, clk.st.P[rules.Black].MainMs

		// The same seq again, and the same seq with another action: dedup is by
		// (device, seq), whatever the content.
		l.event(2, id, pw, w2, b2)
		if ack := l.ack(); ack.GetUpToSeq() != 2 || len(ack.GetRejected()) != 0 {
			t.Errorf("Ack of a resent seq 2 = %v, want up_to_seq 2 without rejections", ack)
		}
		l.event(2, id, pressAction(pb.Side_SIDE_BLACK, 3000), w2, b2)
		if ack := l.ack(); ack.GetUpToSeq() != 2 || len(ack.GetRejected()) != 0 {
			t.Errorf("Ack of seq 2 with other content = %v, want up_to_seq 2 without rejections", ack)
		}
		if n := eventCount(t, h, id); n != 2 {
			t.Errorf("after two duplicates the store holds %d events, want 2", n)
		}

		// The device drops the stream and comes back with a stale Hello (it
		// never saw the acks): the Welcome tells it, and its resends are dropped.
		l.cancel()
		<-l.done
		l, w, _ := connectRawOn(t, h, tr, dev, 0, 1)
		if w.GetAckedSeq() != 2 {
			t.Errorf("Welcome.acked_seq after a stale Hello = %d, want 2", w.GetAckedSeq())
		}
		l.event(1, id, start, 300_000, 300_000)
		l.event(2, id, pw, w2, b2)
		for i := 1; i <= 2; i++ {
			if ack := l.ack(); ack.GetUpToSeq() != 2 || len(ack.GetRejected()) != 0 {
				t.Errorf("Ack of resent seq %d = %v, want up_to_seq 2 without rejections", i, ack)
			}
		}
		if n := eventCount(t, h, id); n != 2 {
			t.Errorf("after the resends the store holds %d events, want 2", n)
		}
		if got := fetchBoard(t, h, id).GetState(); got.GetBoardSeq() != 2 || got.GetWhite().GetMoves() != 1 {
			t.Errorf("board after the resends: board_seq %d, white moves %d; want 2, 1", got.GetBoardSeq(), got.GetWhite().GetMoves())
		}

		// The next new event is applied once.
		sendApplied(t, l, clk, 3, id, pressAction(pb.Side_SIDE_BLACK, 5000))
		if got := fetchBoard(t, h, id).GetState(); got.GetBoardSeq() != 3 || got.GetBlack().GetMoves() != 1 {
			t.Errorf("board after seq 3: board_seq %d, black moves %d; want 3, 1", got.GetBoardSeq(), got.GetBlack().GetMoves())
		}
	})
}

// A gap in the device's sequence ends the stream with OUT_OF_RANGE naming
// the seq to resend from, and the next Welcome says the same (hall.proto
// ClockLink).
func TestLinkGapEndsStreamOutOfRange(t *testing.T) {
	t.Parallel()
	overTransports(t, func(t *testing.T, h *halltest.Hall, tr clockdev.Transport) {
		b := h.Round(t, "300+2", 1)[0]
		id, dev := b.GetBoardId(), b.GetDeviceId()
		l, _, _ := connectRawOn(t, h, tr, dev, 0, 1)
		clk := newRawClock(t, b)
		sendApplied(t, l, clk, 1, id, startAction(0))

		w, bl := clk.apply(pressAction(pb.Side_SIDE_WHITE, 1000))
		l.event(3, id, pressAction(pb.Side_SIDE_WHITE, 1000), w, bl) // seq 2 never sent
		err := l.ended()
		if codeOf(err) != codes.OutOfRange {
			t.Errorf("stream after a gap ended with %v, want OUT_OF_RANGE", err)
		}
		if !strings.Contains(status.Convert(err).Message(), "resend from 2") {
			t.Errorf("gap message = %q, want it to name the seq to resend from (\"resend from 2\")", status.Convert(err).Message())
		}
		if n := eventCount(t, h, id); n != 1 {
			t.Errorf("after the gap the store holds %d events, want 1", n)
		}

		l, welcome, _ := connectRawOn(t, h, tr, dev, 1, 4)
		if welcome.GetAckedSeq() != 1 {
			t.Errorf("Welcome.acked_seq after the gap = %d, want 1 (resend from 2)", welcome.GetAckedSeq())
		}
		l.event(2, id, pressAction(pb.Side_SIDE_WHITE, 1000), w, bl)
		if ack := l.ack(); ack.GetUpToSeq() != 2 || len(ack.GetRejected()) != 0 {
			t.Errorf("Ack of the resent seq 2 = %v, want up_to_seq 2", ack)
		}
		if n := eventCount(t, h, id); n != 2 {
			t.Errorf("after the resend the store holds %d events, want 2", n)
		}
	})
}

// An event the rules refuse is acknowledged with a Rejection, is not
// applied, and is in the audit log (DESIGN §1: the server is the authority
// on the rules; storage doc: a refusal is acked and audited in one write).
func TestLinkRefusedEventAcknowledgedWithRejection(t *testing.T) {
	t.Parallel()
	overTransports(t, func(t *testing.T, h *halltest.Hall, tr clockdev.Transport) {
		b := h.Round(t, "300+2", 1)[0]
		id, dev := b.GetBoardId(), b.GetDeviceId()
		l, _, _ := connectRawOn(t, h, tr, dev, 0, 1)
		clk := newRawClock(t, b)
		sendApplied(t, l, clk, 1, id, startAction(0))

		// FIDE 6.8: a flag reported with 299 s left has not fallen.
		flag := &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_FLAG, Side: pb.Side_SIDE_WHITE, TMs: 1000}
		l.event(2, id, flag, 0, 300_000)
		ack := l.ack()
		if ack.GetUpToSeq() != 2 || len(ack.GetRejected()) != 1 {
			t.Fatalf("Ack of a refused flag = %v, want up_to_seq 2 with one rejection", ack)
		}
		rej := ack.GetRejected()[0]
		if rej.GetSeq() != 2 || rej.GetCode() != "no_flag" || rej.GetMessage() == "" {
			t.Errorf("Rejection = %v, want seq 2, code no_flag and a message", rej)
		}
		if n := eventCount(t, h, id); n != 1 {
			t.Errorf("after a refused event the store holds %d events, want 1", n)
		}
		st := fetchBoard(t, h, id).GetState()
		if st.GetBoardSeq() != 1 || st.GetStatus() != pb.BoardStatus_BOARD_STATUS_RUNNING || st.GetWhite().GetFlagAtMs() != 0 || st.GetWhite().FlagAtMs != nil {
			t.Errorf("board after a refused flag = %v, want board_seq 1, running, no flag", st)
		}
		arb, ctx := h.Arbiter(t)
		log, err := arb.AuditLog(ctx, &pb.AuditLogRequest{BoardId: id})
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, e := range log.GetEntries() {
			if e.GetActor() == "device:"+dev && strings.HasPrefix(e.GetOutcome(), "refused: ") && e.GetAction().GetKind() == pb.ActionKind_ACTION_KIND_FLAG {
				found = true
				if e.GetBoardSeq() != 0 {
					t.Errorf("audit entry of the refused flag has board_seq %d, want 0 (no event)", e.GetBoardSeq())
				}
			}
		}
		if !found {
			t.Errorf("audit log %v has no refused flag by device:%s", log.GetEntries(), dev)
		}

		// The refused seq counts: the next one is 3, and it is applied.
		sendApplied(t, l, clk, 3, id, pressAction(pb.Side_SIDE_WHITE, 2000))

		// A press after the game ended is refused too (game_over).
		res := &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_RESULT, TMs: 3000, Result: "1-0", Termination: "normal"}
		sendApplied(t, l, clk, 4, id, res)
		l.event(5, id, pressAction(pb.Side_SIDE_BLACK, 4000), clk.st.P[rules.White].MainMs, clk.st.P[rules.Black].MainMs)
		ack = l.ack()
		if ack.GetUpToSeq() != 5 || len(ack.GetRejected()) != 1 || ack.GetRejected()[0].GetCode() != "game_over" {
			t.Errorf("Ack of a press after the result = %v, want up_to_seq 5 with a game_over rejection", ack)
		}
		if n := eventCount(t, h, id); n != 3 {
			t.Errorf("store holds %d events, want 3 (start, press, result)", n)
		}
	})
}

// A device speaks only for the board it is assigned to (DESIGN §7): an event
// for another board is refused with permission_denied, one for an unknown
// board with unknown_board; both are acknowledged.
func TestLinkEventForAnotherBoardRefused(t *testing.T) {
	t.Parallel()
	overTransports(t, func(t *testing.T, h *halltest.Hall, tr clockdev.Transport) {
		boards := h.Round(t, "300+2", 2)
		dev, other := boards[0].GetDeviceId(), boards[1].GetBoardId()
		l, _, _ := connectRawOn(t, h, tr, dev, 0, 1)

		l.event(1, other, startAction(0), 300_000, 300_000)
		ack := l.ack()
		if ack.GetUpToSeq() != 1 || len(ack.GetRejected()) != 1 || ack.GetRejected()[0].GetCode() != "permission_denied" {
			t.Errorf("Ack of an event for another board = %v, want up_to_seq 1 with a permission_denied rejection", ack)
		}
		if n := eventCount(t, h, other); n != 0 {
			t.Errorf("the other board holds %d events, want 0", n)
		}
		if st := fetchBoard(t, h, other).GetState(); st.GetStatus() != pb.BoardStatus_BOARD_STATUS_WAITING {
			t.Errorf("the other board's status = %v, want WAITING", st.GetStatus())
		}

		l.event(2, "b-nowhere", startAction(0), 300_000, 300_000)
		ack = l.ack()
		if ack.GetUpToSeq() != 2 || len(ack.GetRejected()) != 1 || ack.GetRejected()[0].GetCode() != "unknown_board" {
			t.Errorf("Ack of an event for an unknown board = %v, want up_to_seq 2 with an unknown_board rejection", ack)
		}
		if acked, _ := h.Store.DeviceAcked(context.Background(), dev); acked != 2 {
			t.Errorf("DeviceAcked = %d, want 2 (refusals count)", acked)
		}
		arb, ctx := h.Arbiter(t)
		ds, err := arb.ListDevices(ctx, &pb.ListDevicesRequest{})
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range ds.GetDevices() {
			if d.GetDeviceId() == dev && (d.GetAckedSeq() != 2 || !d.GetOnline()) {
				t.Errorf("ListDevices %s: acked_seq %d, online %v; want 2, true", dev, d.GetAckedSeq(), d.GetOnline())
			}
		}
	})
}

// The device speaks first, with Hello, for the device its token is bound
// to; Hello comes only once (hall.proto ClockLink).
func TestLinkHelloFirst(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t)
	b := h.Round(t, "300+2", 1)[0]
	dev := b.GetDeviceId()

	l := openRawLink(t, h, dev)
	l.heartbeat(1)
	if err := l.ended(); codeOf(err) != codes.InvalidArgument {
		t.Errorf("stream opened with a Heartbeat ended with %v, want INVALID_ARGUMENT", err)
	}

	l = openRawLink(t, h, dev)
	l.event(1, b.GetBoardId(), startAction(0), 300_000, 300_000)
	if err := l.ended(); codeOf(err) != codes.InvalidArgument {
		t.Errorf("stream opened with an event ended with %v, want INVALID_ARGUMENT", err)
	}

	l = openRawLink(t, h, dev)
	l.hello("CLK-999", 0, 1)
	if err := l.ended(); codeOf(err) != codes.PermissionDenied {
		t.Errorf("Hello for another device ended with %v, want PERMISSION_DENIED", err)
	}

	l, _, _ = connectRaw(t, h, dev, 0, 1)
	l.hello(dev, 0, 1)
	if err := l.ended(); codeOf(err) != codes.InvalidArgument {
		t.Errorf("a second Hello on a stream ended it with %v, want INVALID_ARGUMENT", err)
	}
	if n := eventCount(t, h, b.GetBoardId()); n != 0 {
		t.Errorf("store holds %d events, want 0", n)
	}
}

// A second connection of the same device replaces the first: the first
// stream ends with ABORTED, the device stays online on the second.
func TestLinkSecondConnectionReplacesFirst(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t)
	b := h.Round(t, "300+2", 1)[0]
	id, dev := b.GetBoardId(), b.GetDeviceId()
	first, _, _ := connectRaw(t, h, dev, 0, 1)
	clk := newRawClock(t, b)
	sendApplied(t, first, clk, 1, id, startAction(0))

	second, w, _ := connectRaw(t, h, dev, 1, 2)
	if err := first.ended(); codeOf(err) != codes.Aborted {
		t.Errorf("the replaced stream ended with %v, want ABORTED", err)
	}
	if w.GetAckedSeq() != 1 {
		t.Errorf("second Welcome.acked_seq = %d, want 1", w.GetAckedSeq())
	}
	sendApplied(t, second, clk, 2, id, pressAction(pb.Side_SIDE_WHITE, 1000))
	// The end of the replaced stream must not take the device offline.
	halltest.Eventually(t, time.Second, func() error {
		if !fetchBoard(t, h, id).GetState().GetDeviceOnline() {
			return fmt.Errorf("device_online = false with the second stream up, want true")
		}
		return nil
	})
	// Once the hall is done with the replaced stream (its slot given
	// back after its handler returned), the device is still online.
	halltest.Eventually(t, 5*time.Second, func() error {
		if n := h.Server.Stats().StreamsOpen; n != 1 {
			return fmt.Errorf("%d streams open, want the second one only", n)
		}
		return nil
	})
	if !fetchBoard(t, h, id).GetState().GetDeviceOnline() {
		t.Errorf("device_online = false with the second stream up, want true")
	}
	if n := eventCount(t, h, id); n != 2 {
		t.Errorf("store holds %d events, want 2", n)
	}
}

// A device silent for three heartbeat intervals is taken offline; one that
// beats stays online.
func TestLinkSilentDeviceTakenOffline(t *testing.T) {
	// Not in parallel: it counts heartbeats 100 ms apart.
	h := halltest.Start(t, halltest.OnLoopback(), halltest.WithOptions(server.Options{HeartbeatInterval: 100 * time.Millisecond,
		Overloaded: func() bool { return false }})) // whatever the tests beside it do to the scheduler
	b := h.Round(t, "300+2", 1)[0]
	id, dev := b.GetBoardId(), b.GetDeviceId()
	l, w, _ := connectRaw(t, h, dev, 0, 1)
	if w.GetHeartbeatIntervalMs() != 100 {
		t.Errorf("Welcome.heartbeat_interval_ms = %d, want 100", w.GetHeartbeatIntervalMs())
	}

	// Beating every 50 ms for 600 ms (two silences' worth) keeps it online.
	var lastBeat time.Time
	for i := range 12 {
		l.heartbeat(int64(i * 50))
		lastBeat = time.Now()
		time.Sleep(50 * time.Millisecond)
	}
	select {
	case <-l.done:
		t.Fatalf("a beating device's stream ended: %v", l.err)
	default:
	}
	if !fetchBoard(t, h, id).GetState().GetDeviceOnline() {
		t.Errorf("device_online = false for a beating device, want true")
	}

	// Then silence: after 3 × 100 ms the stream ends and the board shows it.
	err := l.ended()
	silent := time.Since(lastBeat)
	if codeOf(err) != codes.DeadlineExceeded {
		t.Errorf("a silent device's stream ended with %v, want DEADLINE_EXCEEDED", err)
	}
	if silent < 280*time.Millisecond {
		t.Errorf("a silent device was cut after %s of silence, want 300ms (3 heartbeat intervals)", silent)
	}
	halltest.Eventually(t, 2*time.Second, func() error {
		if fetchBoard(t, h, id).GetState().GetDeviceOnline() {
			return fmt.Errorf("device_online = true after the device went silent, want false")
		}
		return nil
	})
	arb, ctx := h.Arbiter(t)
	ds, err := arb.ListDevices(ctx, &pb.ListDevicesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range ds.GetDevices() {
		if d.GetDeviceId() == dev && d.GetOnline() {
			t.Errorf("ListDevices shows %s online after it went silent, want offline", dev)
		}
	}
}

// The device's displayed times are checked against the rules: a difference
// beyond DisplayTolerance raises an alert (state and audit log), and the
// rules' times stand (DESIGN §1).
func TestLinkDisplayDisagreementAlerts(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t) // DisplayTolerance 100 ms
	b := h.Round(t, "300+2", 1)[0]
	id, dev := b.GetBoardId(), b.GetDeviceId()
	l, _, _ := connectRaw(t, h, dev, 0, 1)
	clk := newRawClock(t, b)
	sendApplied(t, l, clk, 1, id, startAction(0))

	// Within tolerance: 60 ms off, no alert.
	pw := pressAction(pb.Side_SIDE_WHITE, 1500)
	w, bl := clk.apply(pw)
	l.event(2, id, pw, w+60, bl)
	if ack := l.ack(); ack.GetUpToSeq() != 2 || len(ack.GetRejected()) != 0 {
		t.Fatalf("Ack = %v, want up_to_seq 2", ack)
	}
	if st := fetchBoard(t, h, id).GetState(); len(st.GetAlerts()) != 0 {
		t.Errorf("alerts after a display 60 ms off = %q, want none", st.GetAlerts())
	}

	// Beyond it: black shows 5 s less than the rules give.
	pb2 := pressAction(pb.Side_SIDE_BLACK, 4000)
	w, bl = clk.apply(pb2)
	l.event(3, id, pb2, w, bl-5000)
	if ack := l.ack(); ack.GetUpToSeq() != 3 || len(ack.GetRejected()) != 0 {
		t.Fatalf("Ack = %v, want up_to_seq 3 without rejection (the event stands)", ack)
	}
	st := fetchBoard(t, h, id).GetState()
	if len(st.GetAlerts()) != 1 || !strings.Contains(st.GetAlerts()[0], dev) {
		t.Errorf("alerts = %q, want one naming %s", st.GetAlerts(), dev)
	}
	// The attention list's words: a kind and its parameters, beside the
	// English, for the page to write in its reader's language.
	if aw := st.GetAlertWords(); len(aw) != 1 || aw[0].GetKind() != "alert.display_check" || aw[0].GetParams()["device"] != dev ||
		aw[0].GetParams()["black_ms"] != strconv.FormatInt(bl-5000, 10) || aw[0].GetParams()["rules_black_ms"] != strconv.FormatInt(bl, 10) {
		t.Errorf("alert_words = %v, want the display check's kind with the device and both times", aw)
	}
	if st.GetBoardSeq() != 3 || st.GetBlack().GetRemainingMs() != bl || st.GetBlack().GetMoves() != 1 {
		t.Errorf("board = board_seq %d, black %d ms, %d moves; want 3, %d ms (the rules' time), 1",
			st.GetBoardSeq(), st.GetBlack().GetRemainingMs(), st.GetBlack().GetMoves(), bl)
	}
	arb, ctx := h.Arbiter(t)
	log, err := arb.AuditLog(ctx, &pb.AuditLogRequest{BoardId: id})
	if err != nil {
		t.Fatal(err)
	}
	alerts := 0
	for _, e := range log.GetEntries() {
		if strings.HasPrefix(e.GetOutcome(), "alert: ") {
			alerts++
			if e.GetWords().GetKind() != "alert.display_check" || e.GetWords().GetParams()["seq"] != "3" {
				t.Errorf("alert audit entry words = %v, want the display check's kind and parameters", e.GetWords())
			}
			if e.GetBoardSeq() != 3 {
				t.Errorf("alert audit entry board_seq = %d, want 3", e.GetBoardSeq())
			}
		}
	}
	if alerts != 1 {
		t.Errorf("audit log has %d alerts, want 1", alerts)
	}
}
