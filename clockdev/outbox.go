package clockdev

import (
	"errors"
	"fmt"
	"math"
	"sync"

	"google.golang.org/protobuf/proto"

	hallv1 "github.com/chesshall/hallclock/proto/hall/v1"
)

// Outbox is a device's memory of what it has to tell the server: the
// events not yet acknowledged, the sequence numbers, and the board it plays
// with that board's history, so that a device restarted on the same Outbox
// resumes the same clock and resends the same events.
//
// Sequence numbers are per device, from 1, contiguous: Append takes the
// event numbered NextSeq; Ack drops a prefix (keeping it aside while the
// board lasts, for Resend); Renumber moves every pending event to a new
// contiguous range. Pending events are always contiguous and end at
// NextSeq-1.
//
// An Outbox is used by one Device; implementations must be safe for
// concurrent use all the same (Status reads it from any goroutine).
type Outbox interface {
	// NextSeq returns the sequence number the next appended event must carry
	// (1 for a new outbox).
	NextSeq() uint64
	// AckedSeq returns the highest sequence number acknowledged so far.
	AckedSeq() uint64
	// Pending returns copies of the events not yet acknowledged, in
	// sequence order.
	Pending() []*hallv1.DeviceEvent
	// Append stores ev, whose Seq must be NextSeq(), and advances NextSeq.
	// applied says the device's rules accepted the action: then, if
	// ev.BoardId is the saved board's, ev.Action also extends the saved
	// board's history. A refused arbiter command is appended with applied
	// false: it is reported to the server but is not part of the board.
	// When Append returns nil the event is as durable as the Outbox can
	// make it.
	Append(ev *hallv1.DeviceEvent, applied bool) error
	// Ack drops every pending event with Seq <= upTo and raises AckedSeq to
	// upTo (it never lowers it). NextSeq stays above upTo.
	Ack(upTo uint64) error
	// Resend moves the acknowledged events it still holds with Seq >= from
	// back to the pending ones, in order, and returns how many: the hall
	// lost them (it was restored from an older backup) and asks for them
	// again. AckedSeq does not change. An Outbox keeps the last
	// RetainedEvents acknowledged events for this, of whichever boards
	// they were recorded on: a hall restored from a backup taken before
	// the last round began needs the end of the device's previous game
	// too.
	Resend(from uint64) (int, error)
	// Renumber gives the pending events the numbers first, first+1, ... in
	// their order and sets NextSeq after them; with nothing pending it sets
	// NextSeq to first. A device uses it when the server has acknowledged
	// more than the device remembers (its storage was lost).
	Renumber(first uint64) error
	// SaveBoard records the device's assignment, whose History must be the
	// device's full history of the board; nil (or an empty board_id) records
	// that the device is not assigned.
	SaveBoard(a *hallv1.Assignment) error
	// Board returns a copy of the saved assignment with its history
	// (extended by the applied events appended since SaveBoard), or nil.
	Board() *hallv1.Assignment
	// Held returns the records of the boards whose events it holds (kept
	// or pending), as the hall assigned them, without state or history:
	// the saved board first, then the boards the device left, the latest
	// first; at most hallv1.MaxHeldBoards. A hall restored from an older
	// backup rebuilds from them the boards it no longer knows.
	Held() []*hallv1.Assignment
	// Close releases the Outbox; later calls fail with ErrClosed.
	Close() error
}

// ErrClosed is returned by a closed Device or Outbox.
var ErrClosed = errors.New("clockdev: closed")

// ledger is the content of an outbox, whatever its journal. It is not
// safe for concurrent use: lockedOutbox holds it under its lock.
type ledger struct {
	acked    uint64
	next     uint64
	pending  []*hallv1.DeviceEvent
	retained []*hallv1.DeviceEvent // acknowledged, of any board, in order, just before pending
	board    *hallv1.Assignment
	// left are the records (no state, no history) of the boards the
	// device left whose events it still holds, oldest first.
	left []*hallv1.Assignment
	keep int // how many acknowledged events to retain: RetainedEvents
}

// RetainedEvents is how many acknowledged events an Outbox keeps for
// Resend: more than two long games'.
const RetainedEvents = 2048

func newLedger() ledger { return ledger{next: 1, keep: RetainedEvents} }

func (l *ledger) pendingCopy() []*hallv1.DeviceEvent { return l.pendingRange(0, math.MaxUint64) }

// pendingRange copies the pending events with after < seq <= upTo.
func (l *ledger) pendingRange(after, upTo uint64) []*hallv1.DeviceEvent {
	var out []*hallv1.DeviceEvent
	for _, ev := range l.pending {
		if s := ev.GetSeq(); s > upTo {
			break
		} else if s > after {
			out = append(out, proto.Clone(ev).(*hallv1.DeviceEvent))
		}
	}
	return out
}

