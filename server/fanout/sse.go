package fanout

import (
	"context"
	"net"
	"net/http"
	"time"

	"github.com/chesshall/hallclock/internal/acceptgzip"
)

// A dashboard's feed that stops reading must soon stop taking the
// server's sends, so that it falls behind its hub feed and, reading again,
// gets a fresh snapshot instead of seconds of stale updates queued in the
// kernel (a socket's send buffer grows to megabytes by itself). Its
// connection's send buffer is therefore held to sseSendBuffer, and the next
// update is written only once what is still unacknowledged by the client's
// TCP is at most sseInFlight: a client that stops reading closes its
// receive window, its bytes stay queued here, and its updates wait in the
// hub (merged, or a snapshot once it is far behind) rather than in buffers.
const (
	sseSendBuffer = 256 << 10
	sseInFlight   = 64 << 10
)

// How often SendSSE looks again at a connection whose client has not taken
// what was sent: from sseWaitFirst, doubling up to sseWaitMax.
const (
	sseWaitFirst = 2 * time.Millisecond
	sseWaitMax   = 100 * time.Millisecond
)

type connKey struct{}

// ConnContext keeps each HTTP connection in its requests' context, for
// SendSSE: set it as the http.Server's ConnContext.
func ConnContext(ctx context.Context, c net.Conn) context.Context {
	return context.WithValue(ctx, connKey{}, c)
}

// tcpConn returns the TCP connection r came on, if ConnContext kept it:
// beneath TLS and whatever else wraps it (as tls.Conn does, with NetConn).
func tcpConn(r *http.Request) *net.TCPConn {
	c, _ := r.Context().Value(connKey{}).(net.Conn)
	for c != nil {
		if tcp, ok := c.(*net.TCPConn); ok {
			return tcp
		}
		u, ok := c.(interface{ NetConn() net.Conn })
		if !ok {
			return nil
		}
		c = u.NetConn()
	}
	return nil
}

// gzipHeader begins a gzip stream (RFC 1952): DEFLATE, no name, no time,
// an unknown system. The stream's members never end: an event stream ends
// with its connection, so no trailer follows.
var gzipHeader = []byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff}

// SendSSE answers r with an event stream (200) and writes sub's updates
// to it until ctx ends or the client goes: each one encoded once for
// every watcher of the scope (Update.SSE), gzipped when the client takes
// gzip, as a browser does (Update.SSEGzip: a whole-hall dashboard takes
// about 0.45 MB/s of JSON a thousand presses a second, which gzip makes
// several times smaller), and each only once the client's TCP has taken
// all but sseInFlight of what was written before. sent, if not nil, is
// called after each update is flushed.
func SendSSE(ctx context.Context, w http.ResponseWriter, fl http.Flusher, r *http.Request, sub *Sub, sent func()) {
	encode := (*Update).SSE
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Add("Vary", "Accept-Encoding")
	gz := acceptgzip.Accepts(r)
	if gz {
		encode = (*Update).SSEGzip
		h.Set("Content-Encoding", "gzip")
	}
	if r.ProtoMajor == 1 {
		// Not chunked: the body ends when the connection does, as the
		// event-stream standard allows, and net/http then writes each
		// update in one system call. Chunked, a chunk's header, its
		// bytes and its end took two or three (a thousand dashboards
		// make tens of thousands of writes a second).
		h.Set("Transfer-Encoding", "identity")
	}
	w.WriteHeader(http.StatusOK)
	if gz {
		_, _ = w.Write(gzipHeader)
	}
	fl.Flush()
	// A stream lives as long as its watcher: no deadline on its writes
	// (the port's bound on answers is for answers that end; a watcher
	// that stops reading is held back below, not cut).
	_ = http.NewResponseController(w).SetWriteDeadline(time.Time{})
	tcp := tcpConn(r)
	if tcp != nil {
		_ = tcp.SetWriteBuffer(sseSendBuffer)
	}
	// At most this much of what was written may still be unacknowledged:
	// what was at the last look, and everything written since. Only when
	// that could be over sseInFlight does the connection need a look.
	var mayBeUnacked int
	for {
		u, err := sub.NextUpdate(ctx)
		if err != nil {
			return
		}
		b, err := encode(u)
		if err != nil {
			return
		}
		if _, err := w.Write(b); err != nil {
			return
		}
		fl.Flush()
		if sent != nil {
			sent()
		}
		if mayBeUnacked += len(b); tcp == nil || mayBeUnacked <= sseInFlight {
			continue
		}
		n, ok := waitTaken(ctx, tcp, sseInFlight)
		if !ok {
			return
		}
		mayBeUnacked = n
	}
}

// waitTaken waits until at most limit bytes written to c are not yet
// acknowledged by its peer and returns how many are, or reports false if
// ctx ended first. Where the queue cannot be read it does not wait.
//
// Each wait has a timer of its own: a Reset of a timer the runtime may
// still hold in its heap makes it look through every timer of the
// processor (tens of thousands in a hall of 10,000 clocks) when it comes
// due, and a thousand dashboards look here many times a second.
func waitTaken(ctx context.Context, c *net.TCPConn, limit int) (int, bool) {
	wait := sseWaitFirst
	for {
		n, ok := unacked(c)
		if !ok {
			return 0, true
		}
		if n <= limit {
			return n, true
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return 0, false
		case <-t.C:
		}
		wait = min(2*wait, sseWaitMax)
	}
}
