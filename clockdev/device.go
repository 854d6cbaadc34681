package clockdev

import (
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	"github.com/chesshall/hallclock/internal/mono"
	"github.com/chesshall/hallclock/internal/wire"
	hallv1 "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
	"google.golang.org/protobuf/proto"
)

// Device is one networked chess clock: the board's clock kept on the
// device's own oscillator with the rules engine, an outbox of events not yet
// acknowledged, and (while Run is active) the link to the hall server.
type Device struct {
	id, token, firmware string
	clock               mono.Clock
	transport           Transport
	ownConn             io.Closer // the gRPC connection New dialled, if it did
	log                 *slog.Logger
	battery             func() int
	driftPPM            float64
	factor              float64 // board ms per device ms: 1 + DriftPPM/1e6
	minBackoff          time.Duration
	maxBackoff          time.Duration
	rng                 *rand.Rand // Run only
	started             time.Time  // device time origin (heartbeats)
	onAck               func(Acked)
	resume              func(boardID string, last int64) int64 // New only
	speak               func(Speech)                           // nil: not a talking clock
	voices              []string

	notices chan Notice
	wake    chan struct{} // tells the send loop there is something to send

	mu      sync.Mutex
	closed  bool
	running bool
	outbox  Outbox

	// The board. asg is nil when the device is not assigned.
	asg  *hallv1.Assignment // as the server sent it (History: the server's)
	st   rules.State        // after the last event (or flag projection)
	hist []*hallv1.ClockAction
	// The board time line: board-now = base + (device time since origin) × factor.
	base   int64
	origin time.Time
	// The flag timer and its generation (a stale callback sees a newer one).
	flag     mono.Timer
	flagGen  uint64
	diverged bool // the server refused an event the local rules accepted

	cmds       map[string]bool      // arbiter commands applied (or reported), by id
	recordedAt map[uint64]time.Time // OnAck only: when each pending seq was recorded
	refused    map[uint64]bool      // pending seqs of commands the local rules refused
	announced  []string             // the hall's latest announce ids, said already

	// The link.
	sess       *session
	connected  bool
	lastErr    error
	rejected   int
	rejections []*hallv1.Rejection
	dropped    int
}

// New returns a Device for cfg. If the Outbox holds a board (a device
// restarted on a file outbox), the device resumes it: its state is the fold
// of the saved history and its board time continues from the last recorded
// instant (the time the device was off is not counted; the arbiter corrects
// the clock, 6.10.1), or from where Config.Resume says; flags that fell
// meanwhile are recorded at their instants. New does not connect: call Run.
func New(cfg Config) (*Device, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	cfg.setDefaults()
	d := &Device{
		id: cfg.DeviceID, token: cfg.Token, firmware: cfg.Firmware,
		clock:      cfg.Clock,
		log:        cfg.Logger.With("device", cfg.DeviceID),
		battery:    cfg.BatteryPct,
		driftPPM:   cfg.DriftPPM,
		factor:     1 + cfg.DriftPPM/1e6,
		minBackoff: cfg.MinBackoff, maxBackoff: cfg.MaxBackoff,
		rng:     cfg.Rand,
		notices: make(chan Notice, cfg.NoticeBuffer),
		wake:    make(chan struct{}, 1),
		outbox:  cfg.Outbox,
		cmds:    map[string]bool{},
		refused: map[uint64]bool{},
		onAck:   cfg.OnAck,
		resume:  cfg.Resume,
		speak:   cfg.Speak,
		voices:  slices.Clone(cfg.Voices),
	}
	if d.onAck != nil {
		d.recordedAt = map[uint64]time.Time{}
	}
	d.started = d.clock.Now()
	d.origin = d.started
	d.transport = cfg.Transport
	if d.transport == nil {
		var err error
		if d.transport, d.ownConn, err = grpcTransport(&cfg); err != nil {
			return nil, err
		}
	}

	d.mu.Lock()
	defer d.mu.Unlock()
	for _, ev := range d.outbox.Pending() {
		if ev.GetCommandId() != "" {
			d.cmds[ev.GetCommandId()] = true
		}
	}
	if a := d.outbox.Board(); a != nil {
		d.assignLocked(a, true)
	}
	return d, nil
}

// Close stops the device's timers, closes its Events channel and its
// Outbox (and the connection it dialled itself). Cancel Run's context and
// let Run return before calling Close.
func (d *Device) Close() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return nil
	}
	d.closed = true
	d.stopFlagLocked()
	close(d.notices)
	err := d.outbox.Close()
	if d.ownConn != nil {
		if cerr := d.ownConn.Close(); err == nil {
			err = cerr
		}
	}
	return err
}

// Events returns the device's notices. The device never waits for the
// reader: when the channel's buffer (Config.NoticeBuffer, default 256) is
// full, further notices are dropped and counted in Status().NoticesDropped.
// The channel is closed by Close.
func (d *Device) Events() <-chan Notice { return d.notices }

// notifyLocked offers n to the Events channel without blocking.
func (d *Device) notifyLocked(n Notice) {
	if d.closed {
		return
	}
	select {
	case d.notices <- n:
	default:
		d.dropped++
	}
}

// wakeSender tells the send loop to look at the outbox.
func (d *Device) wakeSender() {
	select {
	case d.wake <- struct{}{}:
	default:
	}
}

// Press records side pressing the clock, completing its move; san and fen
// (either may be empty) come from an electronic board. A press by the side
// not having the move changes nothing and is not recorded (6.2.1).
func (d *Device) Press(side rules.Side, san, fen string) error {
	return d.Do(rules.Event{Kind: rules.KindPress, Side: side, SAN: san, FEN: fen})
}

