package storage

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chesshall/hallclock/internal/testkit/faultfs"
)

// On a full disk, commits fail and Health says so (the disk, not the
// writes); once space is freed, a probe commits and Health is nil again.
func TestHealthOnAFullDisk(t *testing.T) {
	t.Parallel()
	dir := faultfs.Small(t, 4<<20)
	s := mustOpenAt(t, filepath.Join(dir, "hall.db"), Options{})
	ctx := context.Background()
	if err := s.Probe(ctx, 0); err != nil {
		t.Fatalf("Probe before the fault = %v", err)
	}
	filler := faultfs.Fill(t, dir)
	var werr error
	for i := 0; werr == nil && i < 1000; i++ {
		werr = s.Write(ctx, func(tx *Tx) error {
			return tx.AddAudit(&AuditRecord{Actor: "test", What: fmt.Sprint(i) + strings.Repeat("x", 4000), Outcome: OutcomeApplied})
		})
	}
	if werr == nil {
		t.Fatal("writes still commit on a full disk")
	}
	if err := s.Health(); err == nil || !(strings.Contains(err.Error(), "space") || strings.Contains(err.Error(), "full")) {
		t.Errorf("Health on a full disk = %v, want it to say the disk is full", err)
	}
	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	if err := s.Probe(ctx, time.Hour); err != nil {
		t.Errorf("Probe after freeing space = %v, want nil", err)
	}
}

// A closed store is not healthy.
func TestHealthOfAClosedStore(t *testing.T) {
	t.Parallel()
	s, err := Open(context.Background(), filepath.Join(t.TempDir(), "hall.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Probe(context.Background(), 0); err != nil {
		t.Fatalf("Probe = %v", err)
	}
	s.Close()
	if err := s.Health(); !errors.Is(err, ErrClosed) {
		t.Errorf("Health after Close = %v, want ErrClosed", err)
	}
}

// A full disk with a little space freed: the store writes its log back
// into the database (emptying it) before it takes events again — with a
// log that held much, the little freed is then enough — and while space
// is short it says how much more it needs; once that much is freed it is
// ready, and takes a burst of writes without turning not ready again.
func TestFullDiskRecoversAfterALittleSpaceIsFreed(t *testing.T) {
	for _, c := range []struct {
		name      string
		emptyLog  bool // the log written back before the disk filled: freeing it gains nothing
		askedMore bool
	}{{"a full log", false, false}, {"an empty log", true, true}} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			dir := faultfs.Small(t, 8<<20) // a reserve of 2 MiB, writes refused below 1 MiB
			path := filepath.Join(dir, "hall.db")
			s := mustOpenAt(t, path, Options{})
			ctx := context.Background()
			if err := s.Probe(ctx, 0); err != nil {
				t.Fatalf("Probe before the fault = %v", err)
			}
			write := func(i int) error {
				return s.Write(ctx, func(tx *Tx) error {
					return tx.AddAudit(&AuditRecord{Actor: "test", What: fmt.Sprint(i) + strings.Repeat("x", 1000), Outcome: OutcomeApplied})
				})
			}
			for i := range 500 { // a log with something in it
				if err := write(i); err != nil {
					t.Fatal(err)
				}
			}
			if c.emptyLog && !s.checkpoint(true) {
				t.Fatal("the log could not be written back")
			}
			filler := faultfs.Fill(t, dir)
			var werr error
			for i := 0; werr == nil && i < 1000; i++ {
				werr = write(i)
			}
			if !IsFault(werr) {
				t.Fatalf("a write on a full disk: %v, want a fault", werr)
			}
			free := func(n int64) {
				t.Helper()
				fi, err := os.Stat(filler)
				if err != nil {
					t.Fatal(err)
				}
				if err := os.Truncate(filler, max(fi.Size()-n, 0)); err != nil {
					t.Fatal(err)
				}
			}
			free(256 << 10)
			err := s.Probe(ctx, time.Hour)
			if c.askedMore {
				more := regexp.MustCompile(`free ([0-9.]+) MiB more`).FindStringSubmatch(fmt.Sprint(err))
				if !errors.Is(err, ErrNoSpace) || more == nil {
					t.Fatalf("Probe with 256 KiB freed = %v, want ErrNoSpace saying how much more to free", err)
				}
				need, _ := strconv.ParseFloat(more[1], 64)
				free(int64(need*(1<<20)) + 64<<10)
				err = s.Probe(ctx, time.Hour)
			}
			if err != nil {
				t.Fatalf("Probe = %v, want ready", err)
			}
			if fi, err := os.Stat(path + "-wal"); err == nil && fi.Size() > 64<<10 {
				t.Errorf("ready with a log of %d bytes: it was not written back and emptied first (then one probe)", fi.Size())
			}
			for i := range 100 {
				if err := write(i); err != nil {
					t.Fatalf("write %d after the recovery: %v", i, err)
				}
			}
			if err := s.Health(); err != nil {
				t.Errorf("Health after a burst of writes = %v, want ready still", err)
			}
		})
	}
}
