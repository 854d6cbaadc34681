package link

import (
	"context"
	"errors"
	"log/slog"
	"path/filepath"
	"testing"

	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/server/hallerr"
	"github.com/chesshall/hallclock/storage"
)

// serviceOnStore is a link service with nothing but a store, in which device
// "d1" has its event 1 committed refused (acknowledged, in the audit log
// only).
func serviceOnStore(t *testing.T) *Service {
	t.Helper()
	st, err := storage.Open(context.Background(), filepath.Join(t.TempDir(), "hall.db"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if err := st.Write(context.Background(), func(tx *storage.Tx) error { return tx.AckDevice("d1", 1) }); err != nil {
		t.Fatal(err)
	}
	return &Service{store: st, log: slog.New(slog.DiscardHandler)}
}

func rejects(m *pb.ServerMessage, seq uint64) bool {
	for _, r := range m.GetAck().GetRejected() {
		if r.GetSeq() == seq {
			return true
		}
	}
	return false
}

// A refused event acknowledged again (its first Ack lost with a stream)
// carries its rejection; and when the store cannot tell whether it was
// refused (the link cut meanwhile, the store failing), the link ends
// instead of acknowledging it without one: the clock would count a
// refused event applied (the 200-board chaos soak under load: "an
// acknowledged event missing from the store").
func TestAckAgainNeverPassesARefusalOffAsApplied(t *testing.T) {
	t.Parallel()
	s := serviceOnStore(t)
	l, out := linkForTest(t, "d1")
	if err := s.ackAgain(context.Background(), l, 1); err != nil {
		t.Fatal(err)
	}
	if m := <-out; !rejects(m, 1) {
		t.Errorf("ack again of refused event 1 = %v, want its rejection", m)
	}

	cut, cancel := context.WithCancel(context.Background())
	cancel()
	err := s.ackAgain(cut, l, 1)
	select {
	case m := <-out:
		if !rejects(m, 1) {
			t.Errorf("with the link cut, ack again of refused event 1 = %v (err %v); want no Ack without its rejection", m, err)
		}
	default:
		if err == nil {
			t.Error("with the link cut, ackAgain sent nothing and said nothing; want an error that ends the stream")
		}
	}

	if rs, err := s.refusedSince(context.Background(), "d1", 0, 1); err != nil || len(rs) != 1 || rs[0].GetSeq() != 1 {
		t.Errorf("refusedSince(0, 1) = %v, %v; want the rejection of 1", rs, err)
	}
	if rs, err := s.refusedSince(cut, "d1", 0, 1); err == nil && len(rs) == 0 {
		t.Error("refusedSince with the link cut = no rejections and no error; want an error (the Welcome would pass event 1 off as applied)")
	}
}

// linkForTest is a link whose stream hands what is sent to out; the test
// ends it.
func linkForTest(t *testing.T, dev string) (*link, chan *pb.ServerMessage) {
	t.Helper()
	ctx, cancel := context.WithCancelCause(context.Background())
	out := make(chan *pb.ServerMessage, maxLinkQueue+1)
	l := &link{dev: dev, linkSender: linkSender{dev: dev, ctx: ctx, cancel: cancel,
		stream: func(m *pb.ServerMessage) error { out <- m; return nil }}}
	t.Cleanup(func() { cancel(nil); _ = l.close() })
	return l, out
}

// Nothing queued after a link was cut reaches the device, even while its
// stream still stands: a message dropped at the cut must not be followed
// by a later Ack covering its sequence number. Here the receive loop
// queues ten more while Ack 1 is being sent, then the link is cut (as a
// full queue cuts it): none of the ten goes.
func TestNothingIsSentAfterTheCut(t *testing.T) {
	t.Parallel()
	l, _ := linkForTest(t, "d1")
	sent := 0
	l.stream = func(*pb.ServerMessage) error {
		sent++
		if sent == 1 {
			for i := range 10 {
				l.send(ack(uint64(i+3), nil))
			}
			l.cancel(nil)
		}
		return nil
	}
	if !l.sendHere(ack(1, nil)) {
		t.Fatal("Ack 1 not queued")
	}
	if err := l.close(); err != nil {
		t.Fatal(err)
	}
	if sent != 1 {
		t.Fatalf("%d messages sent after the link was cut, want none", sent-1)
	}
	if l.send(ack(20, nil)) || l.sendHere(ack(21, nil)) {
		t.Error("a cut link took a message")
	}
}

// A device that does not read its messages has its link cut when its
// queue is full, not the hall's memory filled; a failed Send cuts it too
// and is what close reports; after close nothing is sent.
func TestLinkQueueBoundsAndErrors(t *testing.T) {
	t.Parallel()
	l, out := linkForTest(t, "d1")
	block := make(chan struct{})
	l.stream = func(m *pb.ServerMessage) error { <-block; out <- m; return nil }
	for i := range maxLinkQueue {
		if !l.send(ack(uint64(i+1), nil)) {
			t.Fatalf("message %d refused below the bound", i+1)
		}
	}
	taken := maxLinkQueue
	for l.send(ack(999, nil)) {
		if taken++; taken > maxLinkQueue+1 { // one may be in the sender's hands
			t.Fatalf("%d messages queued for a device that reads nothing; the bound is %d", taken, maxLinkQueue)
		}
	}
	if c := context.Cause(l.ctx); !errors.Is(c, hallerr.ErrSlowDevice) {
		t.Errorf("a full queue cut the link with %v, want hallerr.ErrSlowDevice", c)
	}
	close(block)
	if err := l.close(); err != nil {
		t.Fatal(err)
	}
	if len(out) > maxLinkQueue+1 {
		t.Errorf("%d messages sent, more than were queued before the cut", len(out))
	}

	l, _ = linkForTest(t, "d2")
	boom := errors.New("connection reset")
	l.stream = func(*pb.ServerMessage) error { return boom }
	l.send(ack(1, nil))
	if err := l.close(); !errors.Is(err, boom) {
		t.Errorf("close = %v, want the failed Send's error", err)
	}
	if !errors.Is(context.Cause(l.ctx), boom) {
		t.Errorf("the link's cause = %v, want the failed Send's error", context.Cause(l.ctx))
	}
}
