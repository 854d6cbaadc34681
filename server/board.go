package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"google.golang.org/protobuf/encoding/protojson"

	"github.com/chesshall/hallclock/internal/mono"
	"github.com/chesshall/hallclock/internal/wire"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
	"github.com/chesshall/hallclock/storage"
)

// board is the actor of one board: its functions, one at a time, own its
// state and apply every event through the rules, write it (group commit)
// and publish it after the commit. Everything else talks to it through do,
// tell and post.
type board struct {
	srv      *Server
	rec      storage.BoardRecord
	quit     chan struct{} // closed when the board is withdrawn: closeQuit
	quitOnce sync.Once

	mu    sync.Mutex // guards queue and busy: see do
	queue []func()
	busy  bool

	// owned by the actor (the function running)
	state rules.State
	seq   uint64 // board events committed
	// board time line ↔ server clock: the board was at refT when the server
	// clock showed refAt.
	refT  int64
	refAt time.Time
	// hb is the latest heartbeat's reference, left by the device's
	// receive loop for now() to take: a heartbeat a second from every
	// clock need not wake the actor.
	hb      atomic.Pointer[boardRef]
	online  bool
	pending []*command // arbiter commands not yet applied, in issue order
	alerts  []string
	timer   mono.Timer     // virtual clocks: the next deadline
	ruling  *pb.TimeRuling // the last ruling that changed a clock's time, nil if none
}

// command is an arbiter command on its way through the board's clock.
type command struct {
	rec     storage.CommandRecord
	action  *pb.ClockAction
	event   rules.Event // as validated, with ByArbiter
	waiters []chan commandResult
}

type commandResult struct {
	status  pb.CommandStatus
	message string
	sent    bool // pending: the device is online and has it
}

const maxAlerts = 8

func newBoard(srv *Server, rec storage.BoardRecord, st rules.State, seq uint64) *board {
	b := &board{srv: srv, rec: rec, quit: make(chan struct{}), state: st, seq: seq}
	b.refT, b.refAt = st.At, srv.clock.Now()
	// A board made after its device connected takes the device's state
	// from the connection registry, not from the news of a connect it
	// missed.
	b.online = b.deviceConnected()
	return b
}

// The board's functions run one at a time, on whichever goroutine is there
// to run them, so that an idle board holds no goroutine and a press waits
// for no hand-off: a caller of do whose board is idle runs its function
// itself; what arrives while the board is busy is queued, and the
// goroutine that finishes hands a non-empty queue to a goroutine started
// for it, which runs it dry and ends. Nothing runs once the board is
// withdrawn or the server shuts down (Shutdown waits for what is running).
// Invariant: the queue is empty whenever busy is false.

// do runs f on the actor and waits for it. Either f has run to its end
// when do returns nil, or it never runs: a caller that gives up (ctx done,
// shutdown) before the actor took f abandons it, and one whose f has
// started waits for it, so f never writes into what its caller has
// already handed on (a reply being marshalled).
func (b *board) do(ctx context.Context, f func()) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	b.mu.Lock()
	if !b.busy {
		b.busy = true
		b.mu.Unlock()
		err := b.runOne(f)
		b.handOn()
		return err
	}
	done := make(chan struct{})
	var state atomic.Int32 // 0 queued, 1 taken by the actor, 2 abandoned
	b.queue = append(b.queue, func() {
		if !state.CompareAndSwap(0, 1) {
			return
		}
		f()
		close(done)
	})
	b.mu.Unlock()
	giveUp := func(err error) error {
		if state.CompareAndSwap(0, 2) {
			return err
		}
		<-done
		return nil
	}
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return giveUp(ctx.Err())
	case <-b.srv.ctx.Done():
		// Nothing runs after shutdown, so f may never be taken.
		return giveUp(ErrShuttingDown)
	case <-b.quit:
		return giveUp(b.withdrawnErr())
	}
}

// tell runs f on the actor without waiting; it drops f if the queue is
// long (for telemetry that the next message repeats).
func (b *board) tell(f func()) {
	b.enqueue(f, true)
}

// post runs f on the actor without waiting and without dropping it.
func (b *board) post(f func()) {
	b.enqueue(f, false)
}

