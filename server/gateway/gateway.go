// Package gateway serves a hall's read-only feeds — Watch over gRPC,
// server-sent events, PGN with the broadcast delay, the display pages —
// from the hall's event stream in NATS JetStream instead of from the
// hall: a gateway is a stateless follower, so more viewers means more
// gateways and never more load on the hall. One gateway can follow many
// halls (every stream under hall.>) and shows them all on one read-only
// federation page.
//
// # Usage
//
//	nc, _ := nats.Connect(urls, nats.MaxReconnects(-1))
//	g, err := gateway.New(gateway.Options{Conn: nc})   // every hall; Halls: []string{"bergen"} for one
//	go g.Run(ctx)              // follows the streams until ctx ends
//	go g.ServeGRPC(grpcListener)
//	go g.ServeHTTP(httpListener)
//	...
//	g.Shutdown(5 * time.Second)
//
// # Following a hall
//
// For each hall, an ordered consumer reads the stream HALL_<hall> from its
// first message (the gateway keeps nothing on disk: a restart reads the
// hall's day again, quickly) and resumes by stream sequence after a NATS
// node or the connection fails. The consumer is ephemeral and made on
// JetStream's legacy ephemeral subject (ordered.go), so that the gateways'
// NATS user needs no right to manage consumers. The records (tournaments,
// rounds, boards, broadcast tokens, the hall's settings) and each board's
// events (package hallstream) are folded through the rules exactly as the
// hall folds them, so a board's state on a gateway is the hall's:
// the same BoardState as the hall's watchers get, with the same hall-wide
// change numbers (a watcher resumes on a gateway with the from_seq it had
// on the hall, or on another gateway), except what only the hall knows —
// whether its clock device is connected, arbiter commands pending,
// alerts. GET /readyz is ready once every hall followed has been read to
// the end of its stream.
//
// # Only the hall's messages
//
// A gateway applies only what the hall wrote: every message must carry
// the hall's signature (hallstream format 2), by the key pinned for it
// (Options.Keys) or, with none pinned, by the key of the first signed
// message read (trust on first use), or by a key that key endorsed when
// the hall rotated it. Anything else — unsigned (unless
// Options.AllowUnsigned, and then only until the hall's first signed
// message), a signature that does not match, another key — is refused,
// counted (hall_gateway_refused_total) and logged, and the gateway goes
// on after it. A message the hall wrote but numbered (its outbox row,
// under the signature) no higher than the last applied is a replay:
// refused, counted (hall_gateway_replayed_total) and logged (replay.go).
// A message marked Hall-Start after others, numbered above them (the
// hall restored from a backup started its stream again), replaces what
// the gateway had of the hall: its watchers are cut, reconnect, and see
// the hall as the stream brings it anew.
//
// # Who sees what
//
// Nobody sees a hall live on a gateway: every feed shows it with its
// broadcast delay (the hall's, announced in its stream, or Options.Delay
// if longer). A round the chief arbiter made public (or every round of a
// hall that says so, as the demo does) needs no credentials. Any other
// round needs one of the hall's broadcast tokens, sent as
// "Authorization: Bearer <token>" (gRPC metadata "authorization" alike):
// the hall publishes the SHA-256 of each broadcast token and each
// revocation to its stream, and the gateway checks a token against them
// offline (a token of one hall reads that hall's rounds only). Watching a
// whole hall (WatchHall, /api/watch without ?round= or ?board=) needs a
// token unless every round of the hall is public. Arbiters' and devices'
// tokens are never published: gateways serve only what the public and
// relays may read.
//
// # Endpoints
//
// gRPC: the Watch service (WatchBoard, WatchRound, WatchHall with
// WatchHallRequest.hall naming the hall when the gateway follows several).
// HTTP: /api/pgn/round/{round}, /api/pgn/board/{board},
// /display/round/{round}, /api/display/round/{round}[/live] (package
// broadcast, as on the hall), /api/watch (server-sent events of
// WatchUpdate, ?hall=, ?round=, ?board=, resumed with Last-Event-ID), /
// and /api/federation (every hall's rounds, boards and results),
// /api/following (whether the gateway follows, and if not why: also said
// in its log, state.go), /metrics, /healthz, /readyz.
package gateway

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/prometheus/client_golang/prometheus"
	"google.golang.org/grpc"
	"google.golang.org/grpc/encoding"
	"google.golang.org/grpc/keepalive"
	"google.golang.org/grpc/reflection"

	"github.com/chesshall/hallclock/formats/hallstream"
	"github.com/chesshall/hallclock/internal/mono"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/server/fanout"
	"github.com/chesshall/hallclock/server/hallerr"
	"github.com/chesshall/hallclock/server/httpdoor"
)

