package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/chesshall/hallclock/internal/cmdline"
	"github.com/chesshall/hallclock/internal/datadir"
	"github.com/chesshall/hallclock/server/auth"
	"github.com/chesshall/hallclock/storage"
)

// The offline commands work on a data directory with file access alone,
// while no server runs on it (they take its lock):
//
//	hallserver reset-chief -data-dir D      a new chief-arbiter token; the old ones revoked
//	hallserver restore -data-dir D FILE     the hall from a backup (hallctl backup)
//	hallserver rotate-key -data-dir D       a new key to sign the hall's stream with
//	hallserver stream-reset -data-dir D     the stream purged and published whole at the next start
var offlineCommands = map[string]func(ctx context.Context, args []string, out io.Writer, getenv func(string) string) error{
	"reset-chief":  resetChief,
	"restore":      restore,
	"rotate-key":   rotateKey,
	"stream-reset": streamReset,
}

func offlineFlags(name string, args []string, out io.Writer, getenv func(string) string) (*flag.FlagSet, *string, error) {
	fs := flag.NewFlagSet("hallserver "+name, flag.ContinueOnError)
	fs.SetOutput(out)
	dir := fs.String("data-dir", cmdline.Env(getenv).String("HALL_DATA_DIR", "hall-data"), "the hall's data directory (HALL_DATA_DIR)")
	return fs, dir, nil
}

// openOffline locks the data directory and opens its hall (never a new one).
func openOffline(ctx context.Context, dir, program string) (*storage.Store, *datadir.DirLock, error) {
	db := filepath.Join(dir, "hall.db")
	if _, err := os.Stat(db); err != nil {
		return nil, nil, fmt.Errorf("no hall in %s: %w", dir, err)
	}
	lock, err := datadir.Lock(dir, program)
	if err != nil {
		return nil, nil, err
	}
	st, err := storage.Open(ctx, db, storage.Options{})
	if err != nil {
		lock.Release()
		return nil, nil, err
	}
	return st, lock, nil
}

// resetChief: hallserver reset-chief -data-dir D.
func resetChief(ctx context.Context, args []string, out io.Writer, getenv func(string) string) error {
	fs, dir, _ := offlineFlags("reset-chief", args, out, getenv)
	fs.Usage = func() {
		fmt.Fprintln(out, `hallserver reset-chief [-data-dir D]

Recovers a lost chief-arbiter token: revokes every chief-arbiter token of
the hall in D and prints a new one. It needs file access to the data
directory only, and the server stopped (it refuses while one runs on D).`)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%w: reset-chief takes no arguments, got %q", errUsage, fs.Args())
	}
	st, lock, err := openOffline(ctx, *dir, "hallserver reset-chief")
	if err != nil {
		return err
	}
	defer lock.Release()
	defer st.Close()
	user := os.Getenv("USER")
	if user == "" {
		user = fmt.Sprint(os.Getuid())
	}
	secret, revoked, err := auth.ResetChief(ctx, st, "local:reset-chief by "+user)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "hall %s: %d chief-arbiter token(s) revoked %v\nnew chief-arbiter token (shown once, keep it): %s\n", st.Path(), len(revoked), revoked, secret)
	return nil
}

var errUsage = errors.New("usage")
