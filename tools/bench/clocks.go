package main

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"

	"github.com/chesshall/hallclock/clockdev/wsdial"
	"github.com/chesshall/hallclock/internal/rtstats"
	"github.com/chesshall/hallclock/internal/wire"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
)

// The load generator. Each clock is one gRPC connection with one
// ClockLink stream — as a clock device has — but not a clockdev.Device:
// the library's goroutines, outbox and timers per device would cost the
// generator more CPU than the server it measures on a 2-core machine.
// A clock here is a stream, a receive goroutine and a rules.State; a few
// pacer goroutines send every clock's presses and heartbeats on schedule.
//
// The schedule is open-loop: presses go out at their scheduled times
// whether or not earlier ones were acknowledged (a player does not wait
// for the hall), and latency runs from the scheduled time, so a
// generator or server that falls behind shows in the figures instead of
// slowing the offered load (no coordinated omission).

// clock is one simulated clock device.
type clock struct {
	f      *fleet
	idx    int
	dev    string
	token  string
	conn   *grpc.ClientConn // nil over the WebSocket
	stream clockStream
	ready  chan struct{} // closed once welcomed and assigned

	mu       sync.Mutex // guards what follows and serialises Send
	board    string
	st       rules.State
	epoch    time.Time // board time 0 on the generator's clock
	nextSeq  uint64
	boardSeq uint64 // board events as this clock applied them
	pend     []pending
	welcomed bool
	assigned bool
	cut      bool // the stream ended: the clock sends nothing more
	// acks: board_seq → when its acknowledgement arrived, for presses of
	// a window that watchers are measured in (zero until it arrives).
	acks map[uint64]time.Time
}

type pending struct {
	seq      uint64
	at       time.Time // scheduled
	w        *window   // the window it was scheduled in, or nil
	press    bool
	boardSeq uint64
}

// window is one measurement interval: latency of the presses scheduled
// in it, acknowledgements received in it.
type window struct {
	from, to time.Time
	lat      hist
	sendLate hist         // how late the bench sent each press after its scheduled time (its own delay)
	acked    atomic.Int64 // press acknowledgements received within [from, to)
	sent     atomic.Int64 // presses scheduled within it
	rejected atomic.Int64
	probe    bool // record acknowledgement times for watchers
	// the bench's own scheduling latency over the window (sched.go)
	schedP99, schedMax time.Duration
	// the server's runtime over the window: its pauses and assists
	// (rtOK: the server reported them)
	rt   rtstats.Window
	rtOK bool
}

func (w *window) in(t time.Time) bool { return !t.Before(w.from) && t.Before(w.to) }

// clockStream is a clock's ClockLink stream: gRPC's, or the WebSocket's
// (transports.go).
type clockStream interface {
	Send(*pb.DeviceMessage) error
	Recv() (*pb.ServerMessage, error)
}

