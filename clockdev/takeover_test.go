package clockdev

import (
	"context"
	"errors"
	"log/slog"
	"math/rand/v2"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// A stream the hall ends because another connection of the device took
// over (ABORTED) is not reconnected: Run sends NoticeTakenOver with the
// hall's words and returns ErrTakenOver, and no second Hello is sent.
func TestTakenOverStopsReconnecting(t *testing.T) {
	h := newFakeHall(t)
	d, err := New(Config{DeviceID: "CLK-1", Token: testToken, Firmware: "test", Conn: h.dial(t),
		Logger: slog.New(slog.DiscardHandler), Rand: rand.New(rand.NewPCG(1, 2)),
		MinBackoff: time.Millisecond, MaxBackoff: 2 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- d.Run(ctx) }()
	waitFor(t, "the link", func() bool { return d.Status().Connected })

	const words = "another connection of this device took over (device CLK-1)"
	h.drop(status.Error(codes.Aborted, words))
	n := waitNotice(t, d, NoticeTakenOver)
	if status.Code(n.Err) != codes.Aborted || status.Convert(n.Err).Message() != words {
		t.Errorf("NoticeTakenOver.Err = %v, want ABORTED with the hall's words", n.Err)
	}
	select {
	case err := <-done:
		if !errors.Is(err, ErrTakenOver) {
			t.Errorf("Run = %v, want ErrTakenOver", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Run still reconnecting after the hall said another connection took over")
	}
	if _, _, hellos, _ := h.snapshot(); len(hellos) != 1 {
		t.Errorf("%d Hellos, want 1: a clock taken over does not reconnect", len(hellos))
	}
	if d.Status().Connected {
		t.Error("Status().Connected after the takeover, want false")
	}
}
