package server

import (
	"context"
	"log/slog"
	"path/filepath"
	"testing"

	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/storage"
)

// serverOnStore is a server with nothing but a store, in which device
// "d1" has its event 1 committed refused (acknowledged, in the audit log
// only).
func serverOnStore(t *testing.T) *Server {
	t.Helper()
	st, err := storage.Open(context.Background(), filepath.Join(t.TempDir(), "hall.db"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if err := st.Write(context.Background(), func(tx *storage.Tx) error { return tx.AckDevice("d1", 1) }); err != nil {
		t.Fatal(err)
	}
	return &Server{store: st, log: slog.New(slog.DiscardHandler)}
}

func rejects(m *pb.ServerMessage, seq uint64) bool {
	for _, r := range m.GetAck().GetRejected() {
		if r.GetSeq() == seq {
			return true
		}
	}
	return false
}

// sentStream is a device's stream that records what the server sends.
type sentStream struct {
	pb.ClockLink_ConnectServer
	sent []*pb.ServerMessage
}

func (s *sentStream) Send(m *pb.ServerMessage) error {
	s.sent = append(s.sent, m)
	return nil
}

// testLink is a link on a recording stream, and what cuts it.
func testLink(dev string) (*link, *sentStream, context.CancelCauseFunc) {
	ctx, cancel := context.WithCancelCause(context.Background())
	st := &sentStream{}
	return &link{dev: dev, ctx: ctx, cancel: cancel, stream: st, wake: make(chan struct{}, 1)}, st, cancel
}

// A refused event acknowledged again (its first Ack lost with a stream)
// carries its rejection; and when the store cannot tell whether it was
// refused (the link cut meanwhile, the store failing), the link ends
// instead of acknowledging it without one: the clock would count a
// refused event applied (the 200-board chaos soak under load: "an
// acknowledged event missing from the store").
func TestAckAgainNeverPassesARefusalOffAsApplied(t *testing.T) {
	t.Parallel()
	s := serverOnStore(t)
	l, st, _ := testLink("d1")
	if err := s.ackAgain(context.Background(), l, 1); err != nil {
		t.Fatal(err)
	}
	if len(st.sent) != 1 || !rejects(st.sent[0], 1) {
		t.Errorf("ack again of refused event 1 sent %v, want its rejection", st.sent)
	}

	cut, cancel := context.WithCancel(context.Background())
	cancel()
	st.sent = nil
	err := s.ackAgain(cut, l, 1)
	switch {
	case len(st.sent) > 0 && !rejects(st.sent[0], 1):
		t.Errorf("with the link cut, ack again of refused event 1 = %v (err %v); want no Ack without its rejection", st.sent[0], err)
	case len(st.sent) == 0 && err == nil:
		t.Error("with the link cut, ackAgain sent nothing and said nothing; want an error that ends the stream")
	}

	if rs, err := s.refusedSince(context.Background(), "d1", 0, 1); err != nil || len(rs) != 1 || rs[0].GetSeq() != 1 {
		t.Errorf("refusedSince(0, 1) = %v, %v; want the rejection of 1", rs, err)
	}
	if rs, err := s.refusedSince(cut, "d1", 0, 1); err == nil && len(rs) == 0 {
		t.Error("refusedSince with the link cut = no rejections and no error; want an error (the Welcome would pass event 1 off as applied)")
	}
}

// Nothing is sent once a link is cut, even while its stream still stands:
// a message dropped at the cut (its queue full) must not be followed by a
// later Ack covering its sequence number, whether queued or sent by the
// receive loop itself.
func TestNothingIsSentAfterTheCut(t *testing.T) {
	t.Parallel()
	l, st, _ := testLink("d1")
	l.send(ack(1, nil))
	if err := l.flush(nil); err != nil || len(st.sent) != 1 {
		t.Fatalf("flush sent %d messages (%v), want the one queued", len(st.sent), err)
	}
	// The device stops reading: the queue fills and the next message is
	// dropped, which cuts the link.
	for i := range maxQueued {
		if !l.send(ack(uint64(i+2), nil)) {
			t.Fatalf("message %d of %d refused, want the queue to hold %d", i+1, maxQueued, maxQueued)
		}
	}
	if l.send(ack(maxQueued+2, nil)) {
		t.Fatal("a message beyond a full queue was queued, want it dropped and the link cut")
	}
	if l.ctx.Err() == nil {
		t.Fatal("a full queue did not cut the link")
	}
	// The receive loop goes on for a moment: its acknowledgement, and what
	// was queued, must not reach the device.
	l.reply(ack(maxQueued+3, nil))
	l.send(ack(maxQueued+4, nil))
	_ = l.flush(nil)
	if len(st.sent) != 1 {
		t.Errorf("%d messages sent after the link was cut (the last %v), want none", len(st.sent)-1, st.sent[len(st.sent)-1])
	}
}
