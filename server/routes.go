package server

import (
	"encoding/json"
	"net/http"
	"strings"

	"github.com/chesshall/hallclock/formats/words"
	"github.com/chesshall/hallclock/internal/i18n"
	"github.com/chesshall/hallclock/server/assist"
	"github.com/chesshall/hallclock/server/auth"
	"github.com/chesshall/hallclock/server/clockface"
	"github.com/chesshall/hallclock/server/dashboard"
	"github.com/chesshall/hallclock/server/enrol"
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
// sign-in (package auth), the publisher's status to NATS (/api/stream),
// the clocks' streams over WebSocket (package wslink: /clocklink), a
// tablet's enrolment as a clock (package enrol: /clock/enrol), the pages'
// words (package i18n: /i18n/i18n.js) and the catalogues of the audit's
// words (/words/audit.<lang>.json).
func (s *Server) routes(mux *http.ServeMux) {
	dashboard.Routes(mux)
	i18n.Routes(mux, s.opts.Lang, s.opts.Zone.String())
	assist.Routes(mux)
	clockface.Routes(mux) // the tablet clock's face: /clock
	mux.HandleFunc("GET /api/watch", s.serveWatch)
	s.arbiter.Routes(mux)
	mux.HandleFunc("GET /api/stream", s.serveStream)
	s.feeds.Routes(mux)
	mux.Handle("GET /metrics", s.metrics.handler())
	(&auth.Pages{Sessions: s.sessions, Codes: s.codes, Now: s.clock.Now, BroadcastDelay: s.opts.BroadcastDelay, Limit: s.signIns,
		Zone: s.opts.Zone, Lang: s.opts.Lang}).Routes(mux)
	mux.Handle("GET "+wslink.Path, s.wslink)
	(&enrol.Page{Links: s.enrol, Codes: s.codes, Zone: s.opts.Zone, Lang: s.opts.Lang}).Routes(mux)
	mux.HandleFunc("GET /healthz", s.serveHealthz)
	mux.HandleFunc("GET /readyz", s.serveReadyz)
	mux.HandleFunc("GET /words/{file}", serveWords)
}

// serveWords serves the catalogues of the hall's words for people
// (package formats/words: /words/audit.<lang>.json), with which the pages
// write the audit's kinds and parameters in their reader's language.
func serveWords(w http.ResponseWriter, r *http.Request) {
	lang, ok := strings.CutPrefix(r.PathValue("file"), "audit.")
	lang, isJSON := strings.CutSuffix(lang, ".json")
	m, err := words.AuditWords(lang)
	if !ok || !isJSON || err != nil {
		http.NotFound(w, r)
		return
	}
	b, err := json.Marshal(m)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	_, _ = w.Write(b)
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
