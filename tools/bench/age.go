package main

import (
	"sync"
	"sync/atomic"
	"time"
)

// The age of a watcher's view: how old the oldest state it still shows
// is. A watcher shows a board as of the last update it got of it; once the
// hall acknowledged a press of that board that the watcher has not seen,
// its view of the board is stale from that acknowledgement on. The age of
// its view is now less the acknowledgement of the oldest press it has not
// seen (0 if it has seen them all). It grows until an update shows that
// press, so it is greatest just before an update and while none comes: it
// is taken as each update arrives and every ageTick, over the sampled
// watchers (the crowd's only read). A watcher held back for seconds, or
// given nothing, shows here as an age of seconds.

// ageTick is how often the ages are taken between updates.
const ageTick = 50 * time.Millisecond

// ackLog lists the acknowledged presses of a measured window in the order
// their acknowledgements arrived, so that each sampled watcher finds the
// oldest it has not seen by moving a cursor (ackCursor) forward.
type ackLog struct {
	mu   sync.Mutex
	recs []ackRec
}

type ackRec struct {
	board    string
	boardSeq uint64
	at       time.Time
}

func (l *ackLog) add(board string, seq uint64, at time.Time) {
	l.mu.Lock()
	l.recs = append(l.recs, ackRec{board: board, boardSeq: seq, at: at})
	l.mu.Unlock()
}

func (l *ackLog) reset() {
	l.mu.Lock()
	l.recs = nil
	l.mu.Unlock()
}

// ageTracker collects the ages of the sampled watchers' views over one
// measurement.
type ageTracker struct {
	max  atomic.Int64 // ns
	hist hist
}

func (t *ageTracker) maxAge() time.Duration { return time.Duration(t.max.Load()) }

func (t *ageTracker) note(age time.Duration) {
	t.hist.add(age)
	for {
		m := t.max.Load()
		if int64(age) <= m || t.max.CompareAndSwap(m, int64(age)) {
			return
		}
	}
}

// viewAge is the age of a sampled watcher's view at now. w.mu is held.
func (w *watcher) viewAgeLocked(log *ackLog, now time.Time) time.Duration {
	log.mu.Lock()
	defer log.mu.Unlock()
	if w.ackCursor > len(log.recs) {
		w.ackCursor = 0 // the log was reset
	}
	for w.ackCursor < len(log.recs) {
		r := log.recs[w.ackCursor]
		if w.seen[r.board] < r.boardSeq {
			// Acknowledgements arrive in order, nearly: the first
			// unseen is the oldest.
			return max(now.Sub(r.at), 0)
		}
		w.ackCursor++
	}
	return 0
}

// noteAge records the age of a sampled watcher's view, as an update
// arrives (before it is applied) or at a tick.
func (w *watcher) noteAge(now time.Time) {
	set := w.set
	if !w.sampled || set.f == nil {
		return
	}
	t := set.ages.Load()
	if t == nil {
		return
	}
	w.mu.Lock()
	age := w.viewAgeLocked(&set.f.ackLog, now)
	w.mu.Unlock()
	t.note(age)
}

// trackAges takes the sampled watchers' ages every ageTick until stop is
// closed.
func (set *watcherSet) trackAges(stop <-chan struct{}) {
	t := time.NewTicker(ageTick)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case now := <-t.C:
			for _, w := range set.ws {
				w.noteAge(now)
			}
		}
	}
}

// ageFrom starts a new measurement of ages, after the fleet's ackLog was
// reset (resetAcks); stop it with set.ages.Store(nil).
func (set *watcherSet) ageFrom() *ageTracker {
	for _, w := range set.ws {
		w.mu.Lock()
		w.ackCursor = 0
		w.mu.Unlock()
	}
	t := &ageTracker{}
	set.ages.Store(t)
	return t
}
