package halltest

import (
	"context"
	"net"
	"testing"

	"google.golang.org/grpc"

	"github.com/chesshall/hallclock/clockdev"
	"github.com/chesshall/hallclock/clockdev/wsdial"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/server/wslink"
)

// A clock's streams over either transport, for tests that run the same
// case over both (Transports).

// Transport is a named way for a clock to reach the hall.
type Transport struct {
	Name string
	clockdev.Transport
}

// Transports returns the hall's two ClockLink transports: gRPC (on Conn)
// and WebSocket (on WebSocket's port).
func (h *Hall) Transports(t testing.TB) []Transport {
	t.Helper()
	return []Transport{{"grpc", h.GRPC(t)}, {"websocket", h.WebSocket(t)}}
}

// GRPC returns the gRPC transport on a connection of Conn's (it survives
// Restart).
func (h *Hall) GRPC(t testing.TB) clockdev.Transport {
	t.Helper()
	return grpcTransport{h.Conn(t)}
}

type grpcTransport struct{ conn grpc.ClientConnInterface }

func (g grpcTransport) Open(ctx context.Context, token string) (clockdev.Stream, error) {
	return pb.NewClockLinkClient(g.conn).Connect(Ctx(ctx, token))
}

// WebSocket serves the hall's HTTP port on a loopback port kept across
// Restart, and returns the WebSocket transport to its /clocklink.
func (h *Hall) WebSocket(t testing.TB) *wsdial.Transport {
	t.Helper()
	h.mu.Lock()
	addr := h.wsAddr
	h.mu.Unlock()
	if addr == "" {
		addr = h.serveWS(t, "127.0.0.1:0")
	}
	return &wsdial.Transport{URL: "ws://" + addr + wslink.Path}
}

// serveWS serves the current server's HTTP port on addr and returns the
// address it listens on.
func (h *Hall) serveWS(t testing.TB, addr string) string {
	t.Helper()
	l, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	h.mu.Lock()
	h.wsAddr = l.Addr().String()
	h.mu.Unlock()
	go h.Server.ServeHTTP(l)
	return l.Addr().String()
}
