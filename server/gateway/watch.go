package gateway

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"

	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/server/fanout"
	"github.com/chesshall/hallclock/server/hallerr"
)

// target resolves what a viewer asks to watch — a board, a round, or a
// hall — to its hall's hub and a scope, and checks the viewer may.
func (g *Gateway) target(hallID, roundID, boardID, authorization string) (*fanout.Hub, fanout.Scope, error) {
	var (
		h   *hall
		err error
	)
	scope := fanout.Scope{BoardID: boardID, RoundID: roundID}
	switch {
	case boardID != "":
		if h, roundID = g.hallOfBoard(boardID); h == nil {
			return nil, scope, fmt.Errorf("%w: board %q", errNotFound, boardID)
		}
	case roundID != "":
		if h = g.hallOfRound(roundID); h == nil {
			return nil, scope, fmt.Errorf("%w: round %q", errNotFound, roundID)
		}
	default:
		if h, err = g.hallNamed(hallID); err != nil {
			return nil, scope, err
		}
	}
	if hallID != "" && h.id != hallID {
		return nil, scope, fmt.Errorf("%w: %s is not in hall %s", errNotFound, boardID+roundID, hallID)
	}
	if err := g.mayWatch(authorization, h, roundID); err != nil {
		return nil, scope, err
	}
	return h.hub(), scope, nil
}

// watchService is the Watch service of a gateway: the hall's, read from
// its stream, everyone with the broadcast delay.
type watchService struct {
	pb.UnsafeWatchServer
	g *Gateway
}

func authorization(ctx context.Context) string {
	md, _ := metadata.FromIncomingContext(ctx)
	if v := md.Get("authorization"); len(v) > 0 {
		return v[0]
	}
	return ""
}

func (w *watchService) WatchBoard(req *pb.WatchBoardRequest, stream pb.Watch_WatchBoardServer) error {
	if err := req.Validate(); err != nil {
		return err
	}
	return w.serve(stream, "", "", req.GetBoardId(), req.GetFromSeq())
}

func (w *watchService) WatchRound(req *pb.WatchRoundRequest, stream pb.Watch_WatchRoundServer) error {
	if err := req.Validate(); err != nil {
		return err
	}
	return w.serve(stream, "", req.GetRoundId(), "", req.GetFromSeq())
}

func (w *watchService) WatchHall(req *pb.WatchHallRequest, stream pb.Watch_WatchHallServer) error {
	if err := req.Validate(); err != nil {
		return err
	}
	return w.serve(stream, req.GetHall(), "", "", req.GetFromSeq())
}

// serve sends updates until the viewer leaves or the gateway stops; only
// this goroutine calls Send.
func (w *watchService) serve(stream grpc.ServerStreamingServer[pb.WatchUpdate], hallID, roundID, boardID string, from uint64) error {
	g := w.g
	hub, scope, err := g.target(hallID, roundID, boardID, authorization(stream.Context()))
	if err != nil {
		return err
	}
	if err := fanout.CheckResume(hub, from); err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(stream.Context())
	defer cancel()
	stop := context.AfterFunc(g.ctx, cancel)
	defer stop()
	g.metrics.watchers.Inc()
	defer g.metrics.watchers.Dec()
	sub := hub.Subscribe(scope, from, g.opts.WatchInterval)
	defer sub.Close()
	for {
		u, err := sub.Next(ctx)
		if err != nil {
			if g.ctx.Err() != nil || errors.Is(err, hallerr.ErrHubClosed) {
				return hallerr.ErrShuttingDown
			}
			return err
		}
		if err := stream.Send(u); err != nil {
			return err
		}
		g.metrics.updates.Inc()
	}
}

// serveWatch streams a hall (?hall=), a round (?round=) or a board
// (?board=) as server-sent events, as the hall's /api/watch does: each
// event a WatchUpdate in protojson with its state as the event id
// (fanout.EventID), so a browser's EventSource resumes from Last-Event-ID
// exactly.
func (g *Gateway) serveWatch(w http.ResponseWriter, r *http.Request) {
	fl, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	q := r.URL.Query()
	hub, scope, err := g.target(q.Get("hall"), q.Get("round"), q.Get("board"), r.Header.Get("Authorization"))
	if err != nil {
		refusals.WriteHTTP(w, err)
		return
	}
	var from fanout.EventID
	if v := r.Header.Get("Last-Event-ID"); v != "" {
		if from, err = fanout.ParseEventID(v); err != nil {
			refusals.WriteHTTP(w, fmt.Errorf("%w: Last-Event-ID %q: %v", errBadRequest, v, err))
			return
		}
	}
	if err := fanout.CheckResumeAt(hub, from); err != nil {
		refusals.WriteHTTP(w, err)
		return
	}
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	stop := context.AfterFunc(g.ctx, cancel)
	defer stop()
	g.metrics.watchers.Inc()
	defer g.metrics.watchers.Dec()
	sub := hub.SubscribeAt(scope, from, max(g.opts.WatchInterval, 250*time.Millisecond))
	defer sub.Close()
	fanout.SendSSE(ctx, w, fl, r, sub, g.metrics.updates.Inc)
}
