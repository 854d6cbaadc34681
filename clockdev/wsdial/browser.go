//go:build js

package wsdial

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"syscall/js"

	"google.golang.org/protobuf/proto"

	"github.com/chesshall/hallclock/clockdev"
	hallv1 "github.com/chesshall/hallclock/proto/hall/v1"
)

// Transport opens WebSocket streams to URL ("ws://host:port/clocklink",
// or "wss://") with the page's own WebSocket.
//
// The browser calls back into Go on its event loop (open, message,
// close); those callbacks only queue what happened and return, so that
// nothing called from JavaScript waits for JavaScript. Open, Send and
// Recv run on the device's goroutines.
type Transport struct {
	URL string
}

// Open dials the hall and returns the stream once the browser opened it
// (or why it could not); the stream ends when ctx is done (close 1000).
func (t *Transport) Open(ctx context.Context, token string) (clockdev.Stream, error) {
	ctor := js.Global().Get("WebSocket")
	if ctor.IsUndefined() {
		return nil, errors.New("clockdev/wsdial: this JavaScript has no WebSocket")
	}
	var ws js.Value
	if err := jsTry(func() {
		ws = ctor.New(t.URL, js.ValueOf([]any{Subprotocol, BearerPrefix + token}))
	}); err != nil {
		return nil, fmt.Errorf("clockdev/wsdial: dial %s: %w", t.URL, err)
	}
	ws.Set("binaryType", "arraybuffer")
	s := &stream{ws: ws, signal: make(chan struct{}, 1)}
	s.listen()
	if err := s.waitOpen(ctx); err != nil {
		s.close(1000, "")
		s.release()
		return nil, fmt.Errorf("clockdev/wsdial: dial %s: %w", t.URL, err)
	}
	if p := ws.Get("protocol").String(); p != Subprotocol {
		s.close(1000, "the hall must select "+Subprotocol) // a browser may close only with 1000 or 3000–4999
		s.release()
		return nil, fmt.Errorf("clockdev/wsdial: %s selected subprotocol %q, not %q: is it a hall's ClockLink?", t.URL, p, Subprotocol)
	}
	stop := context.AfterFunc(ctx, func() { s.close(1000, "") })
	s.stop = stop
	return s, nil
}

// stream is one browser WebSocket: what its callbacks queued, and why it
// ended.
type stream struct {
	ws     js.Value
	fns    []js.Func
	stop   func() bool
	signal chan struct{} // something was queued

	mu     sync.Mutex
	opened bool
	frames [][]byte
	ended  error // set once: why the stream ended
}

// listen installs the socket's callbacks: each queues and returns.
func (s *stream) listen() {
	on := func(name string, f func(ev js.Value)) {
		fn := js.FuncOf(func(_ js.Value, args []js.Value) any {
			if len(args) > 0 {
				f(args[0])
			}
			return nil
		})
		s.fns = append(s.fns, fn)
		s.ws.Set(name, fn)
	}
	on("onopen", func(js.Value) {
		s.mu.Lock()
		s.opened = true
		s.mu.Unlock()
		s.wake()
	})
	on("onmessage", func(ev js.Value) {
		data := ev.Get("data")
		s.mu.Lock()
		if data.Type() == js.TypeString {
			s.endLocked(errors.New("clockdev/wsdial: the hall sent a text frame; ClockLink frames are binary"))
		} else if n := data.Get("byteLength").Int(); n > MaxFrame {
			s.endLocked(fmt.Errorf("clockdev/wsdial: a frame of %d bytes is over the %d allowed", n, MaxFrame))
		} else {
			b := make([]byte, n)
			js.CopyBytesToGo(b, js.Global().Get("Uint8Array").New(data))
			s.frames = append(s.frames, b)
		}
		s.mu.Unlock()
		s.wake()
	})
	on("onclose", func(ev js.Value) {
		code, reason := ev.Get("code").Int(), ev.Get("reason").String()
		var err error = io.EOF
		if le, ok := linkError(code, reason); ok {
			err = le
		} else if code != 1000 {
			err = fmt.Errorf("clockdev/wsdial: the connection closed (WebSocket code %d %s)", code, reason)
		}
		s.mu.Lock()
		s.endLocked(err)
		s.mu.Unlock()
		s.wake()
	})
}

