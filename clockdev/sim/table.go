package sim

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"google.golang.org/grpc"

	"github.com/chesshall/hallclock/clockdev"
	"github.com/chesshall/hallclock/formats/announce"
	"github.com/chesshall/hallclock/internal/wire"
	hallv1 "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
)

// table is one clock device and the games played on it: the device (with
// its own connection and network), the two players, and the arbiter when
// the game needs one. One goroutine (run) owns everything but the fields
// marked otherwise.
type table struct {
	f          *Fleet
	number     int // board number within its tournament, from 1
	id, token  string
	net        *network
	chaos      *rand.Rand // chaos decisions of this table
	drift      float64    // the oscillator's drift, ppm
	outboxPath string     // "" for a memory outbox
	wake       chan struct{}

	dev       *clockdev.Device
	devp      atomic.Pointer[clockdev.Device] // dev, for the coordinator
	conn      *grpc.ClientConn
	runCancel context.CancelFunc
	runDone   chan struct{}

	// The game being played.
	board   string
	virtual bool // the board's clock is a server-hosted virtual clock
	info    *boardInfo
	g       *game
	key     turnKey
	plan    turnPlan
	due     time.Time
	marked  bool // the board's end was reported to its round
	dieAt   int  // chaos: the clock dies once White has made this many moves (0: never)
	cmdSeen map[string]bool
	// pausedSince is when the clock was first seen stopped; pauseOurs,
	// whether its own players stopped it (stopped.go).
	pausedSince time.Time
	pauseOurs   bool

	mu        sync.Mutex
	recovered map[uint64]bool // seqs recovered from the outbox at a reboot, not yet acknowledged
	toVirtual string          // a board found on a virtual clock (a resumed hall), to play
}

// playVirtual tells the table that board, whose clock died before the
// fleet restarted, goes on on a virtual clock.
func (t *table) playVirtual(board string) {
	t.mu.Lock()
	t.toVirtual = board
	t.mu.Unlock()
	t.poke()
}

func (t *table) poke() {
	select {
	case t.wake <- struct{}{}:
	default:
	}
}

// run plays on the table until ctx is done.
func (t *table) run(ctx context.Context) {
	defer t.shutdown()
	if err := t.start(ctx); err != nil {
		t.f.fail(fmt.Errorf("device %s: %w", t.id, err))
		return
	}
	for ctx.Err() == nil {
		t.step(ctx)
	}
}

// idle is how long (game time) the table waits when it has nothing to do
// and no device notice wakes it: a quarter of a second, real time.
func (t *table) idle() time.Duration {
	return time.Duration(float64(250*time.Millisecond) * t.f.cfg.Speed)
}

// step looks at the board and does the next thing: plan a turn, wait for
// it, carry it out, or report the end of the game.
func (t *table) step(ctx context.Context) {
	t.mu.Lock()
	if v := t.toVirtual; v != "" {
		t.toVirtual = ""
		t.board, t.g, t.virtual = v, nil, true
	}
	t.mu.Unlock()
	board := t.board
	if !t.virtual {
		board = ""
		if t.dev != nil {
			board = t.dev.Status().BoardID
		}
	}
	if board == "" && t.board != "" && !t.virtual && !t.marked && t.g != nil {
		// The device lost its board in the middle of the game: an arbiter
		// may have moved the board to a virtual clock.
		t.lostBoard(ctx)
		return
	}
	info := t.f.boardInfo(board)
	if info == nil {
		if t.virtual { // its round is over
			t.virtual, t.board, t.g = false, "", nil
			t.replace(ctx)
		}
		t.wait(ctx, t.idle())
		return
	}
	if board != t.board || t.g == nil {
		if err := t.newGame(board, info); err != nil {
			t.f.log.Warn("cannot set up the game", "device", t.id, "board", board, "err", err)
			t.wait(ctx, t.idle())
			return
		}
	}
	face := t.face()
	v, err := face.state(ctx)
	if err != nil {
		t.wait(ctx, t.idle())
		return
	}
	switch v.Status {
	case rules.Waiting:
		t.wait(ctx, t.idle())
		return
	case rules.Finished:
		t.finished(ctx, v)
		return
	case rules.Paused:
		// A claim cut short, or a person's pause (stopped.go).
		t.stopped(ctx, face)
		return
	case rules.Adjourned:
		t.g.adjournment(ctx, face)
		return
	}
	t.marked, t.pausedSince = false, time.Time{}
	if v.HasFlag {
		t.g.claimFlag(ctx, face, v, &t.f.stats)
		t.wait(ctx, t.idle())
		return
	}
	now := t.f.clock.Now()
	if k := keyOf(v); k != t.key {
		t.keepInStep(v)
		t.key, t.plan = k, t.g.plan(v)
		t.due = now.Add(t.plan.think)
	}
	if d := t.due.Sub(now); d > 0 {
		t.wait(ctx, d)
		return
	}
	t.g.turn(ctx, face, v, t.plan, &t.f.stats)
	t.key = turnKey{}
	if !t.virtual && t.dieAt > 0 && v.Moves[rules.White] >= t.dieAt {
		t.die(ctx)
	}
}

