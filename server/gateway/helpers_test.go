package gateway_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/chesshall/hallclock/internal/natsrun"
	"github.com/chesshall/hallclock/internal/testkit/halltest"
	"github.com/chesshall/hallclock/internal/testkit/streamtest"
	"github.com/chesshall/hallclock/server"
	"github.com/chesshall/hallclock/server/gateway"
	"github.com/chesshall/hallclock/storage"
	"github.com/chesshall/hallclock/storage/publish"
)

func testLogger() *slog.Logger {
	if os.Getenv("GATEWAY_LOG") == "" {
		return slog.New(slog.DiscardHandler)
	}
	return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

func startNATS(t testing.TB) *natsrun.Node { return streamtest.StartNATS(t) }

func connect(t testing.TB, url string) *nats.Conn { return streamtest.Connect(t, url) }

// publishedHall is a hall server (halltest) whose store a publisher
// drains into NATS, as hallserver does.
type publishedHall struct {
	*halltest.Hall
	ID  string
	Pub *publish.Publisher
}

// startPublishedHall starts a hall with id, publishing to url.
func startPublishedHall(t testing.TB, url, id string, opts ...halltest.Option) *publishedHall {
	t.Helper()
	return startPublishedHallOn(t, connect(t, url), id, opts...)
}

// startPublishedHallOn starts a hall with id, publishing on nc.
func startPublishedHallOn(t testing.TB, nc *nats.Conn, id string, opts ...halltest.Option) *publishedHall {
	t.Helper()
	h := halltest.Start(t, append([]halltest.Option{halltest.OnLoopback()}, opts...)...)
	ctx := context.Background()
	if err := h.Store.SetHallID(ctx, id); err != nil {
		t.Fatal(err)
	}
	if err := h.Store.SetHallInfo(ctx, storageInfo(h.Opts)); err != nil {
		t.Fatal(err)
	}
	p, err := publish.New(publish.Options{Store: h.Store, Conn: nc, Hall: id, MaxBackoff: 200 * time.Millisecond, Logger: testLogger()})
	if err != nil {
		t.Fatal(err)
	}
	pctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); p.Run(pctx) }()
	t.Cleanup(func() { cancel(); wg.Wait() })
	return &publishedHall{Hall: h, ID: id, Pub: p}
}

// drained waits until the hall's stream has everything it committed.
func (h *publishedHall) drained(t testing.TB) {
	t.Helper()
	halltest.Eventually(t, 20*time.Second, func() error {
		s, err := h.Pub.Status(context.Background())
		if err != nil {
			return err
		}
		if s.Backlog > 0 || !s.Connected {
			return errorf("hall %s: %d changes not yet published (connected %v, %s)", h.ID, s.Backlog, s.Connected, s.LastError)
		}
		return nil
	})
}

// runningGateway is a gateway serving gRPC and HTTP on loopback.
type runningGateway struct {
	*gateway.Gateway
	Conn *grpc.ClientConn
	URL  string // http://127.0.0.1:port
}

func startGateway(t testing.TB, url string, opts gateway.Options) *runningGateway {
	t.Helper()
	if opts.Conn == nil {
		opts.Conn = connect(t, url)
	}
	if opts.Logger == nil {
		opts.Logger = testLogger()
	}
	opts.DiscoverEvery = 100 * time.Millisecond
	g, err := gateway.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	gl, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hl, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); g.Run(ctx) }()
	go g.ServeGRPC(gl)
	go g.ServeHTTP(hl)
	conn, err := grpc.NewClient(gl.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		conn.Close()
		cancel()
		g.Shutdown(time.Second)
		<-done
	})
	return &runningGateway{Gateway: g, Conn: conn, URL: "http://" + hl.Addr().String()}
}

// caughtUp waits until the gateway has applied the hall's last change.
func (g *runningGateway) caughtUp(t testing.TB, h *publishedHall) {
	t.Helper()
	h.drained(t)
	want, err := h.Store.LastSeq(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	halltest.Eventually(t, 20*time.Second, func() error {
		_, seq, ok := g.Progress(h.ID)
		if !ok || seq < want {
			return errorf("gateway at hall %s's change %d, the hall at %d", h.ID, seq, want)
		}
		return nil
	})
}

// get fetches url with an optional bearer token.
func get(t testing.TB, url, token string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// storageInfo is what hallserver tells followers of a hall with opts.
func storageInfo(o server.Options) storage.HallInfo {
	return storage.HallInfo{DelayMs: o.BroadcastDelay.Milliseconds(), AllPublic: o.PublicRounds}
}

var errorf = fmt.Errorf
