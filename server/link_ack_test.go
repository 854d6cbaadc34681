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

// A refused event acknowledged again (its first Ack lost with a stream)
// carries its rejection; and when the store cannot tell whether it was
// refused (the link cut meanwhile, the store failing), the link ends
// instead of acknowledging it without one: the clock would count a
// refused event applied (the 200-board chaos soak under load: "an
// acknowledged event missing from the store").
func TestAckAgainNeverPassesARefusalOffAsApplied(t *testing.T) {
	t.Parallel()
	s := serverOnStore(t)
	l := &link{dev: "d1", out: make(chan *pb.ServerMessage, 4), cancel: func(error) {}}
	if err := s.ackAgain(context.Background(), l, 1); err != nil {
		t.Fatal(err)
	}
	if m := <-l.out; !rejects(m, 1) {
		t.Errorf("ack again of refused event 1 = %v, want its rejection", m)
	}

	cut, cancel := context.WithCancel(context.Background())
	cancel()
	err := s.ackAgain(cut, l, 1)
	select {
	case m := <-l.out:
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

// Nothing queued after a link was cut reaches the device, even while its
// stream still stands: a message dropped at the cut must not be followed
// by a later Ack covering its sequence number. (The send loop's select
// would pick a queued message half the time: twenty cuts.)
func TestNothingIsSentAfterTheCut(t *testing.T) {
	t.Parallel()
	for range 20 {
		l := &link{out: make(chan *pb.ServerMessage, 256)}
		ctx, cancel := context.WithCancel(context.Background())
		l.out <- ack(1, nil)
		sent := 0
		err := l.sendLoop(ctx, func(*pb.ServerMessage) error {
			sent++
			if sent == 1 {
				// The link is cut (its queue was full: Ack 2 dropped); the
				// receive loop goes on queueing.
				cancel()
				for i := range 10 {
					l.out <- ack(uint64(i+3), nil)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if sent != 1 {
			t.Fatalf("%d messages sent after the link was cut, want none", sent-1)
		}
	}
}
