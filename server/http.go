package server

import (
	"net/http"
)

// routes registers the HTTP endpoints: /healthz (liveness), /readyz
// (readiness: the store commits), /metrics (Prometheus),
// the dashboard page (/) and its feeds (/api/boards, and /api/watch as
// server-sent events), the broadcast feeds (package broadcast: PGN of
// rounds and boards, the display page) and the relays' status
// (/api/broadcasts).
func (s *Server) routes(mux *http.ServeMux) {
	mux.HandleFunc("GET /{$}", s.serveDashboard)
	mux.HandleFunc("GET /api/watch", s.serveWatch)
	mux.HandleFunc("GET /api/boards", s.serveBoards)
	mux.HandleFunc("POST /api/arbiter/{method}", s.serveArbiterJSON)
	mux.HandleFunc("GET /api/backup", s.serveBackup)
	mux.HandleFunc("GET /api/broadcasts", s.serveBroadcasts)
	s.feeds.Routes(mux)
	mux.Handle("GET /metrics", s.metrics.handler())
	s.signinRoutes(mux)
	mux.HandleFunc("GET /healthz", s.serveHealthz)
	mux.HandleFunc("GET /readyz", s.serveReadyz)
}