// maxQueue is how many functions tell lets wait for a busy board.
const maxQueue = 64

func (b *board) enqueue(f func(), droppable bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if droppable && len(b.queue) >= maxQueue {
		return
	}
	b.queue = append(b.queue, f)
	if !b.busy {
		b.busy = true
		go b.drain()
	}
}

// handOn ends a turn: the queue, if any, goes to a goroutine of its own
// (the caller that ran its function inline returns to its own work).
func (b *board) handOn() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.queue) == 0 {
		b.busy = false
		return
	}
	go b.drain()
}

// drain runs the queue dry, then the board is idle.
func (b *board) drain() {
	for {
		b.mu.Lock()
		if len(b.queue) == 0 {
			b.busy = false
			b.mu.Unlock()
			return
		}
		f := popFront(&b.queue)
		b.mu.Unlock()
		_ = b.runOne(f)
	}
}

// popFront takes the first of a queue (a board's functions, a link's
// messages), letting go of its array once it is empty.
func popFront[T any](q *[]T) T {
	var zero T
	v := (*q)[0]
	(*q)[0] = zero
	if *q = (*q)[1:]; len(*q) == 0 {
		*q = nil
	}
	return v
}

// runOne runs f unless the board is withdrawn or the server is shutting
// down; Shutdown waits for it.
func (b *board) runOne(f func()) error {
	select {
	case <-b.quit:
		return b.withdrawnErr()
	default:
	}
	if !b.srv.enterActor() {
		return ErrShuttingDown
	}
	defer b.srv.wg.Done()
	f()
	return nil
}

func (b *board) closeQuit() {
	b.quitOnce.Do(func() { close(b.quit) })
}

func (b *board) withdrawnErr() error {
	return fmt.Errorf("%w %q: withdrawn", ErrUnknownBoard, b.rec.ID)
}

// stopTimer stops the virtual clock's timer; it runs on the actor (or
// after the last function ran: Shutdown).
func (b *board) stopTimer() {
	if b.timer != nil {
		b.timer.Stop()
		b.timer = nil
	}
}

// boardRef is a device's board time t when the server clock showed at.
type boardRef struct {
	dev string
	t   int64
	at  time.Time
}

// heartbeatRef leaves a heartbeat's board time for the actor; any
// goroutine may call it.
func (b *board) heartbeatRef(dev string, t int64) {
	b.hb.Store(&boardRef{dev: dev, t: t, at: b.srv.clock.Now()})
}

// now estimates the board time now from the last reference: the newer of
// the actor's own and the last heartbeat's (if it came from the board's
// device and is not behind the board's state).
func (b *board) now() int64 {
	if r := b.hb.Swap(nil); r != nil && r.dev == b.rec.DeviceID && r.t >= b.state.At &&
		(r.at.After(b.refAt) || r.at.Equal(b.refAt) && r.t >= b.refT) {
		b.refT, b.refAt = r.t, r.at
	}
	t := b.refT + b.srv.clock.Since(b.refAt).Milliseconds()
	return max(t, b.state.At)
}

func (b *board) setRef(t int64) {
	b.refT, b.refAt = t, b.srv.clock.Now()
}

// wireState builds the board's live state for watchers and replies.
func (b *board) wireState(st rules.State, seq uint64) *pb.BoardState {
	return b.wireStateWith(st, seq, b.alerts, len(b.pending))
}

// wireStateWith builds the state with the given alerts and number of
// pending commands (commit builds the state as it will be once committed).
func (b *board) wireStateWith(st rules.State, seq uint64, alerts []string, pending int) *pb.BoardState {
	w := wire.State(st)
	w.BoardId = b.rec.ID
	w.BoardSeq = seq
	w.ServerUnixMs = b.srv.clock.Now().UnixMilli()
	if b.rec.Source == storage.SourceVirtual {
		w.Source = pb.ClockSource_CLOCK_SOURCE_VIRTUAL
		w.DeviceOnline = true
	} else {
		w.DeviceOnline = b.online
	}
	w.PendingCommands = int32(pending)
	w.Alerts = append([]string(nil), alerts...)
	w.LastRuling = b.ruling
	return w
}

