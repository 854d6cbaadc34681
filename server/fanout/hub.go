package fanout

import (
	"context"
	"slices"
	"sort"
	"sync"
	"time"

	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/server/hallerr"
)

// Hub fans committed board states out to watchers.
//
// The store calls Publish after each commit, in the order of the hall-wide
// sequence numbers, so a watcher's position is one state of the hall (an
// EventID: the seq, and the changes without one after it). Publish is O(1)
// and never waits for a watcher, nor for the hub's lock: it appends to a
// list that whoever next reads the hub applies (the board's latest state,
// and (seq, board) in a bounded ring), and wakes the watchers.
//
// Watchers of the same scope (and interval) share a feed: at most once per
// interval the first of them to look turns what changed into one update —
// the latest state of each changed board — which every watcher of the
// scope then sends, encoded once (Update.Proto, Update.SSE). A watcher
// that missed a few updates gets them merged into one (fresher, rarer); one
// that missed more than the feed keeps, or whose feed fell more than the
// ring's length behind, gets a fresh snapshot (shared too) instead of the
// backlog. Nothing a watcher does slows Publish.
type Hub struct {
	// Publish appends here; pmu is held only to append or to take the list.
	pmu     sync.Mutex
	pending []published
	wake    chan struct{} // closed at each Publish and at Close

	mu       sync.Mutex // the state below; holders apply pending first
	boards   map[string]*hubBoard
	sections map[string]string // board id → section, from Place
	ring     []hubChange
	head     uint64  // number of changes ever appended
	at       EventID // the state after the last change (at.Seq: the highest seq published)
	feeds    map[feedKey]*feed
	spare    []published // the last applied list, reused
	closed   bool
	epoch    time.Time // the changes' times are since then

	// hold, if set, is waited on before each of a watcher's updates is
	// taken, with the time of its last (Ingest.Hold). Set before use.
	hold func(ctx context.Context, last time.Time) error
}

type published struct {
	roundID string
	st      *pb.BoardState
	seq     uint64
	at      time.Duration // since the hub's epoch
}

type hubBoard struct {
	state   *pb.BoardState
	seq     uint64
	roundID string
	// changed is the hub's state when the board last changed: its seq,
	// or the state after it when it changed without a seq of its own
	// (added, or live fields only). A watcher resuming from before it may
	// not have it.
	changed EventID
	section string
}

