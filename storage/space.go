package storage

import (
	"errors"
	"fmt"
	"path/filepath"
)

// The disk's reserve. On a full disk SQLite cannot checkpoint its log
// into the database file (the file must grow first), so the log keeps
// the space it holds; and a little space freed is refilled within a
// second by clocks resending what they held meanwhile. So the store
// keeps a reserve: it refuses writes outright when its file system has
// less free than half of Options.Reserve (the floor), so that there is
// always room to checkpoint, and is not ready (Health) below the floor,
// or, once it was, until the whole reserve is free again: a hall that
// comes back takes its clocks' backlog with the reserve to spend, and
// does not flap at the edge. After a fault it writes
// its log back into the database and empties it (a TRUNCATE checkpoint)
// before it says it is ready again, and while space is short it
// checkpoints so at every turn, so that the log does not grow.

// ErrNoSpace: the store's file system has less free space than the store
// keeps in reserve. Like a full disk, it is a fault (IsFault): the write
// may be tried again once space is freed.
var ErrNoSpace = errors.New("not enough disk space")

// defaultReserve is Options.Reserve's default; on a file system smaller
// than four times it, a quarter of the file system.
const defaultReserve = 64 << 20

// space is what a file system has.
type space struct {
	known      bool // false: the platform cannot tell
	free, size uint64
	readOnly   bool
}

// reserveFor is the free space the store wants on a file system of size.
func (s *Store) reserveFor(size uint64) uint64 {
	r := s.reserve
	if size > 0 {
		r = min(r, size/4)
	}
	return r
}

// spaceError says how much space the store has and needs, and what to
// free, or nil if it has enough: at least need(size), the reserve or its
// floor for a file system of that size.
func (s *Store) spaceError(need func(size uint64) uint64) error {
	return s.roomError(diskSpace(filepath.Dir(s.path)), need)
}

func (s *Store) roomError(sp space, need func(size uint64) uint64) error {
	if !sp.known {
		return nil
	}
	dir := filepath.Dir(s.path)
	if sp.readOnly {
		return fmt.Errorf("storage: the file system of %s is read-only", dir)
	}
	n := need(sp.size)
	if sp.free >= n {
		return nil
	}
	return fmt.Errorf("storage: %w on the file system of %s: %s free, the hall needs %s free to take events (a reserve for its log while clocks resend what they hold, and to write it back): free %s more",
		ErrNoSpace, dir, mib(sp.free), mib(n), mib(n-sp.free))
}

// reserveNeed and floorNeed are the whole reserve and its floor.
func (s *Store) reserveNeed(size uint64) uint64 { return s.reserveFor(size) }
func (s *Store) floorNeed(size uint64) uint64   { return s.reserveFor(size) / 2 }

// beforeCommit is the writer's look at the space before a batch: an
// error below the floor (nothing is written), and whether the reserve is
// short, when the log is written back and emptied after every commit
// rather than every checkpointEvery, so that it cannot take the room
// left.
func (s *Store) beforeCommit() (short bool, err error) {
	sp := diskSpace(filepath.Dir(s.path))
	if err := s.roomError(sp, s.floorNeed); err != nil {
		return true, err
	}
	return s.roomError(sp, s.reserveNeed) != nil, nil
}

// readySpace is Health's look at the space: below the floor not ready,
// and then not again until the whole reserve is free (spaceShort).
func (s *Store) readySpace() error {
	if s.spaceShort.Load() {
		err := s.spaceError(s.reserveNeed)
		if err == nil {
			s.spaceShort.Store(false)
		}
		return err
	}
	err := s.spaceError(s.floorNeed)
	if errors.Is(err, ErrNoSpace) {
		s.spaceShort.Store(true)
		return s.spaceError(s.reserveNeed)
	}
	return err
}

// mib writes a number of bytes in MiB, one decimal.
func mib(b uint64) string { return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20)) }
