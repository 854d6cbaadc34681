// Command hallgateway serves halls' read-only feeds from their event
// streams in NATS JetStream: Watch over gRPC, server-sent events, PGN with
// the broadcast delay, the display pages, and one read-only page of every
// hall it follows (the federation view). It keeps nothing on disk: start
// as many as the audience needs, anywhere NATS reaches; the halls' own
// load does not grow with them.
//
//	hallgateway -nats nats://n1:4222,nats://n2:4222,nats://n3:4222            # every hall (hall.>)
//	hallgateway -nats nats://127.0.0.1:4222 -halls bergen -http-addr :8080     # one hall
//
// Every flag can also be set by an environment variable, named in the
// flag's help. Viewers read public rounds without credentials, any other
// round with one of its hall's broadcast tokens (Authorization: Bearer);
// everyone sees a hall with its broadcast delay (go doc ./server/gateway).
//
// A gateway reads NATS as a read-only user (-nats-nkey: the hall's
// <data-dir>/nats/gateway.nk for its embedded server; -nats-creds for a
// cluster with JWT users; -nats-tls-ca for TLS) and applies only what
// each hall signed: the key printed by the hall (-hall-key bergen=KEY)
// or, unpinned, the key of the hall's first signed message
// (docs/nats-security.md).
//
//	hallgateway -nats nats://hall:4222 -nats-nkey gateway.nk -hall-key bergen=0Jb5...
package main

import (
	"context"
	"crypto/ed25519"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"strings"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/chesshall/hallclock/formats/hallstream"
	"github.com/chesshall/hallclock/internal/cmdline"
	"github.com/chesshall/hallclock/internal/i18n"
	"github.com/chesshall/hallclock/internal/ident"
	"github.com/chesshall/hallclock/internal/lograte"
	"github.com/chesshall/hallclock/internal/natsclient"
	"github.com/chesshall/hallclock/server/gateway"
	"github.com/chesshall/hallclock/server/httpdoor"
)

func main() {
	m := &Main{Stdout: os.Stdout, Stderr: os.Stderr}
	cmdline.Main("hallgateway", func() error { return m.ParseFlags(os.Args[1:], os.Getenv) }, m.Run)
}

// Main is the program: flags, wiring, nothing else.
type Main struct {
	NATS     string
	Halls    []string
	GRPCAddr string
	HTTPAddr string
	Delay    time.Duration
	LogLevel string
	Grace    time.Duration
	Stdout   io.Writer
	Stderr   io.Writer

	// NATSAuth is how the gateway connects to NATS; Keys pins halls'
	// signing keys (-hall-key); AllowUnsigned reads halls that do not
	// sign yet (-allow-unsigned).
	NATSAuth      natsclient.Auth
	Keys          map[string][]ed25519.PublicKey
	AllowUnsigned bool

	// HTTP bounds the HTTP port (-http-max-conns, -http-max-anonymous,
	// -http-body-timeout; gateway.Options.HTTP).
	HTTP httpdoor.Limits
	// Lang is the pages' default language (package i18n).
	Lang string

	// Ready, if set, is called with the bound addresses once serving.
	Ready func(grpcAddr, httpAddr net.Addr)
}