// publishLive publishes a change of live fields (online, pending, alerts)
// that is not a board event.
func (b *board) publishLive() {
	w := b.wireState(b.state, b.seq)
	// The state is as old as its last event: its server time is when the
	// board's time was at_ms (by the server's estimate of board time), so
	// that a display running the clock forward from it does not give back
	// the time since.
	w.ServerUnixMs -= max(0, b.now()-b.state.At)
	b.srv.publish(b.rec.RoundID, w, 0)
}

// deviceOutcome is what became of a device event.
type deviceOutcome struct {
	rejected *pb.Rejection // nil when applied
}

// applyDevice applies one device event (already checked for its sequence
// number) and commits it, or commits its refusal. It runs on the actor.
func (b *board) applyDevice(ctx context.Context, dev string, ev *pb.DeviceEvent) (deviceOutcome, error) {
	actor := "device:" + dev
	refuse := func(code, msg string) (deviceOutcome, error) {
		rej := &pb.Rejection{Seq: ev.GetSeq(), Code: code, Message: msg}
		cmd := b.findCommand(ev.GetCommandId())
		cmdID := ""
		if cmd != nil {
			cmdID = cmd.rec.ID
		}
		err := b.srv.store.Write(ctx, func(tx *storage.Tx) error {
			if err := tx.AckDevice(dev, ev.GetSeq()); err != nil {
				return err
			}
			if cmd != nil {
				if err := tx.ResolveCommand(cmd.rec.ID, storage.CommandRefused, msg); err != nil {
					return err
				}
			}
			return tx.AddAudit(&storage.AuditRecord{BoardID: b.rec.ID, Actor: actor, What: describe(ev.GetAction()),
				Outcome: storage.OutcomeRefused(msg), Action: actionJSON(ev.GetAction()), CommandID: cmdID})
		})
		if err != nil {
			return deviceOutcome{}, err
		}
		if cmd != nil {
			b.resolve(cmd, commandResult{status: pb.CommandStatus_COMMAND_STATUS_REFUSED, message: msg})
		}
		return deviceOutcome{rejected: rej}, nil
	}
	if b.rec.DeviceID != dev || b.rec.Source != storage.SourceDevice {
		return refuse("permission_denied", fmt.Sprintf("device %s does not keep board %s's clock", dev, b.rec.ID))
	}
	if err := ev.GetAction().Validate(); err != nil {
		return refuse("invalid", err.Error())
	}
	e, err := wire.Event(ev.GetAction(), false)
	if err != nil {
		return refuse("invalid", err.Error())
	}
	cmd := b.findCommand(ev.GetCommandId())
	if ev.GetCommandId() != "" && cmd == nil {
		return refuse("unknown_command", fmt.Sprintf("command %s is not pending on board %s", ev.GetCommandId(), b.rec.ID))
	}
	if cmd != nil {
		// The server's copy of the command decides what it does; the
		// device decides only when.
		t := e.T
		e = cmd.event
		e.T = t
	}
	next, err := rules.Apply(b.state, e)
	if err != nil {
		return refuse(refusalCode(err), err.Error())
	}
	var alert string
	if d := b.srv.opts.DisplayTolerance; d >= 0 && (abs(ev.GetWhiteMs()-next.P[rules.White].MainMs) > d || abs(ev.GetBlackMs()-next.P[rules.Black].MainMs) > d) {
		alert = fmt.Sprintf("device %s shows white %d ms, black %d ms after board event %d; the rules give %d ms and %d ms",
			dev, ev.GetWhiteMs(), ev.GetBlackMs(), b.seq+1, next.P[rules.White].MainMs, next.P[rules.Black].MainMs)
	}
	if err := b.commit(ctx, next, e, dev, ev.GetSeq(), cmd, actor, "", alert); err != nil {
		return deviceOutcome{}, err
	}
	b.setRef(e.T)
	return deviceOutcome{}, nil
}

