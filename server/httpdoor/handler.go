package httpdoor

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"time"
)

type connKey struct{}

// Configure sets srv's timeouts from the limits, puts its handler behind
// the door, and keeps each connection in its requests' context (after
// srv's own ConnContext, if any). Serve it on Listen's listener.
func (d *Door) Configure(srv *http.Server) {
	srv.ReadHeaderTimeout = d.limits.HeaderTimeout
	srv.IdleTimeout = d.limits.IdleTimeout
	// No ReadTimeout or WriteTimeout on the server: they would cut event
	// streams (a read deadline left running cancels a request's context
	// once it passes). The door sets them per request instead.
	srv.ReadTimeout, srv.WriteTimeout = 0, 0
	next := srv.ConnContext
	srv.ConnContext = func(ctx context.Context, c net.Conn) context.Context {
		if next != nil {
			ctx = next(ctx, c)
		}
		if dc := doorConn(c); dc != nil {
			ctx = context.WithValue(ctx, connKey{}, dc)
		}
		return ctx
	}
	srv.Handler = d.Handler(srv.Handler)
}

// doorConn finds the door's connection beneath c (a tls.Conn's).
func doorConn(c net.Conn) *conn {
	for c != nil {
		if dc, ok := c.(*conn); ok {
			return dc
		}
		u, ok := c.(interface{ NetConn() net.Conn })
		if !ok {
			return nil
		}
		c = u.NetConn()
	}
	return nil
}

// Handler is h behind the door: a connection is trusted once a request
// on it shows a credential; on a reserve connection only health checks
// (and trusted requests, if there is room) are answered, then it is
// closed; every request's body and answer are bounded in time.
func (d *Door) Handler(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, _ := r.Context().Value(connKey{}).(*conn)
		if c != nil {
			cl := d.classOf(c)
			if cl != trusted && d.trusted(r) && d.trust(c) {
				cl = trusted
			}
			if cl == reserve {
				w.Header().Set("Connection", "close")
				if !d.health(r) {
					d.refused[RefusedReserveOnly].Add(1)
					// Whatever body it sends is not waited for: the
					// server would read it to its end before closing.
					_ = http.NewResponseController(w).SetReadDeadline(time.Now())
					w.Header().Set("Retry-After", "1")
					http.Error(w, "the server's HTTP port is full: try again shortly", http.StatusServiceUnavailable)
					return
				}
				c.serving.Store(true)
				defer c.serving.Store(false)
			}
		}
		rc := http.NewResponseController(w)
		now := time.Now()
		_ = rc.SetWriteDeadline(now.Add(d.limits.WriteTimeout))
		if r.ContentLength != 0 && r.Body != nil && r.Body != http.NoBody {
			// Over HTTP/1 the deadline is the connection's: a cut body is
			// counted there, whoever reads it (the server reads what a
			// handler left, before the next request). Over HTTP/2 it is
			// the stream's: counted as the handler reads.
			tb := &timedBody{ReadCloser: r.Body, rc: rc, d: d, count: c == nil || r.ProtoMajor != 1}
			if !tb.count {
				c.settingBody.Store(true)
			}
			_ = rc.SetReadDeadline(now.Add(d.limits.BodyTimeout))
			if !tb.count {
				c.settingBody.Store(false)
			}
			// The handler gets a copy: the server keeps its own body, and
			// judges by it whether what is left was read (or the
			// connection must close).
			r = r.WithContext(r.Context())
			r.Body = tb
		}
		h.ServeHTTP(w, r)
	})
}

// timedBody is a request's body under its deadline: once read to its
// end (or closed) the deadline is lifted, so that it cannot cut the
// handler's own time; one that does not come in time is counted.
type timedBody struct {
	io.ReadCloser
	rc    *http.ResponseController
	d     *Door
	count bool // count a cut here (HTTP/2), not on the connection
	done  bool
}

func (b *timedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	switch {
	case err == nil:
	case errors.Is(err, io.EOF):
		b.lift()
	case b.count && errors.Is(err, os.ErrDeadlineExceeded):
		b.count = false
		b.d.refused[RefusedBodyTimeout].Add(1)
	}
	return n, err
}

// Close closes the body under its deadline (the server reads what is
// left of it, to reuse the connection), then lifts the deadline.
func (b *timedBody) Close() error {
	err := b.ReadCloser.Close()
	b.lift()
	return err
}

func (b *timedBody) lift() {
	if !b.done {
		b.done = true
		_ = b.rc.SetReadDeadline(time.Time{})
	}
}

// HealthChecks says whether r is one of the usual health checks, answered
// on the reserve: GET or HEAD of /healthz (liveness), /readyz (readiness)
// or /metrics (the scrape, which shows what the door refuses while it is
// full).
func HealthChecks(r *http.Request) bool {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		return false
	}
	switch r.URL.Path {
	case "/healthz", "/readyz", "/metrics":
		return true
	}
	return false
}