// fleet is every clock of one server, and the pacers that drive them.
type fleet struct {
	addr    string
	ws      *wsdial.Transport // the clocks speak ClockLink over this WebSocket instead of gRPC (transports.go)
	clocks  []*clock
	byBoard map[string]*clock
	win     atomic.Pointer[window]
	rate    atomic.Uint64 // offered presses per second, all clocks together (float bits)
	hbEvery atomic.Int64  // heartbeat interval (ns), from the Welcome
	errs    atomic.Int64
	cuts    atomic.Int64 // clock streams that ended
	// beatLate is the most a heartbeat was sent after its time (ns): a
	// clock cut as silent when its heartbeats left the bench seconds late
	// was cut for the bench's delay (its own goroutines starved), not the
	// server's.
	beatLate atomic.Int64
	lastErr  atomic.Value
	// ackLog lists the acknowledged presses of probe windows in arrival
	// order (age.go).
	ackLog    ackLog
	collected time.Time // when the bench last collected (collect)
	// backlog, if set, is the server's own work left over (the hall's
	// outbox not yet in its stream): settle waits for it too.
	backlog func() float64
	// rt, if set, reads the server's runtime pauses so far.
	rt     func() (rtstats.Snapshot, bool)
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

const (
	pacers    = 4
	pacerTick = time.Millisecond
)

// connect dials n clocks (one connection each) with their tokens and
// waits until each is welcomed and assigned.
func connect(addr string, devs, tokens []string) (*fleet, error) {
	return connectVia(addr, nil, devs, tokens)
}

// connectVia is connect over gRPC at addr, or over the WebSocket ws.
func connectVia(addr string, ws *wsdial.Transport, devs, tokens []string) (*fleet, error) {
	ctx, cancel := context.WithCancel(context.Background())
	f := &fleet{addr: addr, ws: ws, byBoard: map[string]*clock{}, ctx: ctx, cancel: cancel}
	f.hbEvery.Store(int64(time.Second))
	for i, dev := range devs {
		f.clocks = append(f.clocks, &clock{f: f, idx: i, dev: dev, token: tokens[i], ready: make(chan struct{}), nextSeq: 1, acks: map[uint64]time.Time{}})
	}
	// The pacers beat from the start: connecting 10,000 clocks takes
	// seconds, longer than the hall lets a connected clock stay silent.
	for p := range pacers {
		f.wg.Add(1)
		go f.pace(p)
	}
	sem := make(chan struct{}, 64)
	errc := make(chan error, len(devs))
	for _, c := range f.clocks {
		sem <- struct{}{}
		go func() {
			defer func() { <-sem }()
			errc <- c.open()
		}()
	}
	for range devs {
		if err := <-errc; err != nil {
			f.close()
			return nil, err
		}
	}
	deadline := time.After(2 * time.Minute)
	for _, c := range f.clocks {
		select {
		case <-c.ready:
		case <-deadline:
			f.close()
			return nil, fmt.Errorf("clock %s not welcomed and assigned after 2 minutes", c.dev)
		}
		c.mu.Lock()
		f.byBoard[c.board] = c
		c.mu.Unlock()
	}
	return f, nil
}

// open dials the clock's connection and stream and sends Hello.
func (c *clock) open() error {
	if c.f.ws != nil {
		return c.openWS()
	}
	conn, err := grpc.NewClient(c.f.addr, grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithInitialWindowSize(1<<20), grpc.WithInitialConnWindowSize(1<<20))
	if err != nil {
		return err
	}
	c.conn = conn
	ctx := metadata.AppendToOutgoingContext(c.f.ctx, "authorization", "Bearer "+c.token)
	stream, err := pb.NewClockLinkClient(conn).Connect(ctx)
	if err != nil {
		return fmt.Errorf("clock %s: %w", c.dev, err)
	}
	c.stream = stream
	if err := stream.Send(&pb.DeviceMessage{Msg: &pb.DeviceMessage_Hello{Hello: &pb.Hello{
		DeviceId: c.dev, Firmware: "bench", NextSeq: 1}}}); err != nil {
		return fmt.Errorf("clock %s: hello: %w", c.dev, err)
	}
	c.f.wg.Add(1)
	go c.recv()
	return nil
}

func (f *fleet) fail(err error) {
	if err != nil && f.ctx.Err() == nil {
		f.errs.Add(1)
		f.lastErr.Store(errBox{err})
	}
}

// recv handles the server's messages until the stream ends.
func (c *clock) recv() {
	defer c.f.wg.Done()
	for {
		m, err := c.stream.Recv()
		if err != nil {
			// The bench's clocks do not reconnect: a cut clock stays
			// cut, its presses count as never acknowledged, and the
			// table counts the cut streams.
			c.mu.Lock()
			c.cut = true
			c.mu.Unlock()
			if c.f.ctx.Err() == nil {
				c.f.cuts.Add(1)
			}
			c.f.fail(fmt.Errorf("clock %s: stream ended: %w", c.dev, err))
			return
		}
		now := time.Now()
		switch x := m.GetMsg().(type) {
		case *pb.ServerMessage_Welcome:
			if ms := x.Welcome.GetHeartbeatIntervalMs(); ms > 0 {
				c.f.hbEvery.Store(int64(time.Duration(ms) * time.Millisecond))
			}
			c.mu.Lock()
			c.welcomed = true
			c.readyLocked()
			c.mu.Unlock()
		case *pb.ServerMessage_Assignment:
			c.f.fail(c.assign(x.Assignment, now))
		case *pb.ServerMessage_Ack:
			c.ack(x.Ack, now)
		case *pb.ServerMessage_Command:
			c.f.fail(c.command(x.Command, now))
		}
	}
}

func (c *clock) readyLocked() {
	if c.welcomed && c.assigned {
		select {
		case <-c.ready:
		default:
			close(c.ready)
		}
	}
}

// assign adopts the board: its configuration and history folded by the
// rules, its board time from the server's estimate.
func (c *clock) assign(a *pb.Assignment, now time.Time) error {
	cfg, err := wire.Config(a.GetConfig())
	if err != nil {
		return fmt.Errorf("clock %s: assignment: %w", c.dev, err)
	}
	st, err := rules.NewState(cfg)
	if err != nil {
		return fmt.Errorf("clock %s: assignment: %w", c.dev, err)
	}
	for _, act := range a.GetHistory() {
		e, err := wire.Event(act, true)
		if err != nil {
			return err
		}
		if st, err = rules.Apply(st, e); err != nil {
			return fmt.Errorf("clock %s: assignment history: %w", c.dev, err)
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.board, c.st, c.boardSeq = a.GetBoardId(), st, uint64(len(a.GetHistory()))
	c.epoch = now.Add(-time.Duration(max(a.GetState().GetAtMs(), st.At)) * time.Millisecond)
	c.assigned = true
	c.readyLocked()
	return nil
}

// boardNow is the board time now. c.mu is held.
func (c *clock) boardNow(now time.Time) int64 {
	return max(now.Sub(c.epoch).Milliseconds(), c.st.At)
}

// command applies an arbiter command (the round's start) now and reports it.
func (c *clock) command(cmd *pb.Command, now time.Time) error {
	e, err := wire.Event(cmd.GetAction(), true)
	if err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e.T = c.boardNow(now)
	return c.sendLocked(e, cmd.GetCommandId(), now, nil, false)
}

// press presses the clock of the side to move, scheduled at at.
func (c *clock) press(at time.Time, w *window) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.st.Status != rules.Running {
		return nil
	}
	if w != nil {
		w.sent.Add(1)
	}
	if c.cut {
		if w != nil {
			w.lat.add(never)
		}
		return nil
	}
	e := rules.Event{Kind: rules.KindPress, T: c.boardNow(time.Now()), Side: c.st.ToMove}
	err := c.sendLocked(e, "", at, w, true)
	if w != nil {
		w.sendLate.add(time.Since(at))
	}
	return err
}

// sendLocked applies e to the clock's state and sends it. c.mu is held.
func (c *clock) sendLocked(e rules.Event, commandID string, at time.Time, w *window, press bool) error {
	next, err := rules.Apply(c.st, e)
	if err != nil {
		return fmt.Errorf("clock %s: %s refused by its own rules: %w", c.dev, e.Kind, err)
	}
	c.st = next
	c.boardSeq++
	seq := c.nextSeq
	c.nextSeq++
	act := wire.Action(e)
	c.pend = append(c.pend, pending{seq: seq, at: at, w: w, press: press, boardSeq: c.boardSeq})
	if w != nil && w.probe {
		c.acks[c.boardSeq] = time.Time{}
	}
	return c.stream.Send(&pb.DeviceMessage{Msg: &pb.DeviceMessage_Event{Event: &pb.DeviceEvent{
		Seq: seq, BoardId: c.board, Action: act, CommandId: commandID,
		WhiteMs: next.P[rules.White].MainMs, BlackMs: next.P[rules.Black].MainMs}}})
}

// heartbeat sends what a device sends every heartbeat interval.
func (c *clock) heartbeat(now time.Time) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.assigned || c.cut {
		return nil
	}
	t := c.boardNow(now)
	p := c.st.Project(t)
	return c.stream.Send(&pb.DeviceMessage{Msg: &pb.DeviceMessage_Heartbeat{Heartbeat: &pb.Heartbeat{
		DeviceMs: now.Sub(c.epoch).Milliseconds(), BoardTMs: t, BatteryPct: 80,
		WhiteMs: p.P[rules.White].MainMs, BlackMs: p.P[rules.Black].MainMs}}})
}

// ack takes the acknowledged events off the pending list and records the
// presses' latencies.
func (c *clock) ack(a *pb.Ack, now time.Time) {
	rejected := map[uint64]bool{}
	for _, r := range a.GetRejected() {
		rejected[r.GetSeq()] = true
	}
	cur := c.f.win.Load()
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, p := range c.pend {
		if p.seq > a.GetUpToSeq() {
			break
		}
		n++
		if !p.press {
			continue
		}
		if cur != nil && cur.in(now) {
			cur.acked.Add(1)
		}
		if p.w == nil {
			continue
		}
		if rejected[p.seq] {
			p.w.rejected.Add(1)
			continue
		}
		p.w.lat.add(now.Sub(p.at))
		if p.w.probe {
			c.acks[p.boardSeq] = now
			c.f.ackLog.add(c.board, p.boardSeq, now)
		}
	}
	c.pend = c.pend[n:]
}

// setRate sets the offered presses per second of the whole fleet.
func (f *fleet) setRate(r float64) { f.rate.Store(uint64(r * 1000)) }

// pace is one pacer: it sends the presses and heartbeats of every
// pacers-th clock on schedule, waking every millisecond.
func (f *fleet) pace(p int) {
	defer f.wg.Done()
	var mine []*clock
	for i := p; i < len(f.clocks); i += pacers {
		mine = append(mine, f.clocks[i])
	}
	if len(mine) == 0 {
		return
	}
	// Clocks are pressed in turn, each every len(clocks)/rate seconds,
	// and beat in turn every heartbeat interval.
	var (
		rate      uint64
		nextPress time.Time
		pressGap  time.Duration
		k         int
		nextBeat  = time.Now().Add(time.Duration(p) * time.Millisecond)
		j         int
	)
	tk := time.NewTicker(pacerTick)
	defer tk.Stop()
	for {
		select {
		case <-f.ctx.Done():
			return
		case <-tk.C:
		}
		now := time.Now()
		if r := f.rate.Load(); r != rate {
			rate = r
			nextPress = now
			if rate > 0 {
				pressGap = time.Duration(float64(time.Second) * float64(len(f.clocks)) / (float64(rate) / 1000) / float64(len(mine)))
			}
		}
		for rate > 0 && !nextPress.After(now) {
			w := f.win.Load()
			if w != nil && !w.in(nextPress) {
				w = nil
			}
			f.fail(mine[k%len(mine)].press(nextPress, w))
			k++
			nextPress = nextPress.Add(pressGap)
		}
		beatGap := time.Duration(f.hbEvery.Load()) / time.Duration(len(mine))
		for !nextBeat.After(now) {
			if late := int64(time.Since(nextBeat)); late > f.beatLate.Load() {
				f.beatLate.Store(late) // one pacer's view; the others' may race: a max either way
			}
			f.fail(mine[j%len(mine)].heartbeat(now))
			j++
			nextBeat = nextBeat.Add(beatGap)
		}
	}
}

// measure runs the fleet at rate for warm then d, and returns the window
// of the last d once every press of it is acknowledged (or drain passed;
// the unacknowledged count as lost).
func (f *fleet) measure(rate float64, warm, d, drain time.Duration, probe bool) *window {
	return f.measureWith(rate, warm, d, drain, probe, nil)
}

// measureWith is measure, with mid (if not nil) called halfway through the
// window: the window lasts d from its start however long mid takes.
func (f *fleet) measureWith(rate float64, warm, d, drain time.Duration, probe bool, mid func()) *window {
	f.settle(settleLimit)
	f.collect()
	f.setRate(rate)
	time.Sleep(warm)
	now := time.Now()
	w := &window{from: now, to: now.Add(d), probe: probe}
	var rt0 rtstats.Snapshot
	if f.rt != nil {
		rt0, w.rtOK = f.rt()
	}
	f.win.Store(w)
	sched0 := readSched()
	if mid != nil {
		time.Sleep(d / 2)
		mid()
	}
	time.Sleep(time.Until(w.to))
	sched1 := readSched()
	if w.rtOK {
		rt1, ok := f.rt()
		w.rt, w.rtOK = rt1.Since(rt0), ok
	}
	w.schedP99, w.schedMax = sched1.QuantileSince(sched0, 0.99), sched1.LongestSince(sched0)
	end := time.Now().Add(drain)
	for time.Now().Before(end) && f.pendingIn(w) > 0 {
		time.Sleep(10 * time.Millisecond)
	}
	for range f.pendingIn(w) {
		w.lat.add(never)
	}
	return w
}

// The bench's own collector. The generator keeps 10,000 connections and
// some 40,000 goroutines on its one CPU: a collection's mark phase there
// took 0.3–1.5 s and delayed its presses and the acknowledgements it
// timed, for whichever server it measured (p99 104 ms against the echo
// server at 1,000/s). So the bench collects rarely (benchGCPercent), and
// before each window, with the clocks idle, it collects in full: no
// window then holds a collection of the bench's. The servers' own are
// theirs, and measured.
const benchGCPercent = 400

// collect collects the bench's garbage, unless it did in the last few
// seconds (runServer collects before the window it times the server's CPU
// over, then measure would again).
func (f *fleet) collect() {
	if time.Since(f.collected) < 5*time.Second {
		return
	}
	runtime.GC()
	f.collected = time.Now()
}

// settleLimit bounds how long settle waits for a server's backlog.
const settleLimit = time.Minute

// settle stops pressing until every press sent is acknowledged and the
// server's backlog, if it reports one, is nearly gone (or limit passed):
// each window starts from a server that has caught up, not behind on the
// previous window's load.
func (f *fleet) settle(limit time.Duration) {
	f.setRate(0)
	start := time.Now()
	end := start.Add(limit)
	for time.Now().Before(end) {
		if f.pendingIn(nil) == 0 {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if n := f.pendingIn(nil); n > 0 {
		fmt.Printf("   (still %d presses unacknowledged after %s: measuring anyway)\n", n, limit)
		return
	}
	if f.backlog == nil {
		return
	}
	for time.Now().Before(end) {
		if f.backlog() < 100 {
			if d := time.Since(start); d > time.Second {
				fmt.Printf("   (the server caught up in %s)\n", d.Round(100*time.Millisecond))
			}
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	fmt.Printf("   (the server's backlog is still %.0f after %s: measuring anyway)\n", f.backlog(), limit)
}

// pendingIn counts the presses of w (of any window if w is nil) not yet
// acknowledged; with w nil, not those of cut clocks, which never will be.
func (f *fleet) pendingIn(w *window) int {
	n := 0
	for _, c := range f.clocks {
		c.mu.Lock()
		if w == nil && c.cut {
			c.mu.Unlock()
			continue
		}
		for _, p := range c.pend {
			if (w == nil || p.w == w) && p.press {
				n++
			}
		}
		c.mu.Unlock()
	}
	return n
}

// running waits until every clock's game runs (the round was started).
func (f *fleet) running(timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for _, c := range f.clocks {
		for {
			c.mu.Lock()
			ok := c.st.Status == rules.Running && len(c.pend) == 0
			c.mu.Unlock()
			if ok {
				break
			}
			if time.Now().After(deadline) {
				return fmt.Errorf("clock %s not running after %s", c.dev, timeout)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	return nil
}

// errors returns the count of stream errors and the last one.
func (f *fleet) errors() (int64, error) {
	b, _ := f.lastErr.Load().(errBox)
	err := b.err
	return f.errs.Load(), err
}

func (f *fleet) close() {
	f.cancel()
	for _, c := range f.clocks {
		if c.conn != nil {
			c.conn.Close()
		}
	}
	done := make(chan struct{})
	go func() { f.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
	}
}

// errBox holds errors of any type in an atomic.Value.
type errBox struct{ err error }
