package devlink

import (
	"context"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/chesshall/hallclock/internal/mono"
	"github.com/chesshall/hallclock/server/auth"
	"github.com/chesshall/hallclock/server/fanout"
	"github.com/chesshall/hallclock/server/hall"
)

// Options configure a Door. Every field is required but Logger.
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

// Door serves device streams of one transport: each transport (gRPC,
// WebSocket) has its own, so that each counts its own streams.
type Door struct {
	hall     *hall.Hall
	clock    mono.Clock
	log      *slog.Logger
	streams  *auth.Streams
	ingest   *fanout.Ingest
	opts     Options
	ctx      context.Context // done at shutdown: every link ends
	counters counters
}

// New returns a door; ctx ends every link (shutdown).
func New(ctx context.Context, opts Options) *Door {
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.HeartbeatBudget == 0 {
		opts.HeartbeatBudget = DefaultHeartbeatBudget
	}
	return &Door{hall: opts.Hall, clock: opts.Clock, log: opts.Logger, streams: opts.Streams,
		ingest: opts.Ingest, opts: opts, ctx: ctx}
}

// Stats are a door's counters since it started, with what became of the
// devices' events (the hall's sessions, whatever their transport).
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
func (d *Door) Stats() Stats {
	c := &d.counters
	e := d.hall.SessionStats()
	return Stats{Connects: c.connects.Load(), Received: c.received.Load(), EventsApplied: e.Applied, Rejected: e.Rejected,
		Duplicates: e.Duplicates, Gaps: e.Gaps, LateWatchdogs: c.lateWatchdogs.Load(),
		SilenceCuts: c.silenceCuts.Load()}
}