func (s *stream) wake() {
	select {
	case s.signal <- struct{}{}:
	default:
	}
}

// endLocked records why the stream ended (the first reason stays).
func (s *stream) endLocked(err error) {
	if s.ended == nil {
		s.ended = err
	}
}

func (s *stream) waitOpen(ctx context.Context) error {
	for {
		s.mu.Lock()
		opened, ended := s.opened, s.ended
		s.mu.Unlock()
		switch {
		case ended != nil:
			if ended == io.EOF {
				ended = errors.New("the connection closed before it opened")
			}
			return ended
		case opened:
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-s.signal:
		}
	}
}

// close closes the socket by the device's own hand: the stream has ended
// (io.EOF) — unless the hall's close frame came first. A socket already
// closing or closed (readyState 2 or 3) has heard the hall's, and its
// close event says why the stream ended (4010: another connection of the
// device took over); the device must not answer that with its own
// reason, as a send refused in that moment (the socket no longer open)
// would have the device do, or it would reconnect and take the clock
// back from the newer connection.
func (s *stream) close(code int, reason string) {
	var state int
	_ = jsTry(func() { state = s.ws.Get("readyState").Int() })
	_ = jsTry(func() { s.ws.Call("close", code, reason) })
	if state >= wsClosing {
		return // the close event ends the stream with the hall's reason
	}
	s.mu.Lock()
	s.endLocked(io.EOF)
	s.mu.Unlock()
	s.wake()
}

// wsClosing is a WebSocket's readyState once either side has begun the
// closing handshake (CLOSING; 3 is CLOSED).
const wsClosing = 2

// Send writes m as one binary frame; the browser queues it.
func (s *stream) Send(m *hallv1.DeviceMessage) error {
	b, err := proto.Marshal(m)
	if err != nil {
		return err
	}
	s.mu.Lock()
	ended := s.ended
	s.mu.Unlock()
	if ended != nil {
		return ended
	}
	if st := s.ws.Get("readyState").Int(); st != 1 {
		return fmt.Errorf("clockdev/wsdial: the connection is not open (state %d)", st)
	}
	buf := js.Global().Get("Uint8Array").New(len(b))
	js.CopyBytesToJS(buf, b)
	return jsTry(func() { s.ws.Call("send", buf) })
}

// CloseSend ends the stream in order (close 1000), as gRPC's CloseSend.
func (s *stream) CloseSend() error {
	_ = jsTry(func() { s.ws.Call("close", 1000, "") })
	return nil
}

// Recv returns the hall's next frame, or why the stream ended.
func (s *stream) Recv() (*hallv1.ServerMessage, error) {
	for {
		s.mu.Lock()
		var b []byte
		if len(s.frames) > 0 {
			b, s.frames = s.frames[0], s.frames[1:]
		}
		ended := s.ended
		s.mu.Unlock()
		if b != nil {
			m := &hallv1.ServerMessage{}
			if err := proto.Unmarshal(b, m); err != nil {
				return nil, fmt.Errorf("clockdev/wsdial: a frame is not a ServerMessage: %w", err)
			}
			return m, nil
		}
		if ended != nil {
			s.release()
			return nil, ended
		}
		<-s.signal
	}
}

// release frees the callbacks of an ended stream.
func (s *stream) release() {
	s.mu.Lock()
	fns := s.fns
	s.fns = nil
	s.mu.Unlock()
	if s.stop != nil {
		s.stop()
	}
	for _, name := range []string{"onopen", "onmessage", "onclose"} {
		s.ws.Set(name, js.Null())
	}
	for _, fn := range fns {
		fn.Release()
	}
}

// jsTry runs f and turns a JavaScript exception into an error.
func jsTry(f func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			if je, ok := r.(js.Error); ok {
				err = je
				return
			}
			err = fmt.Errorf("%v", r)
		}
	}()
	f()
	return nil
}
