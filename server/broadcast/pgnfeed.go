package broadcast

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/chesshall/hallclock/internal/acceptgzip"
)

// access decides what a request may see of a round: a reader with
// credentials sees the round as they allow (live for arbiters); one
// without sees a public round with the delay, and nothing of the others.
func (f *Feeds) access(ctx context.Context, r *http.Request, roundID, boardID string) (view, error) {
	vw, ok, err := f.opts.Authenticate(r)
	if err != nil {
		return view{}, err
	}
	if !ok {
		rd, err := f.round(ctx, roundID)
		if err != nil {
			return view{}, err
		}
		if !rd.Public {
			return view{}, fmt.Errorf("%w: round %d of %s is not public: send 'Authorization: Bearer <broadcast token>', or sign in", ErrNotPublic, rd.Number, rd.Tournament)
		}
		vw = Viewer{}
	}
	return view{live: vw.Live || f.opts.Delay <= 0, reasons: vw.Live, sections: sectionsKey(vw.Sections), board: boardID}, nil
}

// round returns the round as last read (reading it again if it changed).
func (f *Feeds) round(ctx context.Context, roundID string) (Round, error) {
	version, _ := f.src.Changes(roundID)
	rc := f.roundCache(roundID)
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if err := f.load(ctx, rc, roundID, version); err != nil {
		return Round{}, err
	}
	return rc.round, nil
}

func (f *Feeds) servePGNRound(w http.ResponseWriter, r *http.Request) {
	f.servePGN(w, r, "round", r.PathValue("round"), "")
}

func (f *Feeds) servePGNBoard(w http.ResponseWriter, r *http.Request) {
	boardID := r.PathValue("board")
	roundID, err := f.src.BoardRound(r.Context(), boardID)
	if err != nil {
		f.fail(w, "pgn_board", err)
		return
	}
	f.servePGN(w, r, "board", roundID, boardID)
}

func (f *Feeds) servePGN(w http.ResponseWriter, r *http.Request, feed, roundID, boardID string) {
	v, err := f.access(r.Context(), r, roundID, boardID)
	if err != nil {
		f.fail(w, "pgn_"+feed, err)
		return
	}
	c, err := f.cutFor(r.Context(), roundID, v)
	if err != nil {
		f.fail(w, "pgn_"+feed, err)
		return
	}
	d, err := f.pgnDocument(c)
	if err != nil {
		f.fail(w, "pgn_"+feed, err)
		return
	}
	if boardID != "" && len(c.round.Boards) == 0 {
		// As a board that does not exist: nothing of another section.
		f.fail(w, "pgn_"+feed, fmt.Errorf("%w: board %q", ErrNotFound, boardID))
		return
	}
	w.Header().Set("Content-Type", "application/x-chess-pgn; charset=utf-8")
	code := f.serveDocument(w, r, d, v.live || !c.round.Public)
	f.metrics.requests.WithLabelValues("pgn_"+feed, strconv.Itoa(code)).Inc()
}

// serveDocument answers a conditional GET (If-None-Match,
// If-Modified-Since) with 304 and no body when the document did not
// change, and sends it gzipped when the client accepts it. It returns the
// status sent.
func (f *Feeds) serveDocument(w http.ResponseWriter, r *http.Request, d *document, private bool) int {
	h := w.Header()
	h.Set("Vary", "Accept-Encoding, Authorization, Cookie")
	if private {
		h.Set("Cache-Control", "private, no-cache")
	} else {
		h.Set("Cache-Control", "no-cache")
	}
	body, etag := d.body, d.etag
	if acceptgzip.Accepts(r) {
		body, etag = d.gzipped(), strings.TrimSuffix(d.etag, `"`)+`-gz"`
		h.Set("Content-Encoding", "gzip")
	}
	h.Set("ETag", etag)
	sw := &statusWriter{ResponseWriter: w, code: http.StatusOK}
	http.ServeContent(sw, r, "", d.modified, bytes.NewReader(body))
	return sw.code
}

type statusWriter struct {
	http.ResponseWriter
	code int
}

func (s *statusWriter) WriteHeader(code int) {
	s.code = code
	s.ResponseWriter.WriteHeader(code)
}

// fail answers an error and counts it.
func (f *Feeds) fail(w http.ResponseWriter, feed string, err error) {
	sw := &statusWriter{ResponseWriter: w, code: http.StatusOK}
	f.opts.Error(sw, err)
	f.metrics.requests.WithLabelValues(feed, strconv.Itoa(sw.code)).Inc()
}

func defaultError(w http.ResponseWriter, err error) {
	code := http.StatusInternalServerError
	switch {
	case errors.Is(err, ErrNotFound):
		code = http.StatusNotFound
	case errors.Is(err, ErrNotPublic):
		code = http.StatusUnauthorized
	}
	http.Error(w, err.Error(), code)
}
