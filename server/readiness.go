package server

import (
	"context"
	"net/http"
	"sync"
	"time"

	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	"github.com/chesshall/hallclock/server/hallerr"
)

// Liveness and readiness. /healthz answers while the process serves (a
// restart will not help a server that cannot write). Readiness — /readyz
// and the gRPC health service's status — says whether the hall can take
// events: the store commits (its last commit succeeded, no write has
// waited longer than the store's StallAfter for its commit, its disk has
// space and is writable) and the server is not shutting down. While the
// hall is idle a probe commits a one-row write every ReadinessInterval,
// so a full disk is seen before the next press is lost to it.
//
// Whoever looks at readiness — /readyz, a gRPC health check, the probe,
// the follower below — publishes what it saw: the gRPC health status
// changes at once, and each change is one log line. The follower looks
// whenever the store says its health changed (a commit failed, or
// succeeded after failures, or a stall ended) and when the write it is
// committing would count as stalled: a disk that does not answer fails
// nothing, so only the time its oldest write has waited tells.

// Ready returns nil if the hall can take events, else what is wrong.
func (s *Server) Ready() error {
	if s.ctx.Err() != nil {
		return hallerr.ErrShuttingDown
	}
	return s.store.Health()
}

// readiness is what was last published.
type readiness struct {
	mu       sync.Mutex
	notReady bool
	since    time.Time // on the readiness clock, when it turned not ready
}

// checkReady looks at readiness, publishes it if it changed, and returns it.
// It looks under the lock, so that what is published last is what was
// seen last.
func (s *Server) checkReady() error {
	s.ready.mu.Lock()
	defer s.ready.mu.Unlock()
	err := s.Ready()
	if s.ctx.Err() != nil {
		return err // Shutdown says NOT_SERVING itself
	}
	if (err != nil) == s.ready.notReady {
		return err
	}
	s.ready.notReady = err != nil
	st := healthpb.HealthCheckResponse_SERVING
	if err != nil {
		st = healthpb.HealthCheckResponse_NOT_SERVING
		s.ready.since = s.opts.ReadinessClock.Now()
		s.log.Error("not ready: the hall cannot commit events", "err", err)
	} else {
		s.log.Info("ready again: the store commits", "not_ready_for", s.opts.ReadinessClock.Since(s.ready.since).Round(time.Millisecond))
	}
	for _, name := range healthNames {
		s.health.SetServingStatus(name, st)
	}
	return err
}

// watchReadiness probes the store every ReadinessInterval (real time)
// and publishes what it finds, until shutdown.
func (s *Server) watchReadiness() {
	defer s.wg.Done()
	t := time.NewTicker(s.opts.ReadinessInterval)
	defer t.Stop()
	for {
		ctx, cancel := context.WithTimeout(s.ctx, s.opts.ReadinessInterval+5*time.Second)
		_ = s.store.Probe(ctx, s.opts.ReadinessInterval)
		cancel()
		if s.ctx.Err() != nil {
			return
		}
		s.checkReady()
		select {
		case <-s.ctx.Done():
			return
		case <-t.C:
		}
	}
}

// followReadiness publishes readiness as soon as it changes, until
// shutdown: when the store says so, and when a write waiting for its
// commit turns stalled. It looks at least every StallAfter (or
// ReadinessInterval, if shorter), so it sees every waiting write before
// it stalls, and then wakes at the moment it would.
func (s *Server) followReadiness() {
	defer s.wg.Done()
	clock := s.opts.ReadinessClock
	every := min(s.opts.ReadinessInterval, s.store.StallAfter())
	tick := make(chan struct{}, 1)
	for {
		s.checkReady()
		wait := every
		if in, ok := s.store.StallIn(); ok && in > 0 && in < wait {
			wait = in
		}
		t := clock.AfterFunc(wait, func() {
			select {
			case tick <- struct{}{}:
			default:
			}
		})
		select {
		case <-s.ctx.Done():
			t.Stop()
			return
		case <-s.store.HealthChanged():
		case <-tick:
		}
		t.Stop()
	}
}

// healthNames are the names the gRPC health service answers for: the
// server ("") and each service.
var healthNames = []string{"", "hall.v1.ClockLink", "hall.v1.Arbiter", "hall.v1.Watch", "hall.v1.Admin"}

// healthService is gRPC's health service, whose Check looks at readiness
// first, as /readyz does: a check never answers what a probe saw seconds
// ago. Watch streams hear each change as it is published.
type healthService struct {
	*health.Server
	s *Server
}

func (h healthService) Check(ctx context.Context, req *healthpb.HealthCheckRequest) (*healthpb.HealthCheckResponse, error) {
	h.s.checkReady()
	return h.Server.Check(ctx, req)
}

func (s *Server) serveHealthz(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	if s.ctx.Err() != nil {
		http.Error(w, "shutting down", http.StatusServiceUnavailable)
		return
	}
	_, _ = w.Write([]byte("ok\n"))
}

func (s *Server) serveReadyz(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	if err := s.checkReady(); err != nil {
		http.Error(w, "not ready: "+err.Error(), http.StatusServiceUnavailable)
		return
	}
	_, _ = w.Write([]byte("ready\n"))
}
