package gateway

import (
	_ "embed"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/chesshall/hallclock/internal/i18n"
)

//go:embed federation.html
var federationHTML []byte

// routes registers the gateway's HTTP endpoints. The broadcast feeds are
// each hall's own (its delay): a request finds the hall of its round or
// board, and that hall's feeds answer it.
func (g *Gateway) routes(mux *http.ServeMux) {
	byRound := func(w http.ResponseWriter, r *http.Request) {
		h := g.hallOfRound(r.PathValue("round"))
		if h == nil {
			http.Error(w, "no such round on this gateway", http.StatusNotFound)
			return
		}
		h.feedsMux().ServeHTTP(w, r)
	}
	byBoard := func(w http.ResponseWriter, r *http.Request) {
		h, _ := g.hallOfBoard(r.PathValue("board"))
		if h == nil {
			http.Error(w, "no such board on this gateway", http.StatusNotFound)
			return
		}
		h.feedsMux().ServeHTTP(w, r)
	}
	mux.HandleFunc("GET /api/pgn/round/{round}", byRound)
	mux.HandleFunc("GET /api/pgn/board/{board}", byBoard)
	mux.HandleFunc("GET /display/round/{round}", byRound)
	mux.HandleFunc("GET /api/display/round/{round}", byRound)
	mux.HandleFunc("GET /api/display/round/{round}/live", byRound)
	mux.HandleFunc("GET /api/watch", g.serveWatch)
	mux.HandleFunc("GET /api/federation", g.serveFederation)
	mux.HandleFunc("GET /api/following", g.serveFollowing)
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		_, _ = w.Write(federationHTML)
	})
	i18n.Routes(mux, g.opts.Lang, "") // a gateway is not in the hall: its readers' own zones
	mux.Handle("GET /metrics", promhttp.HandlerFor(g.reg, promhttp.HandlerOpts{Registry: g.reg}))
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write([]byte("ok\n")) })
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, r *http.Request) {
		if !g.Ready() {
			why := "following the halls' streams to their ends"
			if p, _ := g.problem(); p != "" {
				why = p
			}
			http.Error(w, "not ready: "+why, http.StatusServiceUnavailable)
			return
		}
		_, _ = w.Write([]byte("ready\n"))
	})
}

// feedsMux is the mux of the hall's current feeds.
func (h *hall) feedsMux() *http.ServeMux {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.mux
}

// setFeeds gives the hall new feeds with a delay (at start, and when the
// hall announces another delay), closing the old ones.
func (h *hall) setFeeds(delay time.Duration) {
	f := h.newFeeds(delay)
	mux := http.NewServeMux()
	f.Routes(mux)
	h.mu.Lock()
	old := h.feeds
	h.feeds, h.mux = f, mux
	h.mu.Unlock()
	if old != nil {
		old.Close()
	}
}
