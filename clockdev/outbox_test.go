package clockdev

import (
	"bytes"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/chesshall/hallclock/internal/mono"
	hallv1 "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
	"google.golang.org/protobuf/proto"
)

func pressEvent(seq uint64, t int64, side hallv1.Side) *hallv1.DeviceEvent {
	return &hallv1.DeviceEvent{Seq: seq, BoardId: "B1", Action: action(kPress, t, side), WhiteMs: 1000 * int64(seq), BlackMs: 7}
}

func openOutbox(t *testing.T, path string) Outbox {
	t.Helper()
	ob, err := OpenFileOutbox(path)
	if err != nil {
		t.Fatalf("OpenFileOutbox: %v", err)
	}
	return ob
}

// outboxContent is what must survive a reopen.
type outboxContent struct {
	next, acked uint64
	pending     []*hallv1.DeviceEvent
	board       *hallv1.Assignment
	held        []*hallv1.Assignment
}

func contentOf(ob Outbox) outboxContent {
	return outboxContent{ob.NextSeq(), ob.AckedSeq(), ob.Pending(), ob.Board(), ob.Held()}
}

func sameContent(t *testing.T, what string, got, want outboxContent) {
	t.Helper()
	if got.next != want.next || got.acked != want.acked {
		t.Errorf("%s: next %d acked %d, want %d and %d", what, got.next, got.acked, want.next, want.acked)
	}
	if len(got.pending) != len(want.pending) {
		t.Fatalf("%s: pending %v, want %v", what, seqs(got.pending), seqs(want.pending))
	}
	for i := range got.pending {
		if !proto.Equal(got.pending[i], want.pending[i]) {
			t.Errorf("%s: pending[%d] = %v, want %v", what, i, got.pending[i], want.pending[i])
		}
	}
	if !proto.Equal(got.board, want.board) {
		t.Errorf("%s: board = %v, want %v", what, got.board, want.board)
	}
	if len(got.held) != len(want.held) {
		t.Fatalf("%s: holds %d boards, want %d", what, len(got.held), len(want.held))
	}
	for i := range got.held {
		if !proto.Equal(got.held[i], want.held[i]) {
			t.Errorf("%s: held[%d] = %v, want %v", what, i, got.held[i], want.held[i])
		}
	}
}

func TestOutboxes(t *testing.T) {
	for _, tc := range []struct {
		name string
		open func(t *testing.T) Outbox
	}{
		{"memory", func(*testing.T) Outbox { return NewMemoryOutbox() }},
		{"file", func(t *testing.T) Outbox { return openOutbox(t, filepath.Join(t.TempDir(), "outbox.jsonl")) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ob := tc.open(t)
			defer ob.Close()
			if ob.NextSeq() != 1 || ob.AckedSeq() != 0 || len(ob.Pending()) != 0 || ob.Board() != nil {
				t.Fatalf("new outbox = %+v", contentOf(ob))
			}
			if err := ob.SaveBoard(testAssignment("B1", "300", action(kStart, 0, white))); err != nil {
				t.Fatal(err)
			}
			if err := ob.Append(pressEvent(2, 10, white), true); err == nil {
				t.Error("Append of seq 2 into an empty outbox succeeded, want an error")
			}
			for i := uint64(1); i <= 3; i++ {
				if err := ob.Append(pressEvent(i, int64(i), white), i != 2); err != nil {
					t.Fatal(err)
				}
			}
			other := pressEvent(4, 9, black)
			other.BoardId = "B9"
			if err := ob.Append(other, true); err != nil {
				t.Fatal(err)
			}
			// Actions applied on B1 extend its history; the refused one and B9's do not.
			if h := ob.Board().GetHistory(); len(h) != 3 || h[1].GetTMs() != 1 || h[2].GetTMs() != 3 {
				t.Errorf("history = %v, want start, press@1, press@3", h)
			}
			if err := ob.Ack(2); err != nil {
				t.Fatal(err)
			}
			if got := seqs(ob.Pending()); !slices.Equal(got, []uint64{3, 4}) {
				t.Errorf("pending after Ack(2) = %v, want [3 4]", got)
			}
			// The copies the device takes without copying everything.
			if n := pendingCount(ob); n != 2 {
				t.Errorf("pendingCount after Ack(2) = %d, want 2", n)
			}
			for _, r := range []struct {
				after, upTo uint64
				want        []uint64
			}{{0, 3, []uint64{3}}, {3, math.MaxUint64, []uint64{4}}, {0, math.MaxUint64, []uint64{3, 4}}, {4, 9, nil}} {
				if got := seqs(pendingRange(ob, r.after, r.upTo)); !slices.Equal(got, r.want) {
					t.Errorf("pendingRange(%d, %d) = %v, want %v", r.after, r.upTo, got, r.want)
				}
			}
			if err := ob.Ack(1); err != nil || ob.AckedSeq() != 2 {
				t.Errorf("Ack(1) after Ack(2): err %v, acked %d; want acked to stay 2", err, ob.AckedSeq())
			}
			if err := ob.Renumber(42); err != nil {
				t.Fatal(err)
			}
			if got := seqs(ob.Pending()); !slices.Equal(got, []uint64{42, 43}) || ob.NextSeq() != 44 {
				t.Errorf("after Renumber(42): pending %v next %d, want [42 43] and 44", got, ob.NextSeq())
			}
			if err := ob.SaveBoard(nil); err != nil || ob.Board() != nil {
				t.Errorf("SaveBoard(nil): err %v, board %v", err, ob.Board())
			}
		})
	}
}

func TestFileOutboxSurvivesReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "outbox.jsonl")
	ob := openOutbox(t, path)
	ob.SaveBoard(testAssignment("B1", "300", action(kStart, 0, white)))
	for i := uint64(1); i <= 3; i++ {
		if err := ob.Append(pressEvent(i, int64(100*i), white), true); err != nil {
			t.Fatal(err)
		}
	}
	ob.Ack(1)
	want := contentOf(ob)
	ob.Close()
	if err := ob.Append(pressEvent(4, 400, white), true); err == nil {
		t.Error("Append after Close succeeded")
	}

	ob = openOutbox(t, path) // the reboot
	sameContent(t, "reopened", contentOf(ob), want)
	if err := ob.Append(pressEvent(4, 400, black), true); err != nil {
		t.Fatalf("Append after reopen: %v", err)
	}
	want = contentOf(ob)
	ob.Close()

	// A power failure in the middle of a write leaves a torn last line.
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"op":"event","event":{"seq":"5","boardId":"B1","act`)
	f.Close()
	ob = openOutbox(t, path)
	sameContent(t, "after a torn write", contentOf(ob), want)
	if err := ob.Append(pressEvent(5, 500, white), true); err != nil {
		t.Fatal(err)
	}
	want = contentOf(ob)
	ob.Close()
	ob = openOutbox(t, path)
	sameContent(t, "after the repair", contentOf(ob), want)
	ob.Close()

	// Damage before the last line is an error, not silently lost events.
	data, _ := os.ReadFile(path)
	lines := bytes.SplitAfter(data, []byte("\n"))
	lines[1] = []byte("garbage\n")
	os.WriteFile(path, bytes.Join(lines, nil), 0o600)
	if _, err := OpenFileOutbox(path); err == nil {
		t.Error("OpenFileOutbox of a damaged journal succeeded, want an error")
	}
}

