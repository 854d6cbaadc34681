package server_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/proto"

	"github.com/chesshall/hallclock/clockdev"
	"github.com/chesshall/hallclock/internal/testkit/halltest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
	"github.com/chesshall/hallclock/server/wslink"
)

// Two clocks of one device (a second browser with the same device's
// credentials): the newer takes over, the older's stream ends with
// ABORTED saying so, and the older's device library stops reconnecting
// (NoticeTakenOver), so the two never take the clock from each other in
// turn. The newer plays on.
func TestNewerConnectionOfADeviceTakesOver(t *testing.T) {
	t.Parallel()
	overTransports(t, func(t *testing.T, h *halltest.Hall, tr clockdev.Transport) {
		b := h.Round(t, "300+2", 1)[0]
		dev := b.GetDeviceId()
		older := h.Device(t, dev, clockdev.Config{Transport: tr})
		newer := h.Device(t, dev, clockdev.Config{Transport: tr})
		n := waitForNotice(t, older, clockdev.NoticeTakenOver)
		var le *clockdev.LinkError
		aborted := codeOf(n.Err) == codes.Aborted || errors.As(n.Err, &le) && le.Code == int(codes.Aborted)
		if !aborted || !strings.Contains(n.Err.Error(), "another connection of this device took over") {
			t.Errorf("the older clock was told %v, want ABORTED: another connection of this device took over", n.Err)
		}
		if older.Status().Connected {
			t.Error("the older clock says it is connected after the takeover")
		}
		if err := newer.Do(rules.Event{Kind: rules.KindStart}); err != nil {
			t.Fatal(err)
		}
		press(t, newer, rules.White)
		halltest.Synced(t, newer)
		if c := h.Server.Stats().Connects; c != 2 {
			t.Errorf("%d streams welcomed, want 2: the older clock must not reconnect", c)
		}
		if !newer.Status().Connected {
			t.Error("the newer clock lost its link")
		}
	})
}

// On the wire, the WebSocket of the older connection closes with 4010
// (4000 + ABORTED) and the hall's words as its reason.
func TestWebSocketTakeoverCloseCode(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t)
	dev := h.Round(t, "300+2", 1)[0].GetDeviceId()
	url, token := h.WebSocket(t).URL, h.DeviceToken(t, dev)
	hello, err := proto.Marshal(&pb.DeviceMessage{Msg: &pb.DeviceMessage_Hello{Hello: &pb.Hello{DeviceId: dev, NextSeq: 1}}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	dial := func() *websocket.Conn {
		c, _, err := websocket.Dial(ctx, url, &websocket.DialOptions{Subprotocols: []string{wslink.Subprotocol, "bearer." + token}})
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Write(ctx, websocket.MessageBinary, hello); err != nil {
			t.Fatal(err)
		}
		// The Welcome: the session is open.
		if _, _, err := c.Read(ctx); err != nil {
			t.Fatal(err)
		}
		return c
	}
	first := dial()
	defer first.CloseNow()
	second := dial()
	defer second.CloseNow()
	for {
		if _, _, err = first.Read(ctx); err != nil {
			break
		}
	}
	var ce websocket.CloseError
	if !errors.As(err, &ce) || ce.Code != 4010 || !strings.Contains(ce.Reason, "another connection of this device took over") {
		t.Errorf("the older WebSocket ended with %v, want close 4010 saying another connection of this device took over", err)
	}
}

// waitForNotice reads d's notices until one of kind.
func waitForNotice(t *testing.T, d *clockdev.Device, kind clockdev.NoticeKind) clockdev.Notice {
	t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		select {
		case n, ok := <-d.Events():
			if !ok {
				t.Fatalf("notices ended before a %s notice", kind)
			}
			if n.Kind == kind {
				return n
			}
		case <-timeout:
			t.Fatalf("no %s notice after 10 s", kind)
		}
	}
}
