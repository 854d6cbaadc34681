package hall

import (
	"context"
	"errors"
	"log/slog"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chesshall/hallclock/internal/mono"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
	"github.com/chesshall/hallclock/server/auth"
	"github.com/chesshall/hallclock/server/hallerr"
	"github.com/chesshall/hallclock/storage"
)

// The device's session without a transport: what it queues (Send) and
// answers (Reply) is kept in order, as a stream would carry it.

type sent struct {
	m     *pb.ServerMessage
	reply bool // queued with Reply (on the caller's goroutine)
}

type fakeLink struct {
	mu  sync.Mutex
	out []sent
	cut error
}

func (l *fakeLink) Send(m *pb.ServerMessage) bool  { return l.add(m, false) }
func (l *fakeLink) Reply(m *pb.ServerMessage) bool { return l.add(m, true) }
func (l *fakeLink) Cut(cause error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.cut = cause
}

func (l *fakeLink) add(m *pb.ServerMessage, reply bool) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.out = append(l.out, sent{m, reply})
	return true
}

// take returns what was queued since the last take.
func (l *fakeLink) take() []sent {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := l.out
	l.out = nil
	return out
}

// lastAck is the one message queued since the last take, which must be an
// Ack given with Reply.
func (l *fakeLink) lastAck(t *testing.T) *pb.Ack {
	t.Helper()
	got := l.take()
	if len(got) == 0 || got[0].m.GetAck() == nil || !got[0].reply {
		t.Fatalf("queued %v; want an Ack, as the reply", got)
	}
	return got[0].m.GetAck()
}

type nopSink struct{}

func (nopSink) Place(string, string)                   {}
func (nopSink) Seed(string, *pb.BoardState, uint64)    {}
func (nopSink) Publish(string, *pb.BoardState, uint64) {}

