package broadcast

import (
	"context"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/chesshall/hallclock/internal/mono"
)

// Viewer is who reads a feed, as the hall's door tells it.
type Viewer struct {
	// Live: the hall as it is, with the reasons the arbiters gave for
	// their rulings (arbiters). Otherwise the broadcast delay applies and
	// the rulings come without the arbiter's words (broadcast tokens, and
	// everyone on a public round).
	Live bool
	// Sections limits the reader to these sections; empty: all.
	Sections []string
}

// Options configure the feeds. Source is required.
type Options struct {
	Source Source
	// Clock is the wall clock the events' Wall times are on (the hall's
	// clock; default mono.Real()). The delay cuts the logs by it, and the
	// relays' backoff waits on it.
	Clock mono.Clock
	// Delay is the broadcast delay: everyone but live viewers sees the
	// round as it was Delay ago, nothing newer. 0: no delay.
	Delay time.Duration
	// Authenticate reads a request's credentials: ok is false (with a nil
	// error) when the request carries none, so a public round can be read
	// without. An error refuses the request (a bad or revoked token).
	// Default: no request carries credentials.
	Authenticate func(r *http.Request) (v Viewer, ok bool, err error)
	// Error writes an error response (the hall maps errors to statuses in
	// one place). Default: 404 for ErrNotFound, 401 for ErrNotPublic, 500.
	Error func(w http.ResponseWriter, err error)
	// SignIn is where the display page sends a person to sign in when the
	// round is not public ("" shows no link).
	SignIn string
	// Registerer receives the feeds' metrics (default: none kept).
	Registerer prometheus.Registerer
	Logger     *slog.Logger
	// Relay: how pushes to relays are made and retried.
	Relay RelayOptions
	// Standings computes the standings feed (nil: none served).
	Standings StandingsSource
}

// Feeds serves a hall's rounds to broadcasters and spectators: the PGN of
// each round and board, polled (with ETags) or pushed to relays, and the
// display page for the hall's screens. See the package documentation.
type Feeds struct {
	opts    Options
	src     Source
	clock   mono.Clock
	log     *slog.Logger
	metrics *metrics

	ctx    context.Context // cancelled by Close: ends streams and relays
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu     sync.Mutex
	rounds map[string]*roundCache
	relays map[string]*relay
}

// New returns the feeds of a source.
func New(opts Options) *Feeds {
	if opts.Clock == nil {
		opts.Clock = mono.Real()
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.Authenticate == nil {
		opts.Authenticate = func(*http.Request) (Viewer, bool, error) { return Viewer{}, false, nil }
	}
	if opts.Error == nil {
		opts.Error = defaultError
	}
	opts.Relay.defaults()
	f := &Feeds{opts: opts, src: opts.Source, clock: opts.Clock, log: opts.Logger,
		rounds: map[string]*roundCache{}, relays: map[string]*relay{}}
	f.ctx, f.cancel = context.WithCancel(context.Background())
	f.metrics = newMetrics(f, opts.Registerer)
	return f
}

// Routes registers the feeds' endpoints on mux:
//
//	GET /api/pgn/round/{round}          the round's games as one PGN document
//	GET /api/pgn/board/{board}          one board's game
//	GET /display/round/{round}          the display page for the hall's screens
//	GET /api/display/round/{round}      what the page shows, as JSON
//	GET /api/display/round/{round}/live the same as server-sent events, at each change
//	GET /api/standings/{tournament}      a tournament's standings, JSON (?section=S)
//	GET /api/standings/{tournament}/live the same as server-sent events, at each change
//	GET /standings/{tournament}          the standings page (every row)
//	GET /display/standings/{tournament}  the standings for the hall's screens (fitted, paging)
func (f *Feeds) Routes(mux *http.ServeMux) {
	mux.HandleFunc("GET /api/pgn/round/{round}", f.servePGNRound)
	mux.HandleFunc("GET /api/pgn/board/{board}", f.servePGNBoard)
	mux.HandleFunc("GET /display/round/{round}", f.serveDisplayPage)
	mux.HandleFunc("GET /api/display/round/{round}", f.serveDisplayJSON)
	mux.HandleFunc("GET /api/display/round/{round}/live", f.serveDisplayLive)
	mux.HandleFunc("GET /api/standings/{tournament}", f.serveStandingsJSON)
	mux.HandleFunc("GET /api/standings/{tournament}/live", f.serveStandingsLive)
	mux.HandleFunc("GET /standings/{tournament}", f.serveStandingsPage)
	mux.HandleFunc("GET /display/standings/{tournament}", f.serveStandingsPage)
}

// Close stops the relays and ends the open display streams.
func (f *Feeds) Close() {
	f.cancel()
	f.wg.Wait()
}

// Delay returns the broadcast delay.
func (f *Feeds) Delay() time.Duration { return f.opts.Delay }
