package storage

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chesshall/hallclock/rules"
)

// durabilityChildEnv switches the test binary into the writing child of
// TestDurabilityKill; its value is the database path.
const durabilityChildEnv = "HALLCLOCK_STORAGE_DURABILITY_CHILD"

const durabilityBoards = 8

// TestDurabilityKill: a process writes events and reports each one as soon
// as its Write returns (the moment a server acknowledges it to the
// device); it is killed with SIGKILL in the middle of its work; every
// event it acknowledged is in the database when it is opened again, and
// the log is intact (no board_seq or device sequence holes; replay works).
//
// SIGKILL loses what the process holds, not what the kernel holds: the
// test shows that acknowledgement comes after COMMIT, not that the disk
// keeps its promises on power loss (that is what synchronous=FULL asks of
// it).
func TestDurabilityKill(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts a child process")
	}
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "hall.db")
	s, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	boards := mustBoards(t, s, durabilityBoards)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	cmd := exec.Command(os.Args[0], "-test.run=^TestDurabilityChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), durabilityChildEnv+"="+path)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// acked[board] = the seqs of the events the child acknowledged, by board_seq
	type ack struct{ seq, boardSeq uint64 }
	var acks []ack
	const want = 400
	sc := bufio.NewScanner(out)
	for len(acks) < want && sc.Scan() {
		var a ack
		var board string
		if n, _ := fmt.Sscanf(sc.Text(), "ack %d %s %d", &a.seq, &board, &a.boardSeq); n != 3 {
			continue // the test framework's own output
		}
		acks = append(acks, a)
	}
	if err := cmd.Process.Kill(); err != nil { // SIGKILL: no deferred Close, no flush
		t.Fatal(err)
	}
	_ = cmd.Wait()
	if len(acks) < want {
		t.Fatalf("the child acknowledged only %d events before it stopped; stderr:\n%s", len(acks), stderr.String())
	}

	s2 := mustOpenAt(t, path, Options{})
	all, err := s2.EventsSince(ctx, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	stored := map[uint64]uint64{} // seq → board_seq
	for _, e := range all {
		stored[e.Seq] = e.BoardSeq
	}
	for _, a := range acks {
		if bs, ok := stored[a.seq]; !ok || bs != a.boardSeq {
			t.Errorf("acknowledged event seq %d (board_seq %d) is missing after the kill", a.seq, a.boardSeq)
		}
	}
	t.Logf("%d events acknowledged before the kill, %d stored", len(acks), len(all))
	for _, b := range boards {
		evs, err := s2.Events(ctx, b, 0)
		if err != nil {
			t.Fatal(err)
		}
		for i, e := range evs {
			if e.BoardSeq != uint64(i+1) || e.DeviceSeq != uint64(i+1) {
				t.Fatalf("board %s: event %d has board_seq %d, device sequence %d", b, i+1, e.BoardSeq, e.DeviceSeq)
			}
		}
		if acked, _ := s2.DeviceAcked(ctx, "clk-"+b); acked != uint64(len(evs)) {
			t.Errorf("device clk-%s: acked %d, but %d events stored", b, acked, len(evs))
		}
		if _, n, err := s2.Replay(ctx, b); err != nil || n != uint64(len(evs)) {
			t.Errorf("Replay(%s) = %d, %v; want %d events", b, n, err, len(evs))
		}
	}
	// The store goes on where it stopped.
	mustWrite(t, s2, func(tx *Tx) error {
		last, err := tx.LastBoardSeq(boards[0])
		if err != nil {
			return err
		}
		return tx.AppendEvent(&EventRecord{BoardID: boards[0], BoardSeq: last + 1, Event: rules.Event{Kind: rules.KindPause, T: 1 << 40}})
	})
}

// TestDurabilityChild is the child process of TestDurabilityKill: one
// goroutine per board appends presses as a device would and prints
// "ack <seq> <board> <board_seq>" the moment each Write returns, until it
// is killed.
func TestDurabilityChild(t *testing.T) {
	path := os.Getenv(durabilityChildEnv)
	if path == "" {
		t.Skip("the child of TestDurabilityKill")
	}
	ctx := context.Background()
	s, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	boards, err := s.Boards(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex                       // one line at a time on stdout
	deadline := time.Now().Add(time.Minute) // killed long before, unless the parent died
	var wg sync.WaitGroup
	for _, b := range boards {
		wg.Go(func() {
			device := "clk-" + b.ID
			for n := uint64(1); time.Now().Before(deadline); n++ {
				e := rules.Event{Kind: rules.KindPress, Side: rules.Side(n % 2), T: int64(n) * 1000}
				if n == 1 {
					e = rules.Event{Kind: rules.KindStart}
				}
				r := EventRecord{BoardID: b.ID, BoardSeq: n, Event: e, DeviceID: device, DeviceSeq: n, Actor: device}
				if err := s.Write(ctx, func(tx *Tx) error { return tx.AppendEvent(&r) }); err != nil {
					fmt.Fprintln(os.Stderr, "write:", err)
					os.Exit(1)
				}
				mu.Lock()
				fmt.Fprintf(os.Stdout, "ack %d %s %d\n", r.Seq, b.ID, r.BoardSeq)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	s.Close()
}