// newGame sets up the players of board (and picks up a game in progress
// from the device's history).
func (t *table) newGame(board string, info *boardInfo) error {
	var hist []*hallv1.ClockAction
	if t.dev != nil && !t.virtual && info.spec.EBoard {
		hist = t.dev.History()
	}
	g, err := newGame(info.spec, t.f.cfg.Seed, info.round.number, info.number, hist)
	if err != nil {
		t.f.log.Warn("e-board position not recovered; the game goes on without it", "board", board, "err", err)
	}
	t.board, t.info, t.g = board, info, g
	t.key, t.marked, t.dieAt = turnKey{}, false, 0
	t.cmdSeen = map[string]bool{}
	if c := t.f.cfg.Chaos; c.Die > 0 && t.chaos.Float64() < c.Die {
		t.dieAt = 3 + t.chaos.IntN(30)
	}
	return nil
}

// lostBoard handles a device taken off its board before the game ended:
// if the board went on on a virtual clock (an arbiter's decision), the
// players follow it there; otherwise the game is left to whoever has it.
func (t *table) lostBoard(ctx context.Context) {
	b, err := t.f.getBoard(ctx, t.board)
	if err == nil && b.GetState().GetSource() == hallv1.ClockSource_CLOCK_SOURCE_VIRTUAL &&
		b.GetState().GetStatus() != hallv1.BoardStatus_BOARD_STATUS_FINISHED {
		t.virtual = true
		t.key = turnKey{}
		t.f.log.Info("board moved to a virtual clock; the players follow it", "board", t.board, "device", t.id)
		return
	}
	t.board, t.g = "", nil
}

// keepInStep makes the e-board agree with the clock again after the
// clock took the hall's record (an adoption, a dead clock): it replays
// the device's history or, failing that, plays on without the e-board.
func (t *table) keepInStep(v view) {
	if t.g.inStep(v) {
		return
	}
	if t.dev != nil && !t.virtual {
		if eb, err := replayEBoard(t.dev.History()); err == nil {
			t.g.eb = eb
			if t.g.inStep(v) {
				return
			}
		}
	}
	t.f.log.Warn("the e-board lost step with the clock; the game goes on without it", "board", t.board)
	t.g.eb = nil
}

// finished reports the end of the game to its round, once the result is
// committed, and makes a dead clock's table whole again.
func (t *table) finished(ctx context.Context, v view) {
	if !t.marked {
		if !t.virtual {
			t.synced(ctx, 30*time.Second)
			if v2, err := t.face().state(ctx); err != nil || v2.Status != rules.Finished {
				return // the device took the server's state meanwhile: play on
			}
		}
		t.marked = true
		t.info.round.finished(t.board)
		t.virtual = false
		t.replace(ctx)
	}
	t.wait(ctx, t.idle())
}

