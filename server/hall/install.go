package hall

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
	"github.com/chesshall/hallclock/server/auth"
	"github.com/chesshall/hallclock/server/hallerr"
	"github.com/chesshall/hallclock/storage"
)

// AddBoard stores a new board (rec, with its round's configuration
// merged in) on behalf of id and brings it into the hall: its actor, its
// first state to watchers, and its device, if it names one, given the
// board (the busy-device rule: a device busy elsewhere only with replace).
func (h *Hall) AddBoard(ctx context.Context, id *auth.Identity, rec storage.BoardRecord, replace bool) (*Board, error) {
	st, err := rules.NewState(rec.Config)
	if err != nil {
		return nil, err
	}
	var move DeviceMove
	if rec.DeviceID != "" {
		if move, err = h.claimDevice(ctx, id, rec.DeviceID, rec.ID, replace); err != nil {
			return nil, err
		}
	}
	b := newBoard(h, rec, st, 0)
	h.sink.Place(rec.ID, rec.Section) // before its first state
	err = h.store.Write(ctx, func(tx *storage.Tx) error {
		if err := tx.CreateBoard(&b.rec); err != nil {
			return err
		}
		tx.AfterCommit(func() { h.publish(rec.RoundID, b.wireState(st, 0), 0) })
		if err := move.Audit(tx, id.Actor(), rec.ID, ""); err != nil {
			return err
		}
		what, kind := fmt.Sprintf("add_board %d %s - %s", rec.Number, rec.White.Name, rec.Black.Name), "did.add_board"
		if rec.DeviceID != "" {
			what, kind = what+fmt.Sprintf(", device %s%s", rec.DeviceID, move.Note()), "did.add_board_device"
		}
		return tx.AddAudit(&storage.AuditRecord{BoardID: rec.ID, Actor: id.Actor(), What: what, Outcome: storage.OutcomeApplied, Kind: kind,
			Params: map[string]string{"number": strconv.Itoa(rec.Number), "white": rec.White.Name, "black": rec.Black.Name, "device": rec.DeviceID, "text": what}})
	})
	if err != nil {
		return nil, err
	}
	if rec.DeviceID != "" {
		h.moveDevice(rec.DeviceID, rec.ID)
	}
	h.addBoard(b)
	if rec.DeviceID != "" {
		h.SendAssignment(h.ctx, rec.DeviceID, true)
	}
	return b, nil
}

// InstallRound brings a round stored by an import into the hall: the
// round, its new boards (replacing old, withdrawn: their store rows were
// deleted in the same transaction) with their first states to watchers,
// and every clock told where it goes — the boards' own, and those the old
// boards freed.
func (h *Hall) InstallRound(ctx context.Context, round storage.RoundRecord, recs []storage.BoardRecord, old []*Board) ([]*Board, error) {
	h.AddRound(round)
	freed := map[string]bool{}
	for _, b := range old {
		if dev := h.withdraw(ctx, b); dev != "" {
			freed[dev] = true
		}
	}
	var boards []*Board
	for _, br := range recs {
		st, err := rules.NewState(br.Config)
		if err != nil {
			return nil, err
		}
		b := newBoard(h, br, st, 0)
		h.sink.Place(br.ID, br.Section)
		h.publish(round.ID, b.wireState(st, 0), 0)
		if br.DeviceID != "" {
			h.moveDevice(br.DeviceID, br.ID)
			delete(freed, br.DeviceID)
		}
		h.addBoard(b)
		boards = append(boards, b)
	}
	for _, br := range recs {
		if br.DeviceID != "" {
			h.SendAssignment(h.ctx, br.DeviceID, true)
		}
	}
	for dev := range freed {
		h.SendAssignment(h.ctx, dev, false)
	}
	return boards, nil
}

// withdraw takes a board out of the hall after its store row was deleted
// (its round imported again before it started): its actor stops and
// watchers are told to drop it. It returns the device the board had, now
// free; the caller tells it where it goes.
func (h *Hall) withdraw(ctx context.Context, b *Board) string {
	var dev string
	_ = b.do(ctx, func() {
		dev = b.rec.DeviceID
		b.stopTimer()
		b.closeQuit() // nothing of the board's runs after this
	})
	b.closeQuit() // (if do could not run)
	dev = h.removeBoard(b, dev)
	h.publish(b.rec.RoundID, &pb.BoardState{BoardId: b.rec.ID, Withdrawn: true, ServerUnixMs: h.clock.Now().UnixMilli()}, 0)
	return dev
}

// Busy is a board whose game a device still keeps.
type Busy struct {
	Board      storage.BoardRecord
	Round      int
	Tournament string
}

// BusyBoard applies the busy-device rule (claimDevice) to the hall plan's
// clock dev: it returns the board dev keeps whose game is not over (not
// counting the boards leaving), or nil and the move that giving dev a new
// board makes (to audit on the board it leaves).
func (h *Hall) BusyBoard(ctx context.Context, dev string, leaving map[string]bool) (*Busy, DeviceMove) {
	m, err := h.claimDevice(ctx, nil, dev, "", false)
	if m.from != nil && leaving[m.from.rec.ID] {
		return nil, DeviceMove{dev: dev} // withdrawn with its round: nothing to say there
	}
	if !errors.Is(err, hallerr.ErrDeviceBusy) {
		return nil, m
	}
	rec := m.from.rec
	n, t := h.RoundInfo(rec.RoundID)
	return &Busy{Board: rec, Round: int(n), Tournament: t}, m
}
