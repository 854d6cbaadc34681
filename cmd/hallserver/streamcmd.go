package main

import (
	"context"
	"fmt"
	"io"

	"github.com/chesshall/hallclock/formats/hallstream"
	"github.com/chesshall/hallclock/storage/publish"
)

// rotateKey: hallserver rotate-key -data-dir D.
func rotateKey(ctx context.Context, args []string, out io.Writer, getenv func(string) string) error {
	fs, dir, _ := offlineFlags("rotate-key", args, out, getenv)
	fs.Usage = func() {
		fmt.Fprintln(out, `hallserver rotate-key [-data-dir D]

Gives the hall a new key to sign its stream with, endorsed by the key it
replaces, and prints it. Once the server is started again, every message
it publishes is signed with the new key and carries the old key's
endorsement of it: gateways that trust the old key (pinned, or learnt
from the stream) move to the new one by themselves and refuse the old
one from then on. The server must be stopped (the command refuses while
one runs on D). If the old key may have been stolen, also run
"hallserver stream-reset" and restart the gateways pinned to the new key.`)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%w: rotate-key takes no arguments, got %q", errUsage, fs.Args())
	}
	st, lock, err := openOffline(ctx, *dir, "hallserver rotate-key")
	if err != nil {
		return err
	}
	defer lock.Release()
	defer st.Close()
	old, err := publish.Signer(ctx, st)
	if err != nil {
		return err
	}
	key, err := publish.RotateKey(ctx, st)
	if err != nil {
		return err
	}
	id, err := st.HallID(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "hall %s: stream signing key %s replaces %s\ngateways pinning a key: -hall-key %s=%s\n",
		id, hallstream.KeyString(key), hallstream.KeyString(old.Public()), id, hallstream.KeyString(key))
	return nil
}

// streamReset: hallserver stream-reset -data-dir D.
func streamReset(ctx context.Context, args []string, out io.Writer, getenv func(string) string) error {
	fs, dir, _ := offlineFlags("stream-reset", args, out, getenv)
	fs.Usage = func() {
		fmt.Fprintln(out, `hallserver stream-reset [-data-dir D]

Starts the hall's stream again: when the server next starts, it purges
its stream in NATS and publishes the hall whole, marked so that gateways
drop what they had of the hall and read it anew. For a stream that holds
what this database never wrote (the hall's file put back from an older
copy by hand: the alarm "the stream holds messages of the hall that this
database never wrote"), or one that should hold only messages signed by
the hall's newest key. "hallserver restore" does it by itself. The
server must be stopped.`)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%w: stream-reset takes no arguments, got %q", errUsage, fs.Args())
	}
	st, lock, err := openOffline(ctx, *dir, "hallserver stream-reset")
	if err != nil {
		return err
	}
	defer lock.Release()
	defer st.Close()
	if err := st.RestartStream(ctx, true, "hallserver stream-reset"); err != nil {
		return err
	}
	id, err := st.HallID(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "hall %s: its stream %s is purged and published whole when the server starts\n", id, hallstream.StreamName(id))
	return nil
}
