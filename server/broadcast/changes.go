package broadcast

import "sync"

// Changes counts the changes of each round, for a Source: its owner tells
// it of every committed board event (Board), of boards withdrawn (Drop)
// and of anything else that changes a round (Touch); the feeds read a
// round's counter and wait on its channel. Each call is O(1) under one
// mutex and never waits for a reader, so the hall can call it after each
// commit. A counter only grows; it starts at 1 when the round is first
// seen.
type Changes struct {
	mu     sync.Mutex
	rounds map[string]*roundMark
	boards map[string]string // board id → round id
	all    *roundMark        // every change of every round
}

type roundMark struct {
	version uint64
	seqs    map[string]uint64 // board id → its committed events
	wake    chan struct{}     // closed at the next change
}

// NewChanges returns an empty record of changes.
func NewChanges() *Changes {
	return &Changes{rounds: map[string]*roundMark{}, boards: map[string]string{}, all: &roundMark{version: 1, wake: make(chan struct{})}}
}

func (c *Changes) markLocked(roundID string) *roundMark {
	m := c.rounds[roundID]
	if m == nil {
		m = &roundMark{version: 1, seqs: map[string]uint64{}, wake: make(chan struct{})}
		c.rounds[roundID] = m
	}
	return m
}

func (m *roundMark) bump() {
	m.version++
	close(m.wake)
	m.wake = make(chan struct{})
}

// Board records that a board of the round has seq committed events. The
// round changes if the board is new to it or seq is higher than known;
// telling the same seq again (a change of something the feeds do not
// show, such as a device going offline) changes nothing.
func (c *Changes) Board(roundID, boardID string, seq uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	m := c.markLocked(roundID)
	old, known := m.seqs[boardID]
	if known && seq <= old {
		return
	}
	m.seqs[boardID] = seq
	c.boards[boardID] = roundID
	m.bump()
	c.all.bump()
}

// Drop records that a board left its round (withdrawn).
func (c *Changes) Drop(boardID string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	roundID, ok := c.boards[boardID]
	if !ok {
		return
	}
	delete(c.boards, boardID)
	m := c.rounds[roundID]
	delete(m.seqs, boardID)
	m.bump()
	c.all.bump()
}

// Touch records any other change of a round (made public or private).
func (c *Changes) Touch(roundID string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.markLocked(roundID).bump()
	c.all.bump()
}

// All returns a counter of every round's changes and a channel closed at
// the next change of any round (what a tournament's standings follow).
func (c *Changes) All() (uint64, <-chan struct{}) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.all.version, c.all.wake
}

// Version returns the round's counter and a channel closed at its next
// change.
func (c *Changes) Version(roundID string) (uint64, <-chan struct{}) {
	c.mu.Lock()
	defer c.mu.Unlock()
	m := c.markLocked(roundID)
	return m.version, m.wake
}

// Seq returns how many committed events of the board were recorded.
func (c *Changes) Seq(boardID string) uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	if m := c.rounds[c.boards[boardID]]; m != nil {
		return m.seqs[boardID]
	}
	return 0
}
