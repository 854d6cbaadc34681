package hall

import (
	"context"
	"fmt"

	"github.com/chesshall/hallclock/server/auth"
	"github.com/chesshall/hallclock/server/hallerr"
	"github.com/chesshall/hallclock/storage"
)

// The busy-device rule. A device keeps at most one board. A device that
// keeps a board whose game is not over (waiting, running, paused,
// adjourned) is busy there: giving it another board would leave that one
// without a clock, silently. So a busy device is given another board only
// when the request says it replaces, by a caller allowed on both boards;
// and every move of a device, busy or not, is audited on the board it
// leaves as on the board it joins, in the same transaction.
//
// claimDevice is the one place that decides; every way of handing out a
// device (AssignDevice, AddBoard with a device, ImportRound's clocks from
// the hall plan through BusyBoard) calls it before writing, and calls
// DeviceMove.audit in the write. (ImportRound never replaces: a busy clock
// is left out with a warning.)

// DeviceMove is what giving a device a board does to the board it leaves;
// its Audit goes into the write that gives the device its new board.
type DeviceMove struct {
	dev     string
	from    *Board // the board the device leaves; nil if it keeps none (or keeps the target already)
	running bool   // from's game is not over: the device was busy there
}

// claimDevice applies the busy-device rule for giving dev the board
// toBoard (which may not exist yet: AddBoard, ImportRound) on behalf of id
// (nil: the hall itself, ImportRound; needed to replace, and to say
// nothing of a section out of id's reach).
func (h *Hall) claimDevice(ctx context.Context, id *auth.Identity, dev, toBoard string, replace bool) (DeviceMove, error) {
	m := DeviceMove{dev: dev}
	f := &h.floor
	f.mu.RLock()
	fromID := f.byDevice[dev]
	from := f.boards[fromID]
	f.mu.RUnlock()
	if from == nil || fromID == toBoard {
		return m, nil
	}
	var keeps bool
	var status string
	if err := from.do(ctx, func() {
		keeps = from.rec.DeviceID == dev
		// As arbiters see it (ListBoards): a flag that has fallen by now
		// ends the game even before the clock's report of it arrives.
		now := from.state.Project(from.now())
		m.running = !now.Over()
		status = now.Status.String()
	}); err != nil {
		return m, err
	}
	if !keeps {
		return m, nil
	}
	m.from = from
	if !m.running {
		return m, nil
	}
	if id != nil && !id.MaySection(from.rec.Section) {
		// Nothing of a section out of the caller's reach is named.
		return m, fmt.Errorf("%w: device %s keeps a board of a section you do not act on, whose game is not over: choose another device, or ask the chief arbiter",
			hallerr.ErrDeviceBusy, dev)
	}
	where := fmt.Sprintf("board %s (board %d of section %q, %s)", from.rec.ID, from.rec.Number, from.rec.Section, status)
	if !replace {
		return m, fmt.Errorf("%w: device %s keeps %s, whose game is not over: to take it from there (leaving that board without a clock) say replace; or choose another device",
			hallerr.ErrDeviceBusy, dev, where)
	}
	return m, nil
}

// Audit records the move on the board the device leaves, in the write
// that gives it toBoard.
func (m DeviceMove) Audit(tx *storage.Tx, actor, toBoard, reason string) error {
	if m.from == nil {
		return nil
	}
	what, kind := fmt.Sprintf("device %s moved to board %s (its game here was over)", m.dev, toBoard), "did.device_moved"
	if m.running {
		what, kind = fmt.Sprintf("device %s taken to board %s (replace): this board has no clock now; assign one or use a virtual clock", m.dev, toBoard), "did.device_taken"
	}
	return tx.AddAudit(&storage.AuditRecord{BoardID: m.from.rec.ID, Actor: actor, What: what, Reason: reason, Outcome: storage.OutcomeApplied,
		Kind: kind, Params: map[string]string{"device": m.dev, "board": toBoard, "text": what}})
}

// Note says what the move did, for the audit entry of the board joined.
func (m DeviceMove) Note() string {
	switch {
	case m.from == nil:
		return ""
	case m.running:
		return fmt.Sprintf("; taken from board %s, whose game goes on (replace)", m.from.rec.ID)
	}
	return fmt.Sprintf("; moved from board %s (game over)", m.from.rec.ID)
}
