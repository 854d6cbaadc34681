package sim

import (
	"context"
	"errors"
	"math/rand/v2"
	"net"
	"sync"
	"time"

	"google.golang.org/grpc"

	hallv1 "github.com/chesshall/hallclock/proto/hall/v1"
)

// network is one device's network: its dialer, the connections it made,
// and the faults injected on them (cuts, latency, duplicated and
// reordered sends). It is safe for concurrent use: gRPC dials and writes
// from its own goroutines while the device's table cuts.
type network struct {
	base    func(ctx context.Context, addr string) (net.Conn, error)
	chaos   *Chaos
	stats   *counters
	holdFor time.Duration // how long a held-back event waits for the next one (real time)

	mu        sync.Mutex
	rng       *rand.Rand
	conns     map[*faultyConn]struct{}
	downUntil time.Time
}

func newNetwork(base func(ctx context.Context, addr string) (net.Conn, error), chaos *Chaos, stats *counters, rng *rand.Rand) *network {
	return &network{base: base, chaos: chaos, stats: stats, rng: rng, conns: map[*faultyConn]struct{}{}, holdFor: 250 * time.Millisecond}
}

var errNetworkDown = errors.New("sim: the device's network is down (chaos: cut)")

// dial is the device's gRPC context dialer.
func (n *network) dial(ctx context.Context, addr string) (net.Conn, error) {
	n.mu.Lock()
	down := time.Now().Before(n.downUntil)
	n.mu.Unlock()
	if down {
		return nil, errNetworkDown
	}
	c, err := n.base(ctx, addr)
	if err != nil {
		return nil, err
	}
	fc := &faultyConn{Conn: c, n: n}
	n.mu.Lock()
	n.conns[fc] = struct{}{}
	n.mu.Unlock()
	return fc, nil
}

// cut closes every connection of the device and refuses new ones for d
// (real time).
func (n *network) cut(d time.Duration) {
	n.mu.Lock()
	n.downUntil = time.Now().Add(d)
	conns := n.conns
	n.conns = map[*faultyConn]struct{}{}
	n.mu.Unlock()
	for c := range conns {
		c.Close()
	}
}

// delay draws the latency of one write.
func (n *network) delay() time.Duration {
	c := n.chaos
	if c.Latency <= 0 && c.Jitter <= 0 {
		return 0
	}
	d := c.Latency
	if c.Jitter > 0 {
		n.mu.Lock()
		d += time.Duration(n.rng.Int64N(int64(c.Jitter) + 1))
		n.mu.Unlock()
	}
	return d
}

// chance draws a fault of probability p.
func (n *network) chance(p float64) bool {
	if p <= 0 {
		return false
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.rng.Float64() < p
}

// faultyConn is a connection whose writes arrive after the injected
// latency, in order, without slowing each other down: Write queues a copy
// with its due time and a writer goroutine (started with the first
// delayed write) sends it when due. A failed write fails the next Write.
type faultyConn struct {
	net.Conn
	n *network

	mu      sync.Mutex
	queue   []delayed
	lastDue time.Time
	err     error
	closed  bool
	writer  bool
	kick    chan struct{}
}

type delayed struct {
	due time.Time
	b   []byte
}

func (c *faultyConn) Write(b []byte) (int, error) {
	d := c.n.delay()
	c.mu.Lock()
	if c.err != nil || c.closed {
		err := c.err
		c.mu.Unlock()
		if err == nil {
			err = net.ErrClosed
		}
		return 0, err
	}
	if d <= 0 && len(c.queue) == 0 {
		c.mu.Unlock()
		return c.Conn.Write(b)
	}
	due := time.Now().Add(d)
	if due.Before(c.lastDue) {
		due = c.lastDue // jitter never reorders bytes
	}
	c.lastDue = due
	c.queue = append(c.queue, delayed{due: due, b: append([]byte(nil), b...)})
	if !c.writer {
		c.writer = true
		c.kick = make(chan struct{}, 1)
		go c.write()
	}
	c.mu.Unlock()
	select {
	case c.kick <- struct{}{}:
	default:
	}
	return len(b), nil
}

// write sends the queued writes when they are due, until the connection
// is closed or a write fails.
func (c *faultyConn) write() {
	for {
		c.mu.Lock()
		if c.closed || c.err != nil {
			c.mu.Unlock()
			return
		}
		if len(c.queue) == 0 {
			c.mu.Unlock()
			<-c.kick
			continue
		}
		next := c.queue[0]
		c.mu.Unlock()
		if wait := time.Until(next.due); wait > 0 {
			time.Sleep(wait)
		}
		_, err := c.Conn.Write(next.b)
		c.mu.Lock()
		c.queue = c.queue[1:]
		if err != nil {
			c.err = err
		}
		c.mu.Unlock()
	}
}

func (c *faultyConn) Close() error {
	c.n.mu.Lock()
	delete(c.n.conns, c)
	c.n.mu.Unlock()
	c.mu.Lock()
	c.closed = true
	if c.kick != nil {
		select {
		case c.kick <- struct{}{}:
		default:
		}
	}
	c.mu.Unlock()
	return c.Conn.Close()
}

// intercept is the device connection's stream interceptor: it duplicates
// and reorders the device's events on their way out.
func (n *network) intercept(ctx context.Context, desc *grpc.StreamDesc, cc *grpc.ClientConn, method string, streamer grpc.Streamer, opts ...grpc.CallOption) (grpc.ClientStream, error) {
	s, err := streamer(ctx, desc, cc, method, opts...)
	if err != nil || (n.chaos.Duplicate <= 0 && n.chaos.Reorder <= 0) {
		return s, err
	}
	return &faultyStream{ClientStream: s, n: n}, nil
}

// faultyStream sends a device's events twice, or holds one back and sends
// it after the next (the server then sees a sequence gap). Only the
// device's send loop calls SendMsg; the timer that flushes a held event
// takes the same lock.
type faultyStream struct {
	grpc.ClientStream
	n     *network
	mu    sync.Mutex
	held  any
	timer *time.Timer
}

func (s *faultyStream) SendMsg(m any) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	ev := eventOf(m)
	if ev == nil {
		if err := s.flushLocked(); err != nil {
			return err
		}
		return s.ClientStream.SendMsg(m)
	}
	if s.held != nil {
		// The swap: this event first, then the one held back.
		held := s.held
		s.held = nil
		s.timer.Stop()
		err := s.ClientStream.SendMsg(m)
		if err == nil {
			s.n.stats.reordered.Add(1)
			err = s.ClientStream.SendMsg(held)
		}
		return err
	}
	if s.n.chance(s.n.chaos.Reorder) {
		s.held = m
		s.timer = time.AfterFunc(s.n.holdFor, func() {
			s.mu.Lock()
			defer s.mu.Unlock()
			_ = s.flushLocked()
		})
		return nil
	}
	if err := s.ClientStream.SendMsg(m); err != nil {
		return err
	}
	if s.n.chance(s.n.chaos.Duplicate) {
		s.n.stats.duplicated.Add(1)
		return s.ClientStream.SendMsg(m)
	}
	return nil
}

// flushLocked sends the event held back, if any, in its place.
func (s *faultyStream) flushLocked() error {
	if s.held == nil {
		return nil
	}
	held := s.held
	s.held = nil
	s.timer.Stop()
	return s.ClientStream.SendMsg(held)
}

func eventOf(m any) *hallv1.DeviceEvent {
	if dm, ok := m.(*hallv1.DeviceMessage); ok {
		return dm.GetEvent()
	}
	return nil
}
