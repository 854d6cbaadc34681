package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/chesshall/hallclock/internal/datadir"
	"github.com/chesshall/hallclock/storage"
)

// restore: hallserver restore -data-dir D FILE. With the server stopped
// (it takes the data directory's lock), it checks that FILE is a sound
// hall (storage.Inspect), moves the current hall.db (and its -wal, -shm)
// into D/before-restore-<time>/, and puts a copy of FILE in its place.
// Started again, the server asks each clock for what it recorded after the
// backup, and the clocks resend what they still hold; boards and rounds
// made after the backup are rebuilt from the clocks' records of them
// (hall.Restore).
func restore(ctx context.Context, args []string, out io.Writer, getenv func(string) string) error {
	fs, dir, _ := offlineFlags("restore", args, out, getenv)
	fs.Usage = func() {
		fmt.Fprintln(out, `hallserver restore [-data-dir D] FILE

Puts the hall backup FILE (made by "hallctl backup FILE" or GET /api/backup)
in place of D/hall.db. Stop the server first (restore refuses while one runs
on D). The replaced database is kept in D/before-restore-<time>/. When the
server starts again, the clocks resend the events they recorded after the
backup and still hold, each to the board it was recorded on; boards and
rounds paired after the backup are rebuilt from the clocks' records of them.
What could not be rebuilt is in the audit log.`)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return fmt.Errorf("%w: want restore [-data-dir D] FILE", errUsage)
	}
	from := fs.Arg(0)
	if fi, err := os.Stat(from + "-wal"); err == nil && fi.Size() > 0 {
		return fmt.Errorf("%s has a log (%s-wal) beside it: it is a live database, not a backup; take a backup with hallctl backup", from, from)
	}
	sum, err := storage.Inspect(ctx, from)
	if err != nil {
		return fmt.Errorf("the backup %s: %w", from, err)
	}
	if err := os.MkdirAll(*dir, 0o755); err != nil {
		return err
	}
	lock, err := datadir.Lock(*dir, "hallserver restore")
	if err != nil {
		return err
	}
	defer lock.Release()

	db := filepath.Join(*dir, "hall.db")
	tmp := db + ".restoring"
	if err := copyFile(from, tmp); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("copying %s: %w", from, err)
	}
	if err := markRestored(ctx, tmp, from); err != nil {
		os.Remove(tmp)
		return err
	}
	kept := ""
	if _, err := os.Stat(db); err == nil {
		kept = filepath.Join(*dir, "before-restore-"+time.Now().UTC().Format("20060102T150405Z"))
		if err := os.Mkdir(kept, 0o755); err != nil {
			os.Remove(tmp)
			return err
		}
		for _, ext := range []string{"", "-wal", "-shm"} {
			if err := os.Rename(db+ext, filepath.Join(kept, "hall.db"+ext)); err != nil && !os.IsNotExist(err) {
				os.Remove(tmp)
				return fmt.Errorf("keeping the current %s%s: %w", db, ext, err)
			}
		}
	}
	if err := os.Rename(tmp, db); err != nil {
		return err
	}
	syncDir(*dir)
	fmt.Fprintf(out, "restored %s from %s: %v\n", db, from, sum)
	if kept != "" {
		fmt.Fprintf(out, "the database it replaced is kept in %s\n", kept)
	}
	fmt.Fprintln(out, "start the server: the clocks resend what they recorded after the backup and still hold, and rounds paired since are rebuilt from them;")
	fmt.Fprintln(out, "its stream in NATS is purged if it holds what the hall wrote after the backup, and gets the hall whole.")
	return nil
}

// markRestored marks the copy as restored: what the stream holds after
// its outbox was written by the hall after the backup, which the copy
// never did, so the server starts the stream again (storage.RestartStream).
func markRestored(ctx context.Context, path, from string) error {
	st, err := storage.Open(ctx, path, storage.Options{})
	if err != nil {
		return fmt.Errorf("the backup %s: %w", from, err)
	}
	err = st.RestartStream(ctx, false, "restored from "+filepath.Base(from))
	if cerr := st.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("marking the restored hall: %w", err)
	}
	for _, ext := range []string{"-wal", "-shm"} {
		if fi, err := os.Stat(path + ext); err == nil && fi.Size() > 0 && ext == "-wal" {
			return fmt.Errorf("marking the restored hall: its log %s%s was not written back", path, ext)
		}
		os.Remove(path + ext)
	}
	return nil
}

// copyFile copies src to dst (new), fsynced.
func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	if err := out.Sync(); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}
