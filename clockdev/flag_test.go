package clockdev

import (
	"errors"
	"testing"
	"time"

	"github.com/chesshall/hallclock/internal/mono"
	hallv1 "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
)

func TestFlagSentAtExactDeadline(t *testing.T) {
	clk := mono.NewFake(time.Unix(0, 0))
	h := newFakeHall(t)
	d := testDevice(t, h, Config{Clock: clk, Outbox: assignedOutbox(t, testAssignment("B1", "60"))}) // one minute, sudden death
	waitFor(t, "the link", func() bool { return d.Status().Connected })

	if err := d.Do(rules.Event{Kind: rules.KindStart}); err != nil {
		t.Fatal(err)
	}
	clk.Advance(20 * time.Second)
	if err := d.Press(rules.White, "", ""); err != nil { // White 40 s left; Black's 60 s run: flag at 80000
		t.Fatal(err)
	}
	clk.Advance(59_999 * time.Millisecond)
	clk.Settle() // the device's timers due by now have run
	if st := d.State(); st.Status != rules.Running || d.Status().NextSeq != 3 {
		t.Fatalf("at board %d: %v, next seq %d; want still running with 2 events", d.BoardNow(), st.Status, d.Status().NextSeq)
	}
	clk.Advance(750 * time.Millisecond) // the timer fires late; the flag's instant does not move
	waitFor(t, "the flag event", func() bool { g, _, _, _ := h.snapshot(); return len(g) == 3 })
	got, _, _, _ := h.snapshot()
	flag := got[2]
	if a := flag.GetAction(); a.GetKind() != hallv1.ActionKind_ACTION_KIND_FLAG || a.GetTMs() != 80_000 || a.GetSide() != hallv1.Side_SIDE_BLACK {
		t.Errorf("flag event action = %v, want FLAG black at 80000", a)
	}
	if flag.GetBlackMs() != 0 || flag.GetWhiteMs() != 40_000 || flag.GetSeq() != 3 {
		t.Errorf("flag event = seq %d white %d black %d, want seq 3, 40000 / 0", flag.GetSeq(), flag.GetWhiteMs(), flag.GetBlackMs())
	}
	// FIDE 2023 6.9: the flag fell, White can checkmate: White wins.
	if st := d.State(); st.Status != rules.Finished || st.Result != rules.WhiteWins || st.Termination != rules.TermTime {
		t.Errorf("after the flag: %v %s %s, want finished 1-0 on time", st.Status, st.Result, st.Termination)
	}
	// A press after the game ended is refused locally and not sent.
	if err := d.Press(rules.Black, "", ""); !errors.Is(err, rules.ErrRefused) {
		t.Errorf("Press after the flag = %v, want a refusal", err)
	}
	if s := d.Status(); s.NextSeq != 4 {
		t.Errorf("NextSeq = %d after a refused press, want 4", s.NextSeq)
	}
}

func TestLatePressAfterDeadlineRecordsFlagFirst(t *testing.T) {
	clk := mono.NewFake(time.Unix(0, 0))
	h := newFakeHall(t)
	d := testDevice(t, h, Config{Clock: clk, Outbox: assignedOutbox(t, testAssignment("B1", "60"))})
	if err := d.Do(rules.Event{Kind: rules.KindStart}); err != nil {
		t.Fatal(err)
	}
	clk.Advance(61 * time.Second)
	// Whether the timer's goroutine or this press runs first, White's flag
	// is recorded at 60000 and the press is too late (6.8: a press at or
	// after the fall does not count).
	if err := d.Press(rules.White, "", ""); !errors.Is(err, rules.ErrRefused) {
		t.Errorf("Press after the deadline = %v, want a refusal", err)
	}
	clk.Settle() // the device's timers due by now have run
	hist := d.History()
	if len(hist) != 2 || hist[1].GetKind() != hallv1.ActionKind_ACTION_KIND_FLAG || hist[1].GetTMs() != 60_000 ||
		hist[1].GetSide() != hallv1.Side_SIDE_WHITE {
		t.Fatalf("history = %v, want start and White's flag at 60000", hist)
	}
}

func TestDefaultTimeForfeitIsReported(t *testing.T) {
	clk := mono.NewFake(time.Unix(0, 0))
	h := newFakeHall(t)
	a := testAssignment("B1", "300")
	dt := int64(30_000)
	a.Config.Regulations = &hallv1.Regulations{DefaultTimeMs: &dt}
	d := testDevice(t, h, Config{Clock: clk, Outbox: assignedOutbox(t, a)})
	if err := d.Do(rules.Event{Kind: rules.KindStart, AbsentBlack: true}); err != nil {
		t.Fatal(err)
	}
	clk.Advance(30 * time.Second) // 6.7: Black may still arrive at the default time
	clk.Settle()                  // the device's timers due by now have run
	if n := len(d.History()); n != 1 {
		t.Fatalf("at the default time: %d actions, want only the start", n)
	}
	clk.Advance(time.Millisecond)
	waitFor(t, "the forfeit", func() bool { return len(d.History()) == 2 })
	f := d.History()[1]
	if f.GetKind() != hallv1.ActionKind_ACTION_KIND_FLAG || f.GetTMs() != 30_001 || f.GetSide() != hallv1.Side_SIDE_WHITE {
		t.Errorf("forfeit report = %v, want FLAG of the side to move (white) at 30001", f)
	}
	if st := d.State(); st.Result != rules.BlackForfeit || st.Termination != rules.TermDefault {
		t.Errorf("result %s %s, want +- by default", st.Result, st.Termination)
	}
}

func TestDriftScalesBoardTime(t *testing.T) {
	clk := mono.NewFake(time.Unix(0, 0))
	h := newFakeHall(t)
	d := testDevice(t, h, Config{Clock: clk, DriftPPM: 1000, Outbox: assignedOutbox(t, testAssignment("B1", "60"))})
	if err := d.Do(rules.Event{Kind: rules.KindStart}); err != nil {
		t.Fatal(err)
	}
	clk.Advance(10 * time.Second)
	if got := d.BoardNow(); got != 10_010 {
		t.Errorf("BoardNow after 10 s at +1000 ppm = %d, want 10010", got)
	}
	// The flag at board 60000 comes after 59940.06 ms of device time.
	clk.Advance(49_930 * time.Millisecond) // device 59930 ms: board 59989
	clk.Settle()                           // the device's timers due by now have run
	if n := len(d.History()); n != 1 {
		t.Fatalf("before the deadline: %d actions", n)
	}
	clk.Advance(11 * time.Millisecond) // device 59941 ms: board 60000
	waitFor(t, "the flag", func() bool { return len(d.History()) == 2 })
	if f := d.History()[1]; f.GetTMs() != 60_000 {
		t.Errorf("flag at %d, want 60000", f.GetTMs())
	}
}
