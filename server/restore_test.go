package server_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chesshall/hallclock/clockdev"
	"github.com/chesshall/hallclock/internal/testkit/halltest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
)

// presses makes n presses on d, alternating sides from White, and waits
// until they are acknowledged.
func presses(t *testing.T, d *clockdev.Device, n int) {
	t.Helper()
	for i := range n {
		side := rules.White
		if i%2 == 1 {
			side = rules.Black
		}
		if err := d.Press(side, "", ""); err != nil {
			t.Fatal(err)
		}
		time.Sleep(2 * time.Millisecond)
	}
	halltest.Synced(t, d)
}

// After a restore from an older backup, the hall asks each clock for what
// it lacks and the clocks resend what they hold: the board's log ends up
// whole (each event once, as the clock recorded it), instead of the clock
// being refused with OUT_OF_RANGE for ever.
func TestRestoreFromAnOlderBackupLosesNothingTheClocksHold(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t)
	b := h.Round(t, "180+2", 1)[0]
	d := h.Device(t, b.GetDeviceId())
	arb, ctx := h.Arbiter(t)
	if _, err := arb.StartRound(ctx, &pb.StartRoundRequest{RoundId: b.GetRoundId()}); err != nil {
		t.Fatal(err)
	}
	presses(t, d, 4)
	backup := filepath.Join(t.TempDir(), "backup.db")
	sum, err := h.Store.Backup(context.Background(), backup)
	if err != nil {
		t.Fatal(err)
	}
	presses(t, d, 6) // after the backup: only the clock will hold these
	before := boardLog(t, h.Store, b.GetBoardId())
	if len(before) != 11 || sum.Events != 5 {
		t.Fatalf("%d events live, %d in the backup; want 11 and 5", len(before), sum.Events)
	}

	h.RestoreFrom(t, backup)
	if n := len(boardLog(t, h.Store, b.GetBoardId())); n != 5 {
		t.Fatalf("the restored hall has %d events, want the backup's 5", n)
	}
	halltest.Eventually(t, 10*time.Second, func() error {
		if n := len(boardLog(t, h.Store, b.GetBoardId())); n != 11 {
			return fmt.Errorf("the restored hall has %d events of the board, want 11 (clock: %+v)", n, d.Status())
		}
		return nil
	})
	halltest.Synced(t, d)
	after := boardLog(t, h.Store, b.GetBoardId())
	for i := range before {
		if after[i].Event.Kind != before[i].Event.Kind || after[i].Event.T != before[i].Event.T || after[i].DeviceSeq != before[i].DeviceSeq {
			t.Errorf("event %d after the restore: %s at %d (device seq %d); before it: %s at %d (device seq %d)", i+1,
				after[i].Event.Kind, after[i].Event.T, after[i].DeviceSeq, before[i].Event.Kind, before[i].Event.T, before[i].DeviceSeq)
		}
	}
	checkHistoryMatchesLog(t, d.History(), after)
	// And play goes on.
	presses(t, d, 1)
	if n := len(boardLog(t, h.Store, b.GetBoardId())); n != 12 {
		t.Errorf("after a press: %d events, want 12", n)
	}
}

// A clock that moved to another board after the backup no longer holds
// the first board's events: those are recorded as lost (audited), and the
// clock's numbering goes on, with what it holds of its new board stored.
func TestRestoreSkipsWhatNoClockHolds(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t)
	bs := h.Round(t, "180+2", 2)
	b1, b2 := bs[0], bs[1]
	d := h.Device(t, b1.GetDeviceId())
	arb, ctx := h.Arbiter(t)
	if _, err := arb.BoardAction(ctx, &pb.BoardActionRequest{BoardId: b1.GetBoardId(), Action: &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_START}, WaitMs: 5000}); err != nil {
		t.Fatal(err)
	}
	presses(t, d, 2)
	backup := filepath.Join(t.TempDir(), "backup.db")
	if _, err := h.Store.Backup(context.Background(), backup); err != nil {
		t.Fatal(err)
	}
	presses(t, d, 2) // board 1, after the backup
	// The clock moves to board 2 (its own clock dead), and plays there.
	if _, err := arb.AssignDevice(ctx, &pb.AssignDeviceRequest{BoardId: b2.GetBoardId(), DeviceId: b1.GetDeviceId(), Replace: true}); err != nil {
		t.Fatal(err)
	}
	halltest.Eventually(t, 5*time.Second, func() error {
		if d.Status().BoardID != b2.GetBoardId() {
			return fmt.Errorf("clock on %q", d.Status().BoardID)
		}
		return nil
	})
	if _, err := arb.BoardAction(ctx, &pb.BoardActionRequest{BoardId: b2.GetBoardId(), Action: &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_START}, WaitMs: 5000}); err != nil {
		t.Fatal(err)
	}
	presses(t, d, 3)
	live2 := len(boardLog(t, h.Store, b2.GetBoardId()))

	h.RestoreFrom(t, backup)
	// The restored hall has board 1 with its clock (as of the backup);
	// the clock, reassigned there, plays board 1 again: what matters is
	// that it is not refused for ever, and the loss is on record.
	halltest.Eventually(t, 10*time.Second, func() error {
		if st := d.Status(); !st.Connected || st.Outbox > 0 {
			return fmt.Errorf("clock: %+v", st)
		}
		return nil
	})
	if strings.Contains(d.Status().LastError, "OutOfRange") {
		t.Errorf("the clock's last error: %s", d.Status().LastError)
	}
	log, err := arb.AuditLog(ctx, &pb.AuditLogRequest{BoardId: b1.GetBoardId()})
	if err != nil {
		t.Fatal(err)
	}
	lost := false
	for _, e := range log.GetEntries() {
		if strings.Contains(e.GetOutcome(), "restored from an older backup") {
			lost = true
		}
	}
	if !lost {
		t.Errorf("no audit entry records the events lost in the restore (board 2 had %d events live)", live2)
	}
}

// A clock that lost the stream before the Ack of a refused event learns
// of the refusal in the next Welcome (otherwise it would count the event
// acknowledged and applied: "acknowledged" would not mean "stored").
func TestWelcomeNamesRefusalsTheClockMissed(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t)
	b := h.Round(t, "180+2", 1)[0]
	dev := b.GetDeviceId()
	l, _, _ := connectRaw(t, h, dev, 0, 1)
	l.event(1, "b-nosuchboard", startAction(0), 180_000, 180_000) // refused
	clk := newRawClock(t, b)
	l.ack()
	sendApplied(t, l, clk, 2, b.GetBoardId(), startAction(0)) // applied
	l.cancel()
	<-l.done

	l2 := openRawLink(t, h, dev)
	l2.hello(dev, 0, 3) // it saw no Ack of 1 or 2
	w := l2.welcome()
	if w.GetAckedSeq() != 2 || len(w.GetRejected()) != 1 || w.GetRejected()[0].GetSeq() != 1 {
		t.Errorf("Welcome = %v; want acked 2 with the rejection of 1 (and not of 2)", w)
	}
}
