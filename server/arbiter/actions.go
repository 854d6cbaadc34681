package arbiter

import (
	"context"
	"sort"
	"time"

	"github.com/chesshall/hallclock/formats/words"
	"github.com/chesshall/hallclock/internal/wire"
	"github.com/chesshall/hallclock/internal/wirewords"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/server/auth"
	"github.com/chesshall/hallclock/server/hallerr"
)

func (a *Service) StartRound(ctx context.Context, req *pb.StartRoundRequest) (*pb.StartRoundResponse, error) {
	s := a
	ids := req.GetBoardIds()
	if len(ids) == 0 {
		r, err := s.hall.FindRound(req.GetRoundId())
		if err != nil {
			return nil, err
		}
		// The boards of the caller's sections: an arbiter limited to
		// sections starts those, and hears of no other.
		for _, b := range s.readerOf(ctx).boards(s.hall.Boards(r.ID)) {
			ids = append(ids, b.ID())
		}
		sort.Strings(ids)
	}
	absent := map[string]*pb.ClockAction{}
	for _, id := range ids {
		absent[id] = &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_START}
	}
	for _, ab := range req.GetAbsent() {
		act, ok := absent[ab.GetBoardId()]
		if !ok {
			return nil, hallerr.BadRequest("absence on board %q, which is not being started", ab.GetBoardId())
		}
		switch ab.GetSide() {
		case pb.Side_SIDE_WHITE:
			act.AbsentWhite = true
		case pb.Side_SIDE_BLACK:
			act.AbsentBlack = true
		default:
			return nil, hallerr.BadRequest("absence on board %q needs a side", ab.GetBoardId())
		}
	}
	// Every clock at once: the commands go out together, then we wait.
	out := make([]*pb.BoardActionResponse, len(ids))
	done := make(chan struct{}, len(ids))
	for i, id := range ids {
		go func() {
			defer func() { done <- struct{}{} }()
			r, err := a.act(ctx, id, absent[id], "start of round", 0)
			if err != nil {
				r = &pb.BoardActionResponse{BoardId: id, Status: pb.CommandStatus_COMMAND_STATUS_REFUSED, Message: err.Error(),
					Words: wirewords.Words(words.Refused("start", err))}
			}
			out[i] = r
		}()
	}
	for range ids {
		<-done
	}
	return &pb.StartRoundResponse{Boards: out}, nil
}

func (a *Service) BoardAction(ctx context.Context, req *pb.BoardActionRequest) (*pb.BoardActionResponse, error) {
	// A bad value (a result, a FEN) is refused naming its field.
	if req.GetDryRun() {
		r, err := a.dryRun(ctx, req.GetBoardId(), req.GetAction())
		if err != nil {
			return nil, wire.InField("action", err)
		}
		return r, nil
	}
	r, err := a.act(ctx, req.GetBoardId(), req.GetAction(), req.GetReason(), req.GetWaitMs())
	if err != nil {
		return nil, wire.InField("action", err)
	}
	return r, nil
}

// flagRefused: a flag is the clock's to report.
const flagRefused = "a flag is reported by the clock, not declared: claim it (FLAG_CLAIM) or record the result"

// act submits an action on a board the caller may act on and waits for
// the device up to waitMs (0: the server's CommandWait; negative: not at
// all).
func (a *Service) act(ctx context.Context, boardID string, action *pb.ClockAction, reason string, waitMs int64) (*pb.BoardActionResponse, error) {
	b, err := a.boardFor(ctx, boardID)
	if err != nil {
		return nil, err
	}
	if action.GetKind() == pb.ActionKind_ACTION_KIND_FLAG {
		return nil, hallerr.BadRequest(flagRefused)
	}
	wait := a.opts.CommandWait
	switch {
	case waitMs > 0:
		wait = time.Duration(waitMs) * time.Millisecond
	case waitMs < 0:
		wait = -1
	}
	tournament, before, names := a.correctionBefore(ctx, b, action)
	r, err := b.Act(ctx, auth.IdentityFrom(ctx), action, reason, wait)
	if err == nil && before != nil && r.GetStatus() == pb.CommandStatus_COMMAND_STATUS_APPLIED {
		if err := a.auditStandingsMoved(ctx, b, tournament, before, names); err != nil {
			a.log.Warn("the standings a correction moved are not in the audit log", "board", b.ID(), "err", err)
		}
	}
	return r, err
}

// dryRun answers what an action would do on a board the caller may act
// on, changing nothing.
func (a *Service) dryRun(ctx context.Context, boardID string, action *pb.ClockAction) (*pb.BoardActionResponse, error) {
	b, err := a.boardFor(ctx, boardID)
	if err != nil {
		return nil, err
	}
	if action.GetKind() == pb.ActionKind_ACTION_KIND_FLAG {
		return nil, hallerr.BadRequest(flagRefused)
	}
	return b.DryRun(ctx, auth.IdentityFrom(ctx), action)
}
