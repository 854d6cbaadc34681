// Package server is the hall server, wired: it loads the hall from its
// store (package hall: the board actors and the registry), serves the
// gRPC services that clock devices (package link), arbiters (package
// arbiter) and watchers (Watch, here) talk to behind one door of
// interceptors, and the HTTP endpoints of the web pages, the broadcast
// feeds and operations. Its rooms:
//
//	hall       the boards, each an actor; the floor (boards, devices) and the schedule (rounds)
//	link       the ClockLink service: the clocks' streams
//	arbiter    the Arbiter and Admin services, and their JSON bridge
//	auth       roles, tokens, sessions, each token's streams
//	fanout     the hubs that hand committed states to watchers; SSE; the delay line
//	hallerr    the kinds of error and their one table to gRPC and HTTP statuses
//	httpdoor   the HTTP port's limits: timeouts, connections, a reserve for health checks
//	broadcast  PGN feeds, relays and the display page
//	dashboard  the web pages' assets
//	gateway    a follower of the hall's stream serving the same feeds elsewhere
//
// # Usage
//
//	st, _ := storage.Open(ctx, "data/hall.db", storage.Options{})
//	srv, _ := server.New(ctx, st, server.Options{})
//	go srv.ServeGRPC(grpcListener)
//	go srv.ServeHTTP(httpListener)
//	...
//	srv.Shutdown(5 * time.Second)
//
// # Concurrency
//
// Each board is an actor (package hall); a device's events are handled in
// sequence order, one at a time, so its acknowledgements are cumulative.
// Watchers never slow ingest: the hall hands each commit to the hubs in
// O(1), and each watcher reads at its own pace, coalescing what it missed
// (package fanout). Shutdown ends the streams, lets calls finish for a
// grace period, then waits for the board functions still running.
//
// # HTTP
//
// The HTTP port (HTTPS with the gRPC certificate when Options.TLS is set)
// serves /healthz (liveness), /readyz (readiness: the store commits, see
// readiness.go), /metrics, the dashboard and its feeds, /api/backup, and the
// web sign-in (package auth): HTTP callers are identified by a bearer token
// or a session cookie, never by a token in the URL (auth.Sessions). Its door
// (package httpdoor, Options.HTTP) bounds each part of a request in time and
// the connections it holds, so that the clocks keep their descriptors, and
// answers health checks first when it is full; failed sign-ins are limited
// per address (auth.SignInLimit).
//
// # Errors
//
// Handlers return plain errors of the rules, the store or package
// hallerr; one interceptor maps them to gRPC codes (hallerr.Codes), and the
// HTTP handlers answer with the HTTP status of the same code. Requests are
// validated at the door (proto/hall/v1/validate.go): a bad field is
// INVALID_ARGUMENT or OUT_OF_RANGE naming it; a fault of the store is
// UNAVAILABLE with a retry delay, never INTERNAL.
package server

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/keepalive"
	"google.golang.org/grpc/reflection"

	"github.com/chesshall/hallclock/internal/mono"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/server/arbiter"
	"github.com/chesshall/hallclock/server/auth"
	"github.com/chesshall/hallclock/server/broadcast"
	"github.com/chesshall/hallclock/server/devlink"
	"github.com/chesshall/hallclock/server/enrol"
	"github.com/chesshall/hallclock/server/fanout"
	"github.com/chesshall/hallclock/server/hall"
	"github.com/chesshall/hallclock/server/hallerr"
	"github.com/chesshall/hallclock/server/httpdoor"
	"github.com/chesshall/hallclock/server/link"
	"github.com/chesshall/hallclock/server/wslink"
	"github.com/chesshall/hallclock/storage"
)

