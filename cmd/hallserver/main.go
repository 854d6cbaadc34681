// Command hallserver runs the hall clock server: one gRPC port for clock
// devices, arbiters and feeds, one HTTP port for the dashboard, feeds and
// /healthz, and a SQLite file in a data directory created on first run.
//
//	go run ./cmd/hallserver                       # data in ./hall-data, gRPC :7070, HTTP :7080
//	go run ./cmd/hallserver -data-dir /srv/hall -grpc-addr :443 -tls-cert c.pem -tls-key k.pem
//
// Every flag can also be set by an environment variable (HALL_DATA_DIR,
// HALL_GRPC_ADDR, ...), named in the flag's help. On first start it prints
// a chief-arbiter token; keep it, it is not shown again. One server per
// data directory: a second one exits at once naming the first.
//
// Every committed event also goes to NATS JetStream (stream HALL_<hall
// id>, subjects hall.<hall id>.>) for broadcast gateways (cmd/hallgateway)
// and a federation's view: to a NATS server embedded in this process, its
// data in <data-dir>/nats, unless -nats names an external cluster (-nats
// off: nowhere). The hall never waits for NATS; what it has not yet
// published waits in its database (GET /api/stream, hall_outbox_* metrics).
// The embedded server admits only the hall and the gateways, each with
// its nkey seed in <data-dir>/nats (hall.nk; gateway.nk, read-only); an
// external cluster takes -nats-creds or -nats-nkey and -nats-tls-ca.
// Every message is signed with the hall's key, which gateways check
// (docs/nats-security.md).
//
// Offline commands, with the server stopped and file access only:
//
//	hallserver reset-chief -data-dir D      a new chief-arbiter token, the old ones revoked
//	hallserver restore -data-dir D FILE     the hall from a backup made by hallctl backup
//	hallserver rotate-key -data-dir D       a new key to sign the stream with, endorsed by the old
//	hallserver stream-reset -data-dir D     the stream purged and published whole at the next start
package main

import (
	"context"
	"crypto/tls"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/chesshall/hallclock/internal/cmdline"
	"github.com/chesshall/hallclock/internal/datadir"
	"github.com/chesshall/hallclock/internal/i18n"
	"github.com/chesshall/hallclock/internal/ident"
	"github.com/chesshall/hallclock/internal/lograte"
	"github.com/chesshall/hallclock/internal/mono"
	"github.com/chesshall/hallclock/internal/natsclient"
	"github.com/chesshall/hallclock/server"
	"github.com/chesshall/hallclock/server/httpdoor"
	"github.com/chesshall/hallclock/storage"

	_ "time/tzdata" // -tz works on a machine without the zone database
)

func main() {
	if len(os.Args) > 1 {
		if cmd, ok := offlineCommands[os.Args[1]]; ok {
			if err := cmd(context.Background(), os.Args[2:], os.Stdout, os.Getenv); err != nil {
				if errors.Is(err, flag.ErrHelp) {
					os.Exit(0)
				}
				fmt.Fprintf(os.Stderr, "hallserver %s: %v\n", os.Args[1], err)
				if errors.Is(err, errUsage) {
					os.Exit(2)
				}
				os.Exit(1)
			}
			return
		}
	}
	m := &Main{Stdout: os.Stdout, Stderr: os.Stderr}
	cmdline.Main("hallserver", func() error { return m.ParseFlags(os.Args[1:], os.Getenv) }, func(ctx context.Context) error {
		m.gc.apply() // the process's settings: the command's, not Run's
		applyProcs(os.Getenv)
		m.gc.idle = true
		return m.Run(ctx)
	})
}