type hubChange struct {
	boardID string
	at      time.Duration // when it was published, since the hub's epoch
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

const (
	// applyAt is how long the pending list may grow before Publish applies
	// it itself (when the hub's lock is free): what bounds its memory
	// while nobody watches.
	applyAt = 1024
	// keepUpdates is how many of its last updates a feed keeps for
	// watchers that missed some; one further behind gets a snapshot.
	keepUpdates = 16
)

// NewHub returns a hub whose ring holds ringSize changes (default 65536).
func NewHub(ringSize int) *Hub {
	if ringSize <= 0 {
		ringSize = 1 << 16
	}
	return &Hub{boards: map[string]*hubBoard{}, sections: map[string]string{}, ring: make([]hubChange, ringSize),
		wake: make(chan struct{}), feeds: map[feedKey]*feed{}, epoch: time.Now()}
}

// HoldWith makes every watcher wait on hold before taking each update,
// given the time of its last one (or of its subscription): the hall holds
// its watchers back while ingest is behind. Call it before any Subscribe.
func (h *Hub) HoldWith(hold func(ctx context.Context, last time.Time) error) { h.hold = hold }

// Place records a board's section, for scopes limited to sections. Call
// it before the board's first Seed or Publish.
func (h *Hub) Place(boardID, section string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.applyLocked()
	h.sections[boardID] = section
	if b := h.boards[boardID]; b != nil {
		b.section = section
	}
}

// Seed sets a board's state without waking anyone, for loading at start-up.
func (h *Hub) Seed(roundID string, st *pb.BoardState, seq uint64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.applyLocked()
	if seq > h.at.Seq {
		h.at = EventID{Seq: seq}
	}
	h.boards[st.GetBoardId()] = &hubBoard{state: st, seq: seq, roundID: roundID, changed: EventID{Seq: seq}, section: h.sections[st.GetBoardId()]}
}

// Publish records a committed board state with its hall-wide sequence
// number and wakes the watchers. The state must not be modified afterwards.
// A seq of 0 (a board added, or a change of live fields only, such as a
// device going offline) keeps the board's seq and is delivered to current
// watchers under the current sequence number and a count of such changes
// since it (EventID); a watcher resuming from that number alone gets the
// board again, as it cannot be told whether it saw it.
func (h *Hub) Publish(roundID string, st *pb.BoardState, seq uint64) {
	at := time.Since(h.epoch)
	h.pmu.Lock()
	h.pending = append(h.pending, published{roundID: roundID, st: st, seq: seq, at: at})
	n := len(h.pending)
	w := h.wake
	h.wake = make(chan struct{})
	h.pmu.Unlock()
	close(w)
	if n >= applyAt && h.mu.TryLock() {
		h.applyLocked()
		h.mu.Unlock()
	}
}

// applyLocked records what was published since the last call. h.mu is held.
func (h *Hub) applyLocked() {
	h.pmu.Lock()
	ps := h.pending
	h.pending = h.spare[:0]
	h.pmu.Unlock()
	for _, p := range ps {
		h.record(p.roundID, p.st, p.seq, p.at)
	}
	clear(ps)
	h.spare = ps
}

func (h *Hub) record(roundID string, st *pb.BoardState, seq uint64, at time.Duration) {
	id := st.GetBoardId()
	b := h.boards[id]
	// Every change names a new state: the next seq, or one more change
	// without a seq after the last (a seq not above the last, which the
	// hall never publishes, is counted as one too, and so not missed).
	if seq > h.at.Seq {
		h.at = EventID{Seq: seq}
	} else {
		h.at.Live++
	}
	if seq == 0 && b != nil {
		seq = b.seq
	}
	if b == nil {
		b = &hubBoard{}
		h.boards[id] = b
	}
	*b = hubBoard{state: st, seq: seq, roundID: roundID, changed: h.at, section: h.sections[id]}
	h.ring[h.head%uint64(len(h.ring))] = hubChange{boardID: id, at: at}
	h.head++
}

// State returns a board's latest published state.
func (h *Hub) State(boardID string) (*pb.BoardState, uint64, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.applyLocked()
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
	h.applyLocked()
	return h.at.Seq
}

// LastID returns the hub's state after its last change.
func (h *Hub) LastID() EventID {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.applyLocked()
	return h.at
}

// Each calls f with every board's latest state.
func (h *Hub) Each(f func(*pb.BoardState)) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.applyLocked()
	for _, b := range h.boards {
		f(b.state)
	}
}

// Close wakes every watcher; their Next returns hallerr.ErrHubClosed.
func (h *Hub) Close() {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return
	}
	h.closed = true
	for _, f := range h.feeds {
		f.stopTimer()
		close(f.ready)
		f.ready = make(chan struct{})
	}
	h.mu.Unlock()
	h.pmu.Lock()
	w := h.wake
	h.wake = make(chan struct{}) // a commit may still publish during shutdown
	h.pmu.Unlock()
	close(w)
}

// collect returns the boards in scope changed after from (all of them for
// a snapshot), as of the hub's state now (h.at), and how many boards the
// scope holds. h.mu is held.
func (h *Hub) collect(sc Scope, from EventID, snapshot bool) (u *pb.WatchUpdate, inScope int) {
	u = &pb.WatchUpdate{Seq: h.at.Seq, Snapshot: snapshot}
	for id, b := range h.boards {
		if !sc.has(id, b) {
			continue
		}
		if !b.state.GetWithdrawn() {
			inScope++
		} else if snapshot {
			continue // a snapshot shows only the boards there are
		}
		if snapshot || b.changed.After(from) {
			u.Boards = append(u.Boards, b.state)
		}
	}
	sortBoards(u.Boards)
	return u, inScope
}

// snapshotLocked gives the watcher its feed's snapshot of now, and takes
// it on from there: nil if the watcher already has that state or a later
// one (it has sent it all; a snapshot would take its view back). h.mu is
// held.
func (s *Sub) snapshotLocked() *Update {
	u, index := s.f.snapshotLocked(s.h)
	s.last = index
	return s.take(u)
}