// ParseFlags reads flags, with environment variables as defaults.
func (m *Main) ParseFlags(args []string, getenv func(string) string) error {
	fs := flag.NewFlagSet("hallgateway", flag.ContinueOnError)
	fs.SetOutput(m.Stderr)
	env := cmdline.Env(getenv)
	fs.StringVar(&m.NATS, "nats", env.String("HALL_NATS", "nats://127.0.0.1:4222"), "NATS URL(s) of the halls' JetStream, comma-separated (HALL_NATS)")
	fs.StringVar(&m.NATSAuth.Creds, "nats-creds", env.String("HALL_NATS_CREDS", ""), "the gateway's NATS user credentials file (JWT and nkey seed, e.g. from nsc) (HALL_NATS_CREDS)")
	fs.StringVar(&m.NATSAuth.NKey, "nats-nkey", env.String("HALL_NATS_NKEY", ""), "the gateway's NATS nkey seed file: for a hall's embedded server, its <data-dir>/nats/gateway.nk (HALL_NATS_NKEY)")
	fs.StringVar(&m.NATSAuth.TLSCA, "nats-tls-ca", env.String("HALL_NATS_TLS_CA", ""), "the CA (PEM) that signed the NATS servers' certificates; connects over TLS (HALL_NATS_TLS_CA)")
	fs.StringVar(&m.NATSAuth.TLSCert, "nats-tls-cert", env.String("HALL_NATS_TLS_CERT", ""), "a client certificate (PEM), for NATS servers that ask for one (HALL_NATS_TLS_CERT)")
	fs.StringVar(&m.NATSAuth.TLSKey, "nats-tls-key", env.String("HALL_NATS_TLS_KEY", ""), "the private key of -nats-tls-cert (HALL_NATS_TLS_KEY)")
	keys := env.String("HALL_GATEWAY_KEYS", "")
	fs.StringVar(&keys, "hall-key", keys, "halls' signing keys as their banners print them, hall=KEY, comma-separated (a hall may be named twice): a hall's messages must be signed by its key or one it endorsed; a hall not named trusts the key of its first signed message (HALL_GATEWAY_KEYS)")
	fs.BoolVar(&m.AllowUnsigned, "allow-unsigned", env.String("HALL_GATEWAY_ALLOW_UNSIGNED", "") != "", "also read unsigned messages, of halls that do not sign yet, until a hall's first signed one; never needed with halls of this version (HALL_GATEWAY_ALLOW_UNSIGNED)")
	halls := env.String("HALL_GATEWAY_HALLS", "")
	fs.StringVar(&halls, "halls", halls, "halls to follow, by id, comma-separated; empty: every hall with a stream (hall.>) (HALL_GATEWAY_HALLS)")
	fs.StringVar(&m.GRPCAddr, "grpc-addr", env.String("HALL_GRPC_ADDR", ":7170"), "gRPC listen address for Watch (HALL_GRPC_ADDR)")
	fs.StringVar(&m.HTTPAddr, "http-addr", env.String("HALL_HTTP_ADDR", ":7180"), "HTTP listen address for the feeds, display pages and the federation view (HALL_HTTP_ADDR)")
	delay := env.String("HALL_BROADCAST_DELAY", "0s")
	fs.StringVar(&delay, "broadcast-delay", delay, "the least delay every hall is shown with; a hall's own delay applies if longer (HALL_BROADCAST_DELAY)")
	fs.StringVar(&m.LogLevel, "log-level", env.String("HALL_LOG_LEVEL", "info"), "debug, info, warn or error (HALL_LOG_LEVEL)")
	grace := env.String("HALL_SHUTDOWN_GRACE", "5s")
	fs.StringVar(&grace, "shutdown-grace", grace, "how long open calls may finish at shutdown (HALL_SHUTDOWN_GRACE)")
	fs.StringVar(&m.Lang, "lang", env.String("HALL_LANG", "en"), "the pages' language for a browser that has chosen none and whose languages the gateway does not speak: en, hy, ko or ru (HALL_LANG)")
	httpLimits := m.HTTP.Flags(fs, env.String)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if err := i18n.Check(m.Lang); err != nil {
		return fmt.Errorf("-lang: %w", err)
	}
	if err := httpLimits(); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q (flags only; see -h)", fs.Args())
	}
	var err error
	if m.Delay, err = time.ParseDuration(delay); err != nil || m.Delay < 0 {
		return fmt.Errorf("-broadcast-delay %q: want a duration such as 15m, or 0s", delay)
	}
	if m.Grace, err = time.ParseDuration(grace); err != nil || m.Grace < 0 {
		return fmt.Errorf("-shutdown-grace %q: want a duration such as 5s", grace)
	}
	m.Halls = nil
	for _, h := range strings.Split(halls, ",") {
		if h = strings.TrimSpace(h); h == "" {
			continue
		}
		if err := ident.CheckHallID(h); err != nil {
			return fmt.Errorf("-halls: %w", err)
		}
		m.Halls = append(m.Halls, h)
	}
	if m.NATS == "" {
		return errors.New("-nats: the halls' NATS servers are needed")
	}
	if err := m.NATSAuth.Check(); err != nil {
		return err
	}
	if m.Keys, err = parseKeys(keys); err != nil {
		return err
	}
	return nil
}