func TestFileOutboxCompacts(t *testing.T) {
	path := filepath.Join(t.TempDir(), "outbox.jsonl")
	ob := openOutbox(t, path)
	setCompactAfter(ob, 16)
	setRetained(ob, 8)
	ob.SaveBoard(testAssignment("B1", "300", action(kStart, 0, white)))
	for i := uint64(1); i <= 60; i++ {
		if err := ob.Append(pressEvent(i, int64(i), white), true); err != nil {
			t.Fatal(err)
		}
		if i%3 == 0 {
			ob.Ack(i - 1)
		}
	}
	// The journal is compacted once it is well past what it holds: the
	// pending events and the last acknowledged ones (for Resend).
	data, _ := os.ReadFile(path)
	if n := bytes.Count(data, []byte("\n")); n > 40 {
		t.Errorf("journal has %d lines after 81 operations, holding 10 events: want it compacted", n)
	}
	want := contentOf(ob)
	ob.Close()
	ob = openOutbox(t, path)
	setCompactAfter(ob, 16)
	setRetained(ob, 8)
	sameContent(t, "reopened", contentOf(ob), want)
	if n := len(ob.Board().GetHistory()); n != 61 {
		t.Errorf("history has %d actions, want 61", n)
	}
	// A new board: the one left is kept as a record while its events are.
	ob.SaveBoard(testAssignment("B2", "300", action(kStart, 0, white)))
	for i := uint64(61); i <= 100; i++ {
		ev := pressEvent(i, int64(i), white)
		ev.BoardId = "B2"
		ob.Append(ev, true)
	}
	if held := ob.Held(); len(held) != 2 || held[0].GetBoardId() != "B2" || held[1].GetBoardId() != "B1" || held[1].GetHistory() != nil {
		t.Errorf("held %v, want B2 then B1 (no history)", held)
	}
	want = contentOf(ob)
	ob.Close()
	ob = openOutbox(t, path)
	sameContent(t, "with a board left", contentOf(ob), want)
	setCompactAfter(ob, 16)
	setRetained(ob, 8)
	ob.Ack(100) // B1's events are no longer among the last eight kept
	if held := ob.Held(); len(held) != 1 || held[0].GetBoardId() != "B2" {
		t.Errorf("held %v once B1's events are gone, want B2 alone", held)
	}
	ob.Close()
}

// The last acknowledged events are kept, of whichever board: Resend makes
// them pending again (a hall restored from an older backup), across a
// compaction, a reboot and a change of board.
func TestOutboxResendsWhatItHolds(t *testing.T) {
	for _, kind := range []string{"memory", "file"} {
		t.Run(kind, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "outbox.jsonl")
			open := func() Outbox {
				if kind == "memory" {
					return NewMemoryOutbox()
				}
				ob := openOutbox(t, path)
				setCompactAfter(ob, 8)
				return ob
			}
			ob := open()
			ob.SaveBoard(testAssignment("B1", "300", action(kStart, 0, white)))
			for i := uint64(1); i <= 30; i++ {
				if err := ob.Append(pressEvent(i, int64(i), white), true); err != nil {
					t.Fatal(err)
				}
				if err := ob.Ack(i); err != nil { // an ack a line: compactions
					t.Fatal(err)
				}
			}
			ob.Append(pressEvent(31, 31, white), true)
			if kind == "file" {
				ob.Close()
				ob = open()
			}
			n, err := ob.Resend(26)
			if err != nil || n != 5 {
				t.Fatalf("Resend(26) = %d, %v; want 5 events back", n, err)
			}
			if got := seqs(ob.Pending()); !slices.Equal(got, []uint64{26, 27, 28, 29, 30, 31}) || ob.AckedSeq() != 30 || ob.NextSeq() != 32 {
				t.Fatalf("after Resend: pending %v, acked %d, next %d; want 26..31, 30, 32", got, ob.AckedSeq(), ob.NextSeq())
			}
			if kind == "file" {
				ob.Close()
				ob = open()
				if got := seqs(ob.Pending()); !slices.Equal(got, []uint64{26, 27, 28, 29, 30, 31}) {
					t.Fatalf("after a reboot: pending %v, want 26..31", got)
				}
			}
			ob.Ack(31)
			if n, _ := ob.Resend(1); n != 31 {
				t.Errorf("Resend(1) after all was acknowledged again = %d, want all 31", n)
			}
			ob.Ack(31)
			// The next round: the clock keeps B1's past (its game may have
			// ended after the hall's backup) with B2's.
			ob.SaveBoard(testAssignment("B2", "300", action(kStart, 0, white)))
			ev := pressEvent(32, 1, white)
			ev.BoardId = "B2"
			ob.Append(ev, true)
			ob.Ack(32)
			if kind == "file" {
				ob.Close()
				ob = open()
			}
			if held := ob.Held(); len(held) != 2 || held[0].GetBoardId() != "B2" || held[1].GetBoardId() != "B1" {
				t.Errorf("held %v, want B2 and B1", held)
			}
			if n, _ := ob.Resend(29); n != 4 {
				t.Errorf("Resend(29) after the board changed = %d, want 4 (B1's 29..31, B2's 32)", n)
			}
			if p := ob.Pending(); len(p) != 4 || p[0].GetBoardId() != "B1" || p[3].GetBoardId() != "B2" {
				t.Errorf("pending after the resend %v, want B1's three then B2's", p)
			}
			ob.Close()
		})
	}
}