// Options configure a Gateway. Conn is required.
type Options struct {
	Conn *nats.Conn
	// Halls lists the halls to follow; empty: every hall whose stream the
	// NATS account has (found under hall.>, looked for every
	// DiscoverEvery).
	Halls         []string
	DiscoverEvery time.Duration // default 2 s
	// Delay is the least broadcast delay the gateway shows any hall with;
	// a hall's own delay applies if it is longer.
	Delay time.Duration
	// WatchInterval is the least time between two updates to one watcher
	// (default 100 ms, as on the hall).
	WatchInterval time.Duration
	// Keys pins halls' signing keys, by hall id: a hall's messages must
	// be signed by one of its keys (or a key it endorsed). A hall not
	// listed trusts the key of its first signed message.
	Keys map[string][]ed25519.PublicKey
	// AllowUnsigned reads unsigned messages (a hall that did not sign
	// yet) until a hall's first signed one; otherwise they are refused.
	AllowUnsigned bool
	Clock         mono.Clock // default mono.Real()
	Logger        *slog.Logger
	// HTTP bounds the HTTP port as on the hall (package httpdoor): a
	// broadcast token of a followed hall makes a connection trusted.
	HTTP httpdoor.Limits
	// Lang is the pages' default language (package i18n; default English).
	Lang string
}

// Gateway follows halls' streams and serves their read-only feeds.
type Gateway struct {
	opts    Options
	clock   mono.Clock
	log     *slog.Logger
	js      jetstream.JetStream
	reg     *prometheus.Registry
	metrics *gatewayMetrics

	ctx    context.Context // cancelled by Shutdown: ends followers and streams
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu    sync.Mutex
	halls map[string]*hall

	state followState // why it cannot follow, if it cannot (state.go)

	grpc *grpc.Server
	http *http.Server
	door *httpdoor.Door
}

