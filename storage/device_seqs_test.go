package storage

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/chesshall/hallclock/rules"
)

// A device's committed number, read with nothing cached (the store just
// opened), is the higher of its events' numbers and what was committed
// without an event (a refused message, numbers skipped after a restore),
// whichever came last.
func TestDeviceAckedFromEventsAndAcks(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "hall.db")
	boardSeq := uint64(0)
	event := func(tx *Tx, dev string, seq uint64) error {
		r := EventRecord{BoardID: "b1", BoardSeq: boardSeq + 1, Event: press(rules.White, int64(boardSeq+1)), DeviceID: dev, DeviceSeq: seq}
		if err := tx.AppendEvent(&r); err != nil {
			return err
		}
		boardSeq++
		return nil
	}
	steps := []struct {
		what string
		fn   func(tx *Tx) error
		want uint64 // clk-1's number after it
	}{
		{"events 1 to 5", func(tx *Tx) error {
			for seq := uint64(1); seq <= 5; seq++ {
				if err := event(tx, "clk-1", seq); err != nil {
					return err
				}
			}
			return nil
		}, 5},
		{"6 refused", func(tx *Tx) error { return tx.AckDevice("clk-1", 6) }, 6},
		{"events 7 and 8", func(tx *Tx) error {
			if err := event(tx, "clk-1", 7); err != nil {
				return err
			}
			return event(tx, "clk-1", 8)
		}, 8},
		{"skipped to 20", func(tx *Tx) error { return tx.SkipDeviceSeqs("clk-1", 20) }, 20},
		{"event 21", func(tx *Tx) error { return event(tx, "clk-1", 21) }, 21},
	}
	for i, st := range steps {
		s, err := Open(ctx, path, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			mustBoards(t, s, 1)
		}
		if err := s.Write(ctx, st.fn); err != nil {
			t.Fatalf("%s: %v", st.what, err)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		s, err = Open(ctx, path, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got, err := s.DeviceAcked(ctx, "clk-1"); got != st.want || err != nil {
			t.Errorf("after %s, reopened: DeviceAcked = %d, %v; want %d", st.what, got, err, st.want)
		}
		// Inside a write, with nothing cached: the next number is the
		// one after, the last one a duplicate.
		err = s.Write(ctx, func(tx *Tx) error {
			if got, err := tx.DeviceAcked("clk-1"); got != st.want || err != nil {
				t.Errorf("after %s, reopened: Tx.DeviceAcked = %d, %v; want %d", st.what, got, err, st.want)
			}
			return tx.AckDevice("clk-1", st.want)
		})
		if !errors.Is(err, ErrDuplicate) {
			t.Errorf("after %s: acknowledging %d again = %v, want ErrDuplicate", st.what, st.want, err)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// A device's events after its first leave device_seqs alone: their
// numbers are in the events, and a row of device_seqs rewritten for every
// press was a page of its own in the log for every press.
func TestDeviceEventsAfterTheFirstLeaveDeviceSeqsAlone(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := MustOpen(t)
	mustBoards(t, s, 1)
	for seq := uint64(1); seq <= 4; seq++ {
		mustWrite(t, s, func(tx *Tx) error {
			return tx.AppendEvent(&EventRecord{BoardID: "b1", BoardSeq: seq, Event: press(rules.White, int64(seq)), DeviceID: "clk-1", DeviceSeq: seq})
		})
	}
	db, err := s.reader()
	if err != nil {
		t.Fatal(err)
	}
	var rows, acked uint64
	if err := db.QueryRowContext(ctx, `SELECT COUNT(*), COALESCE(MAX(acked_seq), 0) FROM device_seqs WHERE device_id = 'clk-1'`).Scan(&rows, &acked); err != nil {
		t.Fatal(err)
	}
	if rows != 1 || acked != 1 {
		t.Errorf("device_seqs holds %d rows for clk-1, at %d; want its row from its first event (1), not rewritten by the three after", rows, acked)
	}
	if got, err := s.DeviceAcked(ctx, "clk-1"); got != 4 || err != nil {
		t.Errorf("DeviceAcked = %d, %v; want 4", got, err)
	}
}