// hallForTest is a hall on a fresh store with board "b1" (300+2) kept by
// device "d1".
func hallForTest(t *testing.T) *Hall {
	t.Helper()
	ctx := context.Background()
	st, err := storage.Open(ctx, filepath.Join(t.TempDir(), "hall.db"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	tc, err := rules.ParseTimeControl("300+2")
	if err != nil {
		t.Fatal(err)
	}
	cfg := rules.Config{Ruleset: rules.FIDE2023, TimeControl: tc}
	if err := st.Write(ctx, func(tx *storage.Tx) error {
		if err := tx.CreateTournament(&storage.TournamentRecord{ID: "t1", Name: "Open", Config: cfg, TimeControl: "300+2"}); err != nil {
			return err
		}
		return tx.CreateRound(&storage.RoundRecord{ID: "r1", TournamentID: "t1", Number: 1})
	}); err != nil {
		t.Fatal(err)
	}
	h, err := Load(ctx, st, Options{Clock: mono.NewFake(time.Unix(1_700_000_000, 0)), Sink: nopSink{}, DisplayTolerance: -1,
		Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Stop(); h.Wait() })
	chief := &auth.Identity{Role: auth.RoleChief, Label: "test"}
	if _, err := h.AddBoard(ctx, chief, storage.BoardRecord{ID: "b1", RoundID: "r1", Number: 1, Config: cfg, TimeControl: "300+2", DeviceID: "d1"}, false); err != nil {
		t.Fatal(err)
	}
	return h
}

// open opens d1's session with what its Hello says it was acknowledged
// (last) and numbers next, and checks the Welcome is the first message.
func open(t *testing.T, h *Hall, last, next uint64) (*Session, *fakeLink, *pb.Welcome) {
	t.Helper()
	l := &fakeLink{}
	s, w, err := h.Open(context.Background(), "d1", &pb.Hello{DeviceId: "d1", LastAckedSeq: last, NextSeq: next}, l, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	got := l.take()
	if len(got) < 2 || got[0].m.GetWelcome() != w || got[1].m.GetAssignment().GetBoardId() != "b1" {
		t.Fatalf("queued at Open: %v; want the Welcome first, then the assignment of b1", got)
	}
	return s, l, w
}

func event(seq uint64, board string, a *pb.ClockAction) *pb.DeviceEvent {
	return &pb.DeviceEvent{Seq: seq, BoardId: board, Action: a}
}

func start(t int64) *pb.ClockAction {
	return &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_START, TMs: t}
}

func press(side pb.Side, t int64) *pb.ClockAction {
	return &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_PRESS, Side: side, TMs: t}
}

func storedEvents(t *testing.T, h *Hall) []storage.EventRecord {
	t.Helper()
	evs, err := h.store.Events(context.Background(), "b1", 0)
	if err != nil {
		t.Fatal(err)
	}
	return evs
}

// Each event is acknowledged, as the reply, once committed with its
// device sequence number; a duplicate is dropped and acknowledged again
// (nothing applied twice); a gap ends the stream naming the number to
// resend from. No gRPC: the session is the hall's.
func TestSessionAcksDuplicatesAndGaps(t *testing.T) {
	t.Parallel()
	h := hallForTest(t)
	s, l, w := open(t, h, 0, 1)
	if w.GetAckedSeq() != 0 || w.GetHeartbeatIntervalMs() != 1000 {
		t.Errorf("Welcome of a new device = %v, want acked_seq 0 and the interval given (1000 ms)", w)
	}
	ctx := context.Background()
	for i, a := range []*pb.ClockAction{start(0), press(pb.Side_SIDE_WHITE, 1500)} {
		seq := uint64(i + 1)
		if err := s.Event(ctx, event(seq, "b1", a)); err != nil {
			t.Fatal(err)
		}
		if a := l.lastAck(t); a.GetUpToSeq() != seq || len(a.GetRejected()) != 0 {
			t.Fatalf("Ack of event %d = %v, want up_to_seq %d, no rejection", seq, a, seq)
		}
		evs := storedEvents(t, h)
		if len(evs) != int(seq) || evs[seq-1].DeviceID != "d1" || evs[seq-1].DeviceSeq != seq {
			t.Fatalf("after Ack %d the store holds %+v; want %d events, the last d1's seq %d", seq, evs, seq, seq)
		}
	}

	if err := s.Event(ctx, event(1, "b1", start(0))); err != nil {
		t.Fatalf("a duplicate ended the session: %v", err)
	}
	if a := l.lastAck(t); a.GetUpToSeq() != 2 {
		t.Errorf("Ack of duplicate 1 = %v, want up_to_seq 2 (all that is committed)", a)
	}
	if n := len(storedEvents(t, h)); n != 2 {
		t.Errorf("after a duplicate the store holds %d events, want 2", n)
	}

	err := s.Event(ctx, event(4, "b1", press(pb.Side_SIDE_BLACK, 3000)))
	if !errors.Is(err, hallerr.ErrSequenceGap) || !strings.Contains(err.Error(), "resend from 3") {
		t.Errorf("event 4 after 2 = %v, want hallerr.ErrSequenceGap naming 3 to resend from", err)
	}
	if got := l.take(); len(got) != 0 {
		t.Errorf("a gap queued %v, want nothing", got)
	}
	if err := s.Event(ctx, event(0, "b1", start(0))); !errors.Is(err, hallerr.ErrBadRequest) {
		t.Errorf("event without a seq = %v, want a bad request", err)
	}
	if st := h.SessionStats(); st.Applied != 2 || st.Duplicates != 1 || st.Gaps != 1 {
		t.Errorf("SessionStats = %+v, want 2 applied, 1 duplicate, 1 gap", st)
	}
}

// Every refusal — of the rules, of an event that does not read, of one
// for a board that does not exist — is committed by the one writer and
// acknowledged with its rejection; the next session's Welcome names them
// for a device that missed the Acks; the device's board is sent again
// only when the board refused (its rules accepted what ours did not).
func TestSessionRefusalsAreAcknowledgedAndWelcomed(t *testing.T) {
	t.Parallel()
	h := hallForTest(t)
	s, l, _ := open(t, h, 0, 1)
	ctx := context.Background()
	for _, c := range []struct {
		ev       *pb.DeviceEvent
		code     string
		resendsB bool
	}{
		{event(1, "b1", press(pb.Side_SIDE_WHITE, 1000)), "not_started", true},
		{event(2, "b1", nil), "invalid", false},
		{event(3, "nope", start(0)), "unknown_board", false},
	} {
		if err := s.Event(ctx, c.ev); err != nil {
			t.Fatal(err)
		}
		got := l.take()
		if len(got) == 0 || !got[0].reply {
			t.Fatalf("event %d: queued %v, want its Ack as the reply", c.ev.GetSeq(), got)
		}
		a := got[0].m.GetAck()
		if a.GetUpToSeq() != c.ev.GetSeq() || len(a.GetRejected()) != 1 || a.GetRejected()[0].GetCode() != c.code {
			t.Errorf("Ack of event %d = %v, want its rejection %q", c.ev.GetSeq(), a, c.code)
		}
		if resent := len(got) == 2 && got[1].m.GetAssignment().GetBoardId() == "b1"; resent != c.resendsB {
			t.Errorf("event %d (%s): after the Ack %v; board sent again: %v, want %v", c.ev.GetSeq(), c.code, got[1:], resent, c.resendsB)
		}
	}
	if acked, err := h.store.DeviceAcked(ctx, "d1"); err != nil || acked != 3 {
		t.Errorf("DeviceAcked = %d, %v; want 3 (refusals are acknowledged)", acked, err)
	}
	audit, err := h.store.Audit(ctx, "b1", 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	refused := 0
	for _, r := range audit {
		if r.Actor == "device:d1" && strings.HasPrefix(r.Outcome, "refused") {
			refused++
		}
	}
	if refused != 3 {
		t.Errorf("%d refusals of d1 in b1's audit log, want 3 (off-board ones on the device's board): %+v", refused, audit)
	}
	if n := len(storedEvents(t, h)); n != 0 {
		t.Errorf("%d events stored, want none", n)
	}

	s.Close()
	_, _, w := open(t, h, 0, 4)
	if w.GetAckedSeq() != 3 || len(w.GetRejected()) != 3 {
		t.Errorf("Welcome of a device that missed the Acks = %v, want acked_seq 3 and three rejections", w)
	}
}

// An event committed by an older session of the device (a stream that
// just died) is acknowledged again by the newer one, once: two transports
// of one device go through one door.
func TestSessionEventCommittedByAnOlderSession(t *testing.T) {
	t.Parallel()
	h := hallForTest(t)
	older, ol, _ := open(t, h, 0, 1)
	newer, nl, _ := open(t, h, 0, 1)
	if !errors.Is(ol.cut, hallerr.ErrReplaced) {
		t.Errorf("the older link was cut with %v, want hallerr.ErrReplaced", ol.cut)
	}
	ctx := context.Background()
	if err := newer.Event(ctx, event(1, "b1", start(0))); err != nil {
		t.Fatal(err)
	}
	nl.lastAck(t)
	if err := older.Event(ctx, event(1, "b1", start(0))); err != nil {
		t.Fatalf("event 1 again on the older session: %v", err)
	}
	if a := ol.lastAck(t); a.GetUpToSeq() != 1 || len(a.GetRejected()) != 0 {
		t.Errorf("Ack again of applied event 1 = %v, want up_to_seq 1 without a rejection", a)
	}
	if n := len(storedEvents(t, h)); n != 1 {
		t.Errorf("%d events stored, want 1", n)
	}
}

// A refused event acknowledged again (its first Ack lost with a stream)
// carries its rejection; and when the store cannot tell whether it was
// refused (the link cut meanwhile, the store failing), the session ends
// instead of acknowledging it without one: the clock would count a
// refused event applied (the 200-board chaos soak under load: "an
// acknowledged event missing from the store").
func TestAckAgainNeverPassesARefusalOffAsApplied(t *testing.T) {
	t.Parallel()
	h := hallForTest(t)
	if err := h.store.Write(context.Background(), func(tx *storage.Tx) error { return tx.AckDevice("d1", 1) }); err != nil {
		t.Fatal(err)
	}
	l := &fakeLink{}
	s := &Session{h: h, dev: "d1", out: l}
	rejects := func(a *pb.Ack) bool { return len(a.GetRejected()) == 1 && a.GetRejected()[0].GetSeq() == 1 }
	if err := s.ackAgain(context.Background(), 1); err != nil {
		t.Fatal(err)
	}
	if a := l.lastAck(t); !rejects(a) {
		t.Errorf("ack again of refused event 1 = %v, want its rejection", a)
	}

	cut, cancel := context.WithCancel(context.Background())
	cancel()
	err := s.ackAgain(cut, 1)
	if got := l.take(); len(got) != 0 && !rejects(got[0].m.GetAck()) {
		t.Errorf("with the link cut, ack again of refused event 1 = %v (err %v); want no Ack without its rejection", got, err)
	} else if len(got) == 0 && err == nil {
		t.Error("with the link cut, ackAgain sent nothing and said nothing; want an error that ends the stream")
	}

	if rs, err := h.refusedSince(context.Background(), "d1", 0, 1); err != nil || len(rs) != 1 || rs[0].GetSeq() != 1 {
		t.Errorf("refusedSince(0, 1) = %v, %v; want the rejection of 1", rs, err)
	}
	if rs, err := h.refusedSince(cut, "d1", 0, 1); err == nil && len(rs) == 0 {
		t.Error("refusedSince with the link cut = no rejections and no error; want an error (the Welcome would pass event 1 off as applied)")
	}
}

// A second session of the same device takes over: the first's link is cut
// with ErrReplaced and a message that says so plainly, and the device
// stays online on the second.
func TestSecondSessionTakesOver(t *testing.T) {
	h := hallForTest(t)
	_, first, _ := open(t, h, 0, 1)
	_, second, _ := open(t, h, 0, 1)
	first.mu.Lock()
	cut := first.cut
	first.mu.Unlock()
	if !errors.Is(cut, hallerr.ErrReplaced) || !strings.Contains(cut.Error(), "another connection of this device took over") {
		t.Errorf("the first link was cut with %v, want ErrReplaced saying another connection of this device took over", cut)
	}
	second.mu.Lock()
	defer second.mu.Unlock()
	if second.cut != nil {
		t.Errorf("the second link was cut with %v, want it kept", second.cut)
	}
}

// A command issued between a session's Welcome and its Assignment (the
// device's link registered, its board not yet sent: the board's actor
// busy) reaches the device only after the Assignment, once: before,
// the device refused it for want of a board and ignored it when it came
// again with the Assignment, while the hall kept it pending as sent.
func TestCommandNeverReachesTheDeviceBeforeItsBoard(t *testing.T) {
	t.Parallel()
	h := hallForTest(t)
	ctx := context.Background()
	first, _, _ := open(t, h, 0, 1)
	if err := first.Event(ctx, event(1, "b1", start(0))); err != nil {
		t.Fatal(err)
	}
	first.Close()
	b, err := h.Board("b1")
	if err != nil {
		t.Fatal(err)
	}
	busy, release, issued := make(chan struct{}), make(chan struct{}), make(chan error, 1)
	go func() {
		issued <- b.do(ctx, func() {
			close(busy)
			<-release
			// On the actor, as every arbiter's command is issued: the
			// device's new link is registered, its board not yet sent.
			chief := &auth.Identity{Role: auth.RoleChief, Label: "test"}
			_, _, err := b.submit(ctx, chief, &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_PAUSE}, "test")
			if err != nil {
				t.Errorf("the command was refused: %v", err)
			}
		})
	}()
	<-busy
	l := &fakeLink{}
	opened := make(chan error, 1)
	go func() {
		_, _, err := h.Open(ctx, "d1", &pb.Hello{DeviceId: "d1", LastAckedSeq: 1, NextSeq: 2}, l, time.Second)
		opened <- err
	}()
	// The condition, not a time: Open has registered the link and waits
	// for the board's actor to send the Assignment.
	for h.link("d1") != l {
		runtime.Gosched()
	}
	close(release)
	if err := <-issued; err != nil {
		t.Fatal(err)
	}
	if err := <-opened; err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, m := range l.take() {
		switch {
		case m.m.GetWelcome() != nil:
			order = append(order, "welcome")
		case m.m.GetAssignment() != nil:
			order = append(order, "assignment")
		case m.m.GetCommand() != nil:
			order = append(order, "command")
		}
	}
	if want := []string{"welcome", "assignment", "command"}; !slices.Equal(order, want) {
		t.Errorf("the device was sent %v; want %v (its board before any command, the command once)", order, want)
	}
}