// Main is the program: flags, wiring, nothing else.
type Main struct {
	DataDir  string
	GRPCAddr string
	HTTPAddr string
	TLSCert  string
	TLSKey   string
	LogLevel string
	Grace    time.Duration
	// BroadcastDelay delays what broadcast tokens see (anti-cheating).
	BroadcastDelay time.Duration
	// Lang is the pages' default language (package i18n).
	Lang string
	// Speed runs the server's clock faster than real time, for simulated
	// fleets of the same speed (clocksim -speed, the fault suite). 1 for
	// a real hall.
	Speed float64
	// NewHall lets the server start a new hall in an existing hall.db that
	// holds none (an empty file); without it such a file is refused.
	NewHall bool
	// Demo also runs a simulated fleet of clocks playing against the server.
	Demo       bool
	DemoBoards int
	// HallID names the hall in NATS (hall.<id>.>): set once, stored in
	// the database ("" keeps the stored one, at first random).
	HallID string
	// NATS is the external cluster's URL(s); "" runs the embedded server
	// (listening on NATSListen), "off" publishes nowhere.
	NATS         string
	NATSListen   string
	NATSReplicas int
	Stdout       io.Writer
	Stderr       io.Writer

	// HTTP bounds the HTTP port (-http-max-conns, -http-max-anonymous,
	// -http-body-timeout; server.Options.HTTP).
	HTTP httpdoor.Limits

	// NATSAuth is how the hall connects to an external cluster
	// (-nats-creds, -nats-nkey, -nats-tls-ca, -nats-tls-cert/-key); with
	// the embedded server, the certificate it serves TLS with.
	NATSAuth natsclient.Auth

	// HeartbeatBudget is how many clocks beat every second before the
	// hall asks a larger fleet to beat less often (-heartbeat-budget;
	// server.Options.HeartbeatBudget).
	HeartbeatBudget int

	// StallAfter is how long a write may wait for its commit before the
	// hall is not ready (-stall-after; storage.Options.StallAfter).
	StallAfter time.Duration

	// DebugAddr, if set, serves Go's profiler there (debug.go).
	DebugAddr string
	// GCPercent and MemoryLimit are the collector's settings (gc.go),
	// applied by the command, not by Run: they are the process's.
	GCPercent   int
	MemoryLimit int64
	gc          gcSettings // what ParseFlags decided to apply

	// Zone is the hall's time zone (-tz; default the machine's): the
	// times people read are in it, and the pages are told it.
	Zone *time.Location

	// Ready, if set, is called with the bound addresses once serving.
	Ready func(grpcAddr, httpAddr net.Addr)
}

