package server

import (
	"net/http"
)

// routes registers the HTTP endpoints: /healthz (liveness), /readyz
// (readiness: the store commits), /metrics (Prometheus),
// the dashboard page (/) and its feeds (/api/boards, and /api/watch as
// server-sent events), the broadcast feeds (package broadcast: PGN of
// rounds and boards, the display page), the relays' status
// (/api/broadcasts) and the publisher's to NATS (/api/stream).
func (s *Server) routes(mux *http.ServeMux) {
	mux.HandleFunc("GET /{$}", s.serveDashboard)
	mux.HandleFunc("GET /api/watch", s.serveWatch)
	mux.HandleFunc("GET /api/boards", s.serveBoards)
	mux.HandleFunc("GET /api/backup", s.serveBackup)
	mux.HandleFunc("GET /api/broadcasts", s.serveBroadcasts)
	mux.HandleFunc("GET /api/stream", s.serveStream)
	s.feeds.Routes(mux)
	mux.Handle("GET /metrics", s.metrics.handler())
	s.signinRoutes(mux)
	mux.HandleFunc("GET /healthz", s.serveHealthz)
	mux.HandleFunc("GET /readyz", s.serveReadyz)
}
