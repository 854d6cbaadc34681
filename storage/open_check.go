package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/mattn/go-sqlite3"
)

// Errors of Open, so that an operator reads what is wrong with the file
// instead of SQLite's "unable to open database file".
var (
	// ErrNoHall: the file exists but holds no hall (it is empty, or a
	// SQLite database without the hall's tables). Open never starts a new
	// hall over an existing file unless Options.NewHall says so.
	ErrNoHall = errors.New("no hall in the database file")
	// ErrNotWritable: the database file, or its directory (where SQLite
	// keeps the -wal and -shm files), cannot be written: a read-only file
	// system, missing permissions. A hall that cannot write cannot play.
	ErrNotWritable = errors.New("database not writable")
	// ErrNotDatabase: the file is not a SQLite database at all.
	ErrNotDatabase = errors.New("not a SQLite database")
)

// checkFile looks at the database file before SQLite opens it (SQLite
// would create an empty file over a missing one, open a read-only one
// read-only without a word, and turn a 0-byte one into a new database).
// It reports whether the file existed with content.
func checkFile(abs string, newHall bool) (existed bool, err error) {
	dir := filepath.Dir(abs)
	fi, err := os.Stat(abs)
	switch {
	case errors.Is(err, os.ErrNotExist):
		if err := probeDir(dir); err != nil {
			return false, fmt.Errorf("storage: cannot create the hall's database %s: %w", abs, err)
		}
		if wal, err := os.Stat(abs + "-wal"); err == nil && wal.Size() > 0 {
			if !newHall {
				return false, fmt.Errorf("storage: %s is missing but its log %s-wal (%d bytes) is there: the database was moved or deleted; put it back or restore it from a backup (a new hall would not start over another hall's log): %w",
					abs, abs, wal.Size(), ErrNoHall)
			}
			stamp := time.Now().UTC().Format("20060102T150405Z")
			for _, ext := range []string{"-wal", "-shm"} {
				if err := os.Rename(abs+ext, abs+ext+".stale-"+stamp); err != nil && !errors.Is(err, os.ErrNotExist) {
					return false, fmt.Errorf("storage: moving the stale %s%s aside: %w", abs, ext, err)
				}
			}
		}
		return false, nil
	case err != nil:
		return false, fmt.Errorf("storage: %s: %w", abs, err)
	case fi.IsDir():
		return false, fmt.Errorf("storage: %s is a directory, not a database file", abs)
	}
	f, err := os.OpenFile(abs, os.O_RDWR, 0)
	if err != nil {
		return false, fmt.Errorf("storage: the hall's database %s cannot be written (%w): the hall writes every event; fix its permissions or its file system: %w",
			abs, unwrapPath(err), ErrNotWritable)
	}
	f.Close()
	if err := probeDir(dir); err != nil {
		return false, fmt.Errorf("storage: the directory of %s: %w (SQLite keeps %s-wal and %s-shm beside the database)",
			abs, err, filepath.Base(abs), filepath.Base(abs))
	}
	if fi.Size() == 0 {
		if wal, err := os.Stat(abs + "-wal"); err == nil && wal.Size() > 0 {
			return true, nil // SQLite recovers the database from its log
		}
		if !newHall {
			return false, fmt.Errorf("storage: %s is empty (0 bytes): it holds no hall. If it should, restore it from a backup; to start a new hall in it, say so (hallserver -new-hall): %w", abs, ErrNoHall)
		}
		return false, nil
	}
	return true, nil
}

// probeDir checks that a file can be created in dir.
func probeDir(dir string) error {
	f, err := os.CreateTemp(dir, ".hall-probe-*")
	if err != nil {
		return fmt.Errorf("%s is not writable (%w): %w", dir, unwrapPath(err), ErrNotWritable)
	}
	name := f.Name()
	f.Close()
	return os.Remove(name)
}

// unwrapPath returns the system error inside a *PathError ("read-only
// file system", "permission denied"), whose path the message names anyway.
func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// checkHall checks that a database that existed holds a hall (goose's
// version table), before migrations would turn it into one.
func checkHall(ctx context.Context, db *sql.DB, abs string, newHall bool) error {
	rows, err := db.QueryContext(ctx, `SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`)
	if err != nil {
		return openError(abs, err)
	}
	defer rows.Close()
	var tables []string
	hall := false
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return openError(abs, err)
		}
		if n == "goose_db_version" {
			hall = true
		}
		tables = append(tables, n)
	}
	if err := rows.Err(); err != nil {
		return openError(abs, err)
	}
	if hall || newHall {
		return nil
	}
	what := "no tables"
	if len(tables) > 0 {
		what = "tables " + strings.Join(tables, ", ")
	}
	return fmt.Errorf("storage: %s is a SQLite database but not a hall's (%s): is it the right file? To start a new hall in it anyway, say so (hallserver -new-hall): %w", abs, what, ErrNoHall)
}

// openError explains SQLite's errors at open.
func openError(abs string, err error) error {
	var se sqlite3.Error
	if errors.As(err, &se) {
		switch se.Code {
		case sqlite3.ErrNotADB:
			return fmt.Errorf("storage: %s is not a SQLite database (%v): is it the hall's file? Restore it from a backup: %w", abs, err, ErrNotDatabase)
		case sqlite3.ErrReadonly, sqlite3.ErrPerm:
			return fmt.Errorf("storage: %s: %v: %w", abs, err, ErrNotWritable)
		case sqlite3.ErrCorrupt:
			return fmt.Errorf("storage: %s is damaged (%v): restore it from a backup", abs, err)
		}
	}
	return fmt.Errorf("storage: open %s: %w", abs, err)
}