// commit writes an applied event (with its device acknowledgement, command
// resolution and any alert) in one transaction, then takes the new state.
// The hub hears of it after the commit, in hall-wide order.
func (b *board) commit(ctx context.Context, next rules.State, e rules.Event, dev string, devSeq uint64, cmd *command, actor, reason, alert string) error {
	seq := b.seq + 1
	alerts := b.alerts
	if alert != "" {
		alerts = append(append([]string(nil), alerts...), alert)
		if len(alerts) > maxAlerts {
			alerts = alerts[len(alerts)-maxAlerts:]
		}
	}
	pendingAfter := b.pending
	if cmd != nil {
		pendingAfter = without(b.pending, cmd)
	}
	rec := storage.EventRecord{BoardID: b.rec.ID, BoardSeq: seq, Event: e, DeviceID: dev, DeviceSeq: devSeq, Actor: actor, Reason: reason}
	if cmd != nil {
		rec.CommandID = cmd.rec.ID
		rec.Reason = cmd.rec.Reason
	}
	ruling := b.ruling
	if r := timeRuling(b.state, next, e); r != nil {
		r.BoardSeq, r.UnixMs, r.By = seq, b.srv.clock.Now().UnixMilli(), actor
		if cmd != nil {
			r.By = cmd.rec.IssuedBy
		}
		ruling = r
	}
	ws := b.wireStateWith(next, seq, alerts, len(pendingAfter))
	ws.LastRuling = ruling
	roundID := b.rec.RoundID
	err := b.srv.store.Write(ctx, func(tx *storage.Tx) error {
		if err := tx.AppendEvent(&rec); err != nil {
			return err
		}
		if seq%storage.SnapshotEvery == 0 || next.Over() {
			if err := tx.PutSnapshot(b.rec.ID, seq, next); err != nil {
				return err
			}
		}
		if cmd != nil {
			if err := tx.ResolveCommand(cmd.rec.ID, storage.CommandApplied, ""); err != nil {
				return err
			}
		}
		if alert != "" {
			if err := tx.AddAudit(&storage.AuditRecord{BoardID: b.rec.ID, Actor: "server", What: "display check",
				Outcome: storage.OutcomeAlert(alert), BoardSeq: seq}); err != nil {
				return err
			}
		}
		tx.AfterCommit(func() { b.srv.publish(roundID, ws, rec.Seq) })
		return nil
	})
	if err != nil {
		return err
	}
	b.state, b.seq, b.ruling = next, seq, ruling
	b.alerts, b.pending = alerts, pendingAfter
	if cmd != nil {
		b.resolve(cmd, commandResult{status: pb.CommandStatus_COMMAND_STATUS_APPLIED, message: ""})
	}
	if b.rec.Source == storage.SourceVirtual {
		b.armTimer()
	}
	return nil
}

func (b *board) findCommand(id string) *command {
	if id == "" {
		return nil
	}
	for _, c := range b.pending {
		if c.rec.ID == id {
			return c
		}
	}
	return nil
}

func (b *board) resolve(c *command, r commandResult) {
	b.pending = without(b.pending, c)
	for _, w := range c.waiters {
		w <- r
	}
	c.waiters = nil
}

func without(cs []*command, c *command) []*command {
	out := make([]*command, 0, len(cs))
	for _, x := range cs {
		if x != c {
			out = append(out, x)
		}
	}
	return out
}

