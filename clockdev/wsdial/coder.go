//go:build !js

package wsdial

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"

	"github.com/coder/websocket"
	"google.golang.org/protobuf/proto"

	"github.com/chesshall/hallclock/clockdev"
	hallv1 "github.com/chesshall/hallclock/proto/hall/v1"
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
	opts := &websocket.DialOptions{HTTPClient: t.HTTPClient, Subprotocols: []string{Subprotocol, BearerPrefix + token}}
	c, resp, err := websocket.Dial(ctx, t.URL, opts)
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
	if ce.Code == websocket.StatusNormalClosure {
		return io.EOF
	}
	if le, ok := linkError(int(ce.Code), ce.Reason); ok {
		return le
	}
	return err
}