// Options configure a Server. Zero values take the defaults.
type Options struct {
	Clock  mono.Clock   // default mono.Real()
	Logger *slog.Logger // default slog.Default()
	// HeartbeatInterval is how often devices send a heartbeat (default
	// 1 s) in a hall of up to HeartbeatBudget clocks; a larger fleet is
	// told to beat less often, at most five times the interval. A device
	// silent for three intervals (two at the longest) is taken offline.
	HeartbeatInterval time.Duration
	// HeartbeatBudget is how many clocks may beat every HeartbeatInterval
	// (default 2,500; negative: no limit).
	HeartbeatBudget int
	// DisplayTolerance is how far (ms) a device's displayed times may differ
	// from the rules' before an alert is raised (default 100; negative: never).
	DisplayTolerance int64
	// CommandWait is how long BoardAction waits for the device by default
	// (default 3 s).
	CommandWait time.Duration
	// WatchInterval is the least time between two updates to one watcher,
	// on a Watch stream or the dashboard's feed (default 50 ms): what
	// happens meanwhile is coalesced. Negative: as soon as anything changes.
	WatchInterval time.Duration
	// BroadcastDelay delays what broadcast tokens and public rounds show
	// (watch streams, the PGN feeds and relays, the display page) by this
	// much, against cheating; arbiters see the hall live. Default 0: no
	// delay. The PGN is cut at the events' commit times, which the store
	// takes from its own clock: Clock must tell the same time.
	BroadcastDelay time.Duration
	// Zone is the hall's time zone: the times people read (the sign-in
	// link's expiry, the audit) are in it, and the pages are told it.
	// Default the machine's (MachineZone).
	Zone *time.Location
	// Relay tunes the pushes of rounds' PGN to relays (package broadcast).
	Relay broadcast.RelayOptions
	// PublicRounds makes every round public, whatever SetBroadcast says
	// (the demo: its display pages and PGN need no token).
	PublicRounds bool
	// TLS, if set, serves gRPC over TLS, and HTTP over TLS (HTTPS) with
	// the same certificate.
	TLS *tls.Config
	// HelloTimeout is how long a device stream may stay open without its
	// Hello (default 5 s, real time).
	HelloTimeout time.Duration
	// MaxStreamsPerToken limits the streams (watch streams, SSE feeds) one
	// token may hold open at once (default 64); MaxDeviceStreams the
	// ClockLink streams of one device token (default 4).
	MaxStreamsPerToken, MaxDeviceStreams int
	// ReadinessInterval is how often readiness is checked, with a probe
	// commit while the hall is idle (default 2 s, real time).
	ReadinessInterval time.Duration
	// ReadinessClock times how long a write has waited for its commit
	// (readiness.go); it must tell the store's time (storage.Options.Now).
	// Default mono.Real(), whatever Clock is.
	ReadinessClock mono.Clock
	// Keepalive of gRPC connections: a ping after KeepaliveTime without a
	// message, the connection dead if it is not answered within
	// KeepaliveTimeout (defaults 10 s and 20 s). Clocks are found gone by
	// the silence watchdog (a few heartbeat intervals) long before; these
	// find half-open connections of watchers. Shorter ones made a busy
	// hall close thousands of live connections whose peers answered a
	// ping two seconds late.
	KeepaliveTime, KeepaliveTimeout time.Duration
	// Stream, if set, says how the hall's publisher to NATS JetStream
	// fares (stream_status.go): GET /api/stream and the hall_outbox_* and
	// hall_stream_* metrics.
	Stream func(context.Context) (StreamStatus, error)
	// Overloaded, if set, says whether the hall is behind its own work, in
	// place of the default (goroutines waited over 200 ms at p99 to run in
	// the last 6 heartbeat intervals, link.Lag): while it is, no clock is
	// cut for silence.
	Overloaded func() bool
	// IngestBehind, if set, says whether ingest is behind, in place of the
	// default (a press acknowledged over 500 ms after it arrived in the
	// last second, fanout.Ingest): while it is, watchers hold their
	// next update back (up to 10 s), looking again every 25 ms.
	IngestBehind func() bool
	// FaultRetryDelay is the retry delay (google.rpc.RetryInfo) the hall
	// names while it cannot store events: clocks wait that long (and a
	// little more, spread) before they reconnect (default 5 s).
	FaultRetryDelay time.Duration
	// HTTP bounds the HTTP port: the time each part of a request may
	// take, how many connections it holds (by default half the process's
	// descriptors, the rest left to the clocks), how many of them
	// anonymous, and a reserve for health checks (package httpdoor).
	HTTP httpdoor.Limits
	// BodyBudget is how many bytes the requests that take files (imports)
	// being read at once may hold; a call beyond it is refused
	// RESOURCE_EXHAUSTED before its body is read (default
	// DefaultBodyBudget, at least two imports).
	BodyBudget int64
	// SignInBurst failed web sign-ins are allowed per address, then one
	// every SignInEvery, on Clock (defaults 10 and 6 s; auth.SignInLimit).
	SignInBurst int
	SignInEvery time.Duration
	// Lang is the hall's default language for its pages, for a browser
	// that has chosen none and whose languages have no catalogue
	// (package i18n; default English).
	Lang string
}

