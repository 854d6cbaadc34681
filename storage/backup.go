package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"time"

	"github.com/mattn/go-sqlite3"
)

// Backups while the hall plays.
//
// Backup copies the database with SQLite's online backup API, in one
// step inside one read transaction: the copy is the hall as of one
// commit, consistent, taken while the writer goes on committing (in WAL
// mode a reader neither waits for the writer nor delays it). The copy is
// checked (quick_check, and that it holds a hall) before Backup returns.
//
// To restore, stop the server and put the copy in place of hall.db (with
// no hall.db-wal or hall.db-shm beside it): hallserver restore does it and
// keeps the replaced files. Clocks hold what they recorded after the
// backup and resend it: see clockdev's Outbox.Resend.

// Summary describes a hall's database: what a backup holds.
type Summary struct {
	Bytes       int64
	Boards      int
	Events      int       // board events
	LastSeq     uint64    // the newest hall-wide event sequence number
	LastEvent   time.Time // server wall time of the newest event (zero if none)
	Devices     int       // devices with a committed sequence number
	SchemaLevel int64     // the schema version (goose)
}

func (s Summary) String() string {
	last := "none"
	if !s.LastEvent.IsZero() {
		last = s.LastEvent.Local().Format(time.DateTime)
	}
	return fmt.Sprintf("%d bytes, %d boards, %d events (newest #%d at %s), %d devices, schema %d",
		s.Bytes, s.Boards, s.Events, s.LastSeq, last, s.Devices, s.SchemaLevel)
}

// Backup writes a consistent copy of the database to dest, which must
// not exist, and returns what it holds. A failed backup leaves no file.
func (s *Store) Backup(ctx context.Context, dest string) (sum Summary, err error) {
	db, err := s.reader()
	if err != nil {
		return sum, err
	}
	abs, err := filepath.Abs(dest)
	if err != nil {
		return sum, err
	}
	if _, err := os.Stat(abs); err == nil {
		return sum, fmt.Errorf("storage: backup: %s exists; give a new file", abs)
	}
	defer func() {
		if err != nil {
			for _, ext := range []string{"", "-journal", "-wal", "-shm"} {
				os.Remove(abs + ext)
			}
		}
	}()
	src, err := db.Conn(ctx)
	if err != nil {
		return sum, fmt.Errorf("storage: backup: %w", err)
	}
	defer src.Close()
	ddb, err := sql.Open("sqlite3", dsn(abs, url.Values{"_busy_timeout": {"5000"}}))
	if err != nil {
		return sum, fmt.Errorf("storage: backup to %s: %w", abs, err)
	}
	defer ddb.Close()
	dst, err := ddb.Conn(ctx)
	if err != nil {
		return sum, fmt.Errorf("storage: backup to %s: %w", abs, err)
	}
	defer dst.Close()
	err = dst.Raw(func(dc any) error {
		return src.Raw(func(sc any) error {
			d, ok1 := dc.(*sqlite3.SQLiteConn)
			sconn, ok2 := sc.(*sqlite3.SQLiteConn)
			if !ok1 || !ok2 {
				return errors.New("not a go-sqlite3 connection")
			}
			b, err := d.Backup("main", sconn, "main")
			if err != nil {
				return err
			}
			// One step: the whole copy within one read transaction, so
			// commits meanwhile neither restart it nor leak into it.
			if _, err := b.Step(-1); err != nil {
				b.Finish()
				return err
			}
			return b.Finish()
		})
	})
	if err != nil {
		return sum, fmt.Errorf("storage: backup to %s: %w", abs, err)
	}
	if err := dst.Close(); err != nil {
		return sum, err
	}
	if err := ddb.Close(); err != nil {
		return sum, err
	}
	if f, err := os.Open(abs); err == nil { // durable before it is announced
		err = f.Sync()
		f.Close()
		if err != nil {
			return sum, fmt.Errorf("storage: backup: sync %s: %w", abs, err)
		}
	}
	return Inspect(ctx, abs)
}

// Inspect opens the hall database at path read-only, checks it
// (quick_check, and that it holds a hall) and summarises it. It changes
// nothing (a file with a -wal beside it is read as SQLite recovers it).
func Inspect(ctx context.Context, path string) (Summary, error) {
	var sum Summary
	abs, err := filepath.Abs(path)
	if err != nil {
		return sum, err
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return sum, fmt.Errorf("storage: %w", err)
	}
	if fi.Size() == 0 {
		return sum, fmt.Errorf("storage: %s is empty (0 bytes): not a hall: %w", abs, ErrNoHall)
	}
	sum.Bytes = fi.Size()
	db, err := sql.Open("sqlite3", dsn(abs, url.Values{"mode": {"ro"}}))
	if err != nil {
		return sum, openError(abs, err)
	}
	defer db.Close()
	var check string
	if err := db.QueryRowContext(ctx, `PRAGMA quick_check`).Scan(&check); err != nil {
		return sum, openError(abs, err)
	}
	if check != "ok" {
		return sum, fmt.Errorf("storage: %s is damaged: quick_check says %q", abs, check)
	}
	if err := checkHall(ctx, db, abs, false); err != nil {
		return sum, err
	}
	var lastMs sql.NullInt64
	var lastSeq sql.NullInt64
	err = db.QueryRowContext(ctx, `SELECT
		(SELECT COUNT(*) FROM boards), (SELECT COUNT(*) FROM events),
		(SELECT MAX(seq) FROM events), (SELECT MAX(wall_ms) FROM events),
		(SELECT COUNT(*) FROM device_seqs),
		(SELECT COALESCE(MAX(version_id), 0) FROM goose_db_version WHERE is_applied)`).
		Scan(&sum.Boards, &sum.Events, &lastSeq, &lastMs, &sum.Devices, &sum.SchemaLevel)
	if err != nil {
		return sum, fmt.Errorf("storage: reading %s: %w", abs, err)
	}
	sum.LastSeq = uint64(lastSeq.Int64)
	if lastMs.Valid {
		sum.LastEvent = fromMs(lastMs.Int64)
	}
	return sum, nil
}
