package server_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/chesshall/hallclock/clockdev"
	"github.com/chesshall/hallclock/internal/mono"
	"github.com/chesshall/hallclock/internal/testkit/halltest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
	"github.com/chesshall/hallclock/server"
	"github.com/chesshall/hallclock/storage"
)

// presses makes n presses on d, each by the side to move, and waits
// until they are acknowledged.
func presses(t *testing.T, d *clockdev.Device, n int) {
	t.Helper()
	for range n {
		if err := d.Press(d.State().ToMove, "", ""); err != nil {
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

// A clock that moved to another board after the backup: the restored hall
// follows it (it keeps the board it moved to, and is not handed the one it
// left), and what it recorded on each board goes back to that board.
func TestRestoreFollowsAClockThatChangedBoards(t *testing.T) {
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
	live1, live2 := boardLog(t, h.Store, b1.GetBoardId()), boardLog(t, h.Store, b2.GetBoardId())

	h.RestoreFrom(t, backup)
	halltest.Eventually(t, 10*time.Second, func() error {
		if n1, n2 := len(boardLog(t, h.Store, b1.GetBoardId())), len(boardLog(t, h.Store, b2.GetBoardId())); n1 != len(live1) || n2 != len(live2) {
			return fmt.Errorf("the restored hall has %d and %d events of boards 1 and 2, want %d and %d (clock: %+v)", n1, n2, len(live1), len(live2), d.Status())
		}
		return nil
	})
	halltest.Synced(t, d)
	sameLog(t, "board 1", boardLog(t, h.Store, b1.GetBoardId()), live1)
	sameLog(t, "board 2", boardLog(t, h.Store, b2.GetBoardId()), live2)
	if st := d.Status(); st.BoardID != b2.GetBoardId() || st.Rejected != 0 {
		t.Errorf("the clock after the restore: %+v; want it on board 2, nothing refused", st)
	}
	checkHistoryMatchesLog(t, d.History(), boardLog(t, h.Store, b2.GetBoardId()))
	if got := fetchBoard(t, h, b1.GetBoardId()).GetDeviceId(); got != "" {
		t.Errorf("board 1 has device %q after the restore, want none (its clock moved on)", got)
	}
	if !auditTells(t, h, b1.GetBoardId(), "left this board after the backup") {
		t.Error("board 1's audit log does not say its clock left it after the backup")
	}
	// And play goes on, on board 2.
	presses(t, d, 1)
	if n := len(boardLog(t, h.Store, b2.GetBoardId())); n != len(live2)+1 {
		t.Errorf("after a press: board 2 has %d events, want %d", n, len(live2)+1)
	}
}

// forgetfulOutbox is a clock's outbox that keeps no acknowledged event
// (as an older clock, or one whose events were acknowledged long ago).
type forgetfulOutbox struct{ clockdev.Outbox }

func (forgetfulOutbox) Resend(uint64) (int, error) { return 0, nil }

// What no clock holds any more is on record as lost, and the clock's
// numbering goes on after it.
func TestRestoreAuditsWhatNoClockHolds(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t)
	b := h.Round(t, "180+2", 1)[0]
	d := h.Device(t, b.GetDeviceId(), clockdev.Config{Outbox: forgetfulOutbox{clockdev.NewMemoryOutbox()}})
	arb, ctx := h.Arbiter(t)
	if _, err := arb.StartRound(ctx, &pb.StartRoundRequest{RoundId: b.GetRoundId()}); err != nil {
		t.Fatal(err)
	}
	presses(t, d, 2)
	backup := filepath.Join(t.TempDir(), "backup.db")
	if _, err := h.Store.Backup(context.Background(), backup); err != nil {
		t.Fatal(err)
	}
	presses(t, d, 3)
	h.RestoreFrom(t, backup)
	halltest.Eventually(t, 10*time.Second, func() error {
		if st := d.Status(); !st.Connected {
			return fmt.Errorf("clock: %+v", st)
		}
		return nil
	})
	if !auditTells(t, h, b.GetBoardId(), "resends those it holds") {
		t.Error("no audit entry says, from the clock's return, which of its events the restore lost")
	}
	presses(t, d, 1) // numbered after the three lost: they are skipped, on record

	if strings.Contains(d.Status().LastError, "OutOfRange") {
		t.Errorf("the clock's last error: %s", d.Status().LastError)
	}
	if !auditTells(t, h, b.GetBoardId(), "restored from an older backup, and the device no longer holds them") {
		t.Error("no audit entry records the events lost in the restore")
	}
}

// sameLog checks that a board's log after a restore holds the events it
// held before, one to one: the same action at the same instant, from the
// same clock's same event.
func sameLog(t *testing.T, what string, got, want []storage.EventRecord) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: %d events after the restore, %d before", what, len(got), len(want))
		return
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.Event.Kind != w.Event.Kind || g.Event.T != w.Event.T || g.Event.Side != w.Event.Side || g.DeviceID != w.DeviceID || g.DeviceSeq != w.DeviceSeq {
			t.Errorf("%s: event %d after the restore: %s %v at %d (%s seq %d); before it: %s %v at %d (%s seq %d)", what, i+1,
				g.Event.Kind, g.Event.Side, g.Event.T, g.DeviceID, g.DeviceSeq, w.Event.Kind, w.Event.Side, w.Event.T, w.DeviceID, w.DeviceSeq)
		}
	}
}

