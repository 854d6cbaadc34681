package server

import (
	"net/http"

	healthpb "google.golang.org/grpc/health/grpc_health_v1"
)

// routes registers the HTTP endpoints: /healthz, /metrics (Prometheus),
// the dashboard page (/) and its feeds (/api/boards, and /api/watch as
// server-sent events), the broadcast feeds (package broadcast: PGN of
// rounds and boards, the display page) and the relays' status
// (/api/broadcasts).
func (s *Server) routes(mux *http.ServeMux) {
	mux.HandleFunc("GET /{$}", s.serveDashboard)
	mux.HandleFunc("GET /api/watch", s.serveWatch)
	mux.HandleFunc("GET /api/boards", s.serveBoards)
	mux.HandleFunc("GET /api/broadcasts", s.serveBroadcasts)
	s.feeds.Routes(mux)
	mux.Handle("GET /metrics", s.metrics.handler())
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		resp, err := s.health.Check(r.Context(), &healthpb.HealthCheckRequest{})
		if err != nil || resp.GetStatus() != healthpb.HealthCheckResponse_SERVING {
			http.Error(w, "not serving", http.StatusServiceUnavailable)
			return
		}
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = w.Write([]byte("ok\n"))
	})
}
