package server_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/proto"

	"github.com/chesshall/hallclock/clockdev"
	"github.com/chesshall/hallclock/internal/mono"
	"github.com/chesshall/hallclock/internal/testkit/halltest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
	"github.com/chesshall/hallclock/server"
	"github.com/chesshall/hallclock/server/httpdoor"
	"github.com/chesshall/hallclock/server/wslink"
)

// ClockLink over WebSocket (server/wslink, docs/protocol.md): the same
// door as the gRPC stream. The cases the two share run over both
// transports (overTransports, link_test.go); these are the WebSocket's
// own and those that need a clock device.

// A token that is not a device's, or none, is refused like over gRPC:
// UNAUTHENTICATED, which the WebSocket says as close code 4016 (4000 +
// the gRPC code), and a device's token with another device's Hello is
// PERMISSION_DENIED (4007).
func TestClockLinkRefusesBadTokens(t *testing.T) {
	t.Parallel()
	overTransports(t, func(t *testing.T, h *halltest.Hall, tr clockdev.Transport) {
		b := h.Round(t, "300+2", 2)
		dev, other := b[0].GetDeviceId(), b[1].GetDeviceId()
		for _, c := range []struct {
			name, token string
			want        codes.Code
		}{
			{"unknown token", "hc_not-a-token", codes.Unauthenticated},
			{"an arbiter's token", h.Token(t, pb.Role_ROLE_ARBITER, "arb", ""), codes.PermissionDenied},
			{"another device's token", h.DeviceToken(t, other), codes.PermissionDenied},
		} {
			l := openRawLinkOn(t, tr, dev, c.token)
			l.hello(dev, 0, 1)
			if err := l.ended(); codeOf(err) != c.want {
				t.Errorf("%s: stream ended with %v, want %s", c.name, err, c.want)
			}
		}
		if n := h.Server.Stats().Connects; n != 0 {
			t.Errorf("%d streams welcomed, want none", n)
		}
	})
}

// The close codes and reasons on the wire, as a client without the
// device library sees them (docs/protocol.md).
func TestWebSocketCloseCodes(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t)
	dev := h.Round(t, "300+2", 1)[0].GetDeviceId()
	url := h.WebSocket(t).URL
	token := h.DeviceToken(t, dev)
	hello, err := proto.Marshal(&pb.DeviceMessage{Msg: &pb.DeviceMessage_Hello{Hello: &pb.Hello{DeviceId: dev, NextSeq: 1}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name      string
		url       string
		protocols []string
		header    http.Header
		frame     func(*websocket.Conn) error
		want      websocket.StatusCode
		reason    string
	}{
		{"no token", url, []string{wslink.Subprotocol}, nil, nil, 4016, "bearer.<token>"},
		{"unknown token", url, []string{wslink.Subprotocol, "bearer.hc_nope"}, nil, nil, 4016, "unknown or revoked token"},
		{"token in the URL", url + "?token=" + token, []string{wslink.Subprotocol}, nil, nil, 4003, "never go in URLs"},
		{"text frame", url, []string{wslink.Subprotocol, "bearer." + token}, nil,
			func(c *websocket.Conn) error {
				return c.Write(context.Background(), websocket.MessageText, []byte("hello"))
			},
			4003, "binary"},
		{"Authorization header, then a gap", url, []string{wslink.Subprotocol},
			http.Header{"Authorization": {"Bearer " + token}},
			func(c *websocket.Conn) error {
				if err := c.Write(context.Background(), websocket.MessageBinary, hello); err != nil {
					return err
				}
				gap, _ := proto.Marshal(&pb.DeviceMessage{Msg: &pb.DeviceMessage_Event{Event: &pb.DeviceEvent{Seq: 5, BoardId: "x"}}})
				return c.Write(context.Background(), websocket.MessageBinary, gap)
			},
			4011, "resend from 1"},
		{"a frame over 4 MiB", url, []string{wslink.Subprotocol, "bearer." + token}, nil,
			func(c *websocket.Conn) error {
				// The hall may close before the whole frame is written: the
				// frame is written while the test reads, so that the hall's
				// close frame is read as it comes and not only once the
				// write gives up (the close handshake's 5 s, on a busy machine).
				go func() { _ = c.Write(context.Background(), websocket.MessageBinary, make([]byte, wslink.MaxFrame+1)) }()
				return nil
			},
			websocket.StatusMessageTooBig, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			conn, _, err := websocket.Dial(ctx, c.url, &websocket.DialOptions{Subprotocols: c.protocols, HTTPHeader: c.header})
			if err != nil {
				t.Fatal(err)
			}
			defer conn.CloseNow()
			if conn.Subprotocol() != wslink.Subprotocol {
				t.Errorf("selected subprotocol %q, want %q (never the token)", conn.Subprotocol(), wslink.Subprotocol)
			}
			if c.frame != nil {
				if err := c.frame(conn); err != nil {
					t.Fatal(err)
				}
			}
			var ce websocket.CloseError
			for {
				_, _, err = conn.Read(ctx)
				if err != nil {
					break
				}
			}
			if !errors.As(err, &ce) {
				t.Fatalf("stream ended with %v, want a close frame %d", err, c.want)
			}
			if ce.Code != c.want || !strings.Contains(ce.Reason, c.reason) {
				t.Errorf("close %d %q, want %d with %q", ce.Code, ce.Reason, c.want, c.reason)
			}
		})
	}
}

