package arbiter

import (
	"log/slog"
	"net/http"
	"time"

	"github.com/chesshall/hallclock/internal/mono"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/server/auth"
	"github.com/chesshall/hallclock/server/broadcast"
	"github.com/chesshall/hallclock/server/enrol"
	"github.com/chesshall/hallclock/server/fanout"
	"github.com/chesshall/hallclock/server/hall"
	"github.com/chesshall/hallclock/server/hallerr"
	"github.com/chesshall/hallclock/storage"
)

// Options configure the Arbiter and Admin services. Every field is
// required but Logger and Public.
type Options struct {
	Hall     *hall.Hall
	Store    *storage.Store
	Clock    mono.Clock
	Logger   *slog.Logger
	Tokens   *auth.Tokens
	Sessions *auth.Sessions // the web pages' callers
	Streams  *auth.Streams  // a revoked token's streams are cut
	Feeds    *broadcast.Feeds
	Codes    hallerr.Codes // the HTTP statuses of refusals
	// Live is the hall's hub (the rounds' tallies); Public what broadcast
	// tokens see (the hub behind the broadcast delay; nil: Live).
	Live, Public *fanout.Hub
	// CommandWait is how long BoardAction waits for the device by default.
	CommandWait time.Duration
	// BroadcastDelay is how late broadcast tokens and public rounds see
	// the hall (told with each round's broadcast settings).
	BroadcastDelay time.Duration
	// Zone is the hall's time zone, told with the audit and the sign-in
	// links (its IANA name); nil: UTC.
	Zone *time.Location
	// Bodies, if set, is the budget of request bodies being read that the
	// gRPC door's imports share: an import through the web pages' bridge
	// holds its room in it while it is read and run.
	Bodies Budget
	// Enrol makes the clock links of tablets (IssueClockLink).
	Enrol *enrol.Links
}

// Budget is a semaphore of bytes that never waits.
type Budget interface {
	TryAcquire(n int64) bool
	Release(n int64)
}

// Service implements the Arbiter service (and, through Admin, the Admin
// service) over the hall: requests are checked (roles at the door,
// sections here), turned into the hall's operations and answered in the
// contract's words.
type Service struct {
	pb.UnsafeArbiterServer
	hall     *hall.Hall
	store    *storage.Store
	clock    mono.Clock
	log      *slog.Logger
	tokens   *auth.Tokens
	sessions *auth.Sessions
	streams  *auth.Streams
	feeds    *broadcast.Feeds
	codes    hallerr.Codes
	hub      *fanout.Hub
	public   *fanout.Hub // nil without a broadcast delay
	opts     Options
}

// New returns the services.
func New(opts Options) *Service {
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	return &Service{hall: opts.Hall, store: opts.Store, clock: opts.Clock, log: opts.Logger, tokens: opts.Tokens,
		sessions: opts.Sessions, streams: opts.Streams, feeds: opts.Feeds, codes: opts.Codes,
		hub: opts.Live, public: opts.Public, opts: opts}
}

// zoneName is the IANA name of the hall's time zone.
func (a *Service) zoneName() string {
	if a.opts.Zone == nil {
		return "UTC"
	}
	return a.opts.Zone.String()
}

// Admin returns the Admin service (backups).
func (a *Service) Admin() pb.AdminServer { return &Admin{s: a} }

// Routes registers the services' HTTP endpoints for the web pages: the
// Arbiter service as JSON (POST /api/arbiter/{method}), the boards
// (GET /api/boards), the rounds' broadcasts (GET /api/broadcasts) and the
// chief's backup (GET /api/backup).
func (a *Service) Routes(mux *http.ServeMux) {
	mux.HandleFunc("POST /api/arbiter/{method}", a.serveJSON)
	mux.HandleFunc("GET /api/boards", a.serveBoards)
	mux.HandleFunc("GET /api/broadcasts", a.serveBroadcasts)
	mux.HandleFunc("GET /api/backup", a.serveBackup)
}
