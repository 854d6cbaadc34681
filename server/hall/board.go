package hall

import (
	"sync"
	"time"

	"github.com/chesshall/hallclock/formats/words"
	"github.com/chesshall/hallclock/internal/mono"
	"github.com/chesshall/hallclock/internal/wire"
	"github.com/chesshall/hallclock/internal/wirewords"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
	"github.com/chesshall/hallclock/storage"
)

// board is the actor of one board: its functions, one at a time, own its
// state and apply every event through the rules, write it (group commit)
// and publish it after the commit. Everything else talks to it through do,
// tell and post.
type Board struct {
	h        *Hall
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
	// hbRef is the latest heartbeat's reference (if hbNew), left by the
	// device's receive loop for now() to take: a heartbeat from every
	// clock need not wake the actor. Under hbMu, the board's own lock for
	// it alone (no press waits on it), so that a heartbeat allocates
	// nothing.
	hbMu    sync.Mutex
	hbRef   boardRef
	hbNew   bool
	online  bool
	pending []*command // arbiter commands not yet applied, in issue order
	alerts  []words.Message
	timer   mono.Timer     // virtual clocks: the next deadline
	ruling  *pb.TimeRuling // the last ruling that changed a clock's time, nil if none
	// blind is the board's play under the rules for visually disabled
	// players: rec.Config.Blind as the board was made or loaded, then as
	// SetBlind sets it. rec.Config is read off the actor (the feeds) and
	// never changes; config() is the board's configuration now.
	blind rules.BlindPlay
}

// config is the board's configuration now (on the actor).
func (b *Board) config() rules.Config {
	c := b.rec.Config
	c.Blind = b.blind
	return c
}

const maxAlerts = 8

func newBoard(h *Hall, rec storage.BoardRecord, st rules.State, seq uint64) *Board {
	b := &Board{h: h, rec: rec, quit: make(chan struct{}), state: st, seq: seq, blind: rec.Config.Blind}
	b.refT, b.refAt = st.At, h.clock.Now()
	// A board made after its device connected takes the device's state
	// from the connection registry, not from the news of a connect it
	// missed.
	b.online = b.deviceConnected()
	return b
}

// stopTimer stops the virtual clock's timer; it runs on the actor (or
// after the last function ran: Shutdown).
func (b *Board) stopTimer() {
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

// heartbeatRef leaves a heartbeat's board time t, heard at at, for the
// actor; any goroutine may call it.
func (b *Board) heartbeatRef(dev string, t int64, at time.Time) {
	b.hbMu.Lock()
	b.hbRef, b.hbNew = boardRef{dev: dev, t: t, at: at}, true
	b.hbMu.Unlock()
}

// takeHeartbeatRef returns the reference the last heartbeat left, if one
// came since the last call.
func (b *Board) takeHeartbeatRef() (boardRef, bool) {
	b.hbMu.Lock()
	defer b.hbMu.Unlock()
	r, ok := b.hbRef, b.hbNew
	b.hbNew = false
	return r, ok
}

// now estimates the board time now from the last reference: the newer of
// the actor's own and the last heartbeat's (if it came from the board's
// device and is not behind the board's state).
func (b *Board) now() int64 {
	if r, ok := b.takeHeartbeatRef(); ok && r.dev == b.rec.DeviceID && r.t >= b.state.At &&
		(r.at.After(b.refAt) || r.at.Equal(b.refAt) && r.t >= b.refT) {
		b.refT, b.refAt = r.t, r.at
	}
	t := b.refT + b.h.clock.Since(b.refAt).Milliseconds()
	return max(t, b.state.At)
}

func (b *Board) setRef(t int64) {
	b.refT, b.refAt = t, b.h.clock.Now()
}

// wireState builds the board's live state for watchers and replies.
func (b *Board) wireState(st rules.State, seq uint64) *pb.BoardState {
	return b.wireStateWith(st, seq, b.alerts, len(b.pending))
}

// wireStateWith builds the state with the given alerts and number of
// pending commands (commit builds the state as it will be once committed).
func (b *Board) wireStateWith(st rules.State, seq uint64, alerts []words.Message, pending int) *pb.BoardState {
	w := wire.State(st)
	w.BoardId = b.rec.ID
	w.BoardSeq = seq
	w.ServerUnixMs = b.h.clock.Now().UnixMilli()
	if b.rec.Source == storage.SourceVirtual {
		w.Source = pb.ClockSource_CLOCK_SOURCE_VIRTUAL
		w.DeviceOnline = true
	} else {
		w.DeviceOnline = b.online
	}
	w.PendingCommands = int32(pending)
	for _, a := range alerts {
		w.Alerts = append(w.Alerts, a.Params["text"])
		w.AlertWords = append(w.AlertWords, wirewords.Words(a))
	}
	w.LastRuling = b.ruling
	return w
}

// publishLive publishes a change of live fields (online, pending, alerts)
// that is not a board event.
func (b *Board) publishLive() {
	w := b.wireState(b.state, b.seq)
	// The state is as old as its last event: its server time is when the
	// board's time was at_ms (by the server's estimate of board time), so
	// that a display running the clock forward from it does not give back
	// the time since.
	w.ServerUnixMs -= max(0, b.now()-b.state.At)
	b.h.publish(b.rec.RoundID, w, 0)
}

// deviceOnline is told when the board's device connects or leaves; it
// reads the truth from the link registry, so late or reordered news cannot
// leave a wrong state.
func (b *Board) deviceOnline() {
	online := b.deviceConnected()
	if b.online == online {
		return
	}
	b.online = online
	b.publishLive()
}

// deviceConnected reads from the link registry whether the board's clock
// device is connected.
func (b *Board) deviceConnected() bool {
	return b.rec.Source == storage.SourceDevice && b.rec.DeviceID != "" && b.h.link(b.rec.DeviceID) != nil
}
