package wslink

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/coder/websocket"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/server/auth"
	"github.com/chesshall/hallclock/server/devlink"
	"github.com/chesshall/hallclock/server/hallerr"
)

const (
	// Path is the endpoint on the hall's HTTP port.
	Path = "/clocklink"
	// Subprotocol is the binding's name, offered by the device and
	// selected by the hall.
	Subprotocol = "clocklink.v1"
	// BearerPrefix starts the subprotocol that carries a browser's token.
	BearerPrefix = "bearer."
	// CloseBase plus a gRPC status code is the close code of a stream
	// that ended with that status.
	CloseBase = 4000
	// MaxFrame bounds a device's frame, as the gRPC door bounds a clock's
	// message (4 MiB).
	MaxFrame = 4 << 20
	// writeTimeout bounds the writing of one frame: a device that does not
	// read is cut rather than holding its sender for ever.
	writeTimeout = 10 * time.Second
)

// Config is what the WebSocket needs beyond the devices' door.
type Config struct {
	Tokens *auth.Tokens  // finds the identity of a device's token
	Codes  hallerr.Codes // maps why a stream ended to its status
}

// Handler serves ClockLink over WebSocket at Path.
type Handler struct {
	door *devlink.Door
	cfg  Config

	mu      sync.Mutex
	closed  bool           // Wait was called: no new stream
	serving sync.WaitGroup // the streams being served
}

// New returns the handler; ctx ends every link (shutdown).
func New(ctx context.Context, opts devlink.Options, cfg Config) *Handler {
	return &Handler{door: devlink.New(ctx, opts), cfg: cfg}
}

// Wait refuses new streams and waits for those being served to end
// (shutdown: cancel New's ctx first). The HTTP server does not wait for
// them: their connections are hijacked.
func (h *Handler) Wait() {
	h.mu.Lock()
	h.closed = true
	h.mu.Unlock()
	h.serving.Wait()
}

// Stats returns a snapshot of the WebSocket door's counters.
func (h *Handler) Stats() devlink.Stats { return h.door.Stats() }

// Secret returns the token a WebSocket request carries in its
// subprotocols (a browser's) or its Authorization header.
func Secret(r *http.Request) (string, bool) {
	for _, line := range r.Header.Values("Sec-WebSocket-Protocol") {
		for _, p := range strings.Split(line, ",") {
			if s, ok := strings.CutPrefix(strings.TrimSpace(p), BearerPrefix); ok && s != "" {
				return s, true
			}
		}
	}
	if s, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok && s != "" {
		return s, true
	}
	return "", false
}

// ServeHTTP accepts the WebSocket, then serves the device's stream until
// it ends and closes it with the code of why.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		w.Header().Set("Retry-After", "1")
		http.Error(w, "the hall is shutting down: come back shortly", http.StatusServiceUnavailable)
		return
	}
	h.serving.Add(1)
	h.mu.Unlock()
	defer h.serving.Done()
	// The HTTP door bounds an answer in time: a clock's stream lasts.
	rc := http.NewResponseController(w)
	_ = rc.SetReadDeadline(time.Time{})
	_ = rc.SetWriteDeadline(time.Time{})
	c, err := websocket.Accept(w, r, &websocket.AcceptOptions{Subprotocols: []string{Subprotocol}})
	if err != nil {
		return // Accept answered the request
	}
	c.SetReadLimit(MaxFrame)
	ctx := r.Context()
	var id *auth.Identity
	switch secret, ok := Secret(r); {
	case r.URL.Query().Has("token"):
		err = hallerr.BadRequest("tokens never go in URLs (they end up in logs): offer the subprotocol 'bearer.<token>' or send 'Authorization: Bearer <token>'")
	case !ok:
		err = fmt.Errorf("%w: offer the subprotocol 'bearer.<token>' beside %q, or send 'Authorization: Bearer <token>'", hallerr.ErrUnauthenticated, Subprotocol)
	default:
		if id, ok = h.cfg.Tokens.Lookup(secret); !ok {
			err = fmt.Errorf("%w: unknown or revoked token", hallerr.ErrUnauthenticated)
		}
	}
	if err == nil {
		err = h.door.Serve(ctx, id, devlink.Stream{
			Recv: func() (*pb.DeviceMessage, error) { return recv(ctx, c) },
			Send: func(m *pb.ServerMessage) error { return send(ctx, c, m) },
		})
	}
	code, reason := h.closeOf(err)
	_ = c.Close(code, reason)
}

// recv reads the device's next frame: io.EOF once it closed in order.
func recv(ctx context.Context, c *websocket.Conn) (*pb.DeviceMessage, error) {
	typ, b, err := c.Read(ctx)
	if err != nil {
		if s := websocket.CloseStatus(err); s == websocket.StatusNormalClosure || s == websocket.StatusGoingAway {
			return nil, io.EOF
		}
		return nil, err
	}
	if typ != websocket.MessageBinary {
		return nil, hallerr.BadRequest("ClockLink frames are binary: one DeviceMessage (protobuf) per frame")
	}
	m := &pb.DeviceMessage{}
	if err := proto.Unmarshal(b, m); err != nil {
		return nil, hallerr.BadRequest("a frame is not a DeviceMessage: %v", err)
	}
	return m, nil
}

// send writes one message as a binary frame.
func send(ctx context.Context, c *websocket.Conn, m *pb.ServerMessage) error {
	b, err := proto.Marshal(m)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, writeTimeout)
	defer cancel()
	return c.Write(ctx, websocket.MessageBinary, b)
}

// closeOf is the close frame of a stream that ended with err: 1000 for
// nil (or a device that closed it), else CloseBase plus its gRPC code
// and the status message, with the retry delay the hall names first.
func (h *Handler) closeOf(err error) (websocket.StatusCode, string) {
	if err == nil || errors.Is(err, io.EOF) {
		return websocket.StatusNormalClosure, ""
	}
	if s := websocket.CloseStatus(err); s != -1 {
		return s, "" // the device closed it: answered with its own code
	}
	if errors.Is(err, context.Canceled) {
		return websocket.StatusGoingAway, "the stream ended"
	}
	st := status.Convert(h.cfg.Codes.Status(err))
	if st.Code() == codes.OK {
		return websocket.StatusNormalClosure, ""
	}
	reason := st.Message()
	for _, d := range st.Details() {
		if ri, ok := d.(*errdetails.RetryInfo); ok && ri.GetRetryDelay() != nil {
			reason = fmt.Sprintf("retry-after-ms=%d; %s", ri.GetRetryDelay().AsDuration().Milliseconds(), reason)
		}
	}
	return websocket.StatusCode(CloseBase + int(st.Code())), truncate(reason, maxReason)
}

// maxReason is the longest close reason a close frame carries (125 bytes
// of payload, 2 of them the code).
const maxReason = 123

// truncate cuts s to at most n bytes of whole UTF-8 characters.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[:n]
	for len(s) > 0 && !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s
}
