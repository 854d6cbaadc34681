package storage

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chesshall/hallclock/rules"
)

// A backup taken while events are committed is one commit's hall: every
// board's log in the copy is a prefix of the live one, replays, and the
// copy opens as a hall; writing goes on meanwhile.
func TestBackupWhileWriting(t *testing.T) {
	t.Parallel()
	s := MustOpen(t)
	ctx := context.Background()
	boards := mustBoards(t, s, 4)
	start := rules.Event{Kind: rules.KindStart}
	for _, b := range boards {
		mustWrite(t, s, func(tx *Tx) error {
			return tx.AppendEvent(&EventRecord{BoardID: b, BoardSeq: 1, Event: start, Actor: "t"})
		})
	}
	var stop atomic.Bool
	var wg sync.WaitGroup
	var written atomic.Int64
	for i, b := range boards {
		wg.Add(1)
		go func() {
			defer wg.Done()
			side := rules.White
			for n := uint64(2); !stop.Load(); n++ {
				e := rules.Event{Kind: rules.KindPress, Side: side, T: int64(n) * 1000}
				side = side.Other()
				err := s.Write(ctx, func(tx *Tx) error {
					return tx.AppendEvent(&EventRecord{BoardID: b, BoardSeq: n, Event: e, Actor: fmt.Sprint("w", i)})
				})
				if err != nil {
					t.Error(err)
					return
				}
				written.Add(1)
			}
		}()
	}
	for written.Load() < 200 {
		time.Sleep(time.Millisecond)
	}
	dest := filepath.Join(t.TempDir(), "backup.db")
	sum, err := s.Backup(ctx, dest)
	writtenAtBackup := written.Load()
	for written.Load() < writtenAtBackup+100 {
		time.Sleep(time.Millisecond)
	}
	stop.Store(true)
	wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	if sum.Boards != 4 || sum.Events < 200 {
		t.Errorf("backup summary %v, want 4 boards and at least 200 events", sum)
	}
	copy := mustOpenAt(t, dest, Options{})
	for _, b := range boards {
		got, err := copy.Events(ctx, b, 0)
		if err != nil {
			t.Fatal(err)
		}
		live, err := s.Events(ctx, b, 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) == 0 || len(got) > len(live) {
			t.Fatalf("board %s: %d events in the backup, %d live", b, len(got), len(live))
		}
		for i := range got {
			if got[i].Seq != live[i].Seq || got[i].Event.T != live[i].Event.T {
				t.Fatalf("board %s event %d: backup %+v, live %+v", b, i+1, got[i], live[i])
			}
		}
		if _, _, err := copy.ReplayFromScratch(ctx, b); err != nil {
			t.Errorf("board %s in the backup does not replay: %v", b, err)
		}
	}
	// Hall-wide: the copy holds exactly the events up to its newest seq.
	all, err := s.EventsSince(ctx, 0, 1<<30)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range all {
		if e.Seq <= sum.LastSeq {
			n++
		}
	}
	if n != sum.Events {
		t.Errorf("the backup holds %d events up to #%d; the live log has %d up to it: not one commit's state", sum.Events, sum.LastSeq, n)
	}
}

// Backup never overwrites; Inspect refuses what is not a hall.
func TestBackupRefusesAnExistingFileAndInspectAForeignOne(t *testing.T) {
	t.Parallel()
	s := MustOpen(t)
	dest := filepath.Join(t.TempDir(), "b.db")
	if err := os.WriteFile(dest, []byte("precious"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Backup(context.Background(), dest); err == nil {
		t.Error("Backup over an existing file succeeded")
	}
	if b, _ := os.ReadFile(dest); string(b) != "precious" {
		t.Error("Backup touched the existing file")
	}
	if _, err := Inspect(context.Background(), dest); !errors.Is(err, ErrNotDatabase) {
		t.Errorf("Inspect(not a database) = %v, want ErrNotDatabase", err)
	}
}