// parseKeys reads -hall-key: hall=KEY, comma-separated.
func parseKeys(s string) (map[string][]ed25519.PublicKey, error) {
	keys := map[string][]ed25519.PublicKey{}
	for _, pin := range strings.Split(s, ",") {
		if pin = strings.TrimSpace(pin); pin == "" {
			continue
		}
		hall, key, ok := strings.Cut(pin, "=")
		if !ok {
			return nil, fmt.Errorf("-hall-key %q: want hall=KEY, as the hall's banner prints it", pin)
		}
		if err := ident.CheckHallID(hall); err != nil {
			return nil, fmt.Errorf("-hall-key: %w", err)
		}
		k, err := hallstream.ParseKey(key)
		if err != nil {
			return nil, fmt.Errorf("-hall-key %s: %w", hall, err)
		}
		keys[hall] = append(keys[hall], k)
	}
	return keys, nil
}

// Run serves until ctx is cancelled, then shuts down gracefully.
func (m *Main) Run(ctx context.Context) error {
	log, err := cmdline.Logger(m.Stderr, m.LogLevel)
	if err != nil {
		return err
	}
	// A hall's refusals (a forger writing its stream) are logged ten times
	// a minute, with the count of the rest.
	log = slog.New(lograte.New(log.Handler(), 10, time.Minute))
	gl, err := net.Listen("tcp", m.GRPCAddr)
	if err != nil {
		return fmt.Errorf("gRPC listener: %w", err)
	}
	hl, err := net.Listen("tcp", m.HTTPAddr)
	if err != nil {
		gl.Close()
		return fmt.Errorf("HTTP listener: %w", err)
	}
	auth, err := m.NATSAuth.Options()
	if err != nil {
		gl.Close()
		hl.Close()
		return err
	}
	// NATS may be down, or refuse the credentials (until its operator
	// adds them): the gateway starts anyway, says why it cannot follow
	// (its log, /api/following) and follows once it can.
	nc, err := nats.Connect(m.NATS, append(auth, nats.Name("hallgateway"), nats.MaxReconnects(-1), nats.ReconnectWait(500*time.Millisecond),
		nats.RetryOnFailedConnect(true), nats.IgnoreAuthErrorAbort())...)
	if err != nil {
		gl.Close()
		hl.Close()
		return fmt.Errorf("NATS %s: %w", m.NATS, err)
	}
	defer nc.Close()
	g, err := gateway.New(gateway.Options{Conn: nc, Halls: m.Halls, Delay: m.Delay, Keys: m.Keys, AllowUnsigned: m.AllowUnsigned, Logger: log, HTTP: m.HTTP, Lang: m.Lang})
	if err != nil {
		gl.Close()
		hl.Close()
		return err
	}
	following := "every hall (hall.>)"
	if len(m.Halls) > 0 {
		following = "halls " + strings.Join(m.Halls, ", ")
	}
	fmt.Fprintf(m.Stdout, "hall gateway: NATS %s (%s), following %s\n  gRPC   %s\n  HTTP   http://%s/ (every hall), /healthz, /metrics\n",
		m.NATS, m.NATSAuth, following, gl.Addr(), hl.Addr())
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	errs := make(chan error, 3)
	go func() { errs <- g.Run(runCtx) }()
	go func() { errs <- g.ServeGRPC(gl) }()
	go func() { errs <- g.ServeHTTP(hl) }()
	if m.Ready != nil {
		m.Ready(gl.Addr(), hl.Addr())
	}
	select {
	case <-ctx.Done():
	case err = <-errs:
	}
	log.Info("shutting down", "grace", m.Grace)
	cancel()
	g.Shutdown(m.Grace)
	return err
}
