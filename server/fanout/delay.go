package fanout

import (
	"sync"
	"time"

	"github.com/chesshall/hallclock/internal/mono"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// DelayLine feeds a hub of its own with every change when it is due
// (anti-cheating: spectators and relays see the games late while the
// arbiters see them live). The hall's changes are due Delay after they
// happened (Publish, Seed); a gateway's at their commit time plus the
// delay (PublishAt). It keeps one queue for the whole hall, so its memory
// is the changes of one delay window, whatever the number of watchers.
type DelayLine struct {
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

// NewDelayLine returns a delay line whose changes are released on clock,
// delay after they are published (PublishAt names its own time).
func NewDelayLine(delay time.Duration, clock mono.Clock) *DelayLine {
	return &DelayLine{delay: delay, clock: clock, out: NewHub(0)}
}

// Hub is the hub the line feeds.
func (d *DelayLine) Hub() *Hub { return d.out }

// Publish publishes a change on the line's hub once the delay has passed.
func (d *DelayLine) Publish(roundID string, st *pb.BoardState, seq uint64) {
	d.pushAt(d.clock.Now().Add(d.delay), roundID, st, seq, false)
}

// Seed seeds a board's state on the line's hub (Hub.Seed) once the delay
// has passed: a board loaded at start-up is shown no sooner than a change.
func (d *DelayLine) Seed(roundID string, st *pb.BoardState, seq uint64) {
	d.pushAt(d.clock.Now().Add(d.delay), roundID, st, seq, true)
}

// PublishAt publishes a change on the line's hub at due (at once if due
// has passed), after every change pushed before it.
func (d *DelayLine) PublishAt(due time.Time, roundID string, st *pb.BoardState, seq uint64) {
	d.pushAt(due, roundID, st, seq, false)
}

// pushAt queues a change, due at due (changes are released in the order
// pushed).
func (d *DelayLine) pushAt(due time.Time, roundID string, st *pb.BoardState, seq uint64, seed bool) {
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

func (d *DelayLine) armLocked() {
	wait := max(d.q[0].due.Sub(d.clock.Now()), 0)
	if d.timer == nil {
		d.timer = d.clock.AfterFunc(wait, d.release)
	} else {
		d.timer.Reset(wait)
	}
}

// release publishes every change that is due, in order.
func (d *DelayLine) release() {
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

// Close stops the line and closes its hub.
func (d *DelayLine) Close() {
	d.mu.Lock()
	d.closed = true
	if d.timer != nil {
		d.timer.Stop()
	}
	d.mu.Unlock()
	d.out.Close()
}
