package server

import (
	"context"
	"crypto/tls"
	"net"
	"net/http"
)

// A dashboard's feed that stops reading must soon stop taking the
// server's sends, so that it falls behind its hub feed and, reading again,
// gets a fresh snapshot instead of seconds of stale updates queued in the
// kernel (a socket's send buffer grows to megabytes by itself). Its
// connection's send buffer is therefore held to sseSendBuffer: a fraction
// of a second of the whole hall's updates.
const sseSendBuffer = 256 << 10

type connKey struct{}

// connContext keeps each HTTP connection in its requests' context.
func connContext(ctx context.Context, c net.Conn) context.Context {
	return context.WithValue(ctx, connKey{}, c)
}

// limitSendBuffer sets the send buffer of the request's TCP connection.
func limitSendBuffer(r *http.Request, bytes int) {
	c, _ := r.Context().Value(connKey{}).(net.Conn)
	if tc, ok := c.(*tls.Conn); ok {
		c = tc.NetConn()
	}
	if tcp, ok := c.(*net.TCPConn); ok {
		_ = tcp.SetWriteBuffer(bytes)
	}
}

// SendSSE writes sub's updates to an event stream until ctx ends or the
// client goes: each one encoded once for every watcher of the scope
// (Update.SSE). sent, if not nil, is called after each update is flushed.
// The caller has written the headers.
func SendSSE(ctx context.Context, w http.ResponseWriter, fl http.Flusher, sub *Sub, sent func()) {
	for {
		u, err := sub.NextUpdate(ctx)
		if err != nil {
			return
		}
		b, err := u.SSE()
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
	}
}