// pendingLister is what the package's own Outbox offers beyond Outbox,
// so that the device need not copy every pending event when it wants a
// count (Status is polled), only those it has not sent yet (each wake of
// the send loop) or only those an Ack covers. A clock whose hall is away
// for a while holds thousands.
type pendingLister interface {
	PendingCount() int
	// PendingRange returns copies of the pending events with after < seq
	// <= upTo, in order.
	PendingRange(after, upTo uint64) []*hallv1.DeviceEvent
}

// pendingCount is len(o.Pending()), without the copies where it can.
func pendingCount(o Outbox) int {
	if pl, ok := o.(pendingLister); ok {
		return pl.PendingCount()
	}
	return len(o.Pending())
}

// pendingRange is o's pending events with after < seq <= upTo, in order.
func pendingRange(o Outbox, after, upTo uint64) []*hallv1.DeviceEvent {
	if pl, ok := o.(pendingLister); ok {
		return pl.PendingRange(after, upTo)
	}
	var out []*hallv1.DeviceEvent
	for _, ev := range o.Pending() {
		if s := ev.GetSeq(); s > upTo {
			break
		} else if s > after {
			out = append(out, ev)
		}
	}
	return out
}

func (l *ledger) checkAppend(ev *hallv1.DeviceEvent) error {
	if ev == nil {
		return errors.New("clockdev: append of a nil event")
	}
	if ev.GetSeq() != l.next {
		return fmt.Errorf("clockdev: append of seq %d, want the next seq %d", ev.GetSeq(), l.next)
	}
	return nil
}

// append adds ev, which checkAppend accepted; the ledger keeps ev itself.
func (l *ledger) append(ev *hallv1.DeviceEvent, applied bool) {
	l.pending = append(l.pending, ev)
	l.next = ev.GetSeq() + 1
	if applied && l.board != nil && ev.GetBoardId() == l.board.GetBoardId() && ev.GetAction() != nil {
		l.board.History = append(l.board.History, proto.Clone(ev.GetAction()).(*hallv1.ClockAction))
	}
}

func (l *ledger) ack(upTo uint64) {
	if upTo > l.acked {
		l.acked = upTo
	}
	l.retain(upTo)
	if l.next <= upTo {
		l.next = upTo + 1
	}
}

// retain moves the pending events with seq <= upTo to the retained ones.
func (l *ledger) retain(upTo uint64) {
	i := 0
	for i < len(l.pending) && l.pending[i].GetSeq() <= upTo {
		i++
	}
	l.retained = append(l.retained, l.pending[:i]...)
	l.pending = append(l.pending[:0:0], l.pending[i:]...)
	if n := len(l.retained) - l.keep; n > 0 {
		l.retained = append(l.retained[:0:0], l.retained[n:]...)
		l.pruneLeft()
	}
}

// resend moves the retained events with seq >= from back to pending.
func (l *ledger) resend(from uint64) int {
	i := len(l.retained)
	for i > 0 && l.retained[i-1].GetSeq() >= from {
		i--
	}
	back := l.retained[i:]
	l.pending = append(append([]*hallv1.DeviceEvent(nil), back...), l.pending...)
	l.retained = append(l.retained[:0:0], l.retained[:i]...)
	return len(back)
}

func (l *ledger) renumber(first uint64) {
	for i, ev := range l.pending {
		ev.Seq = first + uint64(i)
	}
	l.next = first + uint64(len(l.pending))
	l.retained = nil // numbered in a past the hall does not share
	l.pruneLeft()
}

// setBoard keeps a (owned by the ledger from now on) or none. The board
// left is kept as a record while events of it are held.
func (l *ledger) setBoard(a *hallv1.Assignment) {
	if id := l.board.GetBoardId(); id != "" && id != a.GetBoardId() {
		l.left = append(l.withoutLeft(id), boardRecord(l.board))
	}
	if a.GetBoardId() == "" {
		l.board = nil
	} else {
		l.board = a
		l.left = l.withoutLeft(a.GetBoardId())
	}
	l.pruneLeft()
}

// withoutLeft is l.left without the record of board id.
func (l *ledger) withoutLeft(id string) []*hallv1.Assignment {
	out := l.left[:0:0]
	for _, a := range l.left {
		if a.GetBoardId() != id {
			out = append(out, a)
		}
	}
	return out
}

// pruneLeft drops the records of boards left whose events are no longer
// held, and the oldest beyond what a Hello may list.
func (l *ledger) pruneLeft() {
	if len(l.left) == 0 {
		return
	}
	held := map[string]bool{}
	for _, evs := range [][]*hallv1.DeviceEvent{l.retained, l.pending} {
		for _, ev := range evs {
			held[ev.GetBoardId()] = true
		}
	}
	out := l.left[:0:0]
	for _, a := range l.left {
		if held[a.GetBoardId()] {
			out = append(out, a)
		}
	}
	if n := len(out) - (hallv1.MaxHeldBoards - 1); n > 0 {
		out = out[n:]
	}
	l.left = out
}

// held is the records of the boards whose events the ledger holds: the
// current board first, then those left, the latest first.
func (l *ledger) held() []*hallv1.Assignment {
	var out []*hallv1.Assignment
	if l.board != nil {
		out = append(out, boardRecord(l.board))
	}
	for i := len(l.left) - 1; i >= 0; i-- {
		out = append(out, proto.Clone(l.left[i]).(*hallv1.Assignment))
	}
	return out
}

