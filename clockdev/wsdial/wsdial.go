// Package wsdial is the device library's WebSocket transport: a
// clockdev.Transport that speaks ClockLink over a WebSocket to the hall's
// HTTP port (server/wslink), as a browser's clock does. It links no gRPC,
// so that a js/wasm build of the device library stays small
// (`GOOS=js GOARCH=wasm go list -deps ./clockdev/wsdial` names no
// google.golang.org/grpc); it builds for the browser too, where the
// browser's own WebSocket carries the frames.
//
// One binary frame carries one DeviceMessage or ServerMessage. The token
// is offered as the subprotocol "bearer.<token>" beside "clocklink.v1"
// (a browser cannot set an Authorization header on a WebSocket); the
// hall selects "clocklink.v1". A close frame 4000+c ends a stream as the
// gRPC status code c would: Recv returns a *clockdev.LinkError with the
// code, the reason and the retry delay the hall named. docs/protocol.md
// describes the binding.
//
//	d, err := clockdev.New(clockdev.Config{DeviceID: id, Token: token,
//		Transport: &wsdial.Transport{URL: "wss://hall.local/clocklink"}})
package wsdial

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/coder/websocket"
	"google.golang.org/protobuf/proto"

	"github.com/chesshall/hallclock/clockdev"
	hallv1 "github.com/chesshall/hallclock/proto/hall/v1"
)

const (
	// Subprotocol is the binding's name.
	Subprotocol = "clocklink.v1"
	// BearerPrefix starts the subprotocol that carries the token.
	BearerPrefix = "bearer."
	// CloseBase plus a gRPC status code is the close code of a stream
	// the hall ended with that status.
	CloseBase = 4000
	// MaxFrame bounds a frame from the hall (4 MiB, as over gRPC).
	MaxFrame = 4 << 20
)

// Transport opens WebSocket streams to URL ("ws://host:port/clocklink",
// or "wss://" with TLS). HTTPClient, if set, dials them (its TLS
// configuration, say); a browser uses its own.
type Transport struct {
	URL        string
	HTTPClient *http.Client
}

// Open dials the hall and returns the stream; it ends when ctx is done
// (with a close frame, 1000).
func (t *Transport) Open(ctx context.Context, token string) (clockdev.Stream, error) {
	c, resp, err := websocket.Dial(ctx, t.URL, t.dialOptions([]string{Subprotocol, BearerPrefix + token}))
	if resp != nil && resp.Body != nil {
		_ = resp.Body.Close()
	}
	if err != nil {
		return nil, fmt.Errorf("clockdev/wsdial: dial %s: %w", t.URL, err)
	}
	if p := c.Subprotocol(); p != Subprotocol {
		_ = c.Close(websocket.StatusProtocolError, "the hall must select "+Subprotocol)
		return nil, fmt.Errorf("clockdev/wsdial: %s selected subprotocol %q, not %q: is it a hall's ClockLink?", t.URL, p, Subprotocol)
	}
	c.SetReadLimit(MaxFrame)
	context.AfterFunc(ctx, func() { _ = c.Close(websocket.StatusNormalClosure, "") })
	return &stream{c: c, ctx: ctx}, nil
}

// stream is one WebSocket: frames in and out, and why it ended.
type stream struct {
	c   *websocket.Conn
	ctx context.Context
}

// Send writes m as one binary frame.
func (s *stream) Send(m *hallv1.DeviceMessage) error {
	b, err := proto.Marshal(m)
	if err != nil {
		return err
	}
	return closeError(s.c.Write(s.ctx, websocket.MessageBinary, b))
}

// CloseSend ends the stream in order, as gRPC's CloseSend does: a close
// frame 1000, which the hall answers in kind (Recv then returns io.EOF).
func (s *stream) CloseSend() error {
	go func() { _ = s.c.Close(websocket.StatusNormalClosure, "") }()
	return nil
}

// Recv reads the hall's next frame.
func (s *stream) Recv() (*hallv1.ServerMessage, error) {
	typ, b, err := s.c.Read(s.ctx)
	if err != nil {
		return nil, closeError(err)
	}
	if typ != websocket.MessageBinary {
		_ = s.c.Close(websocket.StatusUnsupportedData, "ClockLink frames are binary")
		return nil, errors.New("clockdev/wsdial: the hall sent a text frame; ClockLink frames are binary")
	}
	m := &hallv1.ServerMessage{}
	if err := proto.Unmarshal(b, m); err != nil {
		return nil, fmt.Errorf("clockdev/wsdial: a frame is not a ServerMessage: %w", err)
	}
	return m, nil
}

// closeError is why a stream ended: io.EOF for a normal closure, a
// *clockdev.LinkError for the hall's close codes (CloseBase + a gRPC
// code), else err.
func closeError(err error) error {
	var ce websocket.CloseError
	if !errors.As(err, &ce) {
		return err
	}
	switch c := int(ce.Code); {
	case ce.Code == websocket.StatusNormalClosure:
		return io.EOF
	case c >= CloseBase && c < CloseBase+100:
		le := &clockdev.LinkError{Code: c - CloseBase, Message: ce.Reason}
		if rest, ok := strings.CutPrefix(ce.Reason, "retry-after-ms="); ok {
			n, msg, _ := strings.Cut(rest, "; ")
			if ms, err := strconv.ParseInt(n, 10, 64); err == nil && ms > 0 {
				le.RetryAfter, le.Message = time.Duration(ms)*time.Millisecond, msg
			}
		}
		return le
	}
	return err
}
