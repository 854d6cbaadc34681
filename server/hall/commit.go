package hall

import (
	"context"

	"github.com/chesshall/hallclock/formats/words"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
	"github.com/chesshall/hallclock/storage"
)

// change is an event the rules accepted, on its way to the board's log:
// everything commit writes in one transaction.
type change struct {
	next  rules.State // the board's state after it
	event rules.Event
	// device and deviceSeq name the device's event it is (acknowledged in
	// the same transaction); none for the arbiter's or the server's.
	device    string
	deviceSeq uint64
	cmd       *command // the arbiter command it carries out, if any
	actor     string   // who: "device:d1", "chief:Anna", "server"
	reason    string
	alert     words.Message // a failed display check to audit, if any
	note      string        // what the audit log says of it besides the event, if anything: a result from the scoresheet (kind "did.scoresheet_result"), the only note there is
}

// commit writes an applied event (with its device acknowledgement, command
// resolution and any alert) in one transaction, then takes the new state.
// The hub hears of it after the commit, in hall-wide order.
func (b *Board) commit(ctx context.Context, c change) error {
	seq := b.seq + 1
	alerts := b.alerts
	if !c.alert.IsZero() {
		alerts = append(append([]words.Message(nil), alerts...), c.alert)
		if len(alerts) > maxAlerts {
			alerts = alerts[len(alerts)-maxAlerts:]
		}
	}
	pendingAfter := b.pending
	if c.cmd != nil {
		pendingAfter = without(b.pending, c.cmd)
	}
	rec := storage.EventRecord{BoardID: b.rec.ID, BoardSeq: seq, Event: c.event, DeviceID: c.device, DeviceSeq: c.deviceSeq, Actor: c.actor, Reason: c.reason}
	if c.cmd != nil {
		rec.CommandID = c.cmd.rec.ID
		rec.Reason = c.cmd.rec.Reason
	}
	ruling := b.ruling
	if r := timeRuling(b.state, c.next, c.event); r != nil {
		r.BoardSeq, r.UnixMs, r.By = seq, b.h.clock.Now().UnixMilli(), c.actor
		if c.cmd != nil {
			r.By = c.cmd.rec.IssuedBy
		}
		ruling = r
	}
	ws := b.wireStateWith(c.next, seq, alerts, len(pendingAfter))
	ws.LastRuling = ruling
	roundID := b.rec.RoundID
	// What the transaction needs of c, taken out of it: c (the board's
	// whole state after the event) would otherwise move to the heap for
	// the function handed to the writer, at every press; the state is
	// copied only for a snapshot. Nothing below may name c
	// (TestCommitKeepsTheChangeOffTheHeap).
	var snapshot *rules.State
	if seq%storage.SnapshotEvery == 0 || c.next.Over() {
		next := c.next
		snapshot = &next
	}
	cmd, actor, reason, note, alert, kind := c.cmd, c.actor, c.reason, c.note, c.alert, c.event.Kind
	err := b.h.store.Write(ctx, func(tx *storage.Tx) error {
		if err := tx.AppendEvent(&rec); err != nil {
			return err
		}
		if snapshot != nil {
			if err := tx.PutSnapshot(b.rec.ID, seq, *snapshot); err != nil {
				return err
			}
		}
		if cmd != nil && cmd.restored {
			cr := cmd.rec
			cr.Status, cr.Resolved = storage.CommandApplied, cr.Issued
			if err := tx.PutCommand(&cr); err != nil {
				return err
			}
			if err := tx.AddAudit(&storage.AuditRecord{BoardID: b.rec.ID, Actor: actor, What: ActionText(cmd.action) + " (command " + cr.ID + ", by " + cr.IssuedBy + ")",
				Reason: cr.Reason, Outcome: storage.OutcomeAlert(cr.Message), Action: cr.Action, BoardSeq: seq, CommandID: cr.ID}); err != nil {
				return err
			}
		} else if cmd != nil {
			if err := tx.ResolveCommand(cmd.rec.ID, storage.CommandApplied, ""); err != nil {
				return err
			}
		}
		if note != "" {
			if err := tx.AddAudit(&storage.AuditRecord{BoardID: b.rec.ID, Actor: actor, What: note, Reason: reason,
				Outcome: storage.OutcomeApplied, BoardSeq: seq, Kind: "did.scoresheet_result", Params: map[string]string{"event": kind.String(), "text": note}}); err != nil {
				return err
			}
		}
		if !alert.IsZero() {
			if err := tx.AddAudit(&storage.AuditRecord{BoardID: b.rec.ID, Actor: "server", What: "display check",
				Outcome: storage.OutcomeAlert(alert.Params["text"]), BoardSeq: seq, Kind: alert.Kind, Params: alert.Params}); err != nil {
				return err
			}
		}
		tx.AfterCommit(func() { b.h.publish(roundID, ws, rec.Seq) })
		return nil
	})
	if err != nil {
		return err
	}
	b.state, b.seq, b.ruling = c.next, seq, ruling
	b.alerts, b.pending = alerts, pendingAfter
	if c.cmd != nil {
		b.resolve(c.cmd, commandResult{status: pb.CommandStatus_COMMAND_STATUS_APPLIED, message: ""})
	}
	if b.rec.Source == storage.SourceVirtual {
		b.armTimer()
	}
	return nil
}
