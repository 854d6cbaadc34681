package link

import (
	"context"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/chesshall/hallclock/internal/mono"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/server/auth"
	"github.com/chesshall/hallclock/server/fanout"
	"github.com/chesshall/hallclock/server/hall"
)

// Options configure the ClockLink service. Every field is required but
// Logger.
type Options struct {
	Hall    *hall.Hall
	Clock   mono.Clock
	Logger  *slog.Logger
	Streams *auth.Streams  // revoking a device's token cuts its link
	Ingest  *fanout.Ingest // told how long each event took to be acknowledged
	// HeartbeatInterval is the shortest interval between a device's
	// heartbeats, named in the Welcome of a hall of up to HeartbeatBudget
	// clocks; a larger fleet is told to beat less often (heartbeat.go). A
	// device silent for three intervals (at the shortest; two at the
	// longest) is taken offline.
	HeartbeatInterval time.Duration
	// HeartbeatBudget is how many clocks may beat every HeartbeatInterval
	// (0: DefaultHeartbeatBudget; negative: no limit, every clock beats
	// every HeartbeatInterval).
	HeartbeatBudget int
	// HelloTimeout is how long a stream may stay open without its Hello
	// (real time).
	HelloTimeout time.Duration
	// Ready says whether the hall can take events (nil) or what is wrong:
	// a device is asked to come back later instead.
	Ready func() error
	// Overloaded says whether the hall is behind its own work (Lag): while
	// it is, no clock is cut for silence.
	Overloaded func() bool
	// SchedLatency is the last p99 scheduling latency, for the log.
	SchedLatency func() time.Duration
}

// Service implements the ClockLink service: one bidirectional stream per
// connected clock.
type Service struct {
	pb.UnsafeClockLinkServer
	hall     *hall.Hall
	clock    mono.Clock
	log      *slog.Logger
	streams  *auth.Streams
	ingest   *fanout.Ingest
	opts     Options
	ctx      context.Context // done at shutdown: every link ends
	counters counters
}

// New returns the service; ctx ends every link (shutdown).
func New(ctx context.Context, opts Options) *Service {
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.HeartbeatBudget == 0 {
		opts.HeartbeatBudget = DefaultHeartbeatBudget
	}
	return &Service{hall: opts.Hall, clock: opts.Clock, log: opts.Logger, streams: opts.Streams,
		ingest: opts.Ingest, opts: opts, ctx: ctx}
}

// Stats are the service's counters since it started, with what became
// of the devices' events (the hall's sessions).
type Stats struct {
	Connects      uint64 // device streams welcomed
	Received      uint64 // device messages received (events, heartbeats), counted as they arrive
	EventsApplied uint64 // device events applied and committed
	Rejected      uint64 // device events refused (committed to the audit log)
	Duplicates    uint64 // device events dropped as already received, re-acknowledged
	Gaps          uint64 // streams ended because a sequence number was skipped
	// LateWatchdogs counts silence checks that ran more than a heartbeat
	// interval late (the hall overloaded): the device got more time.
	LateWatchdogs uint64
	// SilenceCuts counts links cut because their device sent nothing for
	// heartbeat intervals (three at 1 s, two at longer ones).
	SilenceCuts uint64
}

type counters struct {
	connects, received, lateWatchdogs, silenceCuts atomic.Uint64
}

// Stats returns a snapshot of the counters.
func (s *Service) Stats() Stats {
	c := &s.counters
	e := s.hall.SessionStats()
	return Stats{Connects: c.connects.Load(), Received: c.received.Load(), EventsApplied: e.Applied, Rejected: e.Rejected,
		Duplicates: e.Duplicates, Gaps: e.Gaps, LateWatchdogs: c.lateWatchdogs.Load(),
		SilenceCuts: c.silenceCuts.Load()}
}
