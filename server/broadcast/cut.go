package broadcast

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/chesshall/hallclock/formats/pgn"
)

// A view is what one kind of reader is shown of a round: live (arbiters)
// or with the broadcast delay, perhaps limited to sections or one board.
// Readers of the same view share one cut and its documents.
type view struct {
	live     bool
	sections string // sorted, "\x00"-joined; "" for every section
	board    string // one board's id, "" for the whole round
	lichess  bool   // PGN results in lichess's forms (pgn.Options.LichessResults): a relay to lichess
	// reasons: the arbiters' reasons in the rulings' comments (arbiters
	// only: the public is told what happened, not why in the arbiter's
	// words; pgn.Options.NoReasons).
	reasons bool
}

func (v view) has(b Board) bool {
	if v.board != "" && b.ID != v.board {
		return false
	}
	return v.sections == "" || slices.Contains(strings.Split(v.sections, "\x00"), b.Section)
}

func sectionsKey(sections []string) string {
	if len(sections) == 0 {
		return ""
	}
	s := slices.Clone(sections)
	sort.Strings(s)
	return strings.Join(s, "\x00")
}

// roundCache holds what the feeds read of one round: its boards, each
// board's events as far as read, and the cut of each view. Its mutex
// serializes the work of one round, so that a thousand pollers of an
// unchanged round cost one comparison each and a change one render.
type roundCache struct {
	mu      sync.Mutex
	version uint64 // the source's change counter when round and logs were read
	loaded  bool
	round   Round
	logs    map[string]*boardLog
	cuts    map[view]*cut
}

// boardLog is a board's committed events as read so far, and what was
// made of their first n (a few n kept: the live cut and the delayed one).
type boardLog struct {
	events []Event
	place  int                  // the board's Place its games were written with
	games  map[gameKey][]byte   // the game in PGN of its first n events, as written for a view
	shows  map[int]*displayFold // n → the board as the display shows it
}

// gameKey is a game as written: its first n events, with lichess's
// results or not, with the arbiters' reasons or not.
type gameKey struct {
	n                int
	lichess, reasons bool
}

func (l *boardLog) prune(keep map[int]bool) {
	for k := range l.games {
		if !keep[k.n] {
			delete(l.games, k)
		}
	}
	for n := range l.shows {
		if !keep[n] {
			delete(l.shows, n)
		}
	}
}

// cut is a view of a round at one instant: for each board in view, how
// many of its events are shown. Its documents are made once, when first
// asked for. A cut stays valid until the round changes (version) or, with
// a delay, until the next event comes out of the delay (until).
type cut struct {
	rc      *roundCache
	version uint64
	until   time.Time // zero: until the round changes
	at      time.Time // the instant (the hall's wall clock) it shows
	round   Round     // boards in view only
	counts  []int     // events shown, per board of round.Boards
	logs    []*boardLog
	lichess bool // its PGN has lichess's results
	reasons bool // its PGN has the arbiters' reasons

	pgnOnce  sync.Once
	pgn      *document
	pgnErr   error
	showOnce sync.Once
	show     []byte
	showErr  error
}

func (c *cut) sameAs(o *cut) bool {
	if o == nil || len(c.round.Boards) != len(o.round.Boards) || c.round.Public != o.round.Public {
		return false
	}
	for i, b := range c.round.Boards {
		if o.round.Boards[i].ID != b.ID || o.counts[i] != c.counts[i] {
			return false
		}
	}
	return true
}

// document is a rendered feed with what conditional requests need.
type document struct {
	body     []byte
	etag     string    // strong, from the content
	modified time.Time // the newest event shown (or board created)
	gzOnce   sync.Once
	gz       []byte
}

func newDocument(body []byte, modified time.Time) *document {
	sum := sha256.Sum256(body)
	return &document{body: body, etag: `"` + hex.EncodeToString(sum[:12]) + `"`, modified: modified}
}

// gzipped returns the body gzip-compressed (made once).
func (d *document) gzipped() []byte {
	d.gzOnce.Do(func() {
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
		_, _ = zw.Write(d.body)
		_ = zw.Close()
		d.gz = buf.Bytes()
	})
	return d.gz
}