// New returns a gateway; Run follows the halls, ServeGRPC and ServeHTTP
// serve them.
func New(opts Options) (*Gateway, error) {
	if opts.Conn == nil {
		return nil, errors.New("gateway: a NATS connection is required")
	}
	if opts.DiscoverEvery <= 0 {
		opts.DiscoverEvery = 2 * time.Second
	}
	if opts.WatchInterval == 0 {
		opts.WatchInterval = 100 * time.Millisecond
	}
	if opts.Clock == nil {
		opts.Clock = mono.Real()
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	js, err := jetstream.New(opts.Conn)
	if err != nil {
		return nil, fmt.Errorf("gateway: %w", err)
	}
	g := &Gateway{opts: opts, clock: opts.Clock, log: opts.Logger, js: js, halls: map[string]*hall{}}
	g.ctx, g.cancel = context.WithCancel(context.Background())
	g.door = httpdoor.New(opts.HTTP, g.credentialed, httpdoor.HealthChecks)
	g.reg = g.newMetrics()
	// A request that is not protobuf is INVALID_ARGUMENT, as at the hall.
	decode := hallerr.NewDecodeCheck(encoding.GetCodecV2("proto"))
	g.grpc = grpc.NewServer(
		grpc.KeepaliveParams(keepalive.ServerParameters{Time: 10 * time.Second, Timeout: 5 * time.Second}),
		grpc.KeepaliveEnforcementPolicy(keepalive.EnforcementPolicy{MinTime: time.Second, PermitWithoutStream: true}),
		grpc.InitialWindowSize(1<<20), grpc.InitialConnWindowSize(1<<20),
		grpc.ForceServerCodecV2(decode.Codec()),
		grpc.ChainUnaryInterceptor(refusals.UnaryServerInterceptor(), decode.UnaryServerInterceptor()),
		grpc.ChainStreamInterceptor(refusals.StreamServerInterceptor(), decode.StreamServerInterceptor()))
	pb.RegisterWatchServer(g.grpc, &watchService{g: g})
	reflection.Register(g.grpc)
	mux := http.NewServeMux()
	g.routes(mux)
	g.http = &http.Server{Handler: mux, ConnContext: fanout.ConnContext}
	g.door.Configure(g.http)
	return g, nil
}

// Run follows the halls until ctx is cancelled (or Shutdown), then waits
// for the followers to stop.
func (g *Gateway) Run(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stop := context.AfterFunc(g.ctx, cancel)
	defer stop()
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		g.watchConn(ctx)
	}()
	for _, id := range g.opts.Halls {
		g.startFollowing(ctx, id)
	}
	if len(g.opts.Halls) == 0 {
		for {
			g.discover(ctx)
			t := time.NewTimer(g.opts.DiscoverEvery)
			select {
			case <-ctx.Done():
				t.Stop()
			case <-t.C:
				continue
			}
			break
		}
	}
	<-ctx.Done()
	g.wg.Wait()
	return nil
}

// discover follows every hall stream not followed yet.
func (g *Gateway) discover(ctx context.Context) {
	if !g.opts.Conn.IsConnected() {
		return // watchConn says why
	}
	cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	names := g.js.StreamNames(cctx, jetstream.WithStreamListSubject(hallstream.AllHalls))
	for name := range names.Name() {
		if id, ok := strings.CutPrefix(name, "HALL_"); ok && hallstream.StreamName(id) == name {
			g.startFollowing(ctx, id)
		}
	}
	err := names.Err()
	if ctx.Err() != nil || (err != nil && !g.opts.Conn.IsConnected()) {
		return
	}
	g.update(func(s *followState) {
		s.discover = ""
		if err != nil {
			s.discover = "listing the halls' streams (hall.>): " + err.Error()
		}
	})
}

func (g *Gateway) startFollowing(ctx context.Context, id string) {
	g.mu.Lock()
	if _, ok := g.halls[id]; ok {
		g.mu.Unlock()
		return
	}
	h := newHall(g, id)
	g.halls[id] = h
	g.mu.Unlock()
	g.log.Info("gateway: following hall", "hall", id, "stream", hallstream.StreamName(id))
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		g.follow(ctx, h)
	}()
}

// restartHall replaces a hall whose stream started it again (a message
// marked Hall-Start after others: the hall was restored from a backup and
// publishes itself whole): the old one's watchers are cut and reconnect
// to the new one, which reads the stream on from there with the same
// trust in the hall's keys.
func (g *Gateway) restartHall(old *hall) *hall {
	h := newHall(g, old.id)
	h.trust, h.order = old.trust, old.order
	old.mu.Lock()
	h.streamSeq = old.streamSeq
	old.mu.Unlock()
	g.mu.Lock()
	g.halls[old.id] = h
	g.mu.Unlock()
	old.close()
	g.log.Warn("gateway: the hall started its stream again (restored from a backup?): reading it anew; its watchers reconnect", "hall", old.id)
	return h
}

// hallList returns the halls followed, by id.
func (g *Gateway) hallList() []*hall {
	g.mu.Lock()
	defer g.mu.Unlock()
	out := make([]*hall, 0, len(g.halls))
	for _, h := range g.halls {
		out = append(out, h)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].id < out[j].id })
	return out
}

// Halls returns the ids of the halls followed.
func (g *Gateway) Halls() []string {
	var ids []string
	for _, h := range g.hallList() {
		ids = append(ids, h.id)
	}
	return ids
}