// take returns u for the watcher and moves it to u's state, or returns nil
// if the watcher has that state already (or a later one): each update a
// watcher sends names a later state than the one before, and no id is
// ever sent twice. A watcher's first update (a snapshot) is always sent.
func (s *Sub) take(u *Update) *Update {
	if s.sent && !u.id.After(s.at) {
		return nil
	}
	s.at, s.sent = u.id, true
	return u
}

// mostChanged says whether changed boards are most of a scope of inScope:
// a watcher catching up, or a feed built late, is then sent a snapshot
// (as large, and telling it to start afresh) instead of what changed.
func mostChanged(changed, inScope int) bool { return 2*changed > inScope }

// inScope counts the boards of a scope (not withdrawn). h.mu is held.
func (h *Hub) inScope(sc Scope) int {
	n := 0
	for id, b := range h.boards {
		if sc.has(id, b) && !b.state.GetWithdrawn() {
			n++
		}
	}
	return n
}

func sortBoards(bs []*pb.BoardState) {
	sort.Slice(bs, func(i, j int) bool { return bs[i].GetBoardId() < bs[j].GetBoardId() })
}

// Sub is one watcher's position in the hub.
type Sub struct {
	h        *Hub
	scope    Scope
	from     EventID
	interval time.Duration
	f        *feed
	started  bool
	closed   bool
	sent     bool      // it has sent an update, or resumes from one
	last     uint64    // the watcher has its feed's updates up to this index
	at       EventID   // and every change of its scope up to this state
	lastAt   time.Time // when it took its last update (or subscribed)
}

// Subscribe returns a watcher of scope. With fromSeq 0 its first update is a
// snapshot of every board in scope; otherwise it starts with every board in
// scope that changed after fromSeq. Updates are at most one per interval
// (coalescing what happened meanwhile); 0 sends as soon as anything changes.
// Close it when done.
func (h *Hub) Subscribe(scope Scope, fromSeq uint64, interval time.Duration) *Sub {
	return h.SubscribeAt(scope, EventID{Seq: fromSeq}, interval)
}

// SubscribeAt is Subscribe from an event id (a server-sent event's
// Last-Event-ID): the watcher starts with what changed after that state.
func (h *Hub) SubscribeAt(scope Scope, from EventID, interval time.Duration) *Sub {
	return &Sub{h: h, scope: scope, from: from, interval: interval, lastAt: time.Now()}
}

// Close releases the watcher's place in its feed.
func (s *Sub) Close() {
	h := s.h
	h.mu.Lock()
	defer h.mu.Unlock()
	if s.closed || s.f == nil {
		s.closed = true
		return
	}
	s.closed = true
	if s.f.subs--; s.f.subs == 0 {
		s.f.stopTimer()
		delete(h.feeds, s.f.key)
	}
}

// Next blocks until there is something for the watcher and returns it. The
// update may be shared with other watchers: do not modify it.
func (s *Sub) Next(ctx context.Context) (*pb.WatchUpdate, error) {
	u, err := s.NextUpdate(ctx)
	if err != nil {
		return nil, err
	}
	return u.Msg(), nil
}

// NextUpdate is Next with the update's shared encodings.
func (s *Sub) NextUpdate(ctx context.Context) (*Update, error) {
	if s.h.hold != nil {
		if err := s.h.hold(ctx, s.lastAt); err != nil {
			return nil, err
		}
	}
	u, err := s.nextUpdate(ctx)
	if err == nil {
		s.lastAt = time.Now()
	}
	return u, err
}

