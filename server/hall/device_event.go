package hall

import (
	"context"
	"errors"
	"fmt"

	"github.com/chesshall/hallclock/internal/wire"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
	"github.com/chesshall/hallclock/storage"
)

// deviceOutcome is what became of a device event.
type deviceOutcome struct {
	rejected *pb.Rejection // nil when applied
}

// applyDevice applies one device event (already checked for its sequence
// number) and commits it, or commits its refusal. It runs on the actor.
func (b *Board) applyDevice(ctx context.Context, dev string, ev *pb.DeviceEvent) (deviceOutcome, error) {
	actor := "device:" + dev
	refuse := func(code, msg string) (deviceOutcome, error) {
		rej := &pb.Rejection{Seq: ev.GetSeq(), Code: code, Message: msg}
		cmd := b.findCommand(ev.GetCommandId())
		cmdID := ""
		if cmd != nil {
			cmdID = cmd.rec.ID
		}
		err := b.h.store.Write(ctx, func(tx *storage.Tx) error {
			if err := tx.AckDevice(dev, ev.GetSeq()); err != nil {
				return err
			}
			if cmd != nil {
				if err := tx.ResolveCommand(cmd.rec.ID, storage.CommandRefused, msg); err != nil {
					return err
				}
			}
			return tx.AddAudit(&storage.AuditRecord{BoardID: b.rec.ID, Actor: actor, What: ActionText(ev.GetAction()),
				Outcome: storage.OutcomeRefused(msg), Action: ActionJSON(ev.GetAction()), CommandID: cmdID})
		})
		if err != nil {
			return deviceOutcome{}, err
		}
		if cmd != nil {
			b.resolve(cmd, commandResult{status: pb.CommandStatus_COMMAND_STATUS_REFUSED, message: msg})
		}
		return deviceOutcome{rejected: rej}, nil
	}
	if b.rec.DeviceID != dev || b.rec.Source != storage.SourceDevice {
		return refuse("permission_denied", fmt.Sprintf("device %s does not keep board %s's clock", dev, b.rec.ID))
	}
	if err := ev.GetAction().Validate(); err != nil {
		return refuse("invalid", err.Error())
	}
	e, err := wire.Event(ev.GetAction(), false)
	if err != nil {
		return refuse("invalid", wire.InField("event.action", err).Error())
	}
	cmd := b.findCommand(ev.GetCommandId())
	if ev.GetCommandId() != "" && cmd == nil {
		return refuse("unknown_command", fmt.Sprintf("command %s is not pending on board %s", ev.GetCommandId(), b.rec.ID))
	}
	if cmd != nil {
		// The server's copy of the command decides what it does; the
		// device decides only when.
		t := e.T
		e = cmd.event
		e.T = t
	}
	next, err := rules.Apply(b.state, e)
	if err != nil {
		return refuse(refusalCode(err), wire.InField("event.action", err).Error())
	}
	var alert string
	if d := b.h.opts.DisplayTolerance; d >= 0 && (abs(ev.GetWhiteMs()-next.P[rules.White].MainMs) > d || abs(ev.GetBlackMs()-next.P[rules.Black].MainMs) > d) {
		alert = fmt.Sprintf("device %s shows white %d ms, black %d ms after board event %d; the rules give %d ms and %d ms",
			dev, ev.GetWhiteMs(), ev.GetBlackMs(), b.seq+1, next.P[rules.White].MainMs, next.P[rules.Black].MainMs)
	}
	if err := b.commit(ctx, change{next: next, event: e, device: dev, deviceSeq: ev.GetSeq(), cmd: cmd, actor: actor, alert: alert}); err != nil {
		return deviceOutcome{}, err
	}
	b.setRef(e.T)
	return deviceOutcome{}, nil
}

func abs(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}

func refusalCode(err error) string {
	if r := rules.RefusalOf(err); r != nil {
		return refusalNames[r.Code]
	}
	if errors.Is(err, rules.ErrInvalid) {
		return "invalid"
	}
	return "refused"
}

var refusalNames = map[rules.RefusalCode]string{
	rules.RefusedOther: "refused", rules.RefusedGameOver: "game_over", rules.RefusedNotStarted: "not_started",
	rules.RefusedStarted: "already_started", rules.RefusedNotRunning: "not_running", rules.RefusedRunning: "clock_running",
	rules.RefusedNotPaused: "not_paused", rules.RefusedNotToMove: "not_to_move", rules.RefusedAbsent: "absent",
	rules.RefusedPresent: "present", rules.RefusedNoFlag: "no_flag", rules.RefusedOwnFlag: "own_flag",
	rules.RefusedMoveStands: "move_stands", rules.RefusedNotApplicable: "not_applicable", rules.RefusedTimeLimit: "time_limit",
	rules.RefusedTimeBackwards: "time_backwards", rules.RefusedNegativeTime: "negative_time",
	rules.RefusedSettingLocked: "setting_locked", rules.RefusedInvalid: "invalid",
}

// ApplyDevice applies one event of the board's device (already checked
// for its sequence number) on the actor and commits it, or commits its
// refusal: rejected says why it was refused (nil: applied). Either way
// the device's sequence number is acknowledged in the same transaction.
func (b *Board) ApplyDevice(ctx context.Context, dev string, ev *pb.DeviceEvent) (rejected *pb.Rejection, err error) {
	var out deviceOutcome
	var aerr error
	if err := b.do(ctx, func() { out, aerr = b.applyDevice(ctx, dev, ev) }); err != nil {
		return nil, err
	}
	return out.rejected, aerr
}
