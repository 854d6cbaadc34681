package server

import (
	"context"
	"slices"
	"sort"
	"sync"
	"time"

	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// Hub fans committed board states out to watchers.
//
// The store calls Publish after each commit, in the order of the hall-wide
// sequence numbers, so a watcher's position is one number. Publish is O(1)
// and never waits for a watcher: it records the board's latest state, appends
// (seq, board) to a bounded ring and wakes the watchers. Each watcher reads
// the ring from its own position, coalesces everything pending into one
// update holding the latest state of each changed board, and sends it. A
// watcher that falls more than the ring's length behind gets a fresh snapshot
// instead of the backlog.
type Hub struct {
	mu       sync.Mutex
	boards   map[string]*hubBoard
	sections map[string]string // board id → section, from Place
	ring     []hubChange
	head     uint64 // number of changes ever appended
	lastSeq  uint64 // highest seq published
	wake     chan struct{}
	closed   bool
}

type hubBoard struct {
	state   *pb.BoardState
	seq     uint64
	roundID string
	// live is 1 + the hall's seq when the board last changed without a seq
	// of its own (added, or live fields only); 0 if a committed change came
	// since. A watcher resuming from fromSeq < live may not have it.
	live    uint64
	section string
}

type hubChange struct {
	seq     uint64
	boardID string
}

// Scope selects the boards a watcher sees: one board, one round, or (both
// empty) the whole hall.
type Scope struct {
	BoardID string
	RoundID string
	// Sections, if not empty, limits the scope to boards of these sections
	// (an arbiter limited to sections watches only those).
	Sections []string
}

func (sc Scope) has(boardID string, b *hubBoard) bool {
	if len(sc.Sections) > 0 && !slices.Contains(sc.Sections, b.section) {
		return false
	}
	switch {
	case sc.BoardID != "":
		return sc.BoardID == boardID
	case sc.RoundID != "":
		return sc.RoundID == b.roundID
	}
	return true
}

// NewHub returns a hub whose ring holds ringSize changes (default 65536).
func NewHub(ringSize int) *Hub {
	if ringSize <= 0 {
		ringSize = 1 << 16
	}
	return &Hub{boards: map[string]*hubBoard{}, sections: map[string]string{}, ring: make([]hubChange, ringSize), wake: make(chan struct{})}
}

// Place records a board's section, for scopes limited to sections. Call
// it before the board's first Seed or Publish.
func (h *Hub) Place(boardID, section string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.sections[boardID] = section
	if b := h.boards[boardID]; b != nil {
		b.section = section
	}
}

// Seed sets a board's state without waking anyone, for loading at start-up.
func (h *Hub) Seed(roundID string, st *pb.BoardState, seq uint64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.boards[st.GetBoardId()] = &hubBoard{state: st, seq: seq, roundID: roundID, section: h.sections[st.GetBoardId()]}
	h.lastSeq = max(h.lastSeq, seq)
}

// Publish records a committed board state with its hall-wide sequence
// number and wakes the watchers. The state must not be modified afterwards.
// A seq of 0 (a board added, or a change of live fields only, such as a
// device going offline) keeps the board's seq and is delivered to current
// watchers under the current sequence number; a watcher resuming from that
// number gets the board again, as it cannot be told whether it saw it.
func (h *Hub) Publish(roundID string, st *pb.BoardState, seq uint64) {
	h.mu.Lock()
	var live uint64
	if seq == 0 {
		live = h.lastSeq + 1
		if b := h.boards[st.GetBoardId()]; b != nil {
			seq = b.seq
		}
	}
	h.boards[st.GetBoardId()] = &hubBoard{state: st, seq: seq, roundID: roundID, live: live, section: h.sections[st.GetBoardId()]}
	h.lastSeq = max(h.lastSeq, seq)
	h.ring[h.head%uint64(len(h.ring))] = hubChange{seq: seq, boardID: st.GetBoardId()}
	h.head++
	w := h.wake
	h.wake = make(chan struct{})
	h.mu.Unlock()
	close(w)
}

// State returns a board's latest published state.
func (h *Hub) State(boardID string) (*pb.BoardState, uint64, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	b, ok := h.boards[boardID]
	if !ok {
		return nil, 0, false
	}
	return b.state, b.seq, true
}

// LastSeq returns the highest published sequence number.
func (h *Hub) LastSeq() uint64 {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.lastSeq
}

// Close wakes every watcher; their Next returns ErrHubClosed.
func (h *Hub) Close() {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return
	}
	h.closed = true
	w := h.wake
	h.wake = make(chan struct{}) // a commit may still publish during shutdown
	h.mu.Unlock()
	close(w)
}