func (s *Sub) nextUpdate(ctx context.Context) (*Update, error) {
	h := s.h
	h.mu.Lock()
	h.applyLocked()
	if !s.started {
		s.started = true
		if u := s.startLocked(); u != nil {
			h.mu.Unlock()
			return u, nil
		}
	}
	for {
		if h.closed {
			h.mu.Unlock()
			return nil, hallerr.ErrHubClosed
		}
		f := s.f
		due := f.interval <= 0 || time.Since(f.built) >= f.interval
		if h.head > f.pos && due {
			// Build before delivering, so that a watcher that missed
			// updates gets them merged with what changed since.
			f.buildLocked(h)
		}
		if f.next > s.last+1 {
			if u := s.deliverLocked(); u != nil {
				h.mu.Unlock()
				return u, nil
			}
			continue
		}
		var ch chan struct{}
		if h.head > f.pos {
			f.armLocked(h)
			ch = f.ready
		} else {
			h.pmu.Lock()
			if len(h.pending) > 0 {
				h.pmu.Unlock()
				h.applyLocked()
				continue
			}
			ch = h.wake
			h.pmu.Unlock()
		}
		h.mu.Unlock()
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-ch:
		}
		if h.hold != nil {
			// Something changed while it waited: the hold applies to
			// this update too, and it then takes what changed meanwhile.
			if err := h.hold(ctx, s.lastAt); err != nil {
				return nil, err
			}
		}
		h.mu.Lock()
		h.applyLocked()
	}
}

// startLocked joins the watcher to its scope's feed and returns its first
// update (nil if there is nothing to say). h.mu is held.
func (s *Sub) startLocked() *Update {
	h := s.h
	key := feedKeyOf(s.scope, s.interval)
	f := h.feeds[key]
	if f == nil {
		// A feed starts with an empty update, so that every watcher is
		// at one of its updates.
		f = &feed{key: key, scope: s.scope, interval: s.interval, pos: h.head, ready: make(chan struct{})}
		f.buildLocked(h)
		h.feeds[key] = f
	}
	f.subs++
	s.f = f
	if s.from == (EventID{}) {
		return s.snapshotLocked()
	}
	// The watcher starts where the feed is: what changed since from, as
	// of the feed's position.
	if h.head > f.pos {
		f.buildLocked(h)
	}
	from := s.from
	if from.After(h.at) {
		// Changes without a seq this hub has not counted (it started
		// afresh since): send again the boards that changed so at Seq.
		from.Live = 0
	}
	s.last, s.at, s.sent = f.next-1, from, true
	u, _ := h.collect(s.scope, from, false)
	if len(u.Boards) == 0 {
		s.at = h.at
		return nil
	}
	return s.take(newUpdate(u, h.at))
}

// deliverLocked returns what the watcher missed of its feed (nil if no
// board of its scope changed, or it has it all already) and moves it to
// the feed's last update. h.mu is held.
func (s *Sub) deliverLocked() *Update {
	f := s.f
	newest := f.updates[len(f.updates)-1]
	first := s.last + 1
	if first < f.updates[0].index {
		return s.catchUpLocked(first, newest)
	}
	missed := f.updates[first-f.updates[0].index:]
	var got []*feedUpdate
	for _, fu := range missed {
		if fu.snapshot {
			return s.snapshotLocked()
		}
		if fu.u != nil {
			got = append(got, fu)
		}
	}
	s.last = newest.index
	if !newest.id.After(s.at) {
		return nil // a catch-up or a resume took it as far already
	}
	// ahead: the watcher has more than its last update of the feed (a
	// catch-up or a resume took it to the hub's state then): of what it
	// missed, only the boards that changed after that state are new.
	ahead := s.at != f.idOf(first-1)
	from := s.at
	s.at = newest.id
	switch {
	case len(got) == 0:
		return nil
	case len(got) == 1 && got[0] == newest && !ahead:
		return newest.u
	}
	// Missed several: merged into one, the latest state of each board,
	// at the newest state (to resume from), shared by every watcher that
	// missed the same ones (or, ahead of the feed, is at the same state).
	key := mergeKey{first: first}
	if ahead {
		key = mergeKey{from: from}
	}
	if u := f.mergedFor(key, newest); u != nil {
		return nilIfEmpty(u)
	}
	type latest struct {
		st      *pb.BoardState
		changed EventID
	}
	byBoard := map[string]latest{}
	for _, fu := range got {
		for i, b := range fu.u.msg.GetBoards() {
			if c := fu.changed[i]; !ahead || c.After(from) {
				byBoard[b.GetBoardId()] = latest{b, c}
			}
		}
	}
	m := &pb.WatchUpdate{Seq: newest.id.Seq}
	for _, l := range byBoard {
		m.Boards = append(m.Boards, l.st)
	}
	sortBoards(m.Boards)
	u := newUpdate(m, newest.id)
	f.merged[key] = u
	return nilIfEmpty(u)
}

