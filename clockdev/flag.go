package clockdev

import (
	"math"
	"time"

	"github.com/chesshall/hallclock/internal/wire"
	"github.com/chesshall/hallclock/rules"
)

// boardNowLocked returns board-now: base plus the device time elapsed
// since origin, scaled by the oscillator's drift, in whole milliseconds
// (rounded down).
func (d *Device) boardNowLocked() int64 {
	el := d.clock.Since(d.origin)
	if el < 0 {
		el = 0
	}
	if d.factor == 1 {
		return d.base + el.Milliseconds()
	}
	// Whole microseconds first, so that float rounding cannot lose a
	// millisecond at an exact boundary (10 s at +1000 ppm is 10010 ms).
	us := int64(math.Round(float64(el.Nanoseconds()) * d.factor / 1e3))
	return d.base + us/1000
}

// untilLocked returns how much device time remains until board-now
// reaches t (≤ 0 if it has).
func (d *Device) untilLocked(t int64) time.Duration {
	need := t - d.base // board ms after origin
	var ns int64
	if d.factor == 1 {
		ns = need * int64(time.Millisecond)
	} else {
		ns = int64(math.Ceil(float64(need) * 1e6 / d.factor))
	}
	return time.Duration(ns) - d.clock.Since(d.origin)
}

func (d *Device) stopFlagLocked() {
	if d.flag != nil {
		d.flag.Stop()
		d.flag = nil
	}
	d.flagGen++
}

// armFlagLocked sets the flag timer at the state's next deadline (a flag
// fall, a period added at the flag, an absent player's forfeit). Callers
// first catch up to board-now (catchUpLocked).
func (d *Device) armFlagLocked() {
	d.stopFlagLocked()
	if d.asg == nil || d.closed {
		return
	}
	dl, ok := d.st.NextDeadline()
	if !ok {
		return
	}
	wait := d.untilLocked(dl)
	if wait <= 0 {
		if d.boardNowLocked() < dl {
			wait = time.Millisecond // rounding of a drifting oscillator: look again shortly
		} else {
			// Callers catch up before arming, so an overdue deadline means
			// the outbox could not record it: try again later, not in a loop.
			wait = time.Second
		}
	}
	gen := d.flagGen
	d.flag = d.clock.AfterFunc(max(wait, 0), func() { d.flagDue(gen) })
}

// flagDue runs when the flag timer fires.
func (d *Device) flagDue(gen uint64) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed || gen != d.flagGen || d.asg == nil {
		return // stopped or re-armed meanwhile
	}
	d.catchUpLocked(d.boardNowLocked())
	d.armFlagLocked()
}

// catchUpLocked records, in order, every deadline of the board due by t
// (CatchUp) in the outbox. Timers fire late; the events' instants do not.
func (d *Device) catchUpLocked(t int64) {
	d.st = CatchUp(d.st, t, func(e rules.Event, n rules.State) bool {
		action := wire.Action(e)
		if _, err := d.recordLocked(action, nil, true, n); err != nil {
			return false // the outbox failed; the next event or timer tries again
		}
		d.hist = append(d.hist, action)
		return true
	})
}

// CatchUp is a clock's law for the deadlines of st due by t, in order:
// each is a KindFlag event of the side to move at the exact deadline
// instant, if the rules accept it (a flag fell, or an absent player's
// default time passed); record is handed the event and the state after it
// and says whether it was recorded (false stops: the state stays before
// it). A deadline the rules do not turn into a flag (a period added at
// the flag, 6.4) only moves the state on. It returns the state after the
// last deadline handled. A Device and the browser's local clock
// (clockdev/jsapi) both keep their boards with it.
func CatchUp(st rules.State, t int64, record func(e rules.Event, after rules.State) bool) rules.State {
	last := int64(math.MinInt64)
	for {
		dl, ok := st.NextDeadline()
		if !ok || dl > t || dl <= last {
			return st
		}
		last = dl
		e := rules.Event{Kind: rules.KindFlag, Side: st.ToMove, T: dl}
		n, err := rules.Apply(st, e)
		if err != nil {
			st = st.Project(dl)
			continue
		}
		if !record(e, n) {
			return st
		}
		st = n
	}
}
