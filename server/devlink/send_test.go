package devlink

import (
	"context"
	"errors"
	"testing"

	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/server/hallerr"
)

// linkForTest is a link whose stream hands what is sent to out; the test
// ends it.
func linkForTest(t *testing.T, dev string) (*link, chan *pb.ServerMessage) {
	t.Helper()
	ctx, cancel := context.WithCancelCause(context.Background())
	out := make(chan *pb.ServerMessage, maxLinkQueue+1)
	l := &link{linkSender{dev: dev, ctx: ctx, cancel: cancel,
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

func ack(upTo uint64, rej *pb.Rejection) *pb.ServerMessage {
	a := &pb.Ack{UpToSeq: upTo}
	if rej != nil {
		a.Rejected = []*pb.Rejection{rej}
	}
	return &pb.ServerMessage{Msg: &pb.ServerMessage_Ack{Ack: a}}
}
