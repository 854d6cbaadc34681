package storage

import (
	"errors"
	"fmt"
	"time"
)

// A stalled store. A disk that stops answering (a frozen file system, a
// dying disk, a network volume gone) makes no write fail: the commit just
// does not return, the writer waits in it and every write queues behind
// it. So the store watches how long the oldest write not yet committed
// has waited: from Options.StallAfter on, Health says the store is
// stalled (not ready) until a commit returns. HealthChanged tells the one
// who follows the store's health (the server) when it turns ready again;
// when a stall begins nothing runs to say so (the writer is the one
// waiting), so the follower looks at StallIn.

// ErrStalled: the oldest write has waited longer than Options.StallAfter
// for its commit, which has not returned: the disk does not answer.
var ErrStalled = errors.New("commits stalled")

// defaultStallAfter is Options.StallAfter's default: a commit takes a few
// milliseconds, a slow disk under load some hundreds.
const defaultStallAfter = 3 * time.Second

// beginBatch notes that the writer is committing writes of which the
// oldest was queued at oldest.
func (s *Store) beginBatch(oldest time.Time) {
	s.health.mu.Lock()
	s.health.pending = oldest
	s.health.mu.Unlock()
}

// endBatch notes that the writer's commit returned; if the batch had
// counted as stalled, the follower hears that it no longer is.
func (s *Store) endBatch() {
	s.health.mu.Lock()
	stalled := s.stalledLocked()
	s.health.pending = time.Time{}
	s.health.mu.Unlock()
	if stalled {
		s.healthChanged()
	}
}

// stalledLocked reports whether the batch being committed has waited
// StallAfter or more; health.mu is held.
func (s *Store) stalledLocked() bool {
	p := s.health.pending
	return !p.IsZero() && s.now().Sub(p) >= s.stallAfter
}

// stallError says how long the writes have waited, nil if not stalled.
func (s *Store) stallError() error {
	s.health.mu.Lock()
	defer s.health.mu.Unlock()
	if !s.stalledLocked() {
		return nil
	}
	p := s.health.pending
	return fmt.Errorf("storage: %w: a write has waited %s for its commit (queued at %s; not ready after %s): the disk does not answer — a frozen, failing or unreachable file system",
		ErrStalled, s.now().Sub(p).Round(100*time.Millisecond), p.Format(time.TimeOnly), s.stallAfter)
}

// StallIn reports how long the write being committed may still wait before
// the store counts as stalled (zero or less: it does), and false when no
// write is waiting for a commit.
func (s *Store) StallIn() (time.Duration, bool) {
	s.health.mu.Lock()
	defer s.health.mu.Unlock()
	if s.health.pending.IsZero() {
		return 0, false
	}
	return s.stallAfter - s.now().Sub(s.health.pending), true
}

// StallAfter returns Options.StallAfter (with its default applied).
func (s *Store) StallAfter() time.Duration { return s.stallAfter }

// HealthChanged returns a channel that receives when Health may have
// changed without a time passing: a commit failed after successes, one
// succeeded after failures, a stall ended. It has one reader; changes that
// come while it has not read are one.
func (s *Store) HealthChanged() <-chan struct{} { return s.healthWake }

func (s *Store) healthChanged() {
	select {
	case s.healthWake <- struct{}{}:
	default:
	}
}
