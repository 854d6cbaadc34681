package server

import (
	"context"
	"net/http"
	"time"

	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	"github.com/chesshall/hallclock/server/hallerr"
)

// Liveness and readiness. /healthz answers while the process serves (a
// restart will not help a server that cannot write). Readiness — /readyz
// and the gRPC health service's status — says whether the hall can take
// events: the store commits (its last commit succeeded, its disk has
// space and is writable) and the server is not shutting down. While the
// hall is idle a probe commits a one-row write every ReadinessInterval,
// so a full disk is seen before the next press is lost to it.

// Ready returns nil if the hall can take events, else what is wrong.
func (s *Server) Ready() error {
	if s.ctx.Err() != nil {
		return hallerr.ErrShuttingDown
	}
	return s.store.Health()
}

// watchReadiness probes the store and keeps the gRPC health status (the
// whole server and each service) in step, until shutdown.
func (s *Server) watchReadiness() {
	defer s.wg.Done()
	t := time.NewTicker(s.opts.ReadinessInterval)
	defer t.Stop()
	serving := true
	for {
		ctx, cancel := context.WithTimeout(s.ctx, s.opts.ReadinessInterval+5*time.Second)
		err := s.store.Probe(ctx, s.opts.ReadinessInterval)
		cancel()
		if s.ctx.Err() != nil {
			return
		}
		if ok := err == nil; ok != serving {
			serving = ok
			st := healthpb.HealthCheckResponse_SERVING
			if !ok {
				st = healthpb.HealthCheckResponse_NOT_SERVING
				s.log.Error("not ready: the hall cannot commit events", "err", err)
			} else {
				s.log.Info("ready again: the store commits")
			}
			for _, name := range healthNames {
				s.health.SetServingStatus(name, st)
			}
		}
		select {
		case <-s.ctx.Done():
			return
		case <-t.C:
		}
	}
}

// healthNames are the names the gRPC health service answers for: the
// server ("") and each service.
var healthNames = []string{"", "hall.v1.ClockLink", "hall.v1.Arbiter", "hall.v1.Watch", "hall.v1.Admin"}

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
	if err := s.Ready(); err != nil {
		http.Error(w, "not ready: "+err.Error(), http.StatusServiceUnavailable)
		return
	}
	_, _ = w.Write([]byte("ready\n"))
}
