package broadcast

import (
	"context"
	_ "embed"
	"fmt"
	"net/http"
	"time"
)

// The standings feed: a tournament's standings for the public and the
// hall's screens, under the rules of the round feeds. The feeds do not
// compute standings (the hall does, from its results, package arbiter):
// Options.Standings does, for a viewer; here are the door (credentials or
// none), the JSON, its stream and the pages.

// StandingsSource computes the standings feed (Options.Standings). It must
// be safe for concurrent use.
type StandingsSource interface {
	// Standings returns a tournament's standings as JSON as v may see
	// them, section "" for every section v sees. anyone: the request
	// carries no credentials, and gets ErrNotPublic unless the
	// tournament is public. until: when the JSON changes by the clock
	// alone (a result coming out of the broadcast delay); zero: only at a
	// change of the hall.
	Standings(ctx context.Context, v Viewer, anyone bool, tournament, section string) (body []byte, until time.Time, err error)
	// StandingsChanged returns a channel closed at the next change of the
	// hall (the stream then asks Standings again; it answers from a cache
	// while the standings did not change).
	StandingsChanged() <-chan struct{}
}

//go:embed standings.html
var standingsHTML []byte

// standingsFor answers the request's standings: as its credentials allow,
// or, without any, those of a public tournament with the delay.
func (f *Feeds) standingsFor(r *http.Request) ([]byte, time.Time, error) {
	if f.opts.Standings == nil {
		return nil, time.Time{}, fmt.Errorf("%w: this hall serves no standings", ErrNotFound)
	}
	v, ok, err := f.opts.Authenticate(r)
	if err != nil {
		return nil, time.Time{}, err
	}
	if !ok {
		v = Viewer{}
	}
	return f.opts.Standings.Standings(r.Context(), v, !ok, r.PathValue("tournament"), r.URL.Query().Get("section"))
}

func (f *Feeds) serveStandingsJSON(w http.ResponseWriter, r *http.Request) {
	body, _, err := f.standingsFor(r)
	if err != nil {
		f.fail(w, "standings", err)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	d := newDocument(body, time.Time{})
	code := f.serveDocument(w, r, d, true)
	f.metrics.requests.WithLabelValues("standings", fmt.Sprint(code)).Inc()
}

// serveStandingsLive streams a tournament's standings: at once, then
// whenever they change (a result, a correction, a result out of the
// delay), at most one update per streamInterval.
func (f *Feeds) serveStandingsLive(w http.ResponseWriter, r *http.Request) {
	if f.opts.Standings == nil {
		f.fail(w, "standings_live", fmt.Errorf("%w: this hall serves no standings", ErrNotFound))
		return
	}
	standings := func(r *http.Request) (liveView, error) {
		changed := f.opts.Standings.StandingsChanged()
		body, until, err := f.standingsFor(r)
		return liveView{key: string(body), data: func() []byte { return body }, until: until, changed: changed}, err
	}
	first, err := standings(r)
	if err != nil {
		f.fail(w, "standings_live", err)
		return
	}
	f.serveLive(w, r, "standings_live", &first, func(ctx context.Context) (liveView, error) {
		return standings(r.WithContext(ctx))
	})
}

// serveStandingsPage serves the standings page: /standings/{tournament}
// lists every row (it scrolls), /display/standings/{tournament} fits the
// screen and pages through a long list.
func (f *Feeds) serveStandingsPage(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("Content-Security-Policy", "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'unsafe-inline'")
	_, _ = w.Write(standingsHTML)
	f.metrics.requests.WithLabelValues("standings_page", "200").Inc()
}
