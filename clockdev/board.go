package clockdev

import (
	"fmt"

	"github.com/chesshall/hallclock/internal/wire"
	hallv1 "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
	"google.golang.org/protobuf/proto"
)

// assignLocked handles an Assignment from the server (or, when recovering,
// the one saved in the outbox).
//
// The device keeps its local state when the assignment is for the board it
// already plays, with the same configuration, and the device's history
// already contains the server's (it is at least as long and begins with the
// same actions) — the device is the timekeeper and its outbox may be ahead
// — unless the server refused one of its events for this board since the
// last adoption. Otherwise it adopts the server's: the state becomes the
// fold of the history and board-now continues from the latest of the
// state's at_ms, the last action's instant and, on the same board, the
// device's own board-now (a board's time line never goes back). An empty
// board_id unassigns.
func (d *Device) assignLocked(a *hallv1.Assignment, recovering bool) {
	a = proto.Clone(a).(*hallv1.Assignment)
	if a.GetBoardId() == "" {
		d.unassignLocked(a, nil, recovering)
		return
	}
	cfg, err := wire.Config(a.GetConfig())
	if err == nil {
		_, err = rules.NewState(cfg)
	}
	if err != nil {
		err = fmt.Errorf("clockdev: assignment to board %s has an unusable configuration: %w", a.GetBoardId(), err)
		d.log.Error("assignment refused", "board", a.GetBoardId(), "err", err)
		d.unassignLocked(&hallv1.Assignment{}, err, recovering)
		return
	}

	if !recovering && d.keepsLocalLocked(a) {
		d.asg = a
		// Only the play under the rules for visually disabled players may
		// have changed (who is, the language to speak): it changes how no
		// event is applied, so the clock keeps its own time line.
		d.st.Config.Blind = cfg.Blind
		d.saveBoardLocked()
		d.notifyLocked(Notice{Kind: NoticeAssignment, Assignment: proto.Clone(a).(*hallv1.Assignment), Adopted: false})
		return
	}

	events := make([]rules.Event, 0, len(a.GetHistory()))
	var convErr error
	for i, h := range a.GetHistory() {
		e, err := wire.Event(h, true) // committed results may be the arbiter's
		if err != nil {
			convErr = fmt.Errorf("history action %d: %w", i, err)
			break
		}
		events = append(events, e)
	}
	st, err := rules.Fold(cfg, events)
	if err == nil {
		err = convErr
	}
	if err != nil {
		// The server committed what our rules refuse: keep the state up to
		// there, and say so. Later events will tell.
		d.log.Error("assigned history does not fold", "board", a.GetBoardId(), "err", err)
	}
	base := st.At
	if n := len(a.GetHistory()); n > 0 {
		base = max(base, a.GetHistory()[n-1].GetTMs())
	}
	base = max(base, a.GetState().GetAtMs())
	if d.asg != nil && d.asg.GetBoardId() == a.GetBoardId() && !recovering {
		// A board's time line only grows: events already recorded on it
		// (perhaps still in the outbox) must stay in the past.
		base = max(base, d.boardNowLocked())
	}
	if recovering && d.resume != nil {
		base = max(base, d.resume(a.GetBoardId(), base))
	}

	d.stopFlagLocked()
	d.asg = a
	d.st = st
	d.hist = cloneActions(a.GetHistory())
	d.base, d.origin = base, d.clock.Now()
	d.diverged = false
	if !recovering {
		d.saveBoardLocked()
		d.notifyLocked(Notice{Kind: NoticeAssignment, Assignment: proto.Clone(a).(*hallv1.Assignment), Adopted: true, Err: err})
	}
	d.catchUpLocked(d.boardNowLocked())
	d.armFlagLocked()
}

// keepsLocalLocked reports whether the device keeps its own clock for a.
func (d *Device) keepsLocalLocked(a *hallv1.Assignment) bool {
	if d.asg == nil || d.diverged || d.asg.GetBoardId() != a.GetBoardId() ||
		!sameClockRules(d.asg.GetConfig(), a.GetConfig()) {
		return false
	}
	h := a.GetHistory()
	if len(d.hist) < len(h) {
		return false
	}
	for i := range h {
		if !sameAction(d.hist[i], h[i]) {
			return false
		}
	}
	return true
}