// replace puts a new clock, with empty storage, on a table whose clock
// died, for the next round.
func (t *table) replace(ctx context.Context) {
	if t.dev != nil {
		return
	}
	if t.outboxPath != "" {
		os.Remove(t.outboxPath) // its storage died with it
	}
	if err := t.start(ctx); err != nil {
		t.f.fail(fmt.Errorf("device %s: replacement: %w", t.id, err))
	}
}

// face returns how the board's clock is reached: a visually disabled
// player's assistant reaches it through the hall.
func (t *table) face() clockFace {
	var c clockFace = deviceFace{t}
	if t.virtual {
		c = virtualFace{t}
	}
	if t.info != nil && t.info.assistant != nil {
		return assistedFace{clockFace: c, t: t, a: t.info.assistant}
	}
	return c
}

// --- the device's life ---

// start creates the device (on its outbox) and runs its link.
func (t *table) start(ctx context.Context) error {
	var ob clockdev.Outbox = clockdev.NewMemoryOutbox()
	if t.outboxPath != "" {
		var err error
		if ob, err = clockdev.OpenFileOutbox(t.outboxPath); err != nil {
			return err
		}
		if p := ob.Pending(); len(p) > 0 {
			t.mu.Lock()
			if t.recovered == nil {
				t.recovered = map[uint64]bool{}
			}
			n := 0
			for _, ev := range p {
				if !t.recovered[ev.GetSeq()] { // counted once, however many reboots it waits through
					t.recovered[ev.GetSeq()] = true
					n++
				}
			}
			t.mu.Unlock()
			t.f.stats.recovered.Add(int64(n))
		}
	}
	if t.conn == nil {
		c, err := t.f.deviceConn(t.net)
		if err != nil {
			ob.Close()
			return err
		}
		t.conn = c
	}
	speed := t.f.cfg.Speed
	n := t.f.stats.incarnations.Add(1)
	cfg := clockdev.Config{
		DeviceID: t.id, Token: t.token, Firmware: "clocksim-1",
		Conn:     t.conn,
		Clock:    t.f.clock,
		Outbox:   ob,
		DriftPPM: t.drift,
		Rand:     rand.New(rand.NewPCG(uint64(t.f.cfg.Seed), uint64(n))),
		Logger:   t.f.devLog.With("device", t.id),
		// Reconnect within 50 ms to 1 s of real time, at any speed.
		MinBackoff: time.Duration(float64(50*time.Millisecond) * speed),
		MaxBackoff: time.Duration(float64(time.Second) * speed),
		OnAck:      t.onAck,
		// The table reads its notices as they come; what it misses (a
		// burst of acknowledgements while it waits for the arbiter) it can
		// do without. 64 instead of 256 saves 18 KiB a device.
		NoticeBuffer: 64,
		Speak:        t.speaker(),
		Voices:       t.voices(),
	}
	t.resumeConfig(&cfg)
	d, err := clockdev.New(cfg)
	if err != nil {
		ob.Close()
		return err
	}
	runCtx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		d.Run(runCtx)
	}()
	t.dev, t.runCancel, t.runDone = d, cancel, done
	t.devp.Store(d)
	return nil
}

// stopRun takes the device's link down (the device keeps its clock).
func (t *table) stopRun() {
	if t.runCancel != nil {
		t.runCancel()
		<-t.runDone
		t.runCancel, t.runDone = nil, nil
	}
}

// closeDevice switches the device off.
func (t *table) closeDevice() {
	t.stopRun()
	if t.dev != nil {
		t.dev.Close()
		t.dev = nil
		t.devp.Store(nil)
	}
}

func (t *table) shutdown() {
	t.f.noteClock(t) // where its board's time stands as the fleet stops
	t.closeDevice()
	if t.conn != nil {
		t.conn.Close()
		t.conn = nil
	}
}

