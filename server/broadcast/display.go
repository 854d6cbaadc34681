package broadcast

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/chesshall/hallclock/rules"
)

// The display page: a read-only view of a round for the hall's screens
// and spectators (6.12 allows screens showing position, moves and
// clocks). The page is one embedded HTML file (no network at run time):
// it draws each board whose position is known as SVG from its FEN (a
// board without one shows its clocks and result large instead: the
// starting position would misinform), marks the last move, ticks the
// running clock and shows results, says when the round is finished, fits
// the players' names beside their clocks, and lays the boards asked for
// out to fit the screen it is shown on (or says how many fit). A page that has
// lost its feed stops its clocks, greys the boards and says since when it
// has heard nothing. It follows the round through
// /api/display/round/{round}/live, server-sent events each holding the
// whole round as the reader may see it (with the broadcast delay unless
// live), at most one every streamInterval, sent when it changed.

//go:embed display.html
var displayHTML []byte

// streamInterval is the least time between two updates of a display
// stream: moves meanwhile are coalesced (a press shows within this).
const streamInterval = 250 * time.Millisecond

// keepAlive is how often an idle display stream sends a comment, so that
// proxies keep it open.
const keepAlive = 25 * time.Second

// displayFold is a board after its first n events, as the display shows it.
type displayFold struct {
	state    rules.State
	lastMove string // "23... Nf6", "" before the first move with SAN
	prevFEN  string // the position before the last move, "" if unknown
	lastT    int64  // board time of the last event
	lastWall time.Time
}

func foldDisplay(b Board, events []Event) (*displayFold, error) {
	st, err := rules.NewState(b.Config)
	if err != nil {
		return nil, err
	}
	d := &displayFold{}
	for _, e := range events {
		before := st
		if st, err = rules.Apply(st, e.Entry.Event); err != nil {
			return nil, fmt.Errorf("board %s event %d: %w", b.ID, e.BoardSeq, err)
		}
		if e.Event.Kind == rules.KindPress && e.Event.SAN != "" {
			side := e.Event.Side
			n := st.P[side].Moves
			if side == rules.White {
				d.lastMove = fmt.Sprintf("%d. %s", n, e.Event.SAN)
			} else {
				d.lastMove = fmt.Sprintf("%d... %s", n, e.Event.SAN)
			}
			d.prevFEN = before.FEN
		}
		d.lastT, d.lastWall = e.Event.T, e.Wall
	}
	d.state = st
	return d, nil
}

type displayPlayer struct {
	Name  string `json:"name"`
	Title string `json:"title,omitempty"`
	Elo   int    `json:"elo,omitempty"`
}

type displayBoard struct {
	ID          string        `json:"id"`
	Number      int           `json:"number"`
	Section     string        `json:"section,omitempty"`
	White       displayPlayer `json:"white"`
	Black       displayPlayer `json:"black"`
	FEN         string        `json:"fen"`                // "" before the position is known: the start
	PrevFEN     string        `json:"prev_fen,omitempty"` // before the last move, to mark it
	LastMove    string        `json:"last_move,omitempty"`
	WhiteMs     int64         `json:"white_ms"` // remaining time at the view's instant
	BlackMs     int64         `json:"black_ms"`
	Running     string        `json:"running,omitempty"` // "white" or "black": whose clock runs
	Status      string        `json:"status"`            // waiting, running, paused, adjourned, finished, referred
	Result      string        `json:"result,omitempty"`  // "1-0", "1/2-1/2", "1-0 (forfeit)"...; "" while playing
	Termination string        `json:"termination,omitempty"`
}

type displayView struct {
	RoundID    string         `json:"round_id"`
	Tournament string         `json:"tournament"`
	Number     int            `json:"number"`
	Live       bool           `json:"live"`     // false: DelayMs behind the hall
	DelayMs    int64          `json:"delay_ms"` // the broadcast delay shown, 0 live
	Boards     []displayBoard `json:"boards"`
}

var resultWords = map[rules.Result]string{
	"+-": "1-0 (forfeit)", "-+": "0-1 (forfeit)", "--": "0-0 (forfeit)",
}