// auditTells reports whether an entry of board's audit log ("": the
// hall's) says what in its what or outcome.
func auditTells(t *testing.T, h *halltest.Hall, board, what string) bool {
	t.Helper()
	as, err := h.Store.Audit(context.Background(), board, 0, 10_000)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range as {
		if strings.Contains(a.What, what) || strings.Contains(a.Outcome, what) {
			return true
		}
	}
	return false
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

// A restore across a round change: the backup was taken in round 1, the
// hall restored after round 2 began. Round 1's games end as they ended
// (their ends come back from the clocks, never a flag fall of a clock run
// on), round 2 is rebuilt from the clocks' records with its boards, ids and
// events, the clocks keep their round-2 boards, and play goes on.
func TestRestoreAcrossARoundChange(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t)
	r1 := h.Round(t, "180+2", 2)
	d1, d2 := h.Device(t, r1[0].GetDeviceId()), h.Device(t, r1[1].GetDeviceId())
	arb, ctx := h.Arbiter(t)
	if _, err := arb.StartRound(ctx, &pb.StartRoundRequest{RoundId: r1[0].GetRoundId()}); err != nil {
		t.Fatal(err)
	}
	halltest.Eventually(t, 5*time.Second, func() error {
		if d1.State().Status != rules.Running || d2.State().Status != rules.Running {
			return fmt.Errorf("round 1 not started on the clocks")
		}
		return nil
	})
	presses(t, d1, 2)
	presses(t, d2, 2)
	backup := filepath.Join(t.TempDir(), "backup.db")
	if _, err := h.Store.Backup(context.Background(), backup); err != nil {
		t.Fatal(err)
	}
	// Round 1 ends after the backup, by results the clocks record.
	presses(t, d1, 3)
	presses(t, d2, 2)
	if err := d1.Do(rules.Event{Kind: rules.KindResult, Result: "1-0", Termination: "normal"}); err != nil {
		t.Fatal(err)
	}
	if err := d2.Do(rules.Event{Kind: rules.KindResult, Result: "1/2-1/2", Termination: "agreement"}); err != nil {
		t.Fatal(err)
	}
	halltest.Synced(t, d1)
	halltest.Synced(t, d2)
	// Round 2, its clocks at other boards, starts and plays.
	rd, err := arb.GetRound(ctx, &pb.GetRoundRequest{RoundId: r1[0].GetRoundId()})
	if err != nil {
		t.Fatal(err)
	}
	round2, err := arb.CreateRound(ctx, &pb.CreateRoundRequest{TournamentId: rd.GetTournamentId(), Number: 2})
	if err != nil {
		t.Fatal(err)
	}
	var r2 []*pb.Board
	for i, dev := range []string{"CLK-002", "CLK-001"} {
		b, err := arb.AddBoard(ctx, &pb.AddBoardRequest{RoundId: round2.GetRoundId(), Number: int32(i + 1), Section: "Open",
			White: &pb.Player{Name: fmt.Sprintf("Round 2 White %d", i+1), StartRank: int32(i + 1)},
			Black: &pb.Player{Name: fmt.Sprintf("Round 2 Black %d", i+1), StartRank: int32(i + 3), Federation: "NOR"}, DeviceId: dev})
		if err != nil {
			t.Fatal(err)
		}
		r2 = append(r2, b)
	}
	halltest.Eventually(t, 5*time.Second, func() error {
		if d1.Status().BoardID != r2[1].GetBoardId() || d2.Status().BoardID != r2[0].GetBoardId() {
			return fmt.Errorf("the clocks are on %s and %s", d1.Status().BoardID, d2.Status().BoardID)
		}
		return nil
	})
	if _, err := arb.StartRound(ctx, &pb.StartRoundRequest{RoundId: round2.GetRoundId()}); err != nil {
		t.Fatal(err)
	}
	halltest.Eventually(t, 5*time.Second, func() error {
		if d1.State().Status != rules.Running || d2.State().Status != rules.Running {
			return fmt.Errorf("round 2 not started on the clocks")
		}
		return nil
	})
	presses(t, d1, 3)
	presses(t, d2, 2)
	boards := []string{r1[0].GetBoardId(), r1[1].GetBoardId(), r2[0].GetBoardId(), r2[1].GetBoardId()}
	live := map[string][]storage.EventRecord{}
	results := map[string]string{}
	for _, id := range boards {
		live[id] = boardLog(t, h.Store, id)
		st := fetchBoard(t, h, id).GetState()
		results[id] = st.GetResult() + " " + st.GetTermination()
	}

	h.RestoreFrom(t, backup)
	halltest.Eventually(t, 10*time.Second, func() error {
		for _, id := range boards {
			if n := len(boardLog(t, h.Store, id)); n != len(live[id]) {
				return fmt.Errorf("board %s has %d events after the restore, %d before (clocks: %+v, %+v)", id, n, len(live[id]), d1.Status(), d2.Status())
			}
		}
		return nil
	})
	halltest.Synced(t, d1)
	halltest.Synced(t, d2)
	for _, id := range boards {
		sameLog(t, "board "+id, boardLog(t, h.Store, id), live[id])
		st := fetchBoard(t, h, id).GetState()
		if got := st.GetResult() + " " + st.GetTermination(); got != results[id] {
			t.Errorf("board %s: %q after the restore, %q before", id, got, results[id])
		}
	}
	for i, d := range []*clockdev.Device{d1, d2} {
		if st := d.Status(); st.Rejected != 0 || st.BoardID != r2[1-i].GetBoardId() {
			t.Errorf("clock %d after the restore: %+v; want it on its round-2 board, nothing refused (%v)", i+1, st, d.Rejections())
		}
	}
	// Round 2 as it was paired, marked rebuilt.
	got, err := arb.GetRound(ctx, &pb.GetRoundRequest{RoundId: round2.GetRoundId()})
	if err != nil {
		t.Fatalf("round 2 after the restore: %v", err)
	}
	if got.GetNumber() != 2 || got.GetSource() != "clocks" || got.GetTally().GetPlaying() != 2 {
		t.Errorf("round 2 after the restore: number %d, source %q, %d playing; want 2, \"clocks\", 2", got.GetNumber(), got.GetSource(), got.GetTally().GetPlaying())
	}
	for _, b := range r2 {
		after := fetchBoard(t, h, b.GetBoardId())
		if !proto.Equal(after.GetWhite(), b.GetWhite()) || !proto.Equal(after.GetBlack(), b.GetBlack()) || after.GetNumber() != b.GetNumber() ||
			after.GetSection() != b.GetSection() || after.GetDeviceId() != b.GetDeviceId() || after.GetRoundId() != round2.GetRoundId() {
			t.Errorf("round 2's board %s after the restore: %v; before: %v", b.GetBoardId(), after, b)
		}
	}
	if !auditTells(t, h, "", "round 2 of") {
		t.Error("the hall's audit log does not say round 2 was rebuilt")
	}
	// Play goes on in round 2.
	presses(t, d1, 1)
	if n := len(boardLog(t, h.Store, r2[1].GetBoardId())); n != len(live[r2[1].GetBoardId()])+1 {
		t.Errorf("after a press: %d events, want %d", n, len(live[r2[1].GetBoardId()])+1)
	}
}

