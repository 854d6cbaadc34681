package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"google.golang.org/grpc"

	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/server/auth"
	"github.com/chesshall/hallclock/server/fanout"
	"github.com/chesshall/hallclock/server/hallerr"
	"github.com/chesshall/hallclock/storage"
)

// watchService implements Watch: each stream reads the hub at its own pace
// and only its own goroutine calls Send. The updates of a scope are built
// and encoded once and shared by its watchers (package fanout).
type watchService struct {
	pb.UnsafeWatchServer
	s *Server
}

func (w *watchService) WatchBoard(req *pb.WatchBoardRequest, stream pb.Watch_WatchBoardServer) error {
	scope := fanout.Scope{BoardID: req.GetBoardId()}
	if err := w.s.scopeFor(auth.IdentityFrom(stream.Context()), scope); err != nil {
		return err
	}
	return w.serve(scope, req.GetFromSeq(), stream)
}

func (w *watchService) WatchRound(req *pb.WatchRoundRequest, stream pb.Watch_WatchRoundServer) error {
	scope := fanout.Scope{RoundID: req.GetRoundId()}
	if err := w.s.scopeFor(auth.IdentityFrom(stream.Context()), scope); err != nil {
		return err
	}
	return w.serve(scope, req.GetFromSeq(), stream)
}

func (w *watchService) WatchHall(req *pb.WatchHallRequest, stream pb.Watch_WatchHallServer) error {
	return w.serve(fanout.Scope{}, req.GetFromSeq(), stream)
}

// scopeFor checks that a watch scope names a board or round that exists,
// and that an arbiter limited to sections may watch the board (a board of
// another section is "no such board", as one that does not exist).
func (s *Server) scopeFor(id *auth.Identity, scope fanout.Scope) error {
	if scope.BoardID != "" {
		b, err := s.hall.Board(scope.BoardID)
		if err != nil {
			return err
		}
		if !id.MaySection(b.Section()) {
			// As a board that does not exist: nothing of another section.
			return fmt.Errorf("%w %q", hallerr.ErrUnknownBoard, scope.BoardID)
		}
	}
	if scope.RoundID != "" {
		if _, ok := s.hall.Round(scope.RoundID); !ok {
			return fmt.Errorf("%w: round %q", storage.ErrNotFound, scope.RoundID)
		}
	}
	return nil
}

// serve sends updates until the client leaves or the server shuts down.
func (w *watchService) serve(scope fanout.Scope, from uint64, stream grpc.ServerStreamingServer[pb.WatchUpdate]) error {
	ctx, cancel := context.WithCancel(stream.Context())
	defer cancel()
	stop := context.AfterFunc(w.s.ctx, cancel)
	defer stop()
	id := auth.IdentityFrom(ctx)
	if id.Role == auth.RoleArbiter {
		scope.Sections = id.Sections
	}
	defer w.s.streams.Track(id.TokenID, cancel)()
	hub := w.s.hubFor(id)
	if err := fanout.CheckResume(hub, from); err != nil {
		return err
	}
	sub := hub.Subscribe(scope, from, w.s.opts.WatchInterval)
	defer sub.Close()
	for {
		u, err := sub.NextUpdate(ctx)
		if err != nil {
			if errors.Is(err, context.Canceled) && w.s.ctx.Err() != nil {
				return hallerr.ErrShuttingDown
			}
			if errors.Is(err, context.Canceled) && stream.Context().Err() == nil {
				return fmt.Errorf("%w: the token was revoked", hallerr.ErrUnauthenticated)
			}
			return err
		}
		// The same bytes go to every watcher of the scope (codec).
		b, err := u.Proto()
		if err != nil {
			return err
		}
		if err := stream.SendMsg(fanout.Encoded(b)); err != nil {
			return err
		}
	}
}

// serveWatch streams the hall (or ?round=, ?board=) as server-sent events:
// each event is a WatchUpdate in protojson, with the state it brings the
// page to as the event id (fanout.EventID: the seq, and a count of changes
// without one after it), so a browser's EventSource resumes from
// Last-Event-ID exactly.
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
	var from fanout.EventID
	if v := r.Header.Get("Last-Event-ID"); v != "" {
		if from, err = fanout.ParseEventID(v); err != nil {
			s.codes.WriteHTTP(w, hallerr.BadRequest("Last-Event-ID %q: %v", v, err))
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
	if err := fanout.CheckResumeAt(hub, from); err != nil {
		s.codes.WriteHTTP(w, err)
		return
	}
	ctx := r.Context()
	stop := s.streams.TrackContext(s.ctx, id.TokenID, &ctx)
	defer stop()
	sub := hub.SubscribeAt(scope, from, s.opts.WatchInterval)
	defer sub.Close()
	fanout.SendSSE(ctx, w, fl, r, sub, nil)
}
