package hall

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/chesshall/hallclock/formats/words"
	"github.com/chesshall/hallclock/internal/wire"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
	"github.com/chesshall/hallclock/storage"
)

// deviceOutcome is what became of a device event.
type deviceOutcome struct {
	rejected *pb.Rejection // nil when applied
}

// applyDevice applies one device event (already checked by its session:
// its sequence number and its content, ValidateContent) and commits it,
// or commits its refusal (writeRefusal). It runs on the actor.
// A resent event (one the hall acknowledged before it was restored from
// an older backup) was recorded by the device on this board, which it may
// have left since; a command of the arbiter it carries out that the hall
// lost with the restore is taken from the clock's record of it.
func (b *Board) applyDevice(ctx context.Context, dev string, ev *pb.DeviceEvent, resent bool) (deviceOutcome, error) {
	actor := "device:" + dev
	// refuse commits the refusal of code with its English msg and the
	// parameters of its words besides the event, the device and the command.
	refuse := func(code, msg string, params ...string) (deviceOutcome, error) {
		rej := &pb.Rejection{Seq: ev.GetSeq(), Code: code, Message: msg}
		event := ""
		if e, err := wire.Event(ev.GetAction(), false); err == nil {
			event = e.Kind.String()
		}
		m := words.RefusedCode(code, event, msg, append([]string{"device", dev, "command", ev.GetCommandId()}, params...)...)
		cmd := b.findCommand(ev.GetCommandId())
		cmdID := ""
		if cmd != nil {
			cmdID = cmd.rec.ID
		} else if resent {
			cmdID = ev.GetCommandId() // the clock's record of a command the hall lost
		}
		if err := b.h.writeRefusal(ctx, b.rec.ID, dev, ev, msg, m, cmd, cmdID); err != nil {
			return deviceOutcome{}, err
		}
		if cmd != nil {
			b.resolve(cmd, commandResult{status: pb.CommandStatus_COMMAND_STATUS_REFUSED, message: msg, words: m})
		}
		return deviceOutcome{rejected: rej}, nil
	}
	if !resent && (b.rec.DeviceID != dev || b.rec.Source != storage.SourceDevice) {
		return refuse("permission_denied", fmt.Sprintf("device %s does not keep board %s's clock", dev, b.rec.ID))
	}
	e, err := wire.Event(ev.GetAction(), false)
	if err != nil {
		return refuse("invalid", wire.InField("event.action", err).Error())
	}
	cmd := b.findCommand(ev.GetCommandId())
	if ev.GetCommandId() != "" && cmd == nil && resent {
		var msg string
		if cmd, msg, err = b.restoredCommand(ctx, dev, ev); err != nil {
			return deviceOutcome{}, err
		}
		if cmd == nil {
			return refuse("unknown_command", msg)
		}
	}
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
		rule := ""
		if r := rules.RefusalOf(err); r != nil {
			rule = r.Rule
		}
		return refuse(refusalCode(err), wire.InField("event.action", err).Error(), "rule", rule)
	}
	var alert words.Message
	if d := b.h.opts.DisplayTolerance; d >= 0 && (abs(ev.GetWhiteMs()-next.P[rules.White].MainMs) > d || abs(ev.GetBlackMs()-next.P[rules.Black].MainMs) > d) {
		n := func(v int64) string { return strconv.FormatInt(v, 10) }
		alert = words.Message{Kind: "alert.display_check", Params: map[string]string{
			"device": dev, "white_ms": n(ev.GetWhiteMs()), "black_ms": n(ev.GetBlackMs()), "seq": n(int64(b.seq + 1)),
			"rules_white_ms": n(next.P[rules.White].MainMs), "rules_black_ms": n(next.P[rules.Black].MainMs),
			"text": fmt.Sprintf("device %s shows white %d ms, black %d ms after board event %d; the rules give %d ms and %d ms",
				dev, ev.GetWhiteMs(), ev.GetBlackMs(), b.seq+1, next.P[rules.White].MainMs, next.P[rules.Black].MainMs)}}
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
		return words.RefusalName(r.Code)
	}
	if errors.Is(err, rules.ErrInvalid) {
		return "invalid"
	}
	return "refused"
}

// apply runs applyDevice on the actor (Session.Event): rejected says why
// the event was refused (nil: applied); either way the device's sequence
// number is acknowledged in the same transaction. A resent event is one
// the hall acknowledged before it was restored from an older backup,
// resent by the device that recorded it on this board (Restored.Takes):
// the device need not keep the board now, and an arbiter's command it
// carries out that the hall lost is taken from the clock's record of it
// (the command's action, as the event carries it, who gave it and why),
// or refused saying why.
func (b *Board) apply(ctx context.Context, dev string, ev *pb.DeviceEvent, resent bool) (*pb.Rejection, error) {
	var out deviceOutcome
	var aerr error
	if err := b.do(ctx, func() { out, aerr = b.applyDevice(ctx, dev, ev, resent) }); err != nil {
		return nil, err
	}
	return out.rejected, aerr
}

// restoredCommand makes, from a resent event, the arbiter's command it
// carries out, which the hall lost with the restore: the command is the
// event's action (the clock applied it with the arbiter's authority), by
// whom and why the clock recorded. It is stored with the event (commit).
// A command id the hall knows, resolved, is not made again: msg says why.
func (b *Board) restoredCommand(ctx context.Context, dev string, ev *pb.DeviceEvent) (c *command, msg string, err error) {
	id := ev.GetCommandId()
	known, err := b.h.store.Command(ctx, id)
	switch {
	case err == nil:
		return nil, fmt.Sprintf("command %s was %s before the restore (%s); the clock's record of it is not taken again", id, known.Status, known.Message), nil
	case !errors.Is(err, storage.ErrNotFound):
		return nil, "", err
	}
	e, err := wire.Event(ev.GetAction(), true)
	if err != nil {
		return nil, fmt.Sprintf("device %s's record of command %s does not read: %v", dev, id, err), nil
	}
	act := wire.Action(e)
	act.TMs = 0
	by := ev.GetCommandIssuedBy()
	if by == "" {
		by = "unknown (lost in a restore)"
	}
	return &command{action: act, event: e, restored: true, rec: storage.CommandRecord{ID: id, BoardID: b.rec.ID, Action: ActionJSON(act),
		Reason: ev.GetCommandReason(), IssuedBy: by, Issued: b.h.clock.Now(), Status: storage.CommandPending,
		Message: fmt.Sprintf("taken from device %s's record after a restore from an older backup, which lost the command", dev)}}, "", nil
}