// onAck runs on the device's receive loop, under its lock.
func (t *table) onAck(a clockdev.Acked) {
	f := t.f
	if a.Latency >= 0 {
		real := time.Duration(float64(a.Latency) / f.cfg.Speed)
		f.stats.acks.add(real)
		f.stats.window.add(real)
	}
	t.mu.Lock()
	if t.recovered[a.Event.GetSeq()] {
		delete(t.recovered, a.Event.GetSeq())
		f.stats.recoveredDelivered.Add(1)
	}
	t.mu.Unlock()
	if f.cfg.OnAck != nil {
		f.cfg.OnAck(t.id, a)
	}
}

// reboot: the power fails just as the player presses. The link goes down,
// the press is recorded in the outbox (it is durable before Press
// returns) but never sent; the device restarts after RebootFor from its
// file outbox and delivers it.
func (t *table) reboot(ctx context.Context, press func() error) error {
	t.stopRun()
	err := press()
	t.dev.Close()
	t.dev = nil
	t.devp.Store(nil)
	t.net.cut(0) // the connection dies with the device
	t.f.stats.reboots.Add(1)
	t.sleep(ctx, t.f.cfg.Chaos.RebootFor)
	if serr := t.start(ctx); serr != nil {
		t.f.fail(fmt.Errorf("device %s: reboot: %w", t.id, serr))
	}
	return err
}

// die: the clock dies. The arbiter notices after DieNotice and moves the
// board to a server-hosted virtual clock; the players press on it through
// the arbiter's console.
func (t *table) die(ctx context.Context) {
	t.synced(ctx, t.real(arbiterWalk)) // at a quiet moment, if the link allows
	t.closeDevice()
	t.f.stats.deaths.Add(1)
	t.f.log.Info("clock died", "device", t.id, "board", t.board)
	t.sleep(ctx, t.f.cfg.Chaos.DieNotice)
	for ctx.Err() == nil {
		_, err := t.f.arb.UseVirtualClock(t.f.actx(ctx), &hallv1.UseVirtualClockRequest{BoardId: t.board, Reason: "clock " + t.id + " died"})
		if err == nil {
			break
		}
		t.f.log.Warn("UseVirtualClock failed; retrying", "board", t.board, "err", err)
		t.sleep(ctx, t.idle())
	}
	t.virtual = true
	t.key = turnKey{}
	t.f.stats.virtual.Add(1)
}

// --- waiting ---

// wait waits up to d (game time) or until the device reports something,
// handling its notices.
func (t *table) wait(ctx context.Context, d time.Duration) {
	var notices <-chan clockdev.Notice
	if t.dev != nil {
		notices = t.dev.Events()
	}
	if d > 0 {
		tm := t.f.clock.AfterFunc(d, t.poke)
		defer tm.Stop()
	}
	select {
	case <-ctx.Done():
		return
	case <-t.wake:
	case n, ok := <-notices:
		if !ok {
			return
		}
		t.handle(n)
	}
	for notices != nil { // whatever else is waiting
		select {
		case n, ok := <-notices:
			if !ok {
				return
			}
			t.handle(n)
		default:
			return
		}
	}
}

// sleep lets d of game time pass, handling the device's notices.
func (t *table) sleep(ctx context.Context, d time.Duration) {
	end := t.f.clock.Now().Add(d)
	for ctx.Err() == nil {
		left := end.Sub(t.f.clock.Now())
		if left <= 0 {
			return
		}
		t.wait(ctx, left)
	}
}

// until waits (real time at most max) for cond.
func (t *table) until(ctx context.Context, max time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(max)
	for !cond() {
		if ctx.Err() != nil || time.Now().After(deadline) {
			return false
		}
		t.wait(ctx, time.Duration(float64(20*time.Millisecond)*t.f.cfg.Speed))
	}
	return true
}

// arbiterWalk is how long (game time) the arbiter takes to come to a board.
const arbiterWalk = 20 * time.Second