// boardRecord is a copy of an assignment without its state and history:
// what the hall said of the board itself.
func boardRecord(a *hallv1.Assignment) *hallv1.Assignment {
	r := proto.Clone(a).(*hallv1.Assignment)
	r.State, r.History = nil, nil
	return r
}

func (l *ledger) boardCopy() *hallv1.Assignment {
	if l.board == nil {
		return nil
	}
	return proto.Clone(l.board).(*hallv1.Assignment)
}

// journal is where an Outbox records each operation before its ledger
// applies it: nowhere (NewMemoryOutbox), or a file, each line fsynced
// before the operation returns (OpenFileOutbox). An operation the journal
// could not record is not applied.
type journal interface {
	event(ev *hallv1.DeviceEvent, applied bool) error
	ack(upTo uint64) error
	resend(from uint64) error
	renumber(first uint64) error
	board(a *hallv1.Assignment) error // nil: not assigned
	// recorded is told of each operation applied, with the ledger as it
	// is now (a file compacts itself).
	recorded(l *ledger)
	close() error
}

// lockedOutbox is the Outbox: a ledger under a lock, each change recorded
// by its journal first.
type lockedOutbox struct {
	mu     sync.Mutex
	l      ledger
	j      journal
	closed bool
}

// NewMemoryOutbox returns an Outbox kept in memory: it survives
// reconnections but not a restart of the program.
func NewMemoryOutbox() Outbox { return &lockedOutbox{l: newLedger(), j: memoryJournal{}} }

// memoryJournal records nothing: the ledger in memory is all there is.
type memoryJournal struct{}

func (memoryJournal) event(*hallv1.DeviceEvent, bool) error { return nil }
func (memoryJournal) ack(uint64) error                      { return nil }
func (memoryJournal) resend(uint64) error                   { return nil }
func (memoryJournal) renumber(uint64) error                 { return nil }
func (memoryJournal) board(*hallv1.Assignment) error        { return nil }
func (memoryJournal) recorded(*ledger)                      {}
func (memoryJournal) close() error                          { return nil }

func (o *lockedOutbox) NextSeq() uint64 {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.l.next
}

func (o *lockedOutbox) AckedSeq() uint64 {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.l.acked
}

func (o *lockedOutbox) Pending() []*hallv1.DeviceEvent {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.l.pendingCopy()
}

func (o *lockedOutbox) PendingCount() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return len(o.l.pending)
}

func (o *lockedOutbox) PendingRange(after, upTo uint64) []*hallv1.DeviceEvent {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.l.pendingRange(after, upTo)
}

func (o *lockedOutbox) Append(ev *hallv1.DeviceEvent, applied bool) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed {
		return ErrClosed
	}
	if err := o.l.checkAppend(ev); err != nil {
		return err
	}
	if err := o.j.event(ev, applied); err != nil {
		return err
	}
	o.l.append(proto.Clone(ev).(*hallv1.DeviceEvent), applied)
	o.j.recorded(&o.l)
	return nil
}

func (o *lockedOutbox) Ack(upTo uint64) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed {
		return ErrClosed
	}
	if upTo <= o.l.acked && (len(o.l.pending) == 0 || o.l.pending[0].GetSeq() > upTo) {
		return nil // nothing changes: keep the journal short
	}
	if err := o.j.ack(upTo); err != nil {
		return err
	}
	o.l.ack(upTo)
	o.j.recorded(&o.l)
	return nil
}

func (o *lockedOutbox) Resend(from uint64) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed {
		return 0, ErrClosed
	}
	if len(o.l.retained) == 0 || o.l.retained[len(o.l.retained)-1].GetSeq() < from {
		return 0, nil // nothing held: keep the journal short
	}
	if err := o.j.resend(from); err != nil {
		return 0, err
	}
	n := o.l.resend(from)
	o.j.recorded(&o.l)
	return n, nil
}

func (o *lockedOutbox) Renumber(first uint64) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed {
		return ErrClosed
	}
	if err := o.j.renumber(first); err != nil {
		return err
	}
	o.l.renumber(first)
	o.j.recorded(&o.l)
	return nil
}

func (o *lockedOutbox) SaveBoard(a *hallv1.Assignment) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed {
		return ErrClosed
	}
	if a.GetBoardId() != "" {
		a = proto.Clone(a).(*hallv1.Assignment)
	} else {
		a = nil
	}
	if err := o.j.board(a); err != nil {
		return err
	}
	o.l.setBoard(a)
	o.j.recorded(&o.l)
	return nil
}

func (o *lockedOutbox) Board() *hallv1.Assignment {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.l.boardCopy()
}

func (o *lockedOutbox) Held() []*hallv1.Assignment {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.l.held()
}

func (o *lockedOutbox) Close() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed {
		return nil
	}
	o.closed = true
	return o.j.close()
}