// Sub is one watcher's position in the hub.
type Sub struct {
	h        *Hub
	scope    Scope
	fromSeq  uint64
	started  bool
	pos      uint64 // ring position read up to
	interval time.Duration
	last     time.Time
	sleep    func(ctx context.Context, d time.Duration) error
}

// Subscribe returns a watcher of scope. With fromSeq 0 its first update is a
// snapshot of every board in scope; otherwise it starts with every board in
// scope that changed after fromSeq. Updates are at most one per interval
// (coalescing what happened meanwhile); 0 sends as soon as anything changes.
func (h *Hub) Subscribe(scope Scope, fromSeq uint64, interval time.Duration) *Sub {
	return &Sub{h: h, scope: scope, fromSeq: fromSeq, interval: interval, sleep: sleepCtx}
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// Next blocks until there is something for the watcher and returns it.
func (s *Sub) Next(ctx context.Context) (*pb.WatchUpdate, error) {
	h := s.h
	if !s.started {
		s.started = true
		h.mu.Lock()
		s.pos = h.head
		u := h.collect(s.scope, s.fromSeq, s.fromSeq == 0)
		h.mu.Unlock()
		if u != nil && (u.Snapshot || len(u.Boards) > 0) {
			return u, nil
		}
	}
	for {
		if s.interval > 0 && !s.last.IsZero() {
			if wait := s.interval - time.Since(s.last); wait > 0 {
				if err := s.sleep(ctx, wait); err != nil {
					return nil, err
				}
			}
		}
		h.mu.Lock()
		if h.closed {
			h.mu.Unlock()
			return nil, ErrHubClosed
		}
		if h.head == s.pos {
			w := h.wake
			h.mu.Unlock()
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-w:
			}
			continue
		}
		var u *pb.WatchUpdate
		if h.head-s.pos > uint64(len(h.ring)) {
			// Fell behind the ring: a fresh snapshot instead of the backlog.
			u = h.collect(s.scope, 0, true)
		} else {
			changed := map[string]bool{}
			for p := s.pos; p < h.head; p++ {
				c := h.ring[p%uint64(len(h.ring))]
				if b := h.boards[c.boardID]; b != nil && s.scope.has(c.boardID, b) {
					changed[c.boardID] = true
				}
			}
			u = &pb.WatchUpdate{Seq: h.lastSeq}
			for id := range changed {
				u.Boards = append(u.Boards, h.boards[id].state)
			}
			sortBoards(u.Boards)
		}
		s.pos = h.head
		h.mu.Unlock()
		if u.Snapshot || len(u.Boards) > 0 {
			s.last = time.Now()
			return u, nil
		}
	}
}

// collect returns the boards in scope changed after fromSeq (all of them for
// a snapshot). h.mu is held.
func (h *Hub) collect(sc Scope, fromSeq uint64, snapshot bool) *pb.WatchUpdate {
	u := &pb.WatchUpdate{Seq: h.lastSeq, Snapshot: snapshot}
	for id, b := range h.boards {
		if snapshot && b.state.GetWithdrawn() {
			continue // a snapshot shows only the boards there are
		}
		if sc.has(id, b) && (snapshot || b.seq > fromSeq || b.live > fromSeq) {
			u.Boards = append(u.Boards, b.state)
		}
	}
	sortBoards(u.Boards)
	return u
}

func sortBoards(bs []*pb.BoardState) {
	sort.Slice(bs, func(i, j int) bool { return bs[i].GetBoardId() < bs[j].GetBoardId() })
}
