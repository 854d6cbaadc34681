package server

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	"google.golang.org/protobuf/encoding/protojson"

	"github.com/chesshall/hallclock/server/auth"
	"github.com/chesshall/hallclock/server/broadcast"
)

// standingsFeed computes the broadcast feeds' standings (broadcast.
// StandingsSource) with the arbiters' code (arbiter.FeedStandings), as the
// reader may see them: a reader without credentials those of a public
// tournament (every round of it public), a broadcast token's or the public's
// with the broadcast delay (only the results the delayed round feeds show
// count), an arbiter's live, limited to their sections. A table is
// computed once per view and kept while the tournament's results stand
// (arbiter.StandingsMark) and, under the delay, until the next result
// comes out of it.
type standingsFeed struct {
	s *Server

	mu    sync.Mutex
	cache map[standingsKey]*standingsEntry
}

type standingsKey struct {
	tournament, section, sections string
	live                          bool
}

type standingsEntry struct {
	mark  string
	until time.Time
	body  []byte
}

// standingsView is the JSON of the feed: the table, and whether it is
// live or how late.
type standingsView struct {
	Live      bool            `json:"live"`
	DelayMs   int64           `json:"delay_ms,omitempty"`
	Standings json.RawMessage `json:"standings"`
}

func (f *standingsFeed) StandingsChanged() <-chan struct{} { return f.s.hall.Changed() }

func (f *standingsFeed) Standings(ctx context.Context, v broadcast.Viewer, anyone bool, tournament, section string) ([]byte, time.Time, error) {
	s := f.s
	t, err := s.hall.Tournament(tournament)
	if err != nil {
		return nil, time.Time{}, err
	}
	if anyone {
		rounds := s.hall.Rounds(t.ID)
		for _, r := range rounds {
			if !s.hall.RoundPublic(r.ID) {
				return nil, time.Time{}, fmt.Errorf("%w: the standings of %s are public once every round of it is (round %d is not): send 'Authorization: Bearer <broadcast token>', or sign in",
					broadcast.ErrNotPublic, t.Name, r.Number)
			}
		}
		if len(rounds) == 0 {
			return nil, time.Time{}, fmt.Errorf("%w: %s has no public round yet", broadcast.ErrNotPublic, t.Name)
		}
	}
	// The reader as the arbiters' code knows them: live (a chief, or an
	// arbiter of some sections), else a broadcast reader, delayed.
	id := &auth.Identity{Role: auth.RoleBroadcast, Label: "standings feed"}
	if v.Live {
		id = &auth.Identity{Role: auth.RoleChief, Label: "standings feed"}
		if len(v.Sections) > 0 {
			id = &auth.Identity{Role: auth.RoleArbiter, Label: "standings feed", Sections: v.Sections}
		}
	} else if len(v.Sections) > 0 {
		id.Sections = v.Sections
	}
	if !id.Live() && section != "" && len(id.Sections) > 0 && !id.MaySection(section) {
		return nil, time.Time{}, fmt.Errorf("%w: no section %q", broadcast.ErrNotFound, section)
	}
	key := standingsKey{tournament: t.ID, section: section, sections: strings.Join(v.Sections, "\x00"), live: id.Live()}
	mark, err := s.arbiter.StandingsMark(t.ID)
	if err != nil {
		return nil, time.Time{}, err
	}
	now := s.clock.Now()
	f.mu.Lock()
	e := f.cache[key]
	f.mu.Unlock()
	if e != nil && e.mark == mark && (e.until.IsZero() || now.Before(e.until)) {
		return e.body, e.until, nil
	}
	out, until, err := s.arbiter.FeedStandings(auth.WithIdentity(ctx, id), t.ID, section)
	if err != nil {
		return nil, time.Time{}, err
	}
	table, err := protojson.Marshal(out)
	if err != nil {
		return nil, time.Time{}, err
	}
	view := standingsView{Live: id.Live() || s.opts.BroadcastDelay <= 0, Standings: table}
	if !view.Live {
		view.DelayMs = s.opts.BroadcastDelay.Milliseconds()
	}
	body, err := json.Marshal(view)
	if err != nil {
		return nil, time.Time{}, err
	}
	f.mu.Lock()
	if f.cache == nil || len(f.cache) >= 256 {
		// Bounded: a section is the reader's to name.
		f.cache = map[standingsKey]*standingsEntry{}
	}
	f.cache[key] = &standingsEntry{mark: mark, until: until, body: body}
	f.mu.Unlock()
	return body, until, nil
}
