package server

import (
	"net/http"

	"github.com/chesshall/hallclock/server/auth"
	"github.com/chesshall/hallclock/server/broadcast"
)

// The broadcast feeds (package broadcast: PGN polled and pushed, the
// display page) read the hall through hall.FeedSource; here they are
// wired to the door and the relays.

// feedViewer is the door of the broadcast feeds: a request without
// credentials may read public rounds; one with a token reads as its role
// allows (arbiters live, limited to their sections; broadcast tokens with
// the delay).
func (s *Server) feedViewer(r *http.Request) (broadcast.Viewer, bool, error) {
	var id *auth.Identity
	var err error
	if r.Header.Get("Authorization") == "" && !r.URL.Query().Has("token") {
		// A browser signed in (package auth) reads as its token; without a
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
		Source: s.hall.FeedSource(), Clock: s.clock, Delay: s.opts.BroadcastDelay,
		Authenticate: s.feedViewer, Error: s.codes.WriteHTTP, SignIn: "/signin",
		Registerer: s.metrics.reg, Logger: s.log, Relay: s.opts.Relay,
		Standings: &standingsFeed{s: s},
	})
}

// startRelays starts the relays of the rounds that have one.
func (s *Server) startRelays() {
	for _, b := range s.hall.Broadcasts() {
		if b.RelayURL != "" {
			s.feeds.SetRelay(b.RoundID, &broadcast.Relay{URL: b.RelayURL, Token: b.RelayToken, LichessResults: broadcast.LichessRelay(b.RelayURL)})
		}
	}
}

// Feeds returns the broadcast feeds (PGN, relays, display page).
func (s *Server) Feeds() *broadcast.Feeds { return s.feeds }
