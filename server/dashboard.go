package server

import (
	"net/http"
	"strconv"

	"google.golang.org/protobuf/encoding/protojson"

	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/server/auth"
	"github.com/chesshall/hallclock/server/fanout"
	"github.com/chesshall/hallclock/server/hallerr"
)

// serveWatch streams the hall (or ?round=, ?board=) as server-sent events:
// each event is a WatchUpdate in protojson, with its seq as the event id,
// so a browser's EventSource resumes from Last-Event-ID without gaps.
func (s *Server) serveWatch(w http.ResponseWriter, r *http.Request) {
	id, err := s.sessions.WebIdentity(r, auth.RoleChief, auth.RoleArbiter, auth.RoleBroadcast)
	if err != nil {
		s.codes.WriteHTTP(w, err)
		return
	}
	fl, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	scope := fanout.Scope{BoardID: r.URL.Query().Get("board"), RoundID: r.URL.Query().Get("round")}
	if err := s.scopeFor(id, scope); err != nil {
		s.codes.WriteHTTP(w, err)
		return
	}
	if id.Role == auth.RoleArbiter {
		scope.Sections = id.Sections
	}
	var from uint64
	if v := r.Header.Get("Last-Event-ID"); v != "" {
		if from, err = strconv.ParseUint(v, 10, 64); err != nil {
			s.codes.WriteHTTP(w, hallerr.BadRequest("Last-Event-ID %q is not a sequence number", v))
			return
		}
	}
	release, err := s.streams.Acquire(id)
	if err != nil {
		s.codes.WriteHTTP(w, err)
		return
	}
	defer release()
	hub := s.hubFor(id)
	if err := fanout.CheckResume(hub, from); err != nil {
		s.codes.WriteHTTP(w, err)
		return
	}
	ctx := r.Context()
	stop := s.streams.TrackContext(s.ctx, id.TokenID, &ctx)
	defer stop()
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	fl.Flush()
	sub := hub.Subscribe(scope, from, s.opts.WatchInterval)
	defer sub.Close()
	fanout.SendSSE(ctx, w, fl, r, sub, nil)
}

// serveBoards lists the boards the caller may see, with players and live
// state (protojson of ListBoardsResponse), for the dashboard.
func (s *Server) serveBoards(w http.ResponseWriter, r *http.Request) {
	id, err := s.sessions.WebIdentity(r, auth.RoleChief, auth.RoleArbiter, auth.RoleBroadcast)
	if err != nil {
		s.codes.WriteHTTP(w, err)
		return
	}
	ctx := auth.WithIdentity(r.Context(), id)
	resp, err := (&arbiterService{s: s}).ListBoards(ctx, &pb.ListBoardsRequest{RoundId: r.URL.Query().Get("round")})
	if err != nil {
		s.codes.WriteHTTP(w, err)
		return
	}
	b, err := protojson.Marshal(resp)
	if err != nil {
		s.codes.WriteHTTP(w, err)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(b)
}