func (o *Options) defaults() {
	if o.Zone == nil || o.Zone == time.Local {
		o.Zone = MachineZone()
	}
	if o.Clock == nil {
		o.Clock = mono.Real()
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if o.HeartbeatInterval <= 0 {
		o.HeartbeatInterval = time.Second
	}
	if o.DisplayTolerance == 0 {
		o.DisplayTolerance = 100
	}
	if o.CommandWait <= 0 {
		o.CommandWait = 3 * time.Second
	}
	if o.WatchInterval == 0 {
		o.WatchInterval = 50 * time.Millisecond
	}
	if o.HelloTimeout <= 0 {
		o.HelloTimeout = 5 * time.Second
	}
	if o.MaxStreamsPerToken <= 0 {
		o.MaxStreamsPerToken = 64
	}
	if o.MaxDeviceStreams <= 0 {
		o.MaxDeviceStreams = 4
	}
	if o.ReadinessInterval <= 0 {
		o.ReadinessInterval = 2 * time.Second
	}
	if o.ReadinessClock == nil {
		o.ReadinessClock = mono.Real()
	}
	if o.BodyBudget <= 0 {
		o.BodyBudget = DefaultBodyBudget
	}
	o.BodyBudget = max(o.BodyBudget, 2*largeRequests["/hall.v1.Arbiter/ImportRound"])
	if o.KeepaliveTime <= 0 {
		o.KeepaliveTime = 10 * time.Second
	}
	if o.KeepaliveTimeout <= 0 {
		o.KeepaliveTimeout = 20 * time.Second
	}
}

// Server is the hall server.
type Server struct {
	opts     Options
	store    *storage.Store
	clock    mono.Clock
	log      *slog.Logger
	hub      *fanout.Hub
	public   *fanout.DelayLine // the broadcast feeds' hub, delayed; nil without BroadcastDelay
	tokens   *auth.Tokens
	sessions *auth.Sessions
	signIns  *auth.SignInLimit // failed sign-ins per address
	streams  *auth.Streams     // each token's open streams: their limit, their end at revocation
	metrics  *metrics
	codes    hallerr.Codes // errors → gRPC and HTTP statuses, for every handler

	hall *hall.Hall // the boards, the registry of boards, devices and rounds

	ctx    context.Context // cancelled by Shutdown: ends streams
	cancel context.CancelFunc
	wg     sync.WaitGroup // the readiness probe and follower
	ready  readiness      // what readiness was last published

	link    *link.Service    // the clocks' streams
	wslink  *wslink.Handler  // the clocks' streams over WebSocket
	arbiter *arbiter.Service // the arbiters' and the chief's calls
	enrol   *enrol.Links     // tablets' clock links
	lag     link.Lag         // whether the hall is behind its own work
	ingest  *fanout.Ingest   // whether presses wait to be acknowledged
	feeds   *broadcast.Feeds // PGN, relays, display page

	grpc   *grpc.Server
	decode *hallerr.DecodeCheck // the codec's and the door's check of undecodable messages
	calls  *callDoor            // the gRPC door's first look: token and role before a body is read
	health *health.Server
	http   *http.Server
	door   *httpdoor.Door // the HTTP port's limits
}

// New loads the hall from the store (replaying every board) and returns a
// server ready to serve.
func New(ctx context.Context, st *storage.Store, opts Options) (*Server, error) {
	opts.defaults()
	s := &Server{
		opts: opts, store: st, clock: opts.Clock, log: opts.Logger, hub: fanout.NewHub(0),
		ingest:  fanout.NewIngest(opts.IngestBehind),
		streams: auth.NewStreams(opts.MaxStreamsPerToken, opts.MaxDeviceStreams),
	}
	s.codes = hallerr.Codes{Store: storeCode, Fault: storage.IsFault, RetryDelay: opts.FaultRetryDelay}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	s.hub.HoldWith(s.ingest.Hold)
	if opts.BroadcastDelay > 0 {
		s.public = fanout.NewDelayLine(opts.BroadcastDelay, opts.Clock)
		s.public.Hub().HoldWith(s.ingest.Hold)
	}
	var err error
	if s.tokens, err = auth.LoadTokens(ctx, st, func() time.Time { return s.clock.Now() }); err != nil {
		return nil, err
	}
	if s.sessions, err = auth.LoadSessions(ctx, s.tokens, time.Now); err != nil {
		return nil, err
	}
	s.sessions.SetZone(opts.Zone)
	s.signIns = auth.NewSignInLimit(opts.SignInBurst, opts.SignInEvery, s.clock.Now, s.log)
	s.door = httpdoor.New(opts.HTTP, s.credentialed, httpdoor.HealthChecks)
	s.hall, err = hall.Load(ctx, st, hall.Options{Clock: opts.Clock, Logger: opts.Logger,
		DisplayTolerance: opts.DisplayTolerance, PublicRounds: opts.PublicRounds, Sink: hubs{s.hub, s.public}})
	if err != nil {
		return nil, err
	}
	devices := devlink.Options{Hall: s.hall, Clock: s.clock, Logger: s.log, Streams: s.streams,
		Ingest: s.ingest, HeartbeatInterval: opts.HeartbeatInterval, HeartbeatBudget: opts.HeartbeatBudget, HelloTimeout: opts.HelloTimeout,
		Ready: s.Ready, Overloaded: s.overloaded, SchedLatency: s.lag.Last}
	s.link = link.New(s.ctx, devices)
	s.wslink = wslink.New(s.ctx, devices, wslink.Config{Tokens: s.tokens, Codes: s.codes})
	s.calls = newCallDoor(s.tokens, s.codes, opts.BodyBudget)
	s.metrics = s.newMetrics()
	s.feeds = s.newFeeds()
	s.startRelays()
	var public *fanout.Hub
	if s.public != nil {
		public = s.public.Hub()
	}
	// Clock links expire on the wall clock, as sign-in links do.
	s.enrol = &enrol.Links{Store: st, Tokens: s.tokens, Hall: s.hall, Now: time.Now, Log: s.log, Zone: opts.Zone}
	s.arbiter = arbiter.New(arbiter.Options{Hall: s.hall, Store: st, Clock: s.clock, Logger: s.log, Tokens: s.tokens,
		Sessions: s.sessions, Streams: s.streams, Feeds: s.feeds, Codes: s.codes, Live: s.hub, Public: public,
		CommandWait: opts.CommandWait, BroadcastDelay: opts.BroadcastDelay, Bodies: &s.calls.bodies, Zone: opts.Zone, Enrol: s.enrol})
	s.grpc = s.newGRPC()
	s.metrics.grpc.InitializeMetrics(s.grpc)
	mux := http.NewServeMux()
	s.routes(mux)
	s.http = &http.Server{Handler: mux, ConnContext: fanout.ConnContext}
	s.door.Configure(s.http)
	if opts.TLS != nil {
		s.http.TLSConfig = opts.TLS.Clone()
	}
	s.wg.Add(2)
	go s.watchReadiness()
	go s.followReadiness()
	go s.lag.Watch(s.ctx, s.clock, 6*opts.HeartbeatInterval, s.ingest.Sample)
	return s, nil
}

// Hub returns the server's fan-out hub (live).
func (s *Server) Hub() *fanout.Hub { return s.hub }

// hubFor returns the hub an identity watches: broadcast feeds watch the
// delayed one.
func (s *Server) hubFor(id *auth.Identity) *fanout.Hub {
	v := fanout.Views{Live: s.hub}
	if s.public != nil {
		v.Delayed = s.public.Hub()
	}
	return v.For(id == nil || id.Live())
}

// Tokens returns the server's credentials.
func (s *Server) Tokens() *auth.Tokens { return s.tokens }

// Sessions returns the server's web sign-ins.
func (s *Server) Sessions() *auth.Sessions { return s.sessions }

// MaxRequestBytes is the largest request the gRPC door takes: an
// import's files at their limit, and room for the rest of the request.
const MaxRequestBytes = pb.MaxImportBytes + 1<<20

func (s *Server) newGRPC() *grpc.Server {
	s.decode = hallerr.NewDecodeCheck(fanout.Codec()).WithLimit(requestLimit,
		fmt.Sprintf("; only an import (ImportRound) takes more, up to %s", pb.Bytes(MaxRequestBytes)))
	opts := []grpc.ServerOption{
		// Token and role from the headers, before the body is read
		// (door.go).
		grpc.InTapHandle(s.calls.tap),
		grpc.KeepaliveParams(keepalive.ServerParameters{Time: s.opts.KeepaliveTime, Timeout: s.opts.KeepaliveTimeout}),
		grpc.KeepaliveEnforcementPolicy(keepalive.EnforcementPolicy{MinTime: time.Second, PermitWithoutStream: true}),
		// Static windows: with thousands of streams, BDP probing costs more
		// than it gives (notes/machine-limits.md).
		grpc.InitialWindowSize(1 << 20),
		grpc.InitialConnWindowSize(1 << 20),
		// Watch updates are encoded once for all their watchers; what
		// is not protobuf is refused at the door (hallerr.DecodeCheck).
		grpc.ForceServerCodecV2(s.decode.Codec()),
		// An imported round's files may be MaxImportBytes: the request
		// reaches ImportRound, which says how large they are and what it
		// takes, instead of gRPC's bare RESOURCE_EXHAUSTED at 4 MiB. Any
		// other request is refused above its own limit (requestLimit).
		grpc.MaxRecvMsgSize(MaxRequestBytes),
	}
	if s.opts.TLS != nil {
		opts = append(opts, grpc.Creds(credentials.NewTLS(s.opts.TLS)))
	}
	opts = append(opts, s.interceptors()...)
	g := grpc.NewServer(opts...)
	pb.RegisterClockLinkServer(g, s.link)
	pb.RegisterArbiterServer(g, s.arbiter)
	pb.RegisterWatchServer(g, &watchService{s: s})
	pb.RegisterAdminServer(g, s.arbiter.Admin())
	s.health = health.NewServer()
	for _, name := range healthNames {
		s.health.SetServingStatus(name, healthpb.HealthCheckResponse_SERVING)
	}
	healthpb.RegisterHealthServer(g, healthService{Server: s.health, s: s})
	reflection.Register(g)
	s.calls.serves(g)
	return g
}

// ServeGRPC serves gRPC on l until Shutdown.
func (s *Server) ServeGRPC(l net.Listener) error {
	err := s.grpc.Serve(l)
	if errors.Is(err, grpc.ErrServerStopped) {
		return nil
	}
	return err
}

// ServeHTTP serves the HTTP endpoints (/healthz, ...) on l until Shutdown:
// over TLS, with the gRPC port's certificate, when Options.TLS is set;
// its connections counted and admitted by the door (Options.HTTP).
func (s *Server) ServeHTTP(l net.Listener) error {
	l = s.door.Listen(l)
	var err error
	if s.http.TLSConfig != nil {
		err = s.http.ServeTLS(l, "", "")
	} else {
		err = s.http.Serve(l)
	}
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

// Shutdown stops the server: health turns NOT_SERVING, streams end (their
// contexts are cancelled), in-flight calls get up to grace to finish, then
// everything stops. It does not close the store.
func (s *Server) Shutdown(grace time.Duration) {
	s.health.Shutdown()
	s.cancel()
	s.hall.Stop()
	s.feeds.Close()
	s.hub.Close()
	if s.public != nil {
		s.public.Close()
	}
	done := make(chan struct{})
	go func() {
		s.grpc.GracefulStop()
		close(done)
	}()
	t := time.NewTimer(grace)
	select {
	case <-done:
	case <-t.C:
		s.grpc.Stop()
		<-done
	}
	t.Stop()
	hctx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	_ = s.http.Shutdown(hctx)
	s.wslink.Wait() // hijacked: the HTTP server does not wait for them
	s.wg.Wait()
	s.hall.Wait()
}

// overloaded reports whether the hall is behind its own work: the
// Overloaded option's answer, else the scheduling latency's (link.Lag).
func (s *Server) overloaded() bool {
	if s.opts.Overloaded != nil {
		return s.opts.Overloaded()
	}
	return s.lag.Behind(s.clock)
}

// GRPC returns the gRPC server, for tests that serve it on their own listener.
func (s *Server) GRPC() *grpc.Server { return s.grpc }
