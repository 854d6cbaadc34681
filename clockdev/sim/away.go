package sim

import (
	"context"
	"sync"
	"time"

	"github.com/chesshall/hallclock/clockdev"
)

// Real clocks keep running while their hall is away. The demonstration's
// fleet lives in the hall's process, so when the hall stops, its clocks
// stop too; started again, each would resume its board where it last
// recorded something, as if no time had passed — a player would find
// minutes given back. So a fleet with a StateDir notes, every few seconds
// and when it stops, each clock's board time with the wall time
// (fleet.json "clocks"); started again, each clock's board continues
// from its note plus the wall time that passed (clockdev.Config.Resume),
// and flags that fell meanwhile fall at their instants. A clock the chaos
// reboots later in the run does not count its time off, as before: that
// is a power cut of one clock, which real clocks do not survive either.

// clockNoteEvery is how often (wall time) the fleet notes its clocks.
const clockNoteEvery = 5 * time.Second

// savedClock is a clock's board time at a moment of the wall clock.
type savedClock struct {
	Board  string `json:"board"`
	AtMs   int64  `json:"at_ms"`   // board time, ms
	UnixMs int64  `json:"unix_ms"` // Config.Clock's wall time, ms since 1970
}

// clockNotes are the notes of a run: those it found (to resume its
// clocks, each used once) and those it takes.
type clockNotes struct {
	mu    sync.Mutex
	found map[string]*savedClock // by device id
	taken map[string]*savedClock // by device id
}

// loadClockNotes takes the notes the last run left, and says how long
// ago the newest was taken.
func (f *Fleet) loadClockNotes() {
	f.notes.taken = map[string]*savedClock{}
	f.notes.found = map[string]*savedClock{} // a copy: the store's map is saved while the notes are used
	f.store.read(func(s *savedFleet) {
		for id, n := range s.Clocks {
			f.notes.found[id] = n
		}
	})
	var newest int64
	for _, n := range f.notes.found {
		newest = max(newest, n.UnixMs)
	}
	if newest > 0 {
		away := f.cfg.Clock.Now().Sub(time.UnixMilli(newest)).Round(time.Second)
		f.log.Info("the fleet was away; its clocks kept running meanwhile", "away", away, "clocks", len(f.notes.found))
	}
}

// resumeFor returns how device id's board continues after the fleet was
// away (clockdev.Config.Resume), nil if there is no note for it. A note is
// used once: a later restart of the device in this run (a chaos reboot)
// does not count the time it was off.
func (f *Fleet) resumeFor(id string, drift float64) func(board string, last int64) int64 {
	f.notes.mu.Lock()
	n := f.notes.found[id]
	delete(f.notes.found, id)
	f.notes.mu.Unlock()
	if n == nil {
		return nil
	}
	factor := f.cfg.Speed * (1 + drift/1e6) // board ms per wall ms, as the device's oscillator runs
	return func(board string, last int64) int64 {
		away := f.cfg.Clock.Now().Sub(time.UnixMilli(n.UnixMs))
		if board != n.Board || away < 0 {
			return last
		}
		return n.AtMs + int64(float64(away.Milliseconds())*factor)
	}
}

// noteClock notes the table's clock, if it plays a board.
func (f *Fleet) noteClock(t *table) {
	if f.cfg.StateDir == "" {
		return
	}
	d := t.devp.Load()
	if d == nil {
		return
	}
	st := d.Status()
	if st.BoardID == "" {
		return
	}
	n := &savedClock{Board: st.BoardID, AtMs: d.BoardNow(), UnixMs: f.cfg.Clock.Now().UnixMilli()}
	f.notes.mu.Lock()
	f.notes.taken[t.id] = n
	f.notes.mu.Unlock()
}

// saveClockNotes keeps the notes taken in fleet.json.
func (f *Fleet) saveClockNotes() error {
	if f.cfg.StateDir == "" {
		return nil
	}
	f.notes.mu.Lock()
	notes := make(map[string]*savedClock, len(f.notes.taken))
	for id, n := range f.notes.taken {
		notes[id] = n
	}
	f.notes.mu.Unlock()
	return f.store.update(func(s *savedFleet) { s.Clocks = notes })
}

// keepClockNotes notes every clock every clockNoteEvery until ctx ends, so
// that even a fleet that is killed leaves notes at most that old (a note
// of any age tells where the clock's board time stands at any later wall
// time: its time line runs on whoever's clock runs).
func (f *Fleet) keepClockNotes(ctx context.Context) func() {
	if f.cfg.StateDir == "" {
		return func() {}
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-ctx.Done():
				return
			case <-f.cfg.Clock.After(clockNoteEvery):
			}
			for _, t := range f.tours {
				for _, tb := range t.tables {
					f.noteClock(tb)
				}
			}
			if err := f.saveClockNotes(); err != nil {
				f.log.Warn("cannot note the clocks", "err", err)
			}
		}
	}()
	return func() { cancel(); <-done }
}

// resumeConfig sets cfg.Resume for the table's device from the notes.
func (t *table) resumeConfig(cfg *clockdev.Config) {
	if r := t.f.resumeFor(t.id, t.drift); r != nil {
		cfg.Resume = r
	}
}
