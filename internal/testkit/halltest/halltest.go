// Package halltest starts a real hall server on a temporary database for
// tests, and drives clock devices against it.
//
// # Usage
//
//	h := halltest.Start(t)                     // server over bufconn, chief token ready
//	boards := h.Round(t, "300+2", 2)           // a tournament, a round and 2 boards, each with a device
//	d := h.Device(t, boards[0].DeviceId)       // a connected clock device, assigned
//	h.Restart(t)                               // stop the server, reopen the same database
//
// Everything started is stopped by t.Cleanup.
package halltest

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/grpc/test/bufconn"

	"github.com/chesshall/hallclock/clockdev"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/server"
	"github.com/chesshall/hallclock/storage"
)

// Hall is a running server on a temporary database.
type Hall struct {
	DBPath string
	Opts   server.Options
	Store  *storage.Store
	Server *server.Server
	Chief  string // a chief-arbiter token

	// Listen, if set before Start, makes the server listen on a real port.
	lis     net.Listener
	bufconn *bufconn.Listener
	addr    string
	mu      sync.Mutex
	tokens  map[string]string // device id → token
	conns   []*grpc.ClientConn
	tls     *tls.Config     // WithTLS: the server's TLS
	roots   *x509.CertPool  // WithTLS: what clients trust
	wall    bool            // WallClock: the store's times from the server's clock
	store   storage.Options // WithStore: the store's options
	wsAddr  string          // WebSocket: the HTTP port served, kept across restarts
}

// Option changes how Start runs the hall.
type Option func(*Hall)

// WithOptions sets the server's options.
func WithOptions(o server.Options) Option { return func(h *Hall) { h.Opts = o } }

// OnLoopback serves on a real 127.0.0.1 port instead of bufconn (for
// keepalive and timeouts).
func OnLoopback() Option { return func(h *Hall) { h.addr = "127.0.0.1:0" } }

// WithTLS serves gRPC over TLS with cfg (whatever WithOptions says); Conn
// trusts roots and expects the server's certificate to name "localhost".
func WithTLS(cfg *tls.Config, roots *x509.CertPool) Option {
	return func(h *Hall) { h.tls, h.roots = cfg, roots }
}

// InDir keeps the database in dir instead of a new t.TempDir() (a small
// or read-only file system, for faults).
func InDir(dir string) Option {
	return func(h *Hall) { h.DBPath = filepath.Join(dir, "hall.db") }
}

// WallClock makes the store take its wall-clock times (when an event was
// committed, a board created...) from the server's clock, so that a fake
// clock moves them too: the broadcast delay cuts the PGN by them. Give it
// after WithOptions.
func WallClock() Option { return func(h *Hall) { h.wall = true } }

// WithStore opens the store with o (a clock of its own, a disk that
// stalls); WallClock, given after it, still sets its Now.
func WithStore(o storage.Options) Option { return func(h *Hall) { h.store = o } }

