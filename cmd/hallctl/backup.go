package main

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// backup: hallctl backup FILE — a consistent copy of the hall's database,
// taken while the hall plays (chief arbiter). It is written to FILE.part,
// checked against the server's SHA-256, and renamed to FILE; an existing
// FILE is never overwritten. Restore it with: hallserver restore -data-dir D FILE.
func (c *cli) backup(args []string) error {
	if len(args) != 1 || args[0] == "" || args[0][0] == '-' {
		return fmt.Errorf("%w: want backup FILE", errUsage)
	}
	path := args[0]
	if _, err := os.Stat(path); err == nil {
		return fmt.Errorf("%s exists: give a new file (a backup never overwrites)", path)
	}
	stream, err := pb.NewAdminClient(c.conn).Backup(c.ctx, &pb.BackupRequest{})
	if err != nil {
		return err
	}
	part := path + ".part"
	f, err := os.OpenFile(part, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	ok := false
	defer func() {
		if !ok {
			f.Close()
			os.Remove(part)
		}
	}()
	h := sha256.New()
	w := io.MultiWriter(f, h)
	var total, got int64
	var sum *pb.BackupSummary
	var want string
	for {
		chunk, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		if chunk.GetSummary() != nil {
			sum, total = chunk.GetSummary(), chunk.GetTotalBytes()
		}
		n, err := w.Write(chunk.GetData())
		if err != nil {
			return err
		}
		got += int64(n)
		if chunk.GetSha256() != "" {
			want = chunk.GetSha256()
		}
	}
	if have := hex.EncodeToString(h.Sum(nil)); want == "" || have != want || got != total {
		return fmt.Errorf("backup incomplete: %d of %d bytes, SHA-256 %s, the server's %q: nothing written", got, total, have, want)
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(part, path); err != nil {
		return err
	}
	ok = true
	last := "no events"
	if ms := sum.GetLastEventUnixMs(); ms > 0 {
		last = "newest event #" + fmt.Sprint(sum.GetLastSeq()) + " at " + at(ms, time.DateTime, c.zone(""))
	}
	fmt.Fprintf(c.out, "%s: %d bytes, %d boards, %d events, %s (SHA-256 %s)\nrestore: stop the server, then hallserver restore -data-dir DIR %s\n",
		path, got, sum.GetBoards(), sum.GetEvents(), last, want[:16], path)
	return nil
}
