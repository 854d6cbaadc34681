package clockdev

import (
	"errors"
	"fmt"
	"math"
	"sync"

	hallv1 "github.com/chesshall/hallclock/proto/hall/v1"
	"google.golang.org/protobuf/proto"
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
	// again. AckedSeq does not change. An Outbox keeps the acknowledged
	// events of the board it plays (the last RetainedEvents of them) for
	// this, and forgets them when the board changes.
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
	// Close releases the Outbox; later calls fail with ErrClosed.
	Close() error
}

// ErrClosed is returned by a closed Device or Outbox.
var ErrClosed = errors.New("clockdev: closed")

// ledger is the content of an outbox, shared by the memory and file
// implementations. It is not safe for concurrent use.
type ledger struct {
	acked    uint64
	next     uint64
	pending  []*hallv1.DeviceEvent
	retained []*hallv1.DeviceEvent // acknowledged, of the current board, in order, just before pending
	board    *hallv1.Assignment
}

// RetainedEvents is how many acknowledged events an Outbox keeps for
// Resend: more than a long game's.
const RetainedEvents = 2048

func newLedger() ledger { return ledger{next: 1} }

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

// pendingLister is what the package's own Outboxes offer beyond Outbox,
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
	if n := len(l.retained) - RetainedEvents; n > 0 {
		l.retained = append(l.retained[:0:0], l.retained[n:]...)
	}
	l.pending = append(l.pending[:0:0], l.pending[i:]...)
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
}

// setBoard keeps a (owned by the ledger from now on) or none.
func (l *ledger) setBoard(a *hallv1.Assignment) {
	if a.GetBoardId() != l.board.GetBoardId() {
		l.retained = nil // another board: its past is the hall's to keep
	}
	if a.GetBoardId() == "" {
		l.board = nil
		return
	}
	l.board = a
}

func (l *ledger) boardCopy() *hallv1.Assignment {
	if l.board == nil {
		return nil
	}
	return proto.Clone(l.board).(*hallv1.Assignment)
}

// NewMemoryOutbox returns an Outbox kept in memory: it survives
// reconnections but not a restart of the program.
func NewMemoryOutbox() Outbox { return &memOutbox{l: newLedger()} }

type memOutbox struct {
	mu     sync.Mutex
	l      ledger
	closed bool
}

func (m *memOutbox) NextSeq() uint64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.l.next
}

func (m *memOutbox) AckedSeq() uint64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.l.acked
}

func (m *memOutbox) Pending() []*hallv1.DeviceEvent {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.l.pendingCopy()
}

func (m *memOutbox) PendingCount() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.l.pending)
}

func (m *memOutbox) PendingRange(after, upTo uint64) []*hallv1.DeviceEvent {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.l.pendingRange(after, upTo)
}

func (m *memOutbox) Append(ev *hallv1.DeviceEvent, applied bool) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return ErrClosed
	}
	if err := m.l.checkAppend(ev); err != nil {
		return err
	}
	m.l.append(proto.Clone(ev).(*hallv1.DeviceEvent), applied)
	return nil
}

func (m *memOutbox) Ack(upTo uint64) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return ErrClosed
	}
	m.l.ack(upTo)
	return nil
}

func (m *memOutbox) Resend(from uint64) (int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return 0, ErrClosed
	}
	return m.l.resend(from), nil
}

func (m *memOutbox) Renumber(first uint64) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return ErrClosed
	}
	m.l.renumber(first)
	return nil
}

func (m *memOutbox) SaveBoard(a *hallv1.Assignment) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return ErrClosed
	}
	if a != nil {
		a = proto.Clone(a).(*hallv1.Assignment)
	}
	m.l.setBoard(a)
	return nil
}

func (m *memOutbox) Board() *hallv1.Assignment {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.l.boardCopy()
}

func (m *memOutbox) Close() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.closed = true
	return nil
}