// real converts game time to real time, at most ten seconds.
func (t *table) real(d time.Duration) time.Duration {
	return min(time.Duration(float64(d)/t.f.cfg.Speed), 10*time.Second)
}

// synced waits until the device has nothing unacknowledged.
func (t *table) synced(ctx context.Context, max time.Duration) bool {
	return t.until(ctx, max, func() bool {
		if t.dev == nil {
			return true
		}
		s := t.dev.Status()
		return s.Connected && s.Outbox == 0
	})
}

func (t *table) handle(n clockdev.Notice) {
	switch n.Kind {
	case clockdev.NoticeConnected:
		t.f.stats.connects.Add(1)
	case clockdev.NoticeRejection:
		t.f.stats.rejections.Add(1)
		t.f.log.Warn("device event rejected", "device", t.id, "seq", n.Rejection.GetSeq(), "code", n.Rejection.GetCode(), "message", n.Rejection.GetMessage())
	case clockdev.NoticeCommand:
		if id := n.Command.GetCommandId(); id != "" && t.cmdSeen != nil {
			t.cmdSeen[id] = n.Err == nil
		}
	}
}

// arbiter carries out an arbiter's action on the board and waits for the
// clock to apply it.
func (t *table) arbiter(ctx context.Context, a *hallv1.ClockAction, reason string) bool {
	if !t.virtual {
		// The arbiter acts on what the hall knows: give the clock's events
		// the time the arbiter takes to walk over.
		t.synced(ctx, t.real(arbiterWalk))
	}
	return t.command(ctx, t.f.cfg.ChiefToken, a, reason)
}

// command has the hall carry out an action on the board's clock as the
// holder of token (the chief arbiter, a player's assistant) and waits for
// the clock to apply it.
func (t *table) command(ctx context.Context, token string, a *hallv1.ClockAction, reason string) bool {
	req := &hallv1.BoardActionRequest{BoardId: t.board, Action: a, Reason: reason, WaitMs: t.f.waitMs}
	resp, err := callAs(ctx, t.f, token, func(ctx context.Context) (*hallv1.BoardActionResponse, error) { return t.f.arb.BoardAction(ctx, req) })
	if err != nil {
		if ctx.Err() == nil {
			t.f.log.Warn("action on the clock failed", "board", t.board, "action", a.GetKind(), "err", err)
		}
		return false
	}
	switch resp.GetStatus() {
	case hallv1.CommandStatus_COMMAND_STATUS_APPLIED:
		return true
	case hallv1.CommandStatus_COMMAND_STATUS_REFUSED:
		t.f.log.Debug("action on the clock refused", "board", t.board, "action", a.GetKind(), "message", resp.GetMessage())
		return false
	}
	// Pending: the device applies it when it is back. Its notice says
	// whether it did; should the notice be missed, the hall's list of
	// pending commands says the command was carried out.
	id := resp.GetCommandId()
	applied := false
	lastAsked := time.Now()
	t.until(ctx, 30*time.Second, func() bool {
		if ok, seen := t.cmdSeen[id]; seen {
			applied = ok
			return true
		}
		if t.dev == nil {
			return true
		}
		if time.Since(lastAsked) > 500*time.Millisecond {
			lastAsked = time.Now()
			if b, err := t.f.getBoard(ctx, t.board); err == nil && !pendingCommand(b, id) {
				applied = true
				return true
			}
		}
		return false
	})
	return applied
}

// pendingCommand reports whether command id is still pending on b.
func pendingCommand(b *hallv1.Board, id string) bool {
	for _, p := range b.GetPending() {
		if p.GetCommandId() == id {
			return true
		}
	}
	return false
}

// --- the faces of the clock ---

// deviceFace is the clock device on the table.
type deviceFace struct{ t *table }

var errNoDevice = errors.New("sim: the table has no working device")

func (c deviceFace) state(context.Context) (view, error) {
	if c.t.dev == nil {
		return view{}, errNoDevice
	}
	return viewOf(c.t.dev.State()), nil
}

