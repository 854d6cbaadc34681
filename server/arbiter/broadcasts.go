package arbiter

import (
	"context"
	"net/http"
	"net/url"
	"sort"
	"time"

	"google.golang.org/protobuf/proto"

	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/server/auth"
	"github.com/chesshall/hallclock/server/broadcast"
	"github.com/chesshall/hallclock/server/hallerr"
	"github.com/chesshall/hallclock/storage"
)

// SetBroadcast makes a round public or private and sets the relay its PGN
// is pushed to. It takes effect at once: the feeds' access, and the relay
// (restarted with the new settings).
func (a *Service) SetBroadcast(ctx context.Context, req *pb.SetBroadcastRequest) (*pb.RoundBroadcast, error) {
	s := a
	r, err := s.hall.RoundRef(req.GetRoundId(), req.GetTournament(), req.GetNumber())
	if err != nil {
		return nil, err
	}
	if req.RelayUrl != nil && req.GetRelayUrl() != "" {
		u, err := url.Parse(req.GetRelayUrl())
		if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			return nil, hallerr.BadRequest("relay_url %q: want an http(s) URL such as https://lichess.org/api/broadcast/round/<round id>/push", req.GetRelayUrl())
		}
	}
	b, ok := s.hall.Broadcast(r.ID)
	if !ok {
		b = storage.RoundBroadcast{RoundID: r.ID}
	}
	relayWas := b.RelayURL + "\x00" + b.RelayToken
	if req.Public != nil {
		b.Public = req.GetPublic()
	}
	if req.RelayUrl != nil {
		b.RelayURL = req.GetRelayUrl()
		if b.RelayURL == "" {
			b.RelayToken = ""
		}
	}
	if req.RelayToken != nil {
		b.RelayToken = req.GetRelayToken()
	}
	b.Updated = s.clock.Now()
	public := map[bool]string{true: "yes", false: "no"}[b.Public]
	what, kind := "set_broadcast public="+public, "did.set_broadcast"
	if b.RelayURL != "" {
		what, kind = what+" relay="+b.RelayURL, "did.set_broadcast_relay"
	}
	err = s.store.Write(ctx, func(tx *storage.Tx) error {
		if err := tx.PutRoundBroadcast(&b); err != nil {
			return err
		}
		return tx.AddAudit(&storage.AuditRecord{Actor: auth.IdentityFrom(ctx).Actor(), What: what, Outcome: storage.OutcomeApplied,
			Kind: kind, Params: map[string]string{"public": public, "relay": b.RelayURL, "text": what}})
	})
	if err != nil {
		return nil, err
	}
	s.hall.SetBroadcast(b)
	if b.RelayURL+"\x00"+b.RelayToken != relayWas {
		if b.RelayURL == "" {
			s.feeds.SetRelay(r.ID, nil)
		} else {
			s.feeds.SetRelay(r.ID, &broadcast.Relay{URL: b.RelayURL, Token: b.RelayToken, LichessResults: broadcast.LichessRelay(b.RelayURL)})
		}
	}
	return s.broadcastWire(r), nil
}

// ListBroadcasts lists every round of a tournament, or every round that
// is public or has a relay, with its relay's status.
func (a *Service) ListBroadcasts(ctx context.Context, req *pb.ListBroadcastsRequest) (*pb.ListBroadcastsResponse, error) {
	s := a
	var rounds []storage.RoundRecord
	if req.GetTournament() != "" {
		t, err := s.hall.Tournament(req.GetTournament())
		if err != nil {
			return nil, err
		}
		rounds = s.hall.Rounds(t.ID)
	} else {
		for _, r := range s.hall.Rounds("") {
			if b, _ := s.hall.Broadcast(r.ID); s.hall.RoundPublic(r.ID) || b.RelayURL != "" {
				rounds = append(rounds, r)
			}
		}
	}
	names := map[string]string{}
	for _, r := range rounds {
		t, _ := s.hall.TournamentByID(r.TournamentID)
		names[r.ID] = t.Name
	}
	sort.Slice(rounds, func(i, j int) bool {
		if names[rounds[i].ID] != names[rounds[j].ID] {
			return names[rounds[i].ID] < names[rounds[j].ID]
		}
		return rounds[i].Number < rounds[j].Number
	})
	out := &pb.ListBroadcastsResponse{}
	for _, r := range rounds {
		out.Broadcasts = append(out.Broadcasts, s.broadcastWire(r))
	}
	return out, nil
}

// broadcastWire is a round's broadcast settings and its relay's status.
func (s *Service) broadcastWire(r storage.RoundRecord) *pb.RoundBroadcast {
	public := s.hall.RoundPublic(r.ID)
	t, _ := s.hall.TournamentByID(r.TournamentID)
	out := &pb.RoundBroadcast{RoundId: r.ID, TournamentName: t.Name, Number: int32(r.Number), Public: public,
		PgnPath: "/api/pgn/round/" + url.PathEscape(r.ID), DisplayPath: "/display/round/" + url.PathEscape(r.ID),
		DelayMs: s.opts.BroadcastDelay.Milliseconds()}
	if st, ok := s.feeds.RelayStatus(r.ID); ok {
		out.Relay = &pb.RelayStatus{Url: st.URL, TokenSet: st.TokenSet, State: st.State, Behind: st.Behind,
			Pushes: st.Pushes, Failures: st.Failures, ConsecutiveFailures: int32(st.ConsecutiveFailures),
			LastAttemptUnixMs: unixMs(st.LastAttempt), LastSuccessUnixMs: unixMs(st.LastSuccess), LastError: st.LastError,
			LastHttpStatus: int32(st.LastHTTPStatus), PushedGames: int32(st.PushedGames), PushedBytes: int64(st.PushedBytes),
			GameErrors: st.GameErrors, NextAttemptUnixMs: unixMs(st.NextAttempt)}
	}
	return out
}

// serveBroadcasts answers GET /api/broadcasts[?tournament=]: the
// ListBroadcasts response in protojson, for the arbiters' dashboard.
func (s *Service) serveBroadcasts(w http.ResponseWriter, r *http.Request) {
	s.serveCall(w, r, []auth.Role{auth.RoleChief, auth.RoleArbiter}, true, func(ctx context.Context) (proto.Message, error) {
		return s.ListBroadcasts(ctx, &pb.ListBroadcastsRequest{Tournament: r.URL.Query().Get("tournament")})
	})
}

// unixMs is t in Unix milliseconds, 0 for the zero time.
func unixMs(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}
