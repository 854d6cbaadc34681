package hall

import (
	"context"
	"fmt"
	"time"

	"github.com/chesshall/hallclock/formats/words"
	"github.com/chesshall/hallclock/internal/wire"
	"github.com/chesshall/hallclock/internal/wirewords"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
	"github.com/chesshall/hallclock/server/auth"
	"github.com/chesshall/hallclock/server/hallerr"
	"github.com/chesshall/hallclock/storage"
)

// Act submits an arbiter's action on the board on behalf of id: checked
// against the rules at once, then applied (a virtual clock) or sent to the
// board's device as a command, whose outcome it waits for up to wait
// (negative: not at all; a device offline: not at all, the command waits,
// visibly). A refusal of the rules is an answer (COMMAND_STATUS_REFUSED),
// not an error. The answer carries the board's state as it is then.
func (b *Board) Act(ctx context.Context, id *auth.Identity, action *pb.ClockAction, reason string, wait time.Duration) (*pb.BoardActionResponse, error) {
	var cmd *command
	var res commandResult
	var serr error
	done := make(chan commandResult, 1)
	if err := b.do(ctx, func() {
		cmd, res, serr = b.submit(ctx, id, action, reason)
		if cmd != nil {
			cmd.waiters = append(cmd.waiters, done)
		}
	}); err != nil {
		return nil, err
	}
	resp := &pb.BoardActionResponse{BoardId: b.rec.ID, Status: res.status, Message: res.message, Words: wirewords.Words(res.words)}
	if serr != nil {
		if r := rules.RefusalOf(serr); r == nil || r.Code == rules.RefusedNotPermitted {
			// Not a refusal of the board's state but of the person: the
			// Laws do not let him do it (an assistant beyond D.2.10).
			return nil, serr
		}
		resp.Status, resp.Message = pb.CommandStatus_COMMAND_STATUS_REFUSED, serr.Error()
		if resp.Words == nil {
			resp.Words = wirewords.Words(words.Refused(action.GetKind().String(), serr))
		}
	}
	if cmd != nil {
		resp.CommandId = cmd.rec.ID
		// Wait for the device to apply it, unless it is offline: then the
		// command waits, visibly, and the arbiter is told at once.
		if wait >= 0 && res.sent {
			t := b.h.clock.After(wait)
			select {
			case r := <-done:
				resp.Status, resp.Message, resp.Words = r.status, r.message, wirewords.Words(r.words)
			case <-t:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
	}
	_ = b.do(ctx, func() { resp.State = b.wireState(b.state.Project(b.now()), b.seq) })
	return resp, nil
}

// DryRun answers what an action would do on the board now — the rules'
// refusal, or the state it would give — without sending, storing or
// auditing anything: the confirmation a person sees before acting.
func (b *Board) DryRun(ctx context.Context, id *auth.Identity, action *pb.ClockAction) (*pb.BoardActionResponse, error) {
	e, err := wire.Event(action, true)
	if err != nil {
		return nil, err
	}
	resp := &pb.BoardActionResponse{BoardId: b.rec.ID}
	var derr error
	if err := b.do(ctx, func() {
		if b.rec.Source != storage.SourceVirtual && b.rec.DeviceID == "" && e.Kind != rules.KindResult {
			// A result is the scoresheet's, as Act takes it (scoresheetResult).
			derr = fmt.Errorf("%w: board %s has no clock device; assign one or use a virtual clock (a result from the scoresheet needs neither)", hallerr.ErrNoDevice, b.rec.ID)
			return
		}
		e.T = b.now()
		perr := b.assistantMay(id, e)
		if r := rules.RefusalOf(perr); perr != nil && (r == nil || r.Code == rules.RefusedNotPermitted) {
			derr = perr
			return
		}
		var next rules.State
		if perr == nil {
			next, perr = rules.Apply(b.state, e)
		}
		if perr != nil && rules.RefusalOf(perr) == nil {
			derr = perr // not a refusal but a malformed action, as Act answers it
			return
		}
		if perr != nil {
			resp.Status, resp.Message = pb.CommandStatus_COMMAND_STATUS_REFUSED, perr.Error()
			resp.Words = wirewords.Words(words.Refused(e.Kind.String(), perr))
			resp.State = b.wireState(b.state.Project(e.T), b.seq)
			return
		}
		resp.Status = pb.CommandStatus_COMMAND_STATUS_DRY_RUN
		resp.State = b.wireState(next, b.seq)
		// The board as it was at that instant: a preview compares the
		// two from the same time, whatever the page's own copy says.
		resp.Before = b.wireState(b.state.Project(e.T), b.seq)
		resp.Before.ServerUnixMs = resp.State.ServerUnixMs
	}); err != nil {
		return nil, err
	}
	if derr != nil {
		return nil, derr
	}
	return resp, nil
}
