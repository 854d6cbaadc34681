package server_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"google.golang.org/grpc/codes"

	"github.com/chesshall/hallclock/internal/testkit/halltest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/server"
)

// A device stream that never says Hello is cut after
// HelloTimeout, with DEADLINE_EXCEEDED, instead of held for ever.
func TestStreamWithoutHelloIsCut(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t, halltest.WithOptions(server.Options{HelloTimeout: 200 * time.Millisecond}))
	b := h.Round(t, "180+2", 1)[0]
	l := openRawLink(t, h, b.GetDeviceId())
	if err := l.ended(); codeOf(err) != codes.DeadlineExceeded {
		t.Errorf("a stream without Hello ended with %v, want DEADLINE_EXCEEDED", err)
	}
}

// Streams that never say Hello do not delay shutdown by the
// whole grace: they end as soon as the server shuts down.
func TestStreamsWithoutHelloDoNotDelayShutdown(t *testing.T) {
	t.Parallel()
	// A Hello timeout longer than the grace: only shutdown itself may end
	// the silent streams in time.
	h := halltest.Start(t, halltest.WithOptions(server.Options{HelloTimeout: time.Minute}))
	b := h.Round(t, "180+2", 1)[0]
	for range 3 {
		openRawLink(t, h, b.GetDeviceId())
	}
	waitStreamsOpen(t, h, 3)
	began := time.Now()
	h.Server.Shutdown(20 * time.Second)
	if d := time.Since(began); d > 10*time.Second {
		t.Errorf("shutdown with silent streams open took %v, want well within the 20 s grace", d)
	}
}

// A token holds at most so many streams at once; one more is
// refused with RESOURCE_EXHAUSTED, and a slot frees when a stream ends.
func TestStreamsPerTokenAreCapped(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t, halltest.WithOptions(server.Options{MaxStreamsPerToken: 3, MaxDeviceStreams: 2}))
	b := h.Round(t, "180+2", 1)[0]
	dev := b.GetDeviceId()

	// A device token: two streams, not three.
	first := openRawLink(t, h, dev)
	openRawLink(t, h, dev)
	// A client's stream is open before the server has seen it: wait until
	// the server holds both, or the third could take a slot first.
	waitStreamsOpen(t, h, 2)
	third := openRawLink(t, h, dev)
	if err := third.ended(); codeOf(err) != codes.ResourceExhausted {
		t.Errorf("a device token's third stream ended with %v, want RESOURCE_EXHAUSTED", err)
	}
	first.cancel()
	<-first.done
	// The server frees the slot once it has seen the stream end: until
	// then a new stream may still be refused.
	halltest.Eventually(t, 5*time.Second, func() error {
		l := openRawLink(t, h, dev)
		l.hello(dev, 0, 1)
		select {
		case m := <-l.msgs:
			if m.GetWelcome() == nil {
				t.Fatalf("after a stream ended, a new one got %v, want a Welcome", m)
			}
			return nil
		case <-l.done:
			return fmt.Errorf("a new stream after one ended: %v", l.err)
		}
	})

	// A broadcast token: three watch streams, not four.
	tok := h.Token(t, pb.Role_ROLE_BROADCAST, "feed", "")
	w := pb.NewWatchClient(h.Conn(t))
	ctx, cancel := context.WithCancel(halltest.Ctx(context.Background(), tok))
	defer cancel()
	for i := range 3 {
		s, err := w.WatchHall(ctx, &pb.WatchHallRequest{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Recv(); err != nil {
			t.Fatalf("watch stream %d: %v", i+1, err)
		}
	}
	s, err := w.WatchHall(ctx, &pb.WatchHallRequest{})
	if err == nil {
		_, err = s.Recv()
	}
	if codeOf(err) != codes.ResourceExhausted {
		t.Errorf("a fourth watch stream of one token: %v, want RESOURCE_EXHAUSTED", err)
	}
}

// waitStreamsOpen waits until the server counts n open streams.
func waitStreamsOpen(t *testing.T, h *halltest.Hall, n uint64) {
	t.Helper()
	halltest.Eventually(t, 10*time.Second, func() error {
		if got := h.Server.Stats().StreamsOpen; got != n {
			return fmt.Errorf("the server holds %d streams, want %d", got, n)
		}
		return nil
	})
}
