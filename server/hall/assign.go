package hall

import (
	"context"
	"fmt"

	"github.com/chesshall/hallclock/formats/words"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
	"github.com/chesshall/hallclock/server/auth"
	"github.com/chesshall/hallclock/server/hallerr"
	"github.com/chesshall/hallclock/storage"
)

// Who keeps a board's clock: a device (assigned, replaced, swapped), or
// the server itself (a virtual clock, when the device died: 6.10.1).

// AssignDevice makes dev keep b's clock on behalf of id (a new or
// replacement device, FIDE 6.10.1): the previous device is told it has no
// board, the new one gets the board with its history and continues its
// time line. A device busy on another board is taken only with replace
// (the busy-device rule, claimDevice). A board at a table puts the device
// there in its venue's hall plan.
func (h *Hall) AssignDevice(ctx context.Context, id *auth.Identity, b *Board, dev, reason string, replace bool) error {
	move, err := h.claimDevice(ctx, id, dev, b.rec.ID, replace)
	if err != nil {
		return err
	}
	var prev string
	var werr error
	round, _ := h.Round(b.rec.RoundID)
	err = b.do(ctx, func() {
		prev = b.rec.DeviceID
		werr = h.store.Write(ctx, func(tx *storage.Tx) error {
			if err := tx.SetBoardDevice(b.rec.ID, dev); err != nil {
				return err
			}
			if err := tx.SetBoardSource(b.rec.ID, storage.SourceDevice); err != nil {
				return err
			}
			if b.rec.Table > 0 {
				// The replacement stays at the table: the hall plan follows.
				if err := tx.SetPlanTable(round.Venue, b.rec.Table, dev); err != nil {
					return err
				}
			}
			if err := move.Audit(tx, id.Actor(), b.rec.ID, reason); err != nil {
				return err
			}
			what := fmt.Sprintf("assign device %s (was %q)%s", dev, prev, move.Note())
			return tx.AddAudit(&storage.AuditRecord{BoardID: b.rec.ID, Actor: id.Actor(), What: what, Reason: reason, Outcome: storage.OutcomeApplied,
				Kind: "did.assign_device", Params: map[string]string{"device": dev, "was": prev, "text": what}})
		})
		if werr != nil {
			return
		}
		b.keptBy(dev)
	})
	if err != nil {
		return err
	}
	if werr != nil {
		return werr
	}
	h.moveDevice(dev, b.rec.ID)
	if prev != "" && prev != dev {
		h.releaseDevice(prev, b.rec.ID)
		h.SendAssignment(h.ctx, prev, false)
	}
	h.SendAssignment(h.ctx, dev, true)
	return nil
}

// keptBy makes dev the board's clock from now (stored already): the
// virtual clock, if any, stops. It runs on the actor.
func (b *Board) keptBy(dev string) {
	b.rec.DeviceID = dev
	b.rec.Source = storage.SourceDevice
	b.stopTimer()
	b.online = b.deviceConnected()
	b.publishLive()
}

// SwapDevices gives each of two boards the other's device, on behalf of
// id, who may act on both: the busy-device rule's replace, said by the
// call.
func (h *Hall) SwapDevices(ctx context.Context, id *auth.Identity, a, b *Board, reason string) error {
	if a == b {
		return hallerr.BadRequest("cannot swap board %s with itself", a.rec.ID)
	}
	var da, db string
	_ = a.do(ctx, func() { da = a.rec.DeviceID })
	_ = b.do(ctx, func() { db = b.rec.DeviceID })
	if da == "" || db == "" {
		return fmt.Errorf("%w: both boards need a device to swap (%s has %q, %s has %q)", hallerr.ErrNoDevice, a.rec.ID, da, b.rec.ID, db)
	}
	if err := h.AssignDevice(ctx, id, a, db, reason, true); err != nil {
		return err
	}
	return h.AssignDevice(ctx, id, b, da, reason, true)
}

// UseVirtualClock makes the server keep b's clock from now, on behalf of
// id: its device is retired (and told so), the board's time line goes on
// on the server's clock from the estimate of board time now, and commands
// that waited for the device are applied (or refused) at once.
func (h *Hall) UseVirtualClock(ctx context.Context, id *auth.Identity, b *Board, reason string) error {
	var prev string
	var werr error
	err := b.do(ctx, func() {
		prev = b.rec.DeviceID
		werr = h.store.Write(ctx, func(tx *storage.Tx) error {
			if err := tx.SetBoardSource(b.rec.ID, storage.SourceVirtual); err != nil {
				return err
			}
			if err := tx.SetBoardDevice(b.rec.ID, ""); err != nil {
				return err
			}
			what := fmt.Sprintf("use virtual clock (device %q retired)", prev)
			return tx.AddAudit(&storage.AuditRecord{BoardID: b.rec.ID, Actor: id.Actor(), What: what, Reason: reason, Outcome: storage.OutcomeApplied,
				Kind: "did.use_virtual_clock", Params: map[string]string{"device": prev, "text": what}})
		})
		if werr != nil {
			return
		}
		b.setRef(b.now())
		b.rec.Source = storage.SourceVirtual
		b.rec.DeviceID = ""
		if werr = b.applyWaitingCommands(ctx); werr != nil {
			return
		}
		b.armTimer()
		b.publishLive()
	})
	if err != nil {
		return err
	}
	if werr != nil {
		return werr
	}
	if prev != "" {
		h.releaseDevice(prev, b.rec.ID)
		h.SendAssignment(h.ctx, prev, false)
	}
	return nil
}

// applyWaitingCommands applies the commands that waited for a device now
// retired, in issue order, as the server (a refusal of the rules refuses
// the command). It runs on the actor.
func (b *Board) applyWaitingCommands(ctx context.Context) error {
	for _, c := range append([]*command(nil), b.pending...) {
		e := c.event
		e.T = b.now()
		next, err := rules.Apply(b.state, e)
		if err != nil {
			m := words.Refused(e.Kind.String(), err)
			if werr := b.h.store.Write(ctx, func(tx *storage.Tx) error {
				if err := tx.ResolveCommand(c.rec.ID, storage.CommandRefused, err.Error()); err != nil {
					return err
				}
				return tx.AddAudit(&storage.AuditRecord{BoardID: b.rec.ID, Actor: "server", What: ActionText(c.action),
					Reason: c.rec.Reason, Outcome: storage.OutcomeRefused(err.Error()), Action: c.rec.Action, CommandID: c.rec.ID,
					Kind: m.Kind, Params: m.Params})
			}); werr != nil {
				return werr
			}
			b.resolve(c, commandResult{status: pb.CommandStatus_COMMAND_STATUS_REFUSED, message: err.Error(), words: m})
			continue
		}
		if err := b.commit(ctx, change{next: next, event: e, cmd: c, actor: "server", reason: c.rec.Reason}); err != nil {
			return err
		}
	}
	return nil
}