// Ready reports whether every hall followed (at least one) has been read
// to the end of its stream once.
func (g *Gateway) Ready() bool {
	hs := g.hallList()
	if len(hs) == 0 {
		return false
	}
	for _, h := range hs {
		h.mu.Lock()
		ok := h.caughtUp
		h.mu.Unlock()
		if !ok {
			return false
		}
	}
	return true
}

// Progress returns, for a hall followed, the last stream sequence applied
// and the hall's last change number (seq) applied.
func (g *Gateway) Progress(hallID string) (streamSeq, hallSeq uint64, ok bool) {
	g.mu.Lock()
	h := g.halls[hallID]
	g.mu.Unlock()
	if h == nil {
		return 0, 0, false
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.streamSeq, h.lastSeq, true
}

// hallByID returns a hall followed.
func (g *Gateway) hallByID(id string) *hall {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.halls[id]
}

// hallOfRound finds the hall holding a round (ids are the halls' own,
// random: two halls never share one).
func (g *Gateway) hallOfRound(roundID string) *hall {
	for _, h := range g.hallList() {
		h.mu.Lock()
		_, ok := h.rounds[roundID]
		h.mu.Unlock()
		if ok {
			return h
		}
	}
	return nil
}

// hallOfBoard finds the hall holding a board, with the board's round.
func (g *Gateway) hallOfBoard(boardID string) (*hall, string) {
	for _, h := range g.hallList() {
		h.mu.Lock()
		b, ok := h.boards[boardID]
		h.mu.Unlock()
		if ok {
			return h, b.rec.RoundID
		}
	}
	return nil, ""
}

// ServeGRPC serves the Watch service on l until Shutdown.
func (g *Gateway) ServeGRPC(l net.Listener) error {
	err := g.grpc.Serve(l)
	if errors.Is(err, grpc.ErrServerStopped) {
		return nil
	}
	return err
}

// ServeHTTP serves the feeds and pages on l until Shutdown, its
// connections counted and admitted by the door (Options.HTTP).
func (g *Gateway) ServeHTTP(l net.Listener) error {
	err := g.http.Serve(g.door.Listen(l))
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

// Shutdown stops following, ends open streams, lets calls finish for up
// to grace, then stops.
func (g *Gateway) Shutdown(grace time.Duration) {
	g.cancel()
	for _, h := range g.hallList() {
		h.close()
	}
	done := make(chan struct{})
	go func() {
		g.grpc.GracefulStop()
		close(done)
	}()
	t := time.NewTimer(grace)
	select {
	case <-done:
	case <-t.C:
		g.grpc.Stop()
		<-done
	}
	t.Stop()
	hctx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	_ = g.http.Shutdown(hctx)
	g.wg.Wait()
}

// followsOne reports the hall when the gateway follows exactly one.
func (g *Gateway) followsOne() *hall {
	hs := g.hallList()
	if len(hs) == 1 {
		return hs[0]
	}
	return nil
}

// hallNamed returns the hall a request names, or the only one followed.
func (g *Gateway) hallNamed(id string) (*hall, error) {
	if id == "" {
		if h := g.followsOne(); h != nil {
			return h, nil
		}
		return nil, fmt.Errorf("%w: name the hall: this gateway follows %s", errBadRequest, strings.Join(g.Halls(), ", "))
	}
	if h := g.hallByID(id); h != nil {
		return h, nil
	}
	return nil, fmt.Errorf("%w: hall %q: not followed by this gateway (it follows %s)", errNotFound, id, strings.Join(g.Halls(), ", "))
}

// BoardState returns the latest state of a board of a hall followed, as
// the hall committed it (not delayed), with the hall's change number.
func (g *Gateway) BoardState(hallID, boardID string) (*pb.BoardState, uint64, bool) {
	h := g.hallByID(hallID)
	if h == nil {
		return nil, 0, false
	}
	return h.live.State(boardID)
}