func nilIfEmpty(u *Update) *Update {
	if len(u.msg.GetBoards()) == 0 {
		return nil
	}
	return u
}

// catchUpLocked brings a watcher that missed more than its feed keeps (held
// back, or too slow to read) to now: the latest state of each board of its
// scope that changed since its state, merged into one update — shared by
// the watchers at the same state — or, if over half the scope changed, a
// fresh snapshot (shared too). Either way the watcher's next update is the
// present, never the backlog, and held watchers coming back do not all get
// a snapshot of the whole hall. The watcher is then ahead of its feed's
// last update: the next ones bring it only what changed after. h.mu is
// held.
func (s *Sub) catchUpLocked(first uint64, newest *feedUpdate) *Update {
	h, f := s.h, s.f
	key := mergeKey{from: s.at, catchUp: true}
	u := f.mergedFor(key, newest)
	if u == nil {
		m, inScope := h.collect(s.scope, s.at, false)
		if mostChanged(len(m.Boards), inScope) {
			return s.snapshotLocked()
		}
		u = newUpdate(m, h.at)
		f.merged[key] = u
	}
	s.last = newest.index
	if s.take(u) == nil {
		return nil
	}
	return nilIfEmpty(u)
}

// mergeKey names the watchers a merge is for: those whose first missed
// update of the feed is first; or those at state from, ahead of the feed
// (the merge of what changed after from), or too far behind it (catchUp:
// a catch-up to the hub's state).
type mergeKey struct {
	first   uint64
	from    EventID
	catchUp bool
}

// mergedFor returns the merge made for the watchers of key, while newest
// is the feed's newest (nil if none was made).
func (f *feed) mergedFor(key mergeKey, newest *feedUpdate) *Update {
	if f.mergedTo != newest.index {
		f.merged, f.mergedTo = map[mergeKey]*Update{}, newest.index
	}
	return f.merged[key]
}

// idOf returns the state of the feed's update index, or the zero id if
// the feed no longer keeps it. h.mu is held.
func (f *feed) idOf(index uint64) EventID {
	if len(f.updates) == 0 || index < f.updates[0].index || index >= f.next {
		return EventID{}
	}
	return f.updates[index-f.updates[0].index].id
}

// feedKey identifies a feed: watchers with the same scope and interval
// share one.
type feedKey struct {
	board, round, sections string
	interval               time.Duration
}

func feedKeyOf(sc Scope, interval time.Duration) feedKey {
	k := feedKey{board: sc.BoardID, round: sc.RoundID, interval: interval}
	if len(sc.Sections) > 0 {
		secs := slices.Clone(sc.Sections)
		slices.Sort(secs)
		for _, s := range secs {
			k.sections += s + "\x00"
		}
	}
	return k
}

// feed is what the watchers of one scope share: its last updates, each
// built once, and a snapshot.
type feed struct {
	key      feedKey
	scope    Scope
	interval time.Duration
	subs     int

	pos     uint64        // ring position its updates cover up to
	updates []*feedUpdate // the last keepUpdates, oldest first
	next    uint64        // index of the next update
	built   time.Time     // when the last one was built
	ready   chan struct{} // closed when an update is built
	timer   *time.Timer   // builds the next update once the interval has passed

	snap      *Update // a snapshot as of update snapIndex
	snapIndex uint64
	snapAt    time.Time

	// merged are the merges of the updates from index first to the
	// newest, by first, made for watchers that missed several: watchers
	// behind by the same updates share one (built and encoded once), so
	// watchers falling behind cost the hall at most one merge per kept
	// update per interval, not one per watcher. For mergedTo only.
	merged   map[mergeKey]*Update
	mergedTo uint64
}

// feedUpdate is one of a feed's updates: the boards of its scope that
// changed between two ring positions (u nil if none did).
type feedUpdate struct {
	index    uint64
	id       EventID // the hub's state when it was built
	u        *Update
	changed  []EventID // when each of u's boards last changed (not for a snapshot)
	snapshot bool      // the feed fell behind the ring: every board, afresh
}