func (c deviceFace) press(ctx context.Context, side rules.Side, san, fen string) error {
	t := c.t
	if t.dev == nil {
		return errNoDevice
	}
	ch := &t.f.cfg.Chaos
	if ch.Reboot > 0 && t.outboxPath != "" && t.chaos.Float64() < ch.Reboot {
		return t.reboot(ctx, func() error { return t.dev.Press(side, san, fen) })
	}
	err := t.dev.Press(side, san, fen)
	if err == nil && ch.Cut > 0 && t.chaos.Float64() < ch.Cut {
		t.net.cut(time.Duration(float64(ch.CutFor) / t.f.cfg.Speed))
		t.f.stats.cuts.Add(1)
	}
	return err
}

func (c deviceFace) local(_ context.Context, e rules.Event) error {
	if c.t.dev == nil {
		return errNoDevice
	}
	return c.t.dev.Do(e)
}

func (c deviceFace) arbiter(ctx context.Context, a *hallv1.ClockAction, reason string) bool {
	return c.t.arbiter(ctx, a, reason)
}

func (c deviceFace) pause(ctx context.Context, d time.Duration) { c.t.sleep(ctx, d) }

func (c deviceFace) announce(_ context.Context, side rules.Side) error {
	if c.t.dev == nil {
		return errNoDevice
	}
	_, err := c.t.dev.RequestAnnouncement(side)
	return err
}

// virtualFace is a server-hosted virtual clock: the players' presses and
// the arbiter's actions go through the arbiter's console.
type virtualFace struct{ t *table }

func (c virtualFace) state(ctx context.Context) (view, error) {
	b, err := c.t.f.getBoard(ctx, c.t.board)
	if err != nil {
		return view{}, err
	}
	return viewOfWire(b.GetState()), nil
}

func (c virtualFace) press(ctx context.Context, side rules.Side, san, fen string) error {
	a := &hallv1.ClockAction{Kind: hallv1.ActionKind_ACTION_KIND_PRESS, Side: wireSide(side), San: san, Fen: fen}
	return c.do(ctx, a, "press on the virtual clock")
}

func (c virtualFace) local(ctx context.Context, e rules.Event) error {
	return c.do(ctx, wire.Action(e), playersOnVirtual)
}

func (c virtualFace) do(ctx context.Context, a *hallv1.ClockAction, reason string) error {
	resp, err := c.t.f.act(ctx, c.t.board, a, reason)
	if err != nil {
		return err
	}
	if resp.GetStatus() != hallv1.CommandStatus_COMMAND_STATUS_APPLIED {
		return fmt.Errorf("sim: %s on the virtual clock of %s: %s", a.GetKind(), c.t.board, resp.GetMessage())
	}
	return nil
}

func (c virtualFace) arbiter(ctx context.Context, a *hallv1.ClockAction, reason string) bool {
	return c.do(ctx, a, reason) == nil
}

func (c virtualFace) pause(ctx context.Context, d time.Duration) { c.t.sleep(ctx, d) }

// announce: a server-hosted virtual clock has no voice.
func (c virtualFace) announce(context.Context, rules.Side) error { return clockdev.ErrNotTalking }

// --- the talking clock ---

// speaker is the device's voice with Config.TalkingClocks: it logs what
// the clock would say and counts it. It runs under the device's lock.
func (t *table) speaker() func(clockdev.Speech) {
	if !t.f.cfg.TalkingClocks {
		return nil
	}
	return func(s clockdev.Speech) {
		t.f.stats.announcements.Add(1)
		t.f.log.Info("clock says", "device", t.id, "board", s.BoardID, "to", s.To, "lang", s.Language,
			"asked_by", s.AskedBy, "words", s.Text)
	}
}

// voices are the languages of a talking clock's voice: every one the
// words are written in.
func (t *table) voices() []string {
	if !t.f.cfg.TalkingClocks {
		return nil
	}
	return announce.Languages
}