// Rulings the arbiter gave after the backup, which the clock applied: the
// restored hall, which lost the commands, takes them back from the clock's
// record of them (the action each carried, who gave it and why), and the
// board goes on as the clock kept it: a later flag is accepted.
func TestRestoreTakesRulingsTheClockApplied(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t, halltest.WithOptions(server.Options{HeartbeatInterval: time.Hour}))
	b := h.Round(t, "90m", 1)[0]
	fake := mono.NewFake(time.Unix(1_700_000_000, 0))
	d := h.Device(t, b.GetDeviceId(), clockdev.Config{Clock: fake})
	arb, ctx := h.Arbiter(t)
	if _, err := arb.StartRound(ctx, &pb.StartRoundRequest{RoundId: b.GetRoundId()}); err != nil {
		t.Fatal(err)
	}
	halltest.Eventually(t, 5*time.Second, func() error {
		if d.State().Status != rules.Running {
			return fmt.Errorf("the clock has not started")
		}
		return nil
	})
	press := func() {
		t.Helper()
		fake.Advance(10 * time.Second)
		if err := d.Press(d.State().ToMove, "", ""); err != nil {
			t.Fatal(err)
		}
	}
	rule := func(offender pb.Side) string {
		t.Helper()
		halltest.Synced(t, d) // the hall has the move it rules on
		r, err := arb.BoardAction(ctx, &pb.BoardActionRequest{BoardId: b.GetBoardId(), Reason: "knight moved like a bishop", WaitMs: 5000,
			Action: &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_ILLEGAL_MOVE, Side: offender}})
		if err != nil || r.GetStatus() != pb.CommandStatus_COMMAND_STATUS_APPLIED {
			t.Fatalf("illegal move ruling: %v, %v", r, err)
		}
		return r.GetCommandId()
	}
	press()
	press()
	halltest.Synced(t, d)
	backup := filepath.Join(t.TempDir(), "backup.db")
	if _, err := h.Store.Backup(context.Background(), backup); err != nil {
		t.Fatal(err)
	}
	press() // White's move, found illegal
	white := rule(pb.Side_SIDE_WHITE)
	press()
	press() // Black's, found illegal
	black := rule(pb.Side_SIDE_BLACK)
	press()
	halltest.Synced(t, d)
	live := boardLog(t, h.Store, b.GetBoardId())
	issued := map[string]string{}
	for _, id := range []string{white, black} {
		c, err := h.Store.Command(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		issued[id] = c.IssuedBy
	}

	h.RestoreFrom(t, backup)
	halltest.Eventually(t, 10*time.Second, func() error {
		fake.Advance(10 * time.Millisecond) // the clock's backoff runs on its own time
		if n := len(boardLog(t, h.Store, b.GetBoardId())); n != len(live) || d.Status().Outbox > 0 {
			return fmt.Errorf("%d events after the restore, %d before (clock: %+v)", n, len(live), d.Status())
		}
		return nil
	})
	after := boardLog(t, h.Store, b.GetBoardId())
	sameLog(t, "the board", after, live)
	for i := range live {
		if after[i].CommandID != live[i].CommandID {
			t.Errorf("event %d carries command %q after the restore, %q before", i+1, after[i].CommandID, live[i].CommandID)
		}
	}
	for id, by := range issued {
		c, err := h.Store.Command(context.Background(), id)
		if err != nil || c.Status != storage.CommandApplied || c.IssuedBy != by || c.Reason != "knight moved like a bishop" {
			t.Errorf("command %s after the restore: %+v, %v; want it applied, issued by %q with its reason", id, c, err, by)
		}
	}
	if d.Status().Rejected != 0 {
		t.Fatalf("the clock's events were refused after the restore: %v", d.Rejections())
	}
	// A later flag: the hall's clock agrees with the clock's.
	fake.Advance(time.Duration(d.State().P[rules.White].MainMs+1000) * time.Millisecond)
	halltest.Eventually(t, 10*time.Second, func() error {
		st := fetchBoard(t, h, b.GetBoardId()).GetState()
		if st.GetStatus() != pb.BoardStatus_BOARD_STATUS_FINISHED || d.Status().Outbox > 0 {
			return fmt.Errorf("board %v %s %s; clock %+v", st.GetStatus(), st.GetResult(), st.GetTermination(), d.Status())
		}
		return nil
	})
	if st := fetchBoard(t, h, b.GetBoardId()).GetState(); st.GetResult() != "0-1" || st.GetTermination() != "time" || d.Status().Rejected != 0 {
		t.Errorf("after White's flag: %s %s, %d refused (%v); want 0-1 on time, none refused", st.GetResult(), st.GetTermination(), d.Status().Rejected, d.Rejections())
	}
}