// displayJSON returns the cut as the display shows it (made once).
func (f *Feeds) displayJSON(c *cut, live bool) ([]byte, error) {
	c.showOnce.Do(func() {
		rc := c.rc
		rc.mu.Lock()
		defer rc.mu.Unlock()
		dv := displayView{RoundID: c.round.ID, Tournament: c.round.Tournament, Number: c.round.Number, Live: live, Boards: []displayBoard{}}
		if !live {
			dv.DelayMs = f.opts.Delay.Milliseconds()
		}
		for i, b := range c.round.Boards {
			l, n := c.logs[i], c.counts[i]
			fd, ok := l.shows[n]
			if !ok {
				var err error
				if fd, err = foldDisplay(b, l.events[:n]); err != nil {
					c.showErr = err
					return
				}
				l.shows[n] = fd
			}
			st := fd.state
			if _, running := st.Running(); running && n > 0 {
				st = st.Project(fd.lastT + max(c.at.Sub(fd.lastWall).Milliseconds(), 0))
			}
			db := displayBoard{ID: b.ID, Number: b.Number, Section: b.Section,
				White: displayPlayer{b.White.Name, b.White.Title, b.White.Elo}, Black: displayPlayer{b.Black.Name, b.Black.Title, b.Black.Elo},
				FEN: st.FEN, PrevFEN: fd.prevFEN, LastMove: fd.lastMove, WhiteMs: st.P[rules.White].MainMs, BlackMs: st.P[rules.Black].MainMs,
				Status: st.Status.String()}
			if side, running := st.Running(); running {
				db.Running = side.String()
			}
			if st.Status == rules.Finished && st.Result != rules.NoResult {
				db.Result = string(st.Result)
				if w, ok := resultWords[st.Result]; ok {
					db.Result = w
				}
				db.Termination = string(st.Termination)
			}
			dv.Boards = append(dv.Boards, db)
		}
		c.show, c.showErr = json.Marshal(dv)
	})
	return c.show, c.showErr
}

// envelope is one message of the display feed: the view, and how old its
// clocks are (the page ticks them on from there).
func (f *Feeds) envelope(c *cut, body []byte, live bool) []byte {
	at := f.clock.Now()
	if !live {
		at = at.Add(-f.opts.Delay)
	}
	age := max(at.Sub(c.at).Milliseconds(), 0)
	out := make([]byte, 0, len(body)+40)
	out = append(out, `{"age_ms":`...)
	out = strconv.AppendInt(out, age, 10)
	out = append(out, `,"view":`...)
	out = append(out, body...)
	return append(out, '}')
}

func (f *Feeds) serveDisplayPage(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("Content-Security-Policy", "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'unsafe-inline'; img-src 'self' data:")
	_, _ = w.Write(displayHTML)
	f.metrics.requests.WithLabelValues("display_page", "200").Inc()
}

// displayCut returns the round's cut and display JSON for the request.
func (f *Feeds) displayCut(ctx context.Context, roundID string, v view) (*cut, []byte, error) {
	c, err := f.cutFor(ctx, roundID, v)
	if err != nil {
		return nil, nil, err
	}
	body, err := f.displayJSON(c, v.live)
	return c, body, err
}

func (f *Feeds) serveDisplayJSON(w http.ResponseWriter, r *http.Request) {
	roundID := r.PathValue("round")
	v, err := f.access(r.Context(), r, roundID, "")
	if err != nil {
		f.fail(w, "display", err)
		return
	}
	c, body, err := f.displayCut(r.Context(), roundID, v)
	if err != nil {
		f.fail(w, "display", err)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write(f.envelope(c, body, v.live))
	f.metrics.requests.WithLabelValues("display", "200").Inc()
}

// serveDisplayLive streams the round to a display page: the view at once,
// then again whenever it changes (coalesced to one per streamInterval).
func (f *Feeds) serveDisplayLive(w http.ResponseWriter, r *http.Request) {
	roundID := r.PathValue("round")
	v, err := f.access(r.Context(), r, roundID, "")
	if err != nil {
		f.fail(w, "display_live", err)
		return
	}
	f.serveLive(w, r, "display_live", nil, func(ctx context.Context) (liveView, error) {
		_, changed := f.src.Changes(roundID)
		c, body, err := f.displayCut(ctx, roundID, v)
		if err != nil {
			return liveView{}, err
		}
		data := func() []byte { return f.envelope(c, body, v.live) }
		return liveView{key: c, data: data, until: c.until, changed: changed}, nil
	})
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