// sameClockRules reports whether two configurations apply events alike:
// equal but for the play under the rules for visually disabled players,
// which only says who may act and what a talking clock says.
func sameClockRules(a, b *hallv1.ClockConfig) bool {
	a, b = proto.Clone(a).(*hallv1.ClockConfig), proto.Clone(b).(*hallv1.ClockConfig)
	a.BlindPlay, b.BlindPlay = nil, nil
	return proto.Equal(a, b)
}

// sameAction compares two actions as the rules read them (fields of other
// kinds ignored).
func sameAction(a, b *hallv1.ClockAction) bool {
	ea, erra := wire.Event(a, true)
	eb, errb := wire.Event(b, true)
	if erra != nil || errb != nil {
		return proto.Equal(a, b)
	}
	return proto.Equal(wire.Action(ea), wire.Action(eb))
}

func (d *Device) unassignLocked(a *hallv1.Assignment, err error, recovering bool) {
	d.stopFlagLocked()
	d.asg = nil
	d.st = rules.State{}
	d.hist = nil
	d.diverged = false
	d.base, d.origin = 0, d.clock.Now()
	if !recovering {
		if serr := d.outbox.SaveBoard(nil); serr != nil {
			d.log.Error("outbox: save board failed", "err", serr)
		}
		d.notifyLocked(Notice{Kind: NoticeAssignment, Assignment: a, Err: err})
	}
}

// saveBoardLocked records the assignment with the device's full history.
func (d *Device) saveBoardLocked() {
	s := proto.Clone(d.asg).(*hallv1.Assignment)
	s.History = d.hist
	if err := d.outbox.SaveBoard(s); err != nil {
		d.log.Error("outbox: save board failed", "board", s.GetBoardId(), "err", err)
	}
}

func cloneActions(in []*hallv1.ClockAction) []*hallv1.ClockAction {
	out := make([]*hallv1.ClockAction, len(in))
	for i, a := range in {
		out[i] = proto.Clone(a).(*hallv1.ClockAction)
	}
	return out
}

// commandLocked applies an arbiter command at board-now and reports it,
// applied or refused, with its command_id. A command already handled
// (same id, e.g. resent after a reconnection) is ignored.
func (d *Device) commandLocked(c *hallv1.Command) {
	id := c.GetCommandId()
	if id != "" && d.cmds[id] {
		d.log.Debug("command already applied", "command", id)
		return
	}
	var (
		action   *hallv1.ClockAction
		applied  bool
		applyErr error
		after    rules.State
	)
	raw := func(t int64) *hallv1.ClockAction {
		a := &hallv1.ClockAction{}
		if c.GetAction() != nil {
			a = proto.Clone(c.GetAction()).(*hallv1.ClockAction)
		}
		a.TMs = t
		return a
	}
	if d.asg == nil {
		action, applyErr = raw(0), ErrNotAssigned
	} else {
		t := d.boardNowLocked()
		d.catchUpLocked(t)
		after = d.st.Project(t)
		e, err := wire.Event(c.GetAction(), true)
		if err != nil {
			action, applyErr = raw(t), err
		} else {
			e.T = t
			action = wire.Action(e)
			if n, err := rules.Apply(d.st, e); err != nil {
				applyErr = err
			} else {
				applied, after = true, n
			}
		}
	}
	ev, err := d.recordLocked(action, c, applied, after)
	if err != nil {
		// Not marked as handled: the server sends it again after a reconnection.
		d.notifyLocked(Notice{Kind: NoticeCommand, Command: proto.Clone(c).(*hallv1.Command), Err: err})
		return
	}
	if applied {
		d.st = after
		d.hist = append(d.hist, action)
	} else {
		d.log.Info("command refused by the local rules; reporting it", "command", id, "err", applyErr)
	}
	if id != "" {
		d.cmds[id] = true
	}
	d.notifyLocked(Notice{Kind: NoticeCommand, Command: proto.Clone(c).(*hallv1.Command),
		Event: proto.Clone(ev).(*hallv1.DeviceEvent), Err: applyErr})
	d.armFlagLocked()
}