func TestDeviceRecoversAfterReboot(t *testing.T) {
	path := filepath.Join(t.TempDir(), "outbox.jsonl")
	h := newFakeHall(t)
	boot := func(clk mono.Clock) *Device {
		ob := openOutbox(t, path)
		d, err := New(Config{DeviceID: "CLK-1", Token: testToken, Conn: h.dial(t), Clock: clk, Outbox: ob,
			Logger: slog.New(slog.DiscardHandler)})
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	clk := mono.NewFake(time.Unix(0, 0))
	d := boot(clk)
	// Never connected: the assignment came before, now it is all local.
	d.mu.Lock()
	d.assignLocked(testAssignment("B1", "300"), false)
	d.mu.Unlock()
	d.Do(rules.Event{Kind: rules.KindStart})
	clk.Advance(10 * time.Second)
	if err := d.Press(rules.White, "e4", ""); err != nil {
		t.Fatal(err)
	}
	clk.Advance(5 * time.Second)
	cmd := &hallv1.Command{CommandId: "c7", Action: &hallv1.ClockAction{Kind: hallv1.ActionKind_ACTION_KIND_ADD_TIME, Side: black, Ms: 30_000}}
	d.mu.Lock()
	d.commandLocked(cmd)
	d.mu.Unlock()
	want, wantHist, wantPending := d.State(), d.History(), d.outbox.Pending()
	d.Close()

	d = boot(mono.NewFake(time.Unix(1000, 0))) // the reboot: another oscillator
	defer d.Close()
	if got := d.BoardNow(); got != 15_000 {
		t.Errorf("BoardNow after reboot = %d, want 15000 (the last recorded instant)", got)
	}
	got := d.State()
	if got.Status != rules.Running || got.ToMove != rules.Black || got.P[rules.White].MainMs != want.P[rules.White].MainMs ||
		got.P[rules.Black].MainMs != want.P[rules.Black].MainMs || got.P[rules.White].Moves != 1 {
		t.Errorf("recovered state %v, %v to move, white %d black %d; want %v, %v, %d, %d", got.Status, got.ToMove,
			got.P[rules.White].MainMs, got.P[rules.Black].MainMs, want.Status, want.ToMove, want.P[rules.White].MainMs, want.P[rules.Black].MainMs)
	}
	if h := d.History(); len(h) != len(wantHist) {
		t.Errorf("recovered history %v, want %v", h, wantHist)
	}
	if s := d.Status(); s.NextSeq != 4 || s.Outbox != 3 || s.BoardID != "B1" {
		t.Errorf("recovered Status %+v, want next 4, 3 pending, on B1", s)
	}
	sameContent(t, "recovered outbox", outboxContent{4, 0, d.outbox.Pending(), nil, nil}, outboxContent{4, 0, wantPending, nil, nil})
	// The command survives the reboot as handled: delivered again, it is ignored.
	d.mu.Lock()
	d.commandLocked(cmd)
	d.mu.Unlock()
	if s := d.Status(); s.NextSeq != 4 {
		t.Errorf("a repeated command after the reboot was applied again (next seq %d)", s.NextSeq)
	}
}

// setCompactAfter makes a file outbox compact its journal after n lines
// (at least) instead of defaultCompactAfter.
func setCompactAfter(ob Outbox, n int) {
	ob.(*lockedOutbox).j.(*fileJournal).compact = n
}

// setRetained makes an outbox keep the last n acknowledged events instead
// of RetainedEvents.
func setRetained(ob Outbox, n int) {
	o := ob.(*lockedOutbox)
	o.mu.Lock()
	o.l.keep = n
	o.mu.Unlock()
}