// Heartbeats keep a clock online over either transport, and silence for
// three heartbeat intervals takes it offline (DEADLINE_EXCEEDED: close
// code 4004 on the WebSocket), on the server's clock (fake).
func TestClockLinkSilenceOverBothTransports(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"grpc", "websocket"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			fake := mono.NewFake(time.Unix(1_700_000_000, 0))
			h := halltest.Start(t, halltest.WithOptions(server.Options{Clock: fake, HeartbeatInterval: time.Second,
				Overloaded: func() bool { return false }}))
			tr := h.GRPC(t)
			if name == "websocket" {
				tr = h.WebSocket(t)
			}
			b := h.Round(t, "300+2", 1)[0]
			id, dev := b.GetBoardId(), b.GetDeviceId()
			before := fake.Pending()
			l, _, _ := connectRawOn(t, h, tr, dev, 0, 1)
			halltest.Eventually(t, 5*time.Second, func() error {
				if fake.Pending() <= before {
					return fmt.Errorf("the silence watchdog is not armed yet")
				}
				return nil
			})
			advance := func(d time.Duration) { fake.Advance(d); fake.Settle() }
			// Beating every 2 s for 8 s keeps it online.
			for range 4 {
				advance(2 * time.Second)
				l.heartbeat(1)
				now := fake.Now().UnixMilli()
				halltest.Eventually(t, 5*time.Second, func() error {
					if got := lastSeenOf(t, h, dev); got != now {
						return fmt.Errorf("last seen %d, want %d", got, now)
					}
					return nil
				})
			}
			select {
			case <-l.done:
				t.Fatalf("a beating clock's stream ended: %v", l.err)
			default:
			}
			if !fetchBoard(t, h, id).GetState().GetDeviceOnline() {
				t.Errorf("device_online = false for a beating clock, want true")
			}
			// Then silence: 3 s after its last heartbeat it is cut.
			advance(2900 * time.Millisecond)
			if cuts := h.Server.Stats().SilenceCuts; cuts != 0 {
				t.Fatalf("cut 2.9 s after its heartbeat (%d cuts)", cuts)
			}
			advance(100 * time.Millisecond)
			if err := l.ended(); codeOf(err) != codes.DeadlineExceeded {
				t.Fatalf("silent for 3 s: stream ended with %v, want DEADLINE_EXCEEDED", err)
			}
			halltest.Eventually(t, 5*time.Second, func() error {
				if fetchBoard(t, h, id).GetState().GetDeviceOnline() {
					return fmt.Errorf("device_online = true after the clock went silent, want false")
				}
				return nil
			})
		})
	}
}

