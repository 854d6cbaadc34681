package server

import (
	"context"
	"fmt"
	"net/http"

	"github.com/chesshall/hallclock/formats/pgn"
	"github.com/chesshall/hallclock/server/auth"
	"github.com/chesshall/hallclock/server/broadcast"
	"github.com/chesshall/hallclock/storage"
)

// The broadcast feeds (package broadcast: PGN polled and pushed, the
// display page) read the hall through broadcastSource. The hall tells
// s.changes of each commit (publish) and of boards added; the feeds do
// their work when read, never on the ingest path.

// broadcastSource is the hall as the broadcast feeds read it.
type broadcastSource struct{ s *Server }

var _ broadcast.Source = broadcastSource{}

func (bs broadcastSource) Round(ctx context.Context, roundID string) (broadcast.Round, error) {
	s := bs.s
	s.mu.Lock()
	r, ok := s.rounds[roundID]
	t := s.tournaments[r.TournamentID]
	public := s.roundPublicLocked(roundID)
	s.mu.Unlock()
	if !ok {
		return broadcast.Round{}, fmt.Errorf("%w: round %q", broadcast.ErrNotFound, roundID)
	}
	out := broadcast.Round{ID: r.ID, Tournament: t.Name, Number: r.Number, Venue: r.Venue, Public: public}
	for _, b := range s.roundBoards(roundID) {
		out.Boards = append(out.Boards, broadcastBoard(&b.rec, s.changes.Seq(b.rec.ID)))
	}
	return out, nil
}

// roundPublicLocked reports whether a round's feeds need no token. s.mu
// is held.
func (s *Server) roundPublicLocked(roundID string) bool {
	return s.opts.PublicRounds || s.broadcasts[roundID].Public
}

// broadcastBoard reads the fields of a board's record that never change
// (its device and source do, on the actor, and are not read here).
func broadcastBoard(rec *storage.BoardRecord, seq uint64) broadcast.Board {
	return broadcast.Board{ID: rec.ID, Number: rec.Number, Section: rec.Section, White: pgnPlayer(rec.White), Black: pgnPlayer(rec.Black),
		Config: rec.Config, Created: rec.Created, Seq: seq}
}

func (bs broadcastSource) BoardRound(ctx context.Context, boardID string) (string, error) {
	s := bs.s
	s.mu.Lock()
	defer s.mu.Unlock()
	b, ok := s.boards[boardID]
	if !ok {
		return "", fmt.Errorf("%w: board %q", broadcast.ErrNotFound, boardID)
	}
	return b.rec.RoundID, nil
}

func (bs broadcastSource) Events(ctx context.Context, boardID string, after uint64) ([]broadcast.Event, error) {
	evs, err := bs.s.store.Events(ctx, boardID, after)
	if err != nil {
		return nil, err
	}
	return broadcastEvents(evs), nil
}

func broadcastEvents(evs []storage.EventRecord) []broadcast.Event {
	out := make([]broadcast.Event, len(evs))
	for i, e := range evs {
		out[i] = broadcast.Event{BoardSeq: e.BoardSeq, Entry: pgn.Entry{Event: e.Event, Actor: e.Actor, Reason: e.Reason}, Wall: e.Wall}
	}
	return out
}

func (bs broadcastSource) Changes(roundID string) (uint64, <-chan struct{}) {
	return bs.s.changes.Version(roundID)
}

// feedViewer is the door of the broadcast feeds: a request without
// credentials may read public rounds; one with a token reads as its role
// allows (arbiters live, limited to their sections; broadcast tokens with
// the delay).
func (s *Server) feedViewer(r *http.Request) (broadcast.Viewer, bool, error) {
	var id *auth.Identity
	var err error
	if r.Header.Get("Authorization") == "" && !r.URL.Query().Has("token") {
		// A browser signed in (session.go) reads as its token; without a
		// session, or with one that ended, it is anyone: public rounds.
		if _, cerr := r.Cookie(auth.SessionCookie); cerr != nil {
			return broadcast.Viewer{}, false, nil
		}
		if id, err = s.sessions.Identity(r); err != nil {
			return broadcast.Viewer{}, false, nil
		}
		if id.Role != auth.RoleChief && id.Role != auth.RoleArbiter && id.Role != auth.RoleBroadcast {
			return broadcast.Viewer{}, false, nil
		}
	} else if id, err = s.sessions.WebIdentity(r, auth.RoleChief, auth.RoleArbiter, auth.RoleBroadcast); err != nil {
		return broadcast.Viewer{}, false, err // a bad or revoked token, or one in the URL
	}
	v := broadcast.Viewer{Live: id.Role != auth.RoleBroadcast}
	if id.Role == auth.RoleArbiter {
		v.Sections = id.Sections
	}
	return v, true, nil
}

func (s *Server) newFeeds() *broadcast.Feeds {
	return broadcast.New(broadcast.Options{
		Source: broadcastSource{s}, Clock: s.clock, Delay: s.opts.BroadcastDelay,
		Authenticate: s.feedViewer, Error: s.codes.WriteHTTP, SignIn: "/signin",
		Registerer: s.metrics.reg, Logger: s.log, Relay: s.opts.Relay,
	})
}

// loadBroadcasts reads the rounds' broadcast settings and starts their
// relays.
func (s *Server) loadBroadcasts(ctx context.Context) error {
	bs, err := s.store.RoundBroadcasts(ctx)
	if err != nil {
		return err
	}
	for _, b := range bs {
		s.broadcasts[b.RoundID] = b
		if b.RelayURL != "" {
			s.feeds.SetRelay(b.RoundID, &broadcast.Relay{URL: b.RelayURL, Token: b.RelayToken})
		}
	}
	return nil
}

// Feeds returns the broadcast feeds (PGN, relays, display page).
func (s *Server) Feeds() *broadcast.Feeds { return s.feeds }
