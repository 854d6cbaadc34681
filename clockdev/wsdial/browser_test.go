//go:build js

package wsdial

import (
	"context"
	"errors"
	"io"
	"syscall/js"
	"testing"
	"time"

	"github.com/chesshall/hallclock/clockdev"
	hallv1 "github.com/chesshall/hallclock/proto/hall/v1"
)

// These tests run the browser transport under Node with a scripted
// WebSocket in place of the browser's (.ci/run):
//
//	GOOS=js GOARCH=wasm go test -exec "$(go env GOROOT)/lib/wasm/go_js_wasm_exec" ./clockdev/wsdial

// fakeSocket installs a WebSocket whose state the test sets and whose
// events it fires, as a browser would; last() is the one Open made.
const fakeSocket = `globalThis.WebSocket = class {
	constructor(url, protocols) {
		this.url = url; this.protocols = protocols; this.readyState = 0; this.protocol = "";
		this.sent = 0; this.closedWith = null;
		globalThis.lastSocket = this;
	}
	send(b) {
		if (this.readyState === 0) throw new Error("InvalidStateError: still CONNECTING");
		this.sent++;
	}
	close(code, reason) {
		this.closedWith = [code, reason];
		if (this.readyState < 2) this.readyState = 2;
	}
}; true`

func installFakeSocket(t *testing.T) {
	t.Helper()
	js.Global().Set("lastSocket", js.Null())
	if !js.Global().Call("eval", fakeSocket).Bool() {
		t.Fatal("could not install the scripted WebSocket")
	}
}

// waitFor waits, on real time, until cond holds: the transport's
// callbacks and AfterFuncs run on goroutines of their own.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); !cond(); {
		if time.Now().After(deadline) {
			t.Fatalf("not within 5 s: %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

// openFake opens a stream on the scripted socket and has it opened by
// the hall (clocklink.v1 selected).
func openFake(t *testing.T, ctx context.Context) (clockdev.Stream, js.Value) {
	t.Helper()
	installFakeSocket(t)
	type opened struct {
		s   clockdev.Stream
		err error
	}
	done := make(chan opened, 1)
	go func() {
		s, err := (&Transport{URL: "ws://hall.test/clocklink"}).Open(ctx, "secret")
		done <- opened{s, err}
	}()
	var ws js.Value
	waitFor(t, "the transport makes its socket", func() bool {
		ws = js.Global().Get("lastSocket")
		return !ws.IsNull()
	})
	if got := ws.Get("protocols").Index(1).String(); got != BearerPrefix+"secret" {
		t.Errorf("the token is offered as %q", got)
	}
	ws.Set("protocol", Subprotocol)
	ws.Set("readyState", 1)
	ws.Call("onopen", js.Global().Get("Object").New())
	o := <-done
	if o.err != nil {
		t.Fatalf("open: %v", o.err)
	}
	return o.s, ws
}

// closeEvent fires the socket's close event with code and reason, as the
// browser does once the closing handshake is over.
func closeEvent(ws js.Value, code int, reason string) {
	ws.Set("readyState", 3)
	ev := js.Global().Get("Object").New()
	ev.Set("code", code)
	ev.Set("reason", reason)
	ws.Call("onclose", ev)
}

// The hall's close frame 4010 (another connection of this device took
// over) is why the stream ended, even when the device, in the moment
// between the frame and the close event (the socket CLOSING), fails a
// send and closes the stream itself, as a session does (its context
// ends): the device must see the takeover, or it reconnects and takes
// the clock back from the newer connection (a browser test caught the
// two taking turns).
func TestTheHallsCloseOutlivesTheDevicesOwn(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s, ws := openFake(t, ctx)
	if err := s.Send(&hallv1.DeviceMessage{}); err != nil {
		t.Fatalf("a send on the open socket: %v", err)
	}

	ws.Set("readyState", 2) // the hall's close frame came: the handshake is under way
	if err := s.Send(&hallv1.DeviceMessage{}); err == nil {
		t.Fatal("a send on a closing socket succeeded")
	}
	cancel() // the session ends its stream, as after a failed send
	waitFor(t, "the device closes its socket", func() bool { return !ws.Get("closedWith").IsNull() })
	if code := ws.Get("closedWith").Index(0).Int(); code != 1000 {
		t.Errorf("the device closed with %d, want 1000", code)
	}

	const reason = "another connection of this device took over (device CLK-1)"
	closeEvent(ws, CloseBase+10, reason)
	_, err := s.Recv()
	var le *clockdev.LinkError
	if !errors.As(err, &le) || le.Code != 10 || le.Message != reason {
		t.Fatalf("Recv after the hall's 4010 = %v (%T); want the hall's ABORTED, %q", err, err, reason)
	}
}

// A stream the device closes while it is open ends at once (io.EOF), as
// the transport's contract says: it does not wait for the close event.
func TestTheDevicesCloseEndsAnOpenStream(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	s, ws := openFake(t, ctx)
	cancel()
	waitFor(t, "the device closes its socket", func() bool { return !ws.Get("closedWith").IsNull() })
	if _, err := s.Recv(); !errors.Is(err, io.EOF) {
		t.Fatalf("Recv after the device closed its open stream = %v, want io.EOF", err)
	}
}

// A close frame 1000 from the hall is the stream's end in order; other
// codes say what they were.
func TestTheHallsCloseCodes(t *testing.T) {
	for _, c := range []struct {
		code int
		want func(error) bool
	}{
		{1000, func(err error) bool { return errors.Is(err, io.EOF) }},
		{1006, func(err error) bool {
			var le *clockdev.LinkError
			return err != nil && !errors.Is(err, io.EOF) && !errors.As(err, &le)
		}},
		{CloseBase + 14, func(err error) bool { var le *clockdev.LinkError; return errors.As(err, &le) && le.Code == 14 }},
	} {
		ctx, cancel := context.WithCancel(context.Background())
		s, ws := openFake(t, ctx)
		closeEvent(ws, c.code, "")
		if _, err := s.Recv(); !c.want(err) {
			t.Errorf("close %d: Recv = %v", c.code, err)
		}
		cancel()
	}
}
