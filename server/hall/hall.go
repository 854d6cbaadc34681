package hall

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"

	"github.com/chesshall/hallclock/internal/mono"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/server/broadcast"
	"github.com/chesshall/hallclock/storage"
)

// Options configure a Hall. Clock and Sink are required.
type Options struct {
	Clock  mono.Clock
	Logger *slog.Logger // default slog.Default()
	// DisplayTolerance is how far (ms) a device's displayed times may
	// differ from the rules' before an alert is raised (negative: never).
	DisplayTolerance int64
	// PublicRounds makes every round public, whatever its broadcast
	// settings say.
	PublicRounds bool
	// Sink takes every board's state for the watchers.
	Sink Sink
}

// Sink is where the hall hands each board's state for watchers (the
// fan-out hubs): committed changes in the order of the hall's sequence
// numbers, after their commit.
type Sink interface {
	// Place records a board's section, before its first state.
	Place(boardID, section string)
	// Seed sets a board's state as loaded at start-up.
	Seed(roundID string, st *pb.BoardState, seq uint64)
	// Publish hands on a committed state (seq its hall-wide number), or a
	// change of live fields only (seq 0).
	Publish(roundID string, st *pb.BoardState, seq uint64)
}

// Hall is the hall's live state: its boards, each an actor applying its
// events through the rules; the registry of boards and clock devices (the
// floor) and of tournaments, rounds and their broadcast settings (the
// schedule), each under its own lock; and the change counter the
// broadcast feeds read.
type Hall struct {
	store   *storage.Store
	clock   mono.Clock
	log     *slog.Logger
	opts    Options
	sink    Sink
	changes *broadcast.Changes // each round's change counter, for the feeds

	commands atomic.Uint64   // arbiter commands issued
	sessions sessionCounters // what became of the devices' events (Session)

	ctx    context.Context // done at Stop: no board function starts from then
	cancel context.CancelFunc
	wg     sync.WaitGroup // board functions running
	// actorMu orders enterActor's wg.Add before Wait's wg.Wait.
	actorMu sync.RWMutex

	floor     floor
	schedule  schedule
	lastHeard lastHeard // devices' records due to be written
	// restoreMu makes clocks that tell a restored hall of the boards it
	// lost rebuild them one at a time (Restore).
	restoreMu sync.Mutex
}

// Load reads the hall from the store: its tournaments, rounds and boards
// (each replayed from its last snapshot), their pending commands and the
// rounds' broadcast settings; each board's state goes to the sink.
func Load(ctx context.Context, st *storage.Store, opts Options) (*Hall, error) {
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	h := &Hall{store: st, clock: opts.Clock, log: opts.Logger, opts: opts, sink: opts.Sink,
		changes: broadcast.NewChanges(), floor: newFloor(), schedule: newSchedule()}
	h.ctx, h.cancel = context.WithCancel(context.Background())
	if err := h.load(ctx); err != nil {
		return nil, err
	}
	return h, nil
}

// load reads tournaments, rounds, boards and pending commands, and starts
// one actor per board with its replayed state.
func (h *Hall) load(ctx context.Context) error {
	ts, err := h.store.Tournaments(ctx)
	if err != nil {
		return err
	}
	rs, err := h.store.Rounds(ctx, "")
	if err != nil {
		return err
	}
	bcs, err := h.store.RoundBroadcasts(ctx)
	if err != nil {
		return err
	}
	h.schedule.load(ts, rs, bcs)
	// Every board's state from its last snapshot and the events after
	// it, where its log ends and its last ruling, in a few statements for
	// the whole hall: a start reads a bounded part of each board's
	// history, not all of it (the history a device is given is read when
	// it connects).
	bs, err := h.store.LoadBoards(ctx)
	if err != nil {
		return fmt.Errorf("loading the boards: %w", err)
	}
	all, err := h.store.PendingCommands(ctx, "")
	if err != nil {
		return err
	}
	pending := map[string][]storage.CommandRecord{}
	for _, c := range all {
		pending[c.BoardID] = append(pending[c.BoardID], c)
	}
	for _, lb := range bs {
		rec, st, seq := lb.Board, lb.State, lb.Head.BoardSeq
		if len(lb.Passed) > 0 {
			if err := h.notePassed(ctx, rec.ID, st, seq, lb.Passed); err != nil {
				return err
			}
		}
		b := newBoard(h, rec, st, seq)
		if lb.Head.LastRuling > 0 {
			evs, err := h.store.Events(ctx, rec.ID, 0)
			if err != nil {
				return err
			}
			b.ruling = h.lastRuling(ctx, rec.Config, evs)
		}
		for _, c := range pending[rec.ID] {
			pc, err := commandFromRecord(c)
			if err != nil {
				h.log.Warn("pending command unreadable; left pending", "command", c.ID, "err", err)
				continue
			}
			b.pending = append(b.pending, pc)
		}
		h.addBoard(b)
		h.seed(rec.RoundID, b.wireState(st, seq), lb.Head.Seq)
	}
	return nil
}

// Context is done once the hall stops.
func (h *Hall) Context() context.Context { return h.ctx }

// Stop makes the hall take no more work: no board function starts from
// now, and callers waiting for one are told the hall is shutting down.
func (h *Hall) Stop() { h.cancel() }

// Wait waits, after Stop, for the board functions still running, then
// stops the virtual clocks' timers.
func (h *Hall) Wait() {
	// No board function starts from now (h.ctx is done: enterActor); the
	// lock waits out any enterActor that looked before.
	h.actorMu.Lock()
	h.actorMu.Unlock() //nolint:staticcheck // an empty critical section: a barrier
	h.wg.Wait()
	// The virtual clocks' timers, armed by functions that have all ended.
	for _, b := range h.Boards("") {
		b.stopTimer()
	}
}

// enterActor says whether a board function may start (not once the hall
// has stopped) and, if so, counts it in h.wg until it calls h.wg.Done.
func (h *Hall) enterActor() bool {
	h.actorMu.RLock()
	defer h.actorMu.RUnlock()
	if h.ctx.Err() != nil {
		return false
	}
	h.wg.Add(1)
	return true
}

// Commands is how many arbiter commands were issued to clocks.
func (h *Hall) Commands() uint64 { return h.commands.Load() }

// NewID returns a fresh id with a prefix, e.g. "cmd-3f9a…".
func (h *Hall) NewID(prefix string) string {
	b := make([]byte, 8)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return prefix + "-" + hex.EncodeToString(b)
}

// publish hands a committed (or live) board state to the sink and tells
// the feeds' change counter.
func (h *Hall) publish(roundID string, st *pb.BoardState, seq uint64) {
	h.sink.Publish(roundID, st, seq)
	h.feedsChanged(roundID, st)
}

func (h *Hall) seed(roundID string, st *pb.BoardState, seq uint64) {
	h.sink.Seed(roundID, st, seq)
	h.feedsChanged(roundID, st)
}

// feedsChanged tells the broadcast feeds' change counter of a board's
// state: O(1), and nothing unless it has events the feeds have not seen
// (a device going offline changes nothing there).
func (h *Hall) feedsChanged(roundID string, st *pb.BoardState) {
	if st.GetWithdrawn() {
		h.changes.Drop(st.GetBoardId())
		return
	}
	h.changes.Board(roundID, st.GetBoardId(), st.GetBoardSeq())
}