// Start starts a hall on a fresh database in t.TempDir().
func Start(t testing.TB, opts ...Option) *Hall {
	t.Helper()
	fresh := filepath.Join(t.TempDir(), "hall.db")
	h := &Hall{DBPath: fresh, tokens: map[string]string{}}
	for _, o := range opts {
		o(h)
	}
	if h.DBPath == fresh { // not InDir, which may be a file system that refuses it
		if err := copyFresh(h.DBPath); err != nil {
			t.Fatal(err)
		}
	}
	if h.tls != nil {
		h.Opts.TLS = h.tls
	}
	if h.Opts.Logger == nil {
		h.Opts.Logger = slog.New(slog.DiscardHandler)
	}
	h.boot(t)
	t.Cleanup(func() { h.stop() })
	secret, err := h.Server.Tokens().EnsureChief(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	h.Chief = secret
	return h
}

func (h *Hall) boot(t testing.TB) {
	t.Helper()
	ctx := context.Background()
	so := h.store
	if h.wall && h.Opts.Clock != nil {
		so.Now = h.Opts.Clock.Now
	}
	st, err := storage.Open(ctx, h.DBPath, so)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := server.New(ctx, st, h.Opts)
	if err != nil {
		st.Close()
		t.Fatal(err)
	}
	h.Store, h.Server = st, srv
	if h.addr != "" {
		l, err := net.Listen("tcp", h.addr)
		if err != nil {
			t.Fatal(err)
		}
		h.lis = l
		h.addr = l.Addr().String() // keep the port across restarts
	} else {
		bl := bufconn.Listen(256 << 10)
		h.mu.Lock() // Conn's dialers read it while clients reconnect
		h.bufconn = bl
		h.mu.Unlock()
		h.lis = bl
	}
	go srv.ServeGRPC(h.lis)
	h.mu.Lock()
	ws := h.wsAddr
	h.mu.Unlock()
	if ws != "" {
		h.serveWS(t, ws)
	}
}

func (h *Hall) stop() {
	h.mu.Lock()
	conns := h.conns
	h.conns = nil
	h.mu.Unlock()
	if h.Server != nil {
		h.Server.Shutdown(2 * time.Second)
		h.Server = nil
	}
	for _, c := range conns {
		c.Close()
	}
	if h.Store != nil {
		h.Store.Close()
		h.Store = nil
	}
}

// Restart stops the server and starts a new one on the same database (and
// the same port). Client connections made with Conn reconnect by themselves.
func (h *Hall) Restart(t testing.TB) {
	t.Helper()
	h.halt()
	h.boot(t)
}

// RestartAfter stops the server, runs f while the hall is down (clocks
// keep playing), then starts a new one on the same database and port.
func (h *Hall) RestartAfter(t testing.TB, f func()) {
	t.Helper()
	h.halt()
	f()
	h.boot(t)
}

// halt stops the server and closes the store (client connections stay).
func (h *Hall) halt() {
	if h.Server != nil {
		h.Server.Shutdown(2 * time.Second)
		h.Server = nil
	}
	if h.Store != nil {
		h.Store.Close()
		h.Store = nil
	}
}

// RestoreFrom stops the server, puts the database backup in place of the
// hall's (as hallserver restore does) and starts a new server on it, on the
// same port. Clients made with Conn reconnect by themselves.
func (h *Hall) RestoreFrom(t testing.TB, backup string) {
	t.Helper()
	h.halt()
	for _, ext := range []string{"", "-wal", "-shm"} {
		if err := os.Remove(h.DBPath + ext); err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(backup)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(h.DBPath, b, 0o644); err != nil {
		t.Fatal(err)
	}
	h.boot(t)
}

// HTTP serves the current server's HTTP endpoints on a loopback port and
// returns its base URL ("http://127.0.0.1:port", https under WithTLS).
// Call it again after Restart.
func (h *Hall) HTTP(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go h.Server.ServeHTTP(l)
	if h.tls != nil {
		return "https://" + l.Addr().String()
	}
	return "http://" + l.Addr().String()
}

// Addr returns the loopback address (OnLoopback only).
func (h *Hall) Addr() string { return h.addr }

// Conn returns a client connection to the hall (closed at cleanup). It
// survives Restart: it dials whatever listener is current.
func (h *Hall) Conn(t testing.TB) *grpc.ClientConn {
	t.Helper()
	opts := []grpc.DialOption{grpc.WithTransportCredentials(insecure.NewCredentials())}
	if h.roots != nil {
		opts[0] = grpc.WithTransportCredentials(credentials.NewClientTLSFromCert(h.roots, "localhost"))
	}
	target := h.addr
	if h.bufconn != nil {
		target = "passthrough:///bufnet"
		opts = append(opts, grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) {
			h.mu.Lock()
			bl := h.bufconn
			h.mu.Unlock()
			return bl.DialContext(ctx)
		}))
	}
	c, err := grpc.NewClient(target, opts...)
	if err != nil {
		t.Fatal(err)
	}
	h.mu.Lock()
	h.conns = append(h.conns, c)
	h.mu.Unlock()
	return c
}

// Ctx returns a context carrying token as the bearer credential.
func Ctx(ctx context.Context, token string) context.Context {
	return metadata.AppendToOutgoingContext(ctx, "authorization", "Bearer "+token)
}

// Arbiter returns an Arbiter client and a context with the chief's token.
func (h *Hall) Arbiter(t testing.TB) (pb.ArbiterClient, context.Context) {
	return pb.NewArbiterClient(h.Conn(t)), Ctx(context.Background(), h.Chief)
}

// Token issues a token through the Arbiter service as the chief.
func (h *Hall) Token(t testing.TB, role pb.Role, label, deviceID string, sections ...string) string {
	t.Helper()
	arb, ctx := h.Arbiter(t)
	resp, err := arb.IssueToken(ctx, &pb.IssueTokenRequest{Role: role, Label: label, DeviceId: deviceID, Sections: sections})
	if err != nil {
		t.Fatalf("IssueToken(%s, %s): %v", role, label, err)
	}
	return resp.GetToken()
}

