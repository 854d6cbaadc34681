package server

import (
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/chesshall/hallclock/internal/wire"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
	"github.com/chesshall/hallclock/server/auth"
	"github.com/chesshall/hallclock/server/hallerr"
	"github.com/chesshall/hallclock/storage"
)

func (a *arbiterService) StartRound(ctx context.Context, req *pb.StartRoundRequest) (*pb.StartRoundResponse, error) {
	s := a.s
	ids := req.GetBoardIds()
	if len(ids) == 0 {
		s.mu.Lock()
		if _, ok := s.rounds[req.GetRoundId()]; !ok {
			s.mu.Unlock()
			return nil, fmt.Errorf("%w: round %q", storage.ErrNotFound, req.GetRoundId())
		}
		for id, b := range s.boards {
			if b.rec.RoundID == req.GetRoundId() {
				ids = append(ids, id)
			}
		}
		s.mu.Unlock()
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
				r = &pb.BoardActionResponse{BoardId: id, Status: pb.CommandStatus_COMMAND_STATUS_REFUSED, Message: err.Error()}
			}
			out[i] = r
		}()
	}
	for range ids {
		<-done
	}
	return &pb.StartRoundResponse{Boards: out}, nil
}

func (a *arbiterService) BoardAction(ctx context.Context, req *pb.BoardActionRequest) (*pb.BoardActionResponse, error) {
	if req.GetDryRun() {
		r, err := a.dryRun(ctx, req.GetBoardId(), req.GetAction())
		if err != nil {
			return nil, err
		}
		return r, nil
	}
	r, err := a.act(ctx, req.GetBoardId(), req.GetAction(), req.GetReason(), req.GetWaitMs())
	if err != nil {
		return nil, err
	}
	return r, nil
}

// act submits an action on a board and waits up to waitMs for the device.
func (a *arbiterService) act(ctx context.Context, boardID string, action *pb.ClockAction, reason string, waitMs int64) (*pb.BoardActionResponse, error) {
	b, err := a.boardFor(ctx, boardID)
	if err != nil {
		return nil, err
	}
	if action.GetKind() == pb.ActionKind_ACTION_KIND_FLAG {
		return nil, hallerr.BadRequest("a flag is reported by the clock, not declared: claim it (FLAG_CLAIM) or record the result")
	}
	id := auth.IdentityFrom(ctx)
	var cmd *command
	var res commandResult
	var serr error
	wait := make(chan commandResult, 1)
	if err := b.do(ctx, func() {
		cmd, res, serr = b.submit(ctx, id, action, reason)
		if cmd != nil {
			cmd.waiters = append(cmd.waiters, wait)
		}
	}); err != nil {
		return nil, err
	}
	resp := &pb.BoardActionResponse{BoardId: boardID, Status: res.status, Message: res.message}
	if serr != nil {
		if rules.RefusalOf(serr) == nil {
			return nil, serr
		}
		resp.Status, resp.Message = pb.CommandStatus_COMMAND_STATUS_REFUSED, serr.Error()
	}
	if cmd != nil {
		resp.CommandId = cmd.rec.ID
		d := a.s.opts.CommandWait
		if waitMs > 0 {
			d = time.Duration(waitMs) * time.Millisecond
		}
		// Wait for the device to apply it, unless it is offline: then the
		// command waits, visibly, and the arbiter is told at once.
		if waitMs >= 0 && res.sent {
			t := a.s.clock.After(d)
			select {
			case r := <-wait:
				resp.Status, resp.Message = r.status, r.message
			case <-t:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
	}
	_ = b.do(ctx, func() { resp.State = b.wireState(b.state.Project(b.now()), b.seq) })
	return resp, nil
}

// dryRun answers what an action would do on the board now — the rules'
// refusal, or the state it would give — without sending, storing or
// auditing anything: the confirmation a person sees before acting.
func (a *arbiterService) dryRun(ctx context.Context, boardID string, action *pb.ClockAction) (*pb.BoardActionResponse, error) {
	b, err := a.boardFor(ctx, boardID)
	if err != nil {
		return nil, err
	}
	if action.GetKind() == pb.ActionKind_ACTION_KIND_FLAG {
		return nil, hallerr.BadRequest("a flag is reported by the clock, not declared: claim it (FLAG_CLAIM) or record the result")
	}
	e, err := wire.Event(action, true)
	if err != nil {
		return nil, err
	}
	resp := &pb.BoardActionResponse{BoardId: boardID}
	var derr error
	if err := b.do(ctx, func() {
		if b.rec.Source != storage.SourceVirtual && b.rec.DeviceID == "" {
			derr = fmt.Errorf("%w: board %s has no clock device; assign one or use a virtual clock", hallerr.ErrNoDevice, b.rec.ID)
			return
		}
		e.T = b.now()
		next, perr := rules.Apply(b.state, e)
		if perr != nil && rules.RefusalOf(perr) == nil {
			derr = perr // not a refusal but a malformed action, as BoardAction answers it
			return
		}
		if perr != nil {
			resp.Status, resp.Message = pb.CommandStatus_COMMAND_STATUS_REFUSED, perr.Error()
			resp.State = b.wireState(b.state.Project(e.T), b.seq)
			return
		}
		resp.Status = pb.CommandStatus_COMMAND_STATUS_DRY_RUN
		resp.State = b.wireState(next, b.seq)
	}); err != nil {
		return nil, err
	}
	if derr != nil {
		return nil, derr
	}
	return resp, nil
}
