package server

import (
	"sync"
	"time"

	"github.com/chesshall/hallclock/internal/mono"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// delayLine feeds a second hub, the public one that broadcast feeds watch,
// with every change Delay after it happened (anti-cheating: spectators and
// relays see the games late while the arbiters see them live). It keeps
// one queue for the whole hall, so its memory is the changes of one delay
// window, whatever the number of feeds.
type delayLine struct {
	delay time.Duration
	clock mono.Clock
	out   *Hub

	mu     sync.Mutex
	q      []delayed
	timer  mono.Timer
	closed bool
}

type delayed struct {
	due     time.Time
	roundID string
	st      *pb.BoardState
	seq     uint64
	seed    bool
}

func newDelayLine(delay time.Duration, clock mono.Clock) *delayLine {
	return &delayLine{delay: delay, clock: clock, out: NewHub(0)}
}

// push queues a change for the public hub.
func (d *delayLine) push(roundID string, st *pb.BoardState, seq uint64, seed bool) {
	d.pushAt(d.clock.Now().Add(d.delay), roundID, st, seq, seed)
}

// pushAt queues a change for the public hub, due at due (changes are
// released in the order pushed).
func (d *delayLine) pushAt(due time.Time, roundID string, st *pb.BoardState, seq uint64, seed bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return
	}
	d.q = append(d.q, delayed{due: due, roundID: roundID, st: st, seq: seq, seed: seed})
	if len(d.q) == 1 {
		d.armLocked()
	}
}

func (d *delayLine) armLocked() {
	wait := max(d.q[0].due.Sub(d.clock.Now()), 0)
	if d.timer == nil {
		d.timer = d.clock.AfterFunc(wait, d.release)
	} else {
		d.timer.Reset(wait)
	}
}

// release publishes every change that is due, in order.
func (d *delayLine) release() {
	d.mu.Lock()
	now := d.clock.Now()
	n := 0
	for n < len(d.q) && !d.q[n].due.After(now) {
		n++
	}
	due := append([]delayed(nil), d.q[:n]...)
	d.q = d.q[n:]
	if len(d.q) > 0 && !d.closed {
		d.armLocked()
	}
	d.mu.Unlock()
	for _, c := range due {
		if c.seed {
			d.out.Seed(c.roundID, c.st, c.seq)
		} else {
			d.out.Publish(c.roundID, c.st, c.seq)
		}
	}
}

func (d *delayLine) close() {
	d.mu.Lock()
	d.closed = true
	if d.timer != nil {
		d.timer.Stop()
	}
	d.mu.Unlock()
	d.out.Close()
}

// DelayLine feeds a hub with changes at the times they are due: the
// delayed hub of a follower of the hall's stream (server/gateway), whose
// changes are due at their commit time plus the broadcast delay.
type DelayLine struct{ d *delayLine }

// NewDelayLine returns a delay line whose changes are released on clock.
func NewDelayLine(clock mono.Clock) *DelayLine { return &DelayLine{newDelayLine(0, clock)} }

// Hub is the hub the line feeds.
func (l *DelayLine) Hub() *Hub { return l.d.out }

// PublishAt publishes a change on the hub at due (at once if due has
// passed), after every change pushed before it.
func (l *DelayLine) PublishAt(due time.Time, roundID string, st *pb.BoardState, seq uint64) {
	l.d.pushAt(due, roundID, st, seq, false)
}

// Close stops the line and closes its hub.
func (l *DelayLine) Close() { l.d.close() }
