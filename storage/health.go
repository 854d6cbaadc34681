package storage

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/mattn/go-sqlite3"
)

// health is what the writer learned about committing.
type health struct {
	mu       sync.Mutex
	err      error     // why the last commit (or a write in it) failed for the store's sake; nil after a success
	since    time.Time // when err began
	lastGood time.Time // when a commit last succeeded
	// writeBack: a fault since the log was last written back into the
	// database and emptied (space.go): not ready until it is.
	writeBack bool
	// pending: when the oldest write of the batch being committed was
	// queued; zero while the writer commits nothing (stall.go).
	pending time.Time
}

// IsFault reports whether err says the store itself cannot write (a
// full disk, a read-only file system, an I/O error, the store closed),
// as opposed to a write refused for its own content: the caller may try
// again later, not differently.
func IsFault(err error) bool { return fault(err) != nil }

// fault returns err if it says the store itself cannot write (the disk is
// full, the file system read-only, an I/O error), nil for errors of a
// write's own making (a duplicate, a conflict).
func fault(err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, ErrClosed) || errors.Is(err, ErrNoSpace) {
		return err
	}
	var se sqlite3.Error
	if errors.As(err, &se) {
		switch se.Code {
		case sqlite3.ErrFull, sqlite3.ErrIoErr, sqlite3.ErrReadonly, sqlite3.ErrCantOpen, sqlite3.ErrCorrupt, sqlite3.ErrNotADB, sqlite3.ErrPerm:
			return err
		}
	}
	return nil
}

// noteCommit records a commit's outcome; failed is the error of the
// commit or of a write in it that says the store cannot write.
func (s *Store) noteCommit(failed error) {
	s.health.mu.Lock()
	defer s.health.mu.Unlock()
	now := time.Now()
	if failed == nil {
		if s.health.err != nil {
			s.healthChanged()
		}
		s.health.err, s.health.lastGood = nil, now
		return
	}
	if s.health.err == nil {
		s.health.since = now
		s.healthChanged()
	}
	s.health.err = failed
	s.health.writeBack = true
}

// Health returns nil if the store can commit, as far as it knows: no
// write has waited Options.StallAfter for its commit (stall.go), its
// file system is writable and has room (the reserve, space.go), its last
// commit succeeded (or none has failed since one did), and after a fault
// its log was written back. Otherwise it says what is wrong — for want of
// space, how much is needed. It writes nothing: Probe does.
func (s *Store) Health() error {
	if s.closed.Load() {
		return fmt.Errorf("storage: %w", ErrClosed)
	}
	if err := s.stallError(); err != nil {
		return err
	}
	if err := s.readySpace(); err != nil {
		return err
	}
	s.health.mu.Lock()
	defer s.health.mu.Unlock()
	if s.health.err != nil {
		return fmt.Errorf("storage: commits fail since %s: %w", s.health.since.Format(time.TimeOnly), s.health.err)
	}
	if s.health.writeBack {
		return errors.New("storage: writing its log back into the database after a fault, before taking events again")
	}
	return nil
}

// Probe makes sure Health is current: after a fault, or while space is
// short, it first writes the log back into the database and empties it
// (so that what clocks resend finds the room the log held); then, unless
// a commit succeeded within fresh, it commits a one-row write; and it
// returns Health.
func (s *Store) Probe(ctx context.Context, fresh time.Duration) error {
	s.health.mu.Lock()
	recent := s.health.err == nil && time.Since(s.health.lastGood) < fresh
	writeBack := s.health.writeBack
	s.health.mu.Unlock()
	if s.closed.Load() {
		return s.Health()
	}
	if writeBack || s.spaceError(s.reserveNeed) != nil {
		if s.checkpoint(true) {
			s.health.mu.Lock()
			s.health.writeBack = false
			s.health.mu.Unlock()
			if writeBack {
				s.healthChanged()
			}
		}
	}
	if !recent {
		err := s.Write(ctx, func(tx *Tx) error {
			_, err := tx.exec(`INSERT INTO readiness_probe (id, wall_ms) VALUES (1, ?)
				ON CONFLICT (id) DO UPDATE SET wall_ms = excluded.wall_ms`, s.wallMs(time.Time{}))
			return err
		})
		if err != nil && ctx.Err() == nil {
			if f := fault(err); f != nil {
				s.noteCommit(f)
			} else if !errors.Is(err, ErrClosed) {
				return fmt.Errorf("storage: readiness probe: %w", err)
			}
		}
	}
	return s.Health()
}