// NewRound creates a tournament named name with the default configuration
// cfg, and its round number.
func (h *Hall) NewRound(t testing.TB, name string, number int32, cfg *pb.ClockConfig) *pb.Round {
	t.Helper()
	arb, ctx := h.Arbiter(t)
	// Tournament names are unique: a test's second round of its own name
	// gets the next free "name (k)".
	tr, err := arb.CreateTournament(ctx, &pb.CreateTournamentRequest{Name: name, DefaultConfig: cfg})
	for k := 2; status.Code(err) == codes.AlreadyExists && k < 100; k++ {
		tr, err = arb.CreateTournament(ctx, &pb.CreateTournamentRequest{Name: fmt.Sprintf("%s (%d)", name, k), DefaultConfig: cfg})
	}
	if err != nil {
		t.Fatal(err)
	}
	r, err := arb.CreateRound(ctx, &pb.CreateRoundRequest{TournamentId: tr.GetTournamentId(), Number: number})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// Round creates a tournament (fide-2023 unless cfg says otherwise), one
// round and n boards with time control tc, each with a device "CLK-<i>".
func (h *Hall) Round(t testing.TB, tc string, n int, cfg ...*pb.ClockConfig) []*pb.Board {
	t.Helper()
	arb, ctx := h.Arbiter(t)
	base := &pb.ClockConfig{TimeControl: tc}
	if len(cfg) > 0 {
		base = cfg[0]
		if base.TimeControl == "" {
			base.TimeControl = tc
		}
	}
	r := h.NewRound(t, t.Name(), 1, base)
	var out []*pb.Board
	for i := 1; i <= n; i++ {
		b, err := arb.AddBoard(ctx, &pb.AddBoardRequest{RoundId: r.GetRoundId(), Number: int32(i),
			White: &pb.Player{Name: fmt.Sprintf("White %d", i)}, Black: &pb.Player{Name: fmt.Sprintf("Black %d", i)},
			DeviceId: fmt.Sprintf("CLK-%03d", i)})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
	}
	return out
}

// DeviceToken returns (issuing once) the token of a device.
func (h *Hall) DeviceToken(t testing.TB, dev string) string {
	h.mu.Lock()
	tok, ok := h.tokens[dev]
	h.mu.Unlock()
	if ok {
		return tok
	}
	tok = h.Token(t, pb.Role_ROLE_DEVICE, dev, dev)
	h.mu.Lock()
	h.tokens[dev] = tok
	h.mu.Unlock()
	return tok
}

// Device starts a clock device with its own connection and waits until it
// is connected and has its assignment. cfg may set the clock, outbox, ...
func (h *Hall) Device(t testing.TB, dev string, cfg ...clockdev.Config) *clockdev.Device {
	t.Helper()
	return h.device(t, dev, true, cfg...)
}

// Spare starts a clock device that keeps no board yet (a spare, or a clock
// switched on before its round is set up) and waits until it is connected.
func (h *Hall) Spare(t testing.TB, dev string, cfg ...clockdev.Config) *clockdev.Device {
	t.Helper()
	return h.device(t, dev, false, cfg...)
}

func (h *Hall) device(t testing.TB, dev string, assigned bool, cfg ...clockdev.Config) *clockdev.Device {
	t.Helper()
	c := clockdev.Config{}
	if len(cfg) > 0 {
		c = cfg[0]
	}
	c.DeviceID, c.Token = dev, h.DeviceToken(t, dev)
	if c.Transport == nil && c.Conn == nil && c.Target == "" {
		c.Conn = h.Conn(t)
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	if c.Firmware == "" {
		c.Firmware = "halltest"
	}
	if c.MaxBackoff == 0 {
		c.MinBackoff, c.MaxBackoff = 10*time.Millisecond, 100*time.Millisecond
	}
	d, err := clockdev.New(c)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); d.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done; d.Close() })
	Eventually(t, 5*time.Second, func() error {
		st := d.Status()
		if !st.Connected {
			return fmt.Errorf("device %s not connected (last error %v)", dev, st.LastError)
		}
		if assigned && d.Assignment() == nil {
			return fmt.Errorf("device %s has no assignment", dev)
		}
		return nil
	})
	return d
}

// Eventually retries f until it returns nil or the timeout passes.
func Eventually(t testing.TB, timeout time.Duration, f func() error) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		err := f()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("after %s: %v", timeout, err)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// Synced waits until the device's outbox is empty (everything acknowledged).
func Synced(t testing.TB, d *clockdev.Device) {
	t.Helper()
	Eventually(t, 5*time.Second, func() error {
		if st := d.Status(); st.Outbox > 0 || !st.Connected {
			return fmt.Errorf("device %s: %d events unacknowledged, connected %v", st.BoardID, st.Outbox, st.Connected)
		}
		return nil
	})
}