// Do applies a local action of the players or the firmware at board-now
// (e.T is overwritten). If the local rules accept it, it is recorded in the
// outbox and sent; if they refuse it, nothing is recorded and the refusal
// (a *rules.Refusal, or *rules.InputError for a malformed event) is
// returned: a real clock ignores a press after the game ended. Flag falls
// due before board-now are recorded first, at their exact instants. Do
// returns ErrNotAssigned without a board, and an Outbox error if the event
// could not be stored (the clock then stays as it was).
func (d *Device) Do(e rules.Event) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return ErrClosed
	}
	if d.asg == nil {
		return ErrNotAssigned
	}
	t := d.boardNowLocked()
	d.catchUpLocked(t)
	defer d.armFlagLocked()
	e.T = t
	before := d.st.Project(t)
	n, err := rules.Apply(d.st, e)
	if err != nil {
		return err
	}
	if e.Kind == rules.KindPress && before.Status == rules.Running && before.ToMove != e.Side {
		return nil // 6.2.1: the other side's button does nothing
	}
	action := wire.Action(e)
	if _, err := d.recordLocked(action, nil, true, n); err != nil {
		return err
	}
	d.st = n
	d.hist = append(d.hist, action)
	return nil
}

// recordLocked appends the event for action (at after.At) to the outbox,
// with the displayed times of after, and wakes the send loop. cmd is the
// arbiter's command it carries out, if any: the event keeps its id and
// who gave it why, the clock's record of it.
func (d *Device) recordLocked(action *hallv1.ClockAction, cmd *hallv1.Command, applied bool, after rules.State) (*hallv1.DeviceEvent, error) {
	ev := &hallv1.DeviceEvent{
		Seq:             d.outbox.NextSeq(),
		Action:          action,
		CommandId:       cmd.GetCommandId(),
		CommandIssuedBy: cmd.GetIssuedBy(),
		CommandReason:   cmd.GetReason(),
		WhiteMs:         after.P[rules.White].MainMs,
		BlackMs:         after.P[rules.Black].MainMs,
	}
	if d.asg != nil {
		ev.BoardId = d.asg.GetBoardId()
	}
	if err := d.outbox.Append(ev, applied); err != nil {
		d.log.Error("outbox append failed", "seq", ev.Seq, "err", err)
		return nil, fmt.Errorf("clockdev: record event: %w", err)
	}
	if !applied {
		d.refused[ev.Seq] = true
	}
	if d.recordedAt != nil {
		d.recordedAt[ev.Seq] = d.clock.Now()
	}
	d.notifyLocked(Notice{Kind: NoticeEvent, Event: proto.Clone(ev).(*hallv1.DeviceEvent)})
	d.wakeSender()
	return ev, nil
}

// State returns the board's state projected to board-now, or the zero
// State when the device is not assigned.
func (d *Device) State() rules.State {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.asg == nil {
		return rules.State{}
	}
	return d.st.Project(d.boardNowLocked())
}

// BoardNow returns the current instant on the board's time line (ms), or
// 0 when the device is not assigned.
func (d *Device) BoardNow() int64 {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.asg == nil {
		return 0
	}
	return d.boardNowLocked()
}

// Assignment returns a copy of the last Assignment the device accepted
// (with the History the server sent), or nil when it is not assigned.
func (d *Device) Assignment() *hallv1.Assignment {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.asg == nil {
		return nil
	}
	return proto.Clone(d.asg).(*hallv1.Assignment)
}

// History returns a copy of every action applied to the current board, in
// order: the adopted history followed by the device's own events.
func (d *Device) History() []*hallv1.ClockAction {
	d.mu.Lock()
	defer d.mu.Unlock()
	out := make([]*hallv1.ClockAction, len(d.hist))
	for i, a := range d.hist {
		out[i] = proto.Clone(a).(*hallv1.ClockAction)
	}
	return out
}

// Status is a snapshot of a Device's link and outbox.
type Status struct {
	Connected      bool   // a stream is up and the server welcomed the device
	BoardID        string // "" when not assigned
	BoardSeq       int    // events applied to the board (len(History()))
	AckedSeq       uint64 // highest seq the server acknowledged
	NextSeq        uint64 // seq of the next new event
	Outbox         int    // events not yet acknowledged
	Rejected       int    // events the server's rules refused, since New
	LastError      string // why the link last went down, "" if it never did
	NoticesDropped int    // notices the Events reader missed
}

// Status returns the device's link and outbox status.
func (d *Device) Status() Status {
	d.mu.Lock()
	defer d.mu.Unlock()
	s := Status{
		Connected:      d.connected,
		BoardSeq:       len(d.hist),
		AckedSeq:       d.outbox.AckedSeq(),
		NextSeq:        d.outbox.NextSeq(),
		Outbox:         pendingCount(d.outbox),
		Rejected:       d.rejected,
		NoticesDropped: d.dropped,
	}
	if d.asg != nil {
		s.BoardID = d.asg.GetBoardId()
	}
	if d.lastErr != nil {
		s.LastError = d.lastErr.Error()
	}
	return s
}

// Rejections returns copies of the most recent (up to 64) rejections the
// server sent, oldest first.
func (d *Device) Rejections() []*hallv1.Rejection {
	d.mu.Lock()
	defer d.mu.Unlock()
	out := make([]*hallv1.Rejection, len(d.rejections))
	for i, r := range d.rejections {
		out[i] = proto.Clone(r).(*hallv1.Rejection)
	}
	return out
}
