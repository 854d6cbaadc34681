package server

import (
	"context"
	"errors"
	"fmt"

	"google.golang.org/grpc"

	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/storage"
)

// watchService implements Watch: each stream reads the hub at its own pace
// and only its own goroutine calls Send.
type watchService struct {
	pb.UnsafeWatchServer
	s *Server
}

func (w *watchService) WatchBoard(req *pb.WatchBoardRequest, stream pb.Watch_WatchBoardServer) error {
	b, err := w.s.board(req.GetBoardId())
	if err != nil {
		return toStatus(err)
	}
	if id := IdentityFrom(stream.Context()); id.Role == RoleArbiter && !id.MaySection(b.rec.Section) {
		return toStatus(ErrPermission)
	}
	return w.serve(Scope{BoardID: req.GetBoardId()}, req.GetFromSeq(), stream)
}

func (w *watchService) WatchRound(req *pb.WatchRoundRequest, stream pb.Watch_WatchRoundServer) error {
	w.s.mu.Lock()
	_, ok := w.s.rounds[req.GetRoundId()]
	w.s.mu.Unlock()
	if !ok {
		return toStatus(fmt.Errorf("%w: round %q", storage.ErrNotFound, req.GetRoundId()))
	}
	return w.serve(Scope{RoundID: req.GetRoundId()}, req.GetFromSeq(), stream)
}

func (w *watchService) WatchHall(req *pb.WatchHallRequest, stream pb.Watch_WatchHallServer) error {
	return w.serve(Scope{}, req.GetFromSeq(), stream)
}

// serve sends updates until the client leaves or the server shuts down.
func (w *watchService) serve(scope Scope, from uint64, stream grpc.ServerStreamingServer[pb.WatchUpdate]) error {
	ctx, cancel := context.WithCancel(stream.Context())
	defer cancel()
	stop := context.AfterFunc(w.s.ctx, cancel)
	defer stop()
	id := IdentityFrom(ctx)
	if id.Role == RoleArbiter {
		scope.Sections = id.Sections
	}
	defer w.s.trackStream(id.TokenID, cancel)()
	sub := w.s.hubFor(id).Subscribe(scope, from, w.s.opts.WatchInterval)
	for {
		u, err := sub.Next(ctx)
		if err != nil {
			if errors.Is(err, context.Canceled) && w.s.ctx.Err() != nil {
				return toStatus(ErrShuttingDown)
			}
			if errors.Is(err, context.Canceled) && stream.Context().Err() == nil {
				return toStatus(fmt.Errorf("%w: the token was revoked", ErrUnauthenticated))
			}
			return toStatus(err)
		}
		if err := stream.Send(u); err != nil {
			return err
		}
	}
}
