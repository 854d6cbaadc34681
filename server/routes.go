package server

import (
	"net/http"

	"github.com/chesshall/hallclock/server/assist"
	"github.com/chesshall/hallclock/server/auth"
	"github.com/chesshall/hallclock/server/clockface"
	"github.com/chesshall/hallclock/server/dashboard"
	"github.com/chesshall/hallclock/server/wslink"
)

// routes registers the HTTP endpoints: /healthz (liveness), /readyz
// (readiness: the store commits), /metrics (Prometheus), the dashboard
// (package dashboard: the page at / and its assets) and its feeds
// (/api/watch as server-sent events; package arbiter: /api/boards, the
// Arbiter service at /api/arbiter/{Method}, the relays' status at
// /api/broadcasts, the backup at /api/backup), the page of a visually
// disabled player's assistant (package assist: /assist), the broadcast feeds
// (package broadcast: PGN of rounds and boards, the display page), the
// sign-in (package auth), the publisher's status to NATS (/api/stream) and
// the clocks' streams over WebSocket (package wslink: /clocklink).
func (s *Server) routes(mux *http.ServeMux) {
	dashboard.Routes(mux)
	assist.Routes(mux)
	clockface.Routes(mux) // the tablet clock's face: /clock
	mux.HandleFunc("GET /api/watch", s.serveWatch)
	s.arbiter.Routes(mux)
	mux.HandleFunc("GET /api/stream", s.serveStream)
	s.feeds.Routes(mux)
	mux.Handle("GET /metrics", s.metrics.handler())
	(&auth.Pages{Sessions: s.sessions, Codes: s.codes, Now: s.clock.Now, BroadcastDelay: s.opts.BroadcastDelay, Limit: s.signIns}).Routes(mux)
	mux.Handle("GET "+wslink.Path, s.wslink)
	mux.HandleFunc("GET /healthz", s.serveHealthz)
	mux.HandleFunc("GET /readyz", s.serveReadyz)
}

// credentialed says whether r shows a valid token or session (httpdoor:
// its connection is then trusted). The checks of a state-changing request
// (its CSRF token, its origin) are the handler's: this only asks who.
func (s *Server) credentialed(r *http.Request) bool {
	if r.URL.Path == wslink.Path {
		// A browser's clock shows its token as a subprotocol.
		secret, ok := wslink.Secret(r)
		if ok {
			_, ok = s.tokens.Lookup(secret)
		}
		return ok
	}
	probe := r.WithContext(r.Context())
	probe.Method = http.MethodGet
	_, err := s.sessions.Identity(probe)
	return err == nil
}
