package server_test

import (
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/chesshall/hallclock/clockdev"
	"github.com/chesshall/hallclock/internal/testkit/halltest"
	"github.com/chesshall/hallclock/rules"
	"github.com/chesshall/hallclock/server"
)

// While the hall cannot store events, a clock does not
// reconnect as fast as its backoff allows: the hall answers UNAVAILABLE
// with a retry delay, and the clock waits it out (spread a little), however
// short its own backoff. (Before, a hall with a full disk saw every clock
// come back within a second, and logged each visit.)
func TestClockWaitsWhileTheHallCannotStore(t *testing.T) {
	// Over either transport: the WebSocket says the delay in its close
	// frame's reason (retry-after-ms), gRPC in a RetryInfo.
	for _, name := range []string{"grpc", "websocket"} {
		t.Run(name, func(t *testing.T) {
			const retryDelay = 400 * time.Millisecond
			h := halltest.Start(t, halltest.OnLoopback(), halltest.WithOptions(server.Options{FaultRetryDelay: retryDelay}))
			b := h.Round(t, "180+2", 1)[0]
			tr := h.GRPC(t)
			if name == "websocket" {
				tr = h.WebSocket(t)
			}
			d := h.Device(t, b.GetDeviceId(), clockdev.Config{Transport: tr, MinBackoff: 5 * time.Millisecond, MaxBackoff: 20 * time.Millisecond})

			h.Store.Close() // the hall can no longer commit
			// The live stream ends with the next event the hall cannot store; the
			// reconnections are refused until it can.
			if err := d.Do(rules.Event{Kind: rules.KindStart}); err != nil {
				t.Fatal(err)
			}
			seen := 0
			deadline := time.After(10 * time.Second)
			for seen < 3 {
				select {
				case n := <-d.Events():
					if n.Kind != clockdev.NoticeDisconnected {
						continue
					}
					seen++
					if status.Code(n.Err) != codes.Unavailable {
						t.Errorf("disconnection %d: %v, want UNAVAILABLE", seen, n.Err)
					}
					if n.RetryIn < retryDelay {
						t.Errorf("disconnection %d: the clock retries in %v, want at least the hall's %v", seen, n.RetryIn, retryDelay)
					}
				case <-deadline:
					t.Fatalf("%d disconnections in 10 s, want 3", seen)
				}
			}
			if st := d.Status(); st.Outbox != 1 {
				t.Errorf("the clock holds %d events, want its 1 unstored event kept", st.Outbox)
			}
		})
	}
}