// submit handles an arbiter's action: checked against the rules at once,
// then applied directly (virtual clock) or sent to the device as a command.
// It runs on the actor and returns the command, which the caller may wait on.
func (b *board) submit(ctx context.Context, id *Identity, a *pb.ClockAction, reason string) (*command, commandResult, error) {
	e, err := wire.Event(a, true)
	if err != nil {
		return nil, commandResult{}, err
	}
	what := describe(a)
	probe := e
	probe.T = b.now()
	next, perr := rules.Apply(b.state, probe)
	if perr != nil {
		msg := perr.Error()
		werr := b.srv.store.Write(ctx, func(tx *storage.Tx) error {
			return tx.AddAudit(&storage.AuditRecord{BoardID: b.rec.ID, Actor: id.Actor(), What: what, Reason: reason,
				Outcome: storage.OutcomeRefused(msg), Action: actionJSON(a)})
		})
		if werr != nil {
			return nil, commandResult{}, werr
		}
		return nil, commandResult{status: pb.CommandStatus_COMMAND_STATUS_REFUSED, message: msg}, perr
	}
	if b.rec.Source == storage.SourceVirtual {
		if err := b.commit(ctx, next, probe, "", 0, nil, id.Actor(), reason, ""); err != nil {
			return nil, commandResult{}, err
		}
		b.setRef(probe.T)
		return nil, commandResult{status: pb.CommandStatus_COMMAND_STATUS_APPLIED}, nil
	}
	if b.rec.DeviceID == "" {
		return nil, commandResult{}, fmt.Errorf("%w: board %s has no clock device; assign one or use a virtual clock", ErrNoDevice, b.rec.ID)
	}
	c := &command{action: wire.Action(e), event: e}
	c.action.TMs = 0
	c.rec = storage.CommandRecord{ID: b.srv.newID("cmd"), BoardID: b.rec.ID, Action: actionJSON(c.action),
		Reason: reason, IssuedBy: id.Actor(), Issued: b.srv.clock.Now(), Status: storage.CommandPending}
	err = b.srv.store.Write(ctx, func(tx *storage.Tx) error {
		if err := tx.PutCommand(&c.rec); err != nil {
			return err
		}
		return tx.AddAudit(&storage.AuditRecord{BoardID: b.rec.ID, Actor: id.Actor(), What: what, Reason: reason,
			Outcome: storage.OutcomePending, Action: c.rec.Action, CommandID: c.rec.ID})
	})
	if err != nil {
		return nil, commandResult{}, err
	}
	b.pending = append(b.pending, c)
	b.srv.counters.commands.Add(1)
	res := commandResult{status: pb.CommandStatus_COMMAND_STATUS_PENDING, message: "sent to device " + b.rec.DeviceID, sent: true}
	if !b.sendCommand(c) {
		res.message, res.sent = "waiting for device "+b.rec.DeviceID+" to come back online", false
	}
	b.publishLive()
	return c, res, nil
}

// sendCommand sends a command to the board's device if it is connected.
func (b *board) sendCommand(c *command) bool {
	l := b.srv.linkOf(b.rec.DeviceID)
	if l == nil {
		return false
	}
	return l.send(&pb.ServerMessage{Msg: &pb.ServerMessage_Command{Command: &pb.Command{
		CommandId: c.rec.ID, Action: c.action, Reason: c.rec.Reason, IssuedBy: c.rec.IssuedBy}}})
}

// assignment builds what a device assigned to this board is told, with
// the board's history read from the store (every committed event up to
// b.seq: the actor runs this after its commits, so the store has them).
func (b *board) assignment(ctx context.Context) (*pb.Assignment, error) {
	evs, err := b.srv.store.Events(ctx, b.rec.ID, 0)
	if err != nil {
		return nil, fmt.Errorf("board %s: reading its history for the device: %w", b.rec.ID, err)
	}
	st := b.state.Project(b.now())
	a := &pb.Assignment{
		BoardId: b.rec.ID, BoardNumber: int32(b.rec.Number),
		White:  &pb.Player{Name: b.rec.White.Name, FideId: b.rec.White.FideID, Rating: int32(b.rec.White.Rating)},
		Black:  &pb.Player{Name: b.rec.Black.Name, FideId: b.rec.Black.FideID, Rating: int32(b.rec.Black.Rating)},
		Config: wire.WireConfig(b.rec.Config),
		State:  b.wireState(st, b.seq),
	}
	a.Round, a.Tournament = b.srv.roundInfo(b.rec.RoundID)
	a.History = make([]*pb.ClockAction, 0, len(evs))
	for _, e := range evs {
		if e.BoardSeq > b.seq {
			break
		}
		a.History = append(a.History, wire.Action(e.Event))
	}
	return a, nil
}

// deviceOnline is told when the board's device connects or leaves; it
// reads the truth from the link registry, so late or reordered news cannot
// leave a wrong state.
func (b *board) deviceOnline(bool) {
	online := b.deviceConnected()
	if b.online == online {
		return
	}
	b.online = online
	b.publishLive()
}

// deviceConnected reads from the link registry whether the board's clock
// device is connected.
func (b *board) deviceConnected() bool {
	return b.rec.Source == storage.SourceDevice && b.rec.DeviceID != "" && b.srv.linkOf(b.rec.DeviceID) != nil
}

