package storage

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/chesshall/hallclock/rules"
)

// The writer never checkpoints (a COMMIT never waits for the database
// file); the checkpoints' goroutine copies the log into the file.
func TestCheckpointsLeaveTheWriterAlone(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := MustOpen(t)
	var auto int
	if err := s.wdb.QueryRowContext(ctx, `PRAGMA wal_autocheckpoint`).Scan(&auto); err != nil || auto != 0 {
		t.Fatalf("the write connection's wal_autocheckpoint = %d, %v; want 0", auto, err)
	}
	boards := mustBoards(t, s, 50)
	s.checkpoint(false) // the boards are in the file
	fi, err := os.Stat(s.Path())
	if err != nil {
		t.Fatal(err)
	}
	before := fi.Size()
	for n := uint64(1); n <= 40; n++ {
		mustWrite(t, s, func(tx *Tx) error {
			for _, b := range boards {
				if err := tx.AppendEvent(&EventRecord{BoardID: b, BoardSeq: n, Event: rules.Event{Kind: rules.KindPress, T: int64(n), Side: rules.White}}); err != nil {
					return err
				}
			}
			return nil
		})
	}
	deadline := time.Now().Add(10 * checkpointEvery)
	for {
		fi, err := os.Stat(s.Path())
		if err != nil {
			t.Fatal(err)
		}
		if fi.Size() > before {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the database file is still %d bytes %s after 2000 events: nothing checkpointed them", fi.Size(), 10*checkpointEvery)
		}
		time.Sleep(checkpointEvery / 5)
	}
}