// ParseFlags reads flags, with environment variables as defaults.
func (m *Main) ParseFlags(args []string, getenv func(string) string) error {
	fs := flag.NewFlagSet("hallserver", flag.ContinueOnError)
	fs.SetOutput(m.Stderr)
	env := cmdline.Env(getenv)
	fs.StringVar(&m.DataDir, "data-dir", env.String("HALL_DATA_DIR", "hall-data"), "directory of the hall's database, created on first run (HALL_DATA_DIR)")
	fs.StringVar(&m.GRPCAddr, "grpc-addr", env.String("HALL_GRPC_ADDR", ":7070"), "gRPC listen address for devices, arbiters and feeds (HALL_GRPC_ADDR)")
	fs.StringVar(&m.HTTPAddr, "http-addr", env.String("HALL_HTTP_ADDR", ":7080"), "HTTP listen address for /healthz, the dashboard and feeds (HALL_HTTP_ADDR)")
	fs.StringVar(&m.DebugAddr, "debug-addr", env.String("HALL_DEBUG_ADDR", ""), "if set, serve Go's profiler (net/http/pprof: CPU, heap, goroutines, blocking, mutexes) on this address, e.g. localhost:6060; off by default, never expose it (HALL_DEBUG_ADDR)")
	fs.StringVar(&m.TLSCert, "tls-cert", env.String("HALL_TLS_CERT", ""), "TLS certificate file (PEM); with -tls-key, gRPC is served over TLS (HALL_TLS_CERT)")
	fs.StringVar(&m.TLSKey, "tls-key", env.String("HALL_TLS_KEY", ""), "TLS private key file (PEM) (HALL_TLS_KEY)")
	fs.StringVar(&m.LogLevel, "log-level", env.String("HALL_LOG_LEVEL", "info"), "debug, info, warn or error (HALL_LOG_LEVEL)")
	fs.Float64Var(&m.Speed, "speed", 1, "simulations only: the server's clock runs this many times faster than real time, as clocksim -speed's clocks (HALL_SPEED)")
	fs.BoolVar(&m.NewHall, "new-hall", false, "start a new hall even though hall.db exists but holds none (an empty file): never needed on a first start")
	fs.BoolVar(&m.Demo, "demo", env.String("HALL_DEMO", "") != "", "also run a simulated fleet of clocks playing rounds of mixed time controls (HALL_DEMO)")
	fs.IntVar(&m.DemoBoards, "demo-boards", 8, "boards per demo tournament (three tournaments play at once)")
	fs.StringVar(&m.HallID, "hall-id", env.String("HALL_ID", ""), "the hall's id in NATS (subjects hall.<id>.>, stream HALL_<id>): letters, digits, - and _; stored, so give it once (a new id publishes the whole hall to the new stream) (HALL_ID)")
	fs.StringVar(&m.NATS, "nats", env.String("HALL_NATS", ""), "NATS URL(s) of an external JetStream cluster, comma-separated; empty: an embedded server (data in <data-dir>/nats); off: publish nowhere (HALL_NATS)")
	fs.StringVar(&m.NATSListen, "nats-listen", env.String("HALL_NATS_LISTEN", "127.0.0.1:0"), "where the embedded NATS server listens for gateways (port 0: any free one, printed at start) (HALL_NATS_LISTEN)")
	fs.StringVar(&m.NATSAuth.Creds, "nats-creds", env.String("HALL_NATS_CREDS", ""), "external cluster: the hall's NATS user credentials file (JWT and nkey seed, e.g. from nsc) (HALL_NATS_CREDS)")
	fs.StringVar(&m.NATSAuth.NKey, "nats-nkey", env.String("HALL_NATS_NKEY", ""), "external cluster: the hall's NATS nkey seed file, for servers that list nkey users (HALL_NATS_NKEY)")
	fs.StringVar(&m.NATSAuth.TLSCA, "nats-tls-ca", env.String("HALL_NATS_TLS_CA", ""), "external cluster: the CA (PEM) that signed the NATS servers' certificates; connects over TLS (HALL_NATS_TLS_CA)")
	fs.StringVar(&m.NATSAuth.TLSCert, "nats-tls-cert", env.String("HALL_NATS_TLS_CERT", ""), "the embedded NATS server serves gateways over TLS with this certificate (PEM); with an external cluster, the hall's client certificate (HALL_NATS_TLS_CERT)")
	fs.StringVar(&m.NATSAuth.TLSKey, "nats-tls-key", env.String("HALL_NATS_TLS_KEY", ""), "the private key of -nats-tls-cert (HALL_NATS_TLS_KEY)")
	replicas := env.String("HALL_NATS_REPLICAS", "1")
	fs.StringVar(&replicas, "nats-replicas", replicas, "replicas of the hall's stream when it is created (3 on a three-node cluster) (HALL_NATS_REPLICAS)")
	delay := env.String("HALL_BROADCAST_DELAY", "0s")
	fs.StringVar(&delay, "broadcast-delay", delay, "how long broadcast feeds (watch streams, PGN, relays, display pages) lag behind the hall, e.g. 15m (anti-cheating; arbiters see it live) (HALL_BROADCAST_DELAY)")
	fs.StringVar(&m.Lang, "lang", env.String("HALL_LANG", "en"), "the pages' language for a browser that has chosen none and whose languages the hall does not speak: en, hy, ko or ru (HALL_LANG)")
	httpLimits := m.HTTP.Flags(fs, env.String)
	stall := env.String("HALL_STALL_AFTER", "3s")
	fs.StringVar(&stall, "stall-after", stall, "how long a write may wait for its commit before the hall says it is not ready: a disk that does not answer (a frozen or failing file system) fails nothing, it only makes writes wait (HALL_STALL_AFTER)")
	grace := env.String("HALL_SHUTDOWN_GRACE", "5s")
	fs.StringVar(&grace, "shutdown-grace", grace, "how long in-flight calls may finish at shutdown (HALL_SHUTDOWN_GRACE)")
	gcPercent := env.String("HALL_GC_PERCENT", strconv.Itoa(defaultGCPercent))
	fs.StringVar(&gcPercent, "gc-percent", gcPercent, "Go's GOGC for the server: collect once the heap has grown by this percentage of the live one; the default trades memory for rarer collections, each of which stalls acknowledgements (GOGC, if set and this is not, wins) (HALL_GC_PERCENT)")
	budget := env.String("HALL_HEARTBEAT_BUDGET", "2500")
	fs.StringVar(&budget, "heartbeat-budget", budget, "heartbeats a second the whole fleet of clocks sends: up to this many clocks beat every second, a larger fleet is asked to beat less often (up to every 5 s; a silent clock is then shown offline after twice its interval); 0: every clock every second (HALL_HEARTBEAT_BUDGET)")
	tz := env.String("HALL_TZ", "")
	fs.StringVar(&tz, "tz", tz, "the hall's time zone, an IANA name such as Europe/Yerevan, Asia/Seoul or UTC: the times people read (sign-in links, the audit, the pages) are in it; default the machine's (HALL_TZ)")
	memLimit := env.String("HALL_MEMORY_LIMIT", "")
	fs.StringVar(&memLimit, "memory-limit", memLimit, "a soft limit on the server's memory, e.g. 2GiB: the collector runs more often near it; none by default (GOMEMLIMIT, if set and this is not, wins) (HALL_MEMORY_LIMIT)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q (flags only; see -h)", fs.Args())
	}
	d, err := time.ParseDuration(grace)
	if err != nil || d < 0 {
		return fmt.Errorf("-shutdown-grace %q: want a duration such as 5s", grace)
	}
	m.Grace = d
	if m.HeartbeatBudget, err = strconv.Atoi(budget); err != nil || m.HeartbeatBudget < 0 {
		return fmt.Errorf("-heartbeat-budget %q: want a number of heartbeats a second, 0 for no limit", budget)
	}
	if m.HeartbeatBudget == 0 {
		m.HeartbeatBudget = -1 // server.Options: no limit
	}
	if err := httpLimits(); err != nil {
		return err
	}
	if m.StallAfter, err = time.ParseDuration(stall); err != nil || m.StallAfter < 100*time.Millisecond {
		return fmt.Errorf("-stall-after %q: want a duration of at least 100ms, such as 3s (a commit takes milliseconds)", stall)
	}
	if m.Zone, err = server.LoadZone(tz); err != nil {
		return fmt.Errorf("-tz: %w", err)
	}
	if m.BroadcastDelay, err = time.ParseDuration(delay); err != nil || m.BroadcastDelay < 0 {
		return fmt.Errorf("-broadcast-delay %q: want a duration such as 15m, or 0s", delay)
	}
	if v := getenv("HALL_SPEED"); v != "" && !isSet(fs, "speed") {
		if m.Speed, err = strconv.ParseFloat(v, 64); err != nil {
			return fmt.Errorf("HALL_SPEED %q: want a number", v)
		}
	}
	if !(m.Speed > 0) {
		return fmt.Errorf("-speed %v: want a positive factor (1 for a real hall)", m.Speed)
	}
	if m.NATSReplicas, err = strconv.Atoi(replicas); err != nil || m.NATSReplicas < 1 || m.NATSReplicas > 5 {
		return fmt.Errorf("-nats-replicas %q: want 1 to 5", replicas)
	}
	if err := i18n.Check(m.Lang); err != nil {
		return fmt.Errorf("-lang: %w", err)
	}
	if m.HallID != "" {
		if err := ident.CheckHallID(m.HallID); err != nil {
			return fmt.Errorf("-hall-id: %w", err)
		}
	}
	if (m.TLSCert == "") != (m.TLSKey == "") {
		return fmt.Errorf("-tls-cert and -tls-key go together")
	}
	if err := m.NATSAuth.Check(); err != nil {
		return err
	}
	if m.GCPercent, err = strconv.Atoi(gcPercent); err != nil || m.GCPercent < 10 {
		return fmt.Errorf("-gc-percent %q: want a whole percentage, 10 or more (Go's default is 100, the server's %d)", gcPercent, defaultGCPercent)
	}
	if memLimit != "" {
		if m.MemoryLimit, err = parseBytes(memLimit); err != nil {
			return fmt.Errorf("-memory-limit %w", err)
		}
	}
	m.gc = m.gcPlan(getenv, func(name string) bool { return isSet(fs, name) })
	return nil
}