// armTimer sets the virtual clock's timer for the next deadline: when it
// fires the server, keeping the time, records the flag at its exact instant.
func (b *board) armTimer() {
	b.stopTimer()
	d, ok := b.state.NextDeadline()
	if !ok || b.state.Over() {
		return
	}
	wait := time.Duration(d-b.now()) * time.Millisecond
	b.timer = b.srv.clock.AfterFunc(max(wait, 0), func() {
		b.post(func() { b.virtualDeadline(d) })
	})
}

func (b *board) virtualDeadline(d int64) {
	if b.rec.Source != storage.SourceVirtual || b.state.Over() {
		return
	}
	if b.now() < d {
		b.armTimer()
		return
	}
	e := rules.Event{Kind: rules.KindFlag, T: d, Side: b.state.ToMove}
	next, err := rules.Apply(b.state, e)
	if err != nil {
		b.armTimer() // a period was added at the flag, or the deadline moved
		return
	}
	ctx, cancel := context.WithTimeout(b.srv.ctx, 10*time.Second)
	defer cancel()
	if err := b.commit(ctx, next, e, "", 0, nil, "server", "virtual clock", ""); err != nil {
		b.srv.log.Error("virtual clock deadline not recorded", "board", b.rec.ID, "err", err)
		b.armTimer()
	}
}

func abs(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}

func refusalCode(err error) string {
	if r := rules.RefusalOf(err); r != nil {
		return refusalNames[r.Code]
	}
	if errors.Is(err, rules.ErrInvalid) {
		return "invalid"
	}
	return "refused"
}

var refusalNames = map[rules.RefusalCode]string{
	rules.RefusedOther: "refused", rules.RefusedGameOver: "game_over", rules.RefusedNotStarted: "not_started",
	rules.RefusedStarted: "already_started", rules.RefusedNotRunning: "not_running", rules.RefusedRunning: "clock_running",
	rules.RefusedNotPaused: "not_paused", rules.RefusedNotToMove: "not_to_move", rules.RefusedAbsent: "absent",
	rules.RefusedPresent: "present", rules.RefusedNoFlag: "no_flag", rules.RefusedOwnFlag: "own_flag",
	rules.RefusedMoveStands: "move_stands", rules.RefusedNotApplicable: "not_applicable", rules.RefusedTimeLimit: "time_limit",
	rules.RefusedTimeBackwards: "time_backwards", rules.RefusedNegativeTime: "negative_time",
	rules.RefusedSettingLocked: "setting_locked", rules.RefusedInvalid: "invalid",
}

func actionJSON(a *pb.ClockAction) json.RawMessage {
	if a == nil {
		return nil
	}
	b, err := protojson.Marshal(a)
	if err != nil {
		return nil
	}
	return b
}

// describe names an action briefly for the audit log: "press white",
// "add_time black +60000ms".
func describe(a *pb.ClockAction) string {
	e, err := wire.Event(a, false)
	if err != nil {
		return "invalid action"
	}
	s := e.Kind.String()
	if wire.NeedsSide(e.Kind) {
		s += " " + e.Side.String()
	}
	switch e.Kind {
	case rules.KindAddTime:
		s += fmt.Sprintf(" %+dms", e.Ms)
	case rules.KindSetClock:
		s += fmt.Sprintf(" white=%dms black=%dms", e.WhiteMs, e.BlackMs)
	case rules.KindResult:
		s += " " + string(e.Result)
	case rules.KindQuickplayClaim:
		s += " " + e.Decision.String()
	case rules.KindIllegalMoveFound:
		s += fmt.Sprintf(" move %d white=%dms black=%dms", e.Move, e.WhiteMs, e.BlackMs)
	case rules.KindDeclareLost, rules.KindSealedMoveEnds:
		if e.Result != "" {
			s += " " + string(e.Result)
		}
	case rules.KindAdjourn:
		if e.SessionEndMs > 0 {
			s += fmt.Sprintf(" session ends at %dms", e.SessionEndMs)
		}
	}
	return s
}

// commandFromRecord rebuilds a pending command after a restart.
func commandFromRecord(r storage.CommandRecord) (*command, error) {
	var act pb.ClockAction
	if err := protojson.Unmarshal(r.Action, &act); err != nil {
		return nil, err
	}
	e, err := wire.Event(&act, true)
	if err != nil {
		return nil, err
	}
	return &command{rec: r, action: &act, event: e}, nil
}