func lastSeenOf(t *testing.T, h *halltest.Hall, dev string) int64 {
	t.Helper()
	arb, ctx := h.Arbiter(t)
	ds, err := arb.ListDevices(ctx, &pb.ListDevicesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range ds.GetDevices() {
		if d.GetDeviceId() == dev {
			return d.GetLastSeenUnixMs()
		}
	}
	return 0
}

// A clock of the device library plays over either transport: its presses
// are acknowledged once committed; while the hall is down it keeps
// playing and keeps its presses; when the hall is back it resends them
// and the hall stores each event once, in order.
func TestClockPlaysThroughAHallRestart(t *testing.T) {
	t.Parallel()
	overTransports(t, func(t *testing.T, h *halltest.Hall, tr clockdev.Transport) {
		b := h.Round(t, "300+2", 1)[0]
		id := b.GetBoardId()
		d := h.Device(t, b.GetDeviceId(), clockdev.Config{Transport: tr})
		if err := d.Do(rules.Event{Kind: rules.KindStart}); err != nil {
			t.Fatal(err)
		}
		press(t, d, rules.White)
		press(t, d, rules.Black)
		halltest.Synced(t, d)
		if n := eventCount(t, h, id); n != 3 {
			t.Fatalf("acknowledged 3 events, the store holds %d", n)
		}
		h.RestartAfter(t, func() {
			press(t, d, rules.White)
			press(t, d, rules.Black)
			if st := d.Status(); st.Outbox != 2 {
				t.Errorf("the clock keeps %d presses while the hall is down, want 2", st.Outbox)
			}
		})
		press(t, d, rules.White)
		halltest.Synced(t, d)
		evs, err := h.Store.Events(context.Background(), id, 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(evs) != 6 || len(d.History()) != 6 {
			t.Fatalf("the store holds %d events, the clock %d, want 6 each", len(evs), len(d.History()))
		}
		for i, e := range evs {
			if e.DeviceSeq != uint64(i+1) || e.BoardSeq != uint64(i+1) {
				t.Errorf("stored event %d: device seq %d, board seq %d; want %d, %d", i, e.DeviceSeq, e.BoardSeq, i+1, i+1)
			}
		}
		st, own := fetchBoard(t, h, id).GetState(), d.State()
		if st.GetWhite().GetMoves() != 3 || st.GetBlack().GetMoves() != 2 ||
			st.GetWhite().GetMoves() != int32(own.P[rules.White].Moves) || st.GetBlack().GetMoves() != int32(own.P[rules.Black].Moves) {
			t.Errorf("the hall's board: %d white moves, %d black; want 3 and 2, as the clock's %d, %d",
				st.GetWhite().GetMoves(), st.GetBlack().GetMoves(), own.P[rules.White].Moves, own.P[rules.Black].Moves)
		}
	})
}

// At the HTTP door a clock's WebSocket is a trusted connection (its token
// is a subprotocol, not a header), so the anonymous places do not bound
// how many tablets a hall holds; and its stream is not cut by the bound
// on an answer's time (here 1 ms).
func TestWebSocketClocksAreTrustedAtTheDoor(t *testing.T) {
	t.Parallel()
	limits := httpdoor.Limits{Conns: 16, Anonymous: 2, Reserve: 1, WriteTimeout: time.Millisecond}
	h := halltest.Start(t, halltest.WithOptions(server.Options{HTTP: limits}))
	bs := h.Round(t, "300+2", 5)
	tr := h.WebSocket(t)
	var links []*rawLink
	for _, b := range bs {
		l, _, _ := connectRawOn(t, h, tr, b.GetDeviceId(), 0, 1)
		links = append(links, l)
	}
	for i, l := range links {
		clk := newRawClock(t, bs[i])
		sendApplied(t, l, clk, 1, bs[i].GetBoardId(), startAction(0))
	}
	if n := h.Server.Stats().WebSocketConnects; n != uint64(len(bs)) {
		t.Errorf("WebSocket streams welcomed: %d, want %d", n, len(bs))
	}
}