// buildLocked turns what changed since the feed's last update into the
// next one, and wakes its watchers. If the changes are no longer in the
// ring, or its watchers were all too busy to take updates for longer than
// the feed keeps them and most of its scope changed meanwhile, the update
// is a fresh snapshot. h.mu is held.
func (f *feed) buildLocked(h *Hub) {
	fu := &feedUpdate{index: f.next, id: h.at}
	var m *pb.WatchUpdate
	behind := h.head-f.pos > uint64(len(h.ring))
	late := false
	if !behind && h.head > f.pos && f.interval > 0 {
		oldest := h.ring[f.pos%uint64(len(h.ring))].at
		late = time.Since(h.epoch)-oldest > keepUpdates*f.interval
	}
	if !behind {
		changed := map[string]bool{}
		m = &pb.WatchUpdate{Seq: h.at.Seq}
		for p := f.pos; p < h.head; p++ {
			c := h.ring[p%uint64(len(h.ring))]
			if changed[c.boardID] {
				continue
			}
			if b := h.boards[c.boardID]; b != nil && f.scope.has(c.boardID, b) {
				changed[c.boardID] = true
				m.Boards = append(m.Boards, b.state)
			}
		}
		sortBoards(m.Boards)
		fu.changed = make([]EventID, len(m.Boards))
		for i, b := range m.Boards {
			fu.changed[i] = h.boards[b.GetBoardId()].changed
		}
		// Built late (no watcher took updates for longer than the feed
		// keeps them): a snapshot if most of the scope changed, as large
		// and telling the watchers to start afresh; else what changed.
		behind = late && mostChanged(len(m.Boards), h.inScope(f.scope))
	}
	if behind {
		m, _ = h.collect(f.scope, EventID{}, true)
		fu.snapshot, fu.changed = true, nil
	}
	if fu.snapshot || len(m.Boards) > 0 {
		fu.u = newUpdate(m, fu.id)
	}
	f.updates = append(f.updates, fu)
	if len(f.updates) > keepUpdates {
		f.updates = slices.Delete(f.updates, 0, len(f.updates)-keepUpdates)
	}
	if fu.snapshot {
		f.snap, f.snapIndex, f.snapAt = fu.u, fu.index, time.Now()
	}
	f.next++
	f.pos = h.head
	f.built = time.Now()
	f.stopTimer()
	close(f.ready)
	f.ready = make(chan struct{})
}

// snapshotLocked returns a snapshot of the feed's scope and the index of
// the update it is as of: the one made for the feed's latest update if
// nothing changed since, or one made less than an interval ago (the
// watcher gets what followed next), else a new one, as of a new update.
// However many watchers start or fall behind at once, that is one
// snapshot per interval. h.mu is held.
func (f *feed) snapshotLocked(h *Hub) (*Update, uint64) {
	if f.snap != nil && f.snapIndex+keepUpdates > f.next &&
		(f.snapIndex == f.next-1 && h.head == f.pos || f.interval > 0 && time.Since(f.snapAt) < f.interval) {
		return f.snap, f.snapIndex
	}
	if h.head > f.pos {
		f.buildLocked(h)
	}
	m, _ := h.collect(f.scope, EventID{}, true)
	f.snap, f.snapIndex, f.snapAt = newUpdate(m, h.at), f.next-1, time.Now()
	return f.snap, f.snapIndex
}

// armLocked makes sure the next update is built once the interval has
// passed, whoever is watching then. h.mu is held.
func (f *feed) armLocked(h *Hub) {
	if f.timer != nil {
		return
	}
	f.timer = time.AfterFunc(max(f.interval-time.Since(f.built), 0), func() {
		h.mu.Lock()
		defer h.mu.Unlock()
		f.timer = nil
		if h.closed || h.feeds[f.key] != f {
			return
		}
		h.applyLocked()
		if h.head > f.pos {
			f.buildLocked(h)
		}
	})
}

func (f *feed) stopTimer() {
	if f.timer != nil {
		f.timer.Stop()
		f.timer = nil
	}
}