func (m *Main) logger() (*slog.Logger, error) {
	lvl, err := cmdline.Level(m.LogLevel)
	if err != nil {
		return nil, err
	}
	// A failure repeated by every clock (a full disk) is logged ten times
	// a minute, with the count of the rest.
	return slog.New(lograte.New(slog.NewTextHandler(m.Stderr, &slog.HandlerOptions{Level: lvl}), 10, time.Minute)), nil
}

// Run serves until ctx is cancelled, then shuts down gracefully.
//
// The order matters to an operator: the data directory is locked first
// (a second server on it exits at once, naming the first), the listeners
// are bound next (a port in use fails before anything is written), and
// only then is the hall opened and, on first start, a chief-arbiter token
// created and shown.
func (m *Main) Run(ctx context.Context) error {
	log, err := m.logger()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(m.DataDir, 0o755); err != nil {
		return fmt.Errorf("data directory: %w", err)
	}
	lock, err := datadir.Lock(m.DataDir, "hallserver")
	if err != nil {
		return err
	}
	defer lock.Release()
	gl, err := net.Listen("tcp", m.GRPCAddr)
	if err != nil {
		return fmt.Errorf("gRPC listener: %w", err)
	}
	hl, err := net.Listen("tcp", m.HTTPAddr)
	if err != nil {
		gl.Close()
		return fmt.Errorf("HTTP listener: %w", err)
	}
	var dl net.Listener
	if m.DebugAddr != "" {
		if dl, err = serveDebug(m.DebugAddr, log); err != nil {
			gl.Close()
			hl.Close()
			return fmt.Errorf("debug listener: %w", err)
		}
		defer dl.Close()
	}
	srv, st, stream, err := m.open(ctx, log)
	if err != nil {
		gl.Close()
		hl.Close()
		return err
	}
	defer st.Close()
	defer stream.stop() // after the server's shutdown, before the store closes
	if m.gc.idle {
		go collectWhenIdle(ctx, func() uint64 { st := srv.Stats(); return st.EventsApplied + st.Connects + st.Commands })
	}
	if err := lock.Announce(hostPort(gl.Addr()), hostPort(hl.Addr())); err != nil {
		log.Warn("cannot record the addresses in the lock file", "err", err)
	}
	chief, err := srv.Tokens().EnsureChief(ctx)
	if err != nil {
		gl.Close()
		hl.Close()
		return err
	}
	// Said before serving, in one write: whoever sees the hall answer, or
	// reads its first line, has the token too.
	banner := fmt.Sprintf("hall server: data %s\n  gRPC   %s\n  HTTP   %s/healthz\n", st.Path(), gl.Addr(), m.webBase(hl.Addr()))
	if dl != nil {
		banner += fmt.Sprintf("  debug  http://%s/debug/pprof/\n", hostPort(dl.Addr()))
	}
	if stream != nil {
		banner += stream.banner()
	}
	if chief != "" {
		banner += fmt.Sprintf("  chief-arbiter token (shown once, keep it; lost: hallserver reset-chief -data-dir %s): %s\n", m.DataDir, chief)
	}
	io.WriteString(m.Stdout, banner)
	errs := make(chan error, 3)
	go func() { errs <- srv.ServeGRPC(gl) }()
	go func() { errs <- srv.ServeHTTP(hl) }()
	if m.Ready != nil {
		m.Ready(gl.Addr(), hl.Addr())
	}
	if m.Demo {
		go func() {
			if err := m.demo(ctx, srv, log, gl.Addr(), hl.Addr(), chief); err != nil {
				errs <- fmt.Errorf("demo fleet: %w", err)
			}
		}()
	}
	select {
	case <-ctx.Done():
	case err = <-errs:
	}
	log.Info("shutting down", "grace", m.Grace)
	srv.Shutdown(m.Grace)
	return err
}

