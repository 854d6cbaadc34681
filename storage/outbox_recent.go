package storage

import (
	"sync"

	"github.com/chesshall/hallclock/rules"
)

// The outbox's newest event rows, kept in memory as they committed, so
// that the publisher need not read back from SQLite, and decode, each
// event the writer has just encoded and stored. The database stays the
// source: after a restart, for a publisher behind by more than the ring
// holds, and for every row other than an event (those are published as
// their record is when read), OutboxRecent has nothing and the publisher
// reads the outbox (OutboxAfter), which gives the same rows.
//
// The ring holds events of consecutive outbox ids only as far as it knows
// every row committed between them: a run is served from its first id
// to the first id missing (a row of another kind, or ids the database
// numbered past), and the reader is told whether the run reached the
// newest row committed (else it must read again, from the database).

// recentCap is how many event rows the ring keeps: at 20,000 presses a
// second, half a second of them, many times what the publisher reads at
// once (its window, 256 by default).
const recentCap = 8192

type recentOutbox struct {
	mu   sync.Mutex
	ents []OutboxEntry // ascending ids; a ring once full (head is the oldest)
	head int
	// last is the newest outbox row committed (0: unknown since a reset,
	// until the next row commits).
	last uint64
}

// add appends the event rows a transaction committed (ascending ids) and
// records last, the highest outbox id it wrote; reset first if the
// transaction renumbered or rewrote the outbox. It runs after the commit,
// on the writer goroutine, in commit order.
func (r *recentOutbox) add(ents []OutboxEntry, last uint64, reset bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if reset {
		r.ents, r.head, r.last = r.ents[:0], 0, 0
	}
	for _, e := range ents {
		if len(r.ents) < recentCap {
			r.ents = append(r.ents, e)
			continue
		}
		r.ents[r.head] = e
		r.head = (r.head + 1) % recentCap
	}
	r.last = max(r.last, last)
}

// after appends to rows up to limit rows with ids after+1, after+2, ...
// as long as the ring holds each; complete says that they are every row
// committed after after (the last is the newest row). None if the ring
// does not hold after+1.
func (r *recentOutbox) after(rows []OutboxEntry, after uint64, limit int) (_ []OutboxEntry, complete bool) {
	rows = rows[:0]
	r.mu.Lock()
	defer r.mu.Unlock()
	n := len(r.ents)
	if r.last != 0 && after == r.last {
		return rows, true // nothing committed since
	}
	if n == 0 || limit <= 0 {
		return rows, false
	}
	at := func(i int) *OutboxEntry { return &r.ents[(r.head+i)%n] }
	first, newest := at(0).ID, at(n-1).ID
	if after+1 < first || after+1 > newest {
		return rows, false
	}
	// Ids are ascending, with gaps where other rows are: find after+1.
	lo, hi := 0, n-1
	for lo < hi {
		mid := (lo + hi) / 2
		if at(mid).ID < after+1 {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	want := after + 1
	for i := lo; i < n && len(rows) < limit && at(i).ID == want; i++ {
		rows = append(rows, *at(i))
		want++
	}
	return rows, len(rows) > 0 && want-1 == r.last
}

// OutboxRecent returns the outbox rows after after, up to limit, from
// memory, as OutboxAfter would read them: only events, and only while
// the ring holds every row in turn. complete says that they are all the
// rows committed so far; when it is false, more may be in the database
// (read them with OutboxAfter). None: read the database. The rows are
// appended to buf[:0] (nil: a new slice), for a reader that reads again
// and again to reuse.
func (s *Store) OutboxRecent(buf []OutboxEntry, after uint64, limit int) (rows []OutboxEntry, complete bool) {
	return s.recent.after(buf, after, limit)
}

// recentEvent keeps an appended event's outbox row for the ring, added
// once the transaction commits. The record is copied: the caller's may
// change after the Write.
func (t *Tx) recentEvent(id uint64, r *EventRecord, js []byte, created int64) {
	cp := *r
	cp.Event = cloneEvent(r.Event)
	t.recentRows = append(t.recentRows, OutboxEntry{ID: id, Kind: OutboxEvent, Ref: r.BoardID, Created: fromMs(created), Event: &cp, EventJSON: js})
}

// recentCommitted is the transaction's AfterCommit for the ring.
func (t *Tx) recentCommitted() {
	t.s.recent.add(t.recentRows, t.outboxLast, t.outboxReset)
}

// cloneEvent copies e with what its pointers point to
// (TestCloneEventCopiesEveryPointer holds that no other field shares).
func cloneEvent(e rules.Event) rules.Event {
	for _, p := range []**int{&e.WhiteMoves, &e.BlackMoves} {
		if *p != nil {
			v := **p
			*p = &v
		}
	}
	if e.ToMove != nil {
		v := *e.ToMove
		e.ToMove = &v
	}
	return e
}
