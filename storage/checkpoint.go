package storage

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"net/url"
	"time"

	"github.com/mattn/go-sqlite3"
)

// Checkpoints. In WAL mode SQLite appends every page a commit changed to
// the log, and by default copies the log back into the database file (a
// checkpoint) inside the COMMIT that takes it past a thousand pages: the
// writer, and every Write waiting for it, then waits for a thousand
// scattered writes and an fsync of the database file. With thousands of
// boards each event changes pages of its own (the board's end of the
// indexes), so under load that is several times a second.
//
// The store turns automatic checkpoints off on the write connection and
// checkpoints from a goroutine and a connection of their own instead:
// PASSIVE checkpoints never block the writer (WAL allows a checkpointer
// beside the writer), and checkpointing every checkpointEvery copies each
// page once however many commits changed it meanwhile. Durability is
// untouched: a COMMIT still returns only once the log is on disk, and a
// checkpoint syncs the database file before the log is reused. Close
// checkpoints everything (the last connection closed does).

const checkpointEvery = 500 * time.Millisecond

// hookConnector opens go-sqlite3 connections that run setup first, so that
// a connection database/sql opens again has the same settings.
type hookConnector struct {
	dsn string
	drv *sqlite3.SQLiteDriver
}

func (c hookConnector) Connect(context.Context) (driver.Conn, error) { return c.drv.Open(c.dsn) }
func (c hookConnector) Driver() driver.Driver                        { return c.drv }

// openWithPragmas opens a pool whose connections each run the pragmas.
func openWithPragmas(abs string, params url.Values, pragmas ...string) *sql.DB {
	return sql.OpenDB(hookConnector{dsn: dsn(abs, params), drv: &sqlite3.SQLiteDriver{
		ConnectHook: func(c *sqlite3.SQLiteConn) error {
			for _, p := range pragmas {
				if _, err := c.Exec("PRAGMA "+p, nil); err != nil {
					return fmt.Errorf("PRAGMA %s: %w", p, err)
				}
			}
			return nil
		},
	}})
}

// checkpoints runs until Close: a PASSIVE checkpoint every checkpointEvery
// while the writer commits — while the disk's reserve is short
// (space.go), a TRUNCATE one, which empties the log, after every commit.
func (s *Store) checkpoints() {
	defer close(s.cpStopped)
	t := time.NewTicker(checkpointEvery)
	defer t.Stop()
	var last uint64
	for {
		select {
		case <-s.cpStop:
			return
		case <-t.C:
		case <-s.cpSoon:
		}
		if c := s.commits.Load(); c != last {
			last = c
			s.checkpoint(s.spaceError(s.reserveNeed) != nil)
		}
	}
}

// checkpointSoon has the checkpoints run now rather than at the next
// tick (the disk's reserve is short); it never blocks the writer.
func (s *Store) checkpointSoon() {
	select {
	case s.cpSoon <- struct{}{}:
	default:
	}
}

// checkpoint copies what the log holds into the database file, as far as
// no reader still needs it; with truncate, it waits for the readers and
// the writer (up to the busy timeout), copies everything and empties the
// log file, giving its space back. It reports whether it did it all.
func (s *Store) checkpoint(truncate bool) bool {
	mode := "PASSIVE"
	if truncate {
		mode = "TRUNCATE"
	}
	var busy, frames, copied int
	err := s.cdb.QueryRowContext(context.Background(), `PRAGMA wal_checkpoint(`+mode+`)`).Scan(&busy, &frames, &copied)
	if err != nil {
		s.log.Warn("storage: checkpoint failed; the log grows until one succeeds", "mode", mode, "err", err)
		return false
	}
	return busy == 0 && frames == copied
}