// open opens the hall's database, starts publishing it to NATS and loads
// the server on it.
func (m *Main) open(ctx context.Context, log *slog.Logger) (srv *server.Server, st *storage.Store, stream *hallStream, err error) {
	dbPath := filepath.Join(m.DataDir, "hall.db")
	st, err = storage.Open(ctx, dbPath, storage.Options{Logger: log, NewHall: m.NewHall, StallAfter: m.StallAfter})
	if err != nil {
		return nil, nil, nil, err
	}
	// What was opened is closed on failure: the results are nil by then.
	store, started := st, (*hallStream)(nil)
	defer func() {
		if err != nil {
			started.stop()
			store.Close()
		}
	}()
	if stream, err = m.startStream(ctx, st, log); err != nil {
		return nil, nil, nil, err
	}
	started = stream
	opts := server.Options{Logger: log, BroadcastDelay: m.BroadcastDelay, HTTP: m.HTTP, HeartbeatBudget: m.HeartbeatBudget, Zone: m.Zone, Lang: m.Lang}
	if stream != nil {
		opts.Stream = stream.status
	}
	opts.PublicRounds = m.Demo // the demo's display pages and PGN need no token
	if m.Speed > 0 && m.Speed != 1 {
		// As halltest.WithSpeed: heartbeats and command waits keep their
		// real-time lengths.
		opts.Clock = mono.Scaled(mono.Real(), m.Speed)
		opts.HeartbeatInterval = time.Duration(float64(time.Second) * m.Speed)
		opts.CommandWait = time.Duration(float64(3*time.Second) * m.Speed)
	}
	if m.TLSCert != "" {
		cert, err := tls.LoadX509KeyPair(m.TLSCert, m.TLSKey)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("TLS: %w", err)
		}
		opts.TLS = &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
	}
	srv, err = server.New(ctx, st, opts)
	if err != nil {
		return nil, nil, nil, err
	}
	return srv, st, stream, nil
}

// webBase is the HTTP port's base URL, https when TLS is on.
func (m *Main) webBase(a net.Addr) string {
	if m.TLSCert != "" {
		return "https://" + hostPort(a)
	}
	return "http://" + hostPort(a)
}

func isSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

func hostPort(a net.Addr) string {
	s := a.String()
	if strings.HasPrefix(s, "[::]:") {
		return "localhost:" + strings.TrimPrefix(s, "[::]:")
	}
	if strings.HasPrefix(s, "0.0.0.0:") {
		return "localhost:" + strings.TrimPrefix(s, "0.0.0.0:")
	}
	return s
}