// cutFor returns the round's cut for the view now: the cached one while
// nothing changed, else a new one (reading only the events not read yet).
func (f *Feeds) cutFor(ctx context.Context, roundID string, v view) (*cut, error) {
	version, _ := f.src.Changes(roundID)
	rc := f.roundCache(roundID)
	rc.mu.Lock()
	defer rc.mu.Unlock()
	now := f.clock.Now()
	if old := rc.cuts[v]; old != nil && old.version == version && (old.until.IsZero() || now.Before(old.until)) {
		return old, nil
	}
	if err := f.load(ctx, rc, roundID, version); err != nil {
		return nil, err
	}
	c := &cut{rc: rc, version: version, at: now, round: rc.round, lichess: v.lichess, reasons: v.reasons}
	c.round.Boards = nil
	delayed := !v.live && f.opts.Delay > 0
	if delayed {
		c.at = now.Add(-f.opts.Delay)
	}
	for _, b := range rc.round.Boards {
		if !v.has(b) {
			continue
		}
		l := rc.logs[b.ID]
		n := len(l.events)
		if delayed {
			// Events are committed in board order, so their wall times
			// never decrease along a board's log.
			n = sort.Search(len(l.events), func(i int) bool { return l.events[i].Wall.After(c.at) })
			if n < len(l.events) {
				due := l.events[n].Wall.Add(f.opts.Delay)
				if c.until.IsZero() || due.Before(c.until) {
					c.until = due
				}
			}
		}
		c.round.Boards = append(c.round.Boards, b)
		c.counts = append(c.counts, n)
		c.logs = append(c.logs, l)
	}
	if old := rc.cuts[v]; c.sameAs(old) {
		// Nothing shown changed: keep the documents (and their ETags).
		old.version, old.until = c.version, c.until
		return old, nil
	}
	f.metrics.cuts.Inc()
	rc.cuts[v] = c
	f.pruneLocked(rc)
	return c, nil
}

// pruneLocked drops the rendered games no cut of the round uses.
func (f *Feeds) pruneLocked(rc *roundCache) {
	keep := map[*boardLog]map[int]bool{}
	for _, c := range rc.cuts {
		for i, l := range c.logs {
			if keep[l] == nil {
				keep[l] = map[int]bool{}
			}
			keep[l][c.counts[i]] = true
		}
	}
	for _, l := range rc.logs {
		l.prune(keep[l])
	}
}

// load brings the round and its logs up to version: the round from the
// source, and only the events of each board not read yet.
func (f *Feeds) load(ctx context.Context, rc *roundCache, roundID string, version uint64) error {
	if rc.loaded && rc.version == version {
		return nil
	}
	r, err := f.src.Round(ctx, roundID)
	if err != nil {
		return err
	}
	if rc.logs == nil {
		rc.logs = map[string]*boardLog{}
	}
	Places(r.Boards)
	present := map[string]bool{}
	for _, b := range r.Boards {
		present[b.ID] = true
		l := rc.logs[b.ID]
		if l == nil {
			l = &boardLog{games: map[gameKey][]byte{}, shows: map[int]*displayFold{}}
			rc.logs[b.ID] = l
		}
		if l.place != b.Place {
			// A board added before it renumbered the round: its games
			// are written again with their new Round tag.
			l.place, l.games = b.Place, map[gameKey][]byte{}
		}
		if uint64(len(l.events)) >= b.Seq {
			continue
		}
		evs, err := f.src.Events(ctx, b.ID, uint64(len(l.events)))
		if err != nil {
			return err
		}
		for _, e := range evs {
			if e.BoardSeq != uint64(len(l.events))+1 {
				return fmt.Errorf("board %s: event %d read after %d", b.ID, e.BoardSeq, len(l.events))
			}
			l.events = append(l.events, e)
		}
	}
	for id := range rc.logs {
		if !present[id] {
			delete(rc.logs, id)
		}
	}
	rc.round, rc.version, rc.loaded = r, version, true
	return nil
}

func (f *Feeds) roundCache(roundID string) *roundCache {
	f.mu.Lock()
	defer f.mu.Unlock()
	rc := f.rounds[roundID]
	if rc == nil {
		rc = &roundCache{cuts: map[view]*cut{}}
		f.rounds[roundID] = rc
	}
	return rc
}

// pgnDocument returns the cut's PGN: every game in view, each rendered
// once per number of events shown and shared by every cut showing it.
func (f *Feeds) pgnDocument(c *cut) (*document, error) {
	rc := c.rc
	c.pgnOnce.Do(func() {
		began := time.Now()
		var buf bytes.Buffer
		modified := time.Time{}
		rc.mu.Lock()
		defer rc.mu.Unlock()
		for i, b := range c.round.Boards {
			l, n := c.logs[i], c.counts[i]
			key := gameKey{n: n, lichess: c.lichess, reasons: c.reasons}
			game, ok := l.games[key]
			if !ok {
				var gb bytes.Buffer
				opts := pgn.Options{Round: pgn.RoundAndBoard, LichessResults: c.lichess, NoReasons: !c.reasons}
				if err := pgn.Write(&gb, []pgn.Game{Game(c.round, b, l.events[:n])}, opts); err != nil {
					c.pgnErr = err
					return
				}
				game = gb.Bytes()
				l.games[key] = game
				f.metrics.games.Inc()
			}
			if i > 0 {
				buf.WriteByte('\n')
			}
			buf.Write(game)
			modified = later(modified, b.Created)
			if n > 0 {
				modified = later(modified, l.events[n-1].Wall)
			}
		}
		c.pgn = newDocument(buf.Bytes(), modified)
		f.metrics.renderSeconds.Observe(time.Since(began).Seconds())
	})
	return c.pgn, c.pgnErr
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}
