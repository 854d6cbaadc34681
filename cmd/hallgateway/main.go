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
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"strings"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/chesshall/hallclock/internal/cmdline"
	"github.com/chesshall/hallclock/internal/ident"
	"github.com/chesshall/hallclock/server/gateway"
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

	// Ready, if set, is called with the bound addresses once serving.
	Ready func(grpcAddr, httpAddr net.Addr)
}

// ParseFlags reads flags, with environment variables as defaults.
func (m *Main) ParseFlags(args []string, getenv func(string) string) error {
	fs := flag.NewFlagSet("hallgateway", flag.ContinueOnError)
	fs.SetOutput(m.Stderr)
	env := cmdline.Env(getenv)
	fs.StringVar(&m.NATS, "nats", env.String("HALL_NATS", "nats://127.0.0.1:4222"), "NATS URL(s) of the halls' JetStream, comma-separated (HALL_NATS)")
	halls := env.String("HALL_GATEWAY_HALLS", "")
	fs.StringVar(&halls, "halls", halls, "halls to follow, by id, comma-separated; empty: every hall with a stream (hall.>) (HALL_GATEWAY_HALLS)")
	fs.StringVar(&m.GRPCAddr, "grpc-addr", env.String("HALL_GRPC_ADDR", ":7170"), "gRPC listen address for Watch (HALL_GRPC_ADDR)")
	fs.StringVar(&m.HTTPAddr, "http-addr", env.String("HALL_HTTP_ADDR", ":7180"), "HTTP listen address for the feeds, display pages and the federation view (HALL_HTTP_ADDR)")
	delay := env.String("HALL_BROADCAST_DELAY", "0s")
	fs.StringVar(&delay, "broadcast-delay", delay, "the least delay every hall is shown with; a hall's own delay applies if longer (HALL_BROADCAST_DELAY)")
	fs.StringVar(&m.LogLevel, "log-level", env.String("HALL_LOG_LEVEL", "info"), "debug, info, warn or error (HALL_LOG_LEVEL)")
	grace := env.String("HALL_SHUTDOWN_GRACE", "5s")
	fs.StringVar(&grace, "shutdown-grace", grace, "how long open calls may finish at shutdown (HALL_SHUTDOWN_GRACE)")
	if err := fs.Parse(args); err != nil {
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
	return nil
}

// Run serves until ctx is cancelled, then shuts down gracefully.
func (m *Main) Run(ctx context.Context) error {
	log, err := cmdline.Logger(m.Stderr, m.LogLevel)
	if err != nil {
		return err
	}
	gl, err := net.Listen("tcp", m.GRPCAddr)
	if err != nil {
		return fmt.Errorf("gRPC listener: %w", err)
	}
	hl, err := net.Listen("tcp", m.HTTPAddr)
	if err != nil {
		gl.Close()
		return fmt.Errorf("HTTP listener: %w", err)
	}
	// NATS may be down: the gateway starts anyway and follows once it is up.
	nc, err := nats.Connect(m.NATS, nats.Name("hallgateway"), nats.MaxReconnects(-1), nats.ReconnectWait(500*time.Millisecond),
		nats.RetryOnFailedConnect(true))
	if err != nil {
		gl.Close()
		hl.Close()
		return fmt.Errorf("NATS %s: %w", m.NATS, err)
	}
	defer nc.Close()
	g, err := gateway.New(gateway.Options{Conn: nc, Halls: m.Halls, Delay: m.Delay, Logger: log})
	if err != nil {
		gl.Close()
		hl.Close()
		return err
	}
	following := "every hall (hall.>)"
	if len(m.Halls) > 0 {
		following = "halls " + strings.Join(m.Halls, ", ")
	}
	fmt.Fprintf(m.Stdout, "hall gateway: NATS %s, following %s\n  gRPC   %s\n  HTTP   http://%s/ (every hall), /healthz, /metrics\n",
		m.NATS, following, gl.Addr(), hl.Addr())
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