// A round paired by the pairing program after the backup is rebuilt from
// its clocks, and its results export as the TRF the pairing program reads
// next, as before the restore — the previous round's TRF with every
// round's results — although the file it was imported from was lost with
// the restore; only its byes are not known.
func TestRestoreExportsARebuiltRoundForThePairingProgram(t *testing.T) {
	t.Parallel()
	h, arb, ctx := openHall(t, 10)
	r5 := importRound(t, arb, ctx)
	for _, b := range r5.GetBoards() {
		h.Device(t, b.GetDeviceId())
	}
	if _, err := arb.StartRound(ctx, &pb.StartRoundRequest{RoundId: r5.GetRound().GetRoundId()}); err != nil {
		t.Fatal(err)
	}
	h.DeviceToken(t, "CLK-010") // round 6's tenth clock: a token the backup holds
	backup := filepath.Join(t.TempDir(), "backup.db")
	if _, err := h.Store.Backup(context.Background(), backup); err != nil {
		t.Fatal(err)
	}
	results := []string{"1-0", "1/2-1/2", "0-1", "1-0", "0-1", "1/2-1/2", "1-0", "1-0", "0-1"}
	for i, b := range r5.GetBoards() {
		act(t, arb, ctx, b.GetBoardId(), &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_RESULT, Result: results[i], Termination: "arbiter"}, pb.CommandStatus_COMMAND_STATUS_APPLIED)
	}
	ex5, err := arb.ExportRound(ctx, &pb.ExportRoundRequest{RoundId: r5.GetRound().GetRoundId(), Format: pb.ExportFormat_EXPORT_FORMAT_TRF})
	if err != nil {
		t.Fatal(err)
	}
	r6, err := arb.ImportRound(ctx, &pb.ImportRoundRequest{Tournament: "Nordic Autumn Open 2025", Content: ex5.GetContent(),
		Pairings: []byte("10\n1 2\n3 4\n5 6\n7 8\n9 10\n11 12\n13 14\n15 17\n18 19\n20 21\n")})
	if err != nil {
		t.Fatalf("ImportRound of round 6: %v", err)
	}
	h.Device(t, "CLK-010")
	if _, err := arb.StartRound(ctx, &pb.StartRoundRequest{RoundId: r6.GetRound().GetRoundId()}); err != nil {
		t.Fatal(err)
	}
	halltest.Eventually(t, 5*time.Second, func() error {
		rd, err := arb.GetRound(ctx, &pb.GetRoundRequest{RoundId: r6.GetRound().GetRoundId()})
		if err == nil && rd.GetTally().GetPlaying() != 10 {
			err = fmt.Errorf("round 6: %v", rd.GetTally())
		}
		return err
	})
	before, err := arb.ExportRound(ctx, &pb.ExportRoundRequest{RoundId: r6.GetRound().GetRoundId(), Format: pb.ExportFormat_EXPORT_FORMAT_TRF})
	if err != nil {
		t.Fatal(err)
	}

	h.RestoreFrom(t, backup)
	halltest.Eventually(t, 10*time.Second, func() error {
		r5, err := arb.GetRound(ctx, &pb.GetRoundRequest{RoundId: r5.GetRound().GetRoundId()})
		if err != nil {
			return err
		}
		r6, err := arb.GetRound(ctx, &pb.GetRoundRequest{RoundId: r6.GetRound().GetRoundId()})
		if err != nil {
			return err
		}
		if r5.GetTally().GetFinished() != 9 || r6.GetTally().GetPlaying() != 10 {
			return fmt.Errorf("round 5: %v; round 6: %v", r5.GetTally(), r6.GetTally())
		}
		return nil
	})
	after, err := arb.ExportRound(ctx, &pb.ExportRoundRequest{RoundId: r6.GetRound().GetRoundId(), Format: pb.ExportFormat_EXPORT_FORMAT_TRF})
	if err != nil {
		t.Fatal(err)
	}
	bl, al := strings.Split(string(before.GetContent()), "\n"), strings.Split(string(after.GetContent()), "\n")
	if len(bl) != len(al) {
		t.Fatalf("round 6's TRF after the restore has %d lines, before it %d:\n%s", len(al), len(bl), after.GetContent())
	}
	for i := range bl {
		// Player 16's absence in round 6 (XXZ) went with the import file.
		if bl[i] != al[i] && !strings.HasPrefix(bl[i], "001   16 ") {
			t.Errorf("line %d of round 6's TRF after the restore:\n%q\nbefore it:\n%q", i+1, al[i], bl[i])
		}
	}
}
