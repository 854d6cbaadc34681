package clockdev

import (
	"errors"
	"testing"
	"time"

	"github.com/chesshall/hallclock/internal/mono"
	hallv1 "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
)

const (
	kStart = hallv1.ActionKind_ACTION_KIND_START
	kPress = hallv1.ActionKind_ACTION_KIND_PRESS
	white  = hallv1.Side_SIDE_WHITE
	black  = hallv1.Side_SIDE_BLACK
)

func assign(h *fakeHall, a *hallv1.Assignment) {
	h.push(&hallv1.ServerMessage{Msg: &hallv1.ServerMessage_Assignment{Assignment: a}})
}

func TestAssignmentAdoptOrKeep(t *testing.T) {
	clk := mono.NewFake(time.Unix(0, 0))
	h := newFakeHall(t)
	h.set(func(h *fakeHall) { h.ackDelay = -1 }) // the server commits nothing: the device is ahead
	d := testDevice(t, h, Config{Clock: clk, Outbox: assignedOutbox(t, testAssignment("B1", "300"))})
	waitFor(t, "the link", func() bool { return d.Status().Connected })
	if err := d.Do(rules.Event{Kind: rules.KindStart}); err != nil {
		t.Fatal(err)
	}
	clk.Advance(time.Second)
	if err := d.Press(rules.White, "", ""); err != nil {
		t.Fatal(err)
	}
	clk.Advance(time.Second)
	if err := d.Press(rules.Black, "", ""); err != nil {
		t.Fatal(err)
	}

	check := func(name string, adopted bool, boardNow int64, whiteMoves, blackMoves int) {
		t.Helper()
		n := waitNotice(t, d, NoticeAssignment)
		if n.Adopted != adopted {
			t.Errorf("%s: Adopted = %v, want %v", name, n.Adopted, adopted)
		}
		st := d.State()
		if got := d.BoardNow(); got != boardNow {
			t.Errorf("%s: BoardNow = %d, want %d", name, got, boardNow)
		}
		if st.P[rules.White].Moves != whiteMoves || st.P[rules.Black].Moves != blackMoves {
			t.Errorf("%s: moves %d/%d, want %d/%d", name, st.P[rules.White].Moves, st.P[rules.Black].Moves, whiteMoves, blackMoves)
		}
	}

	// The server knows only the start: the device's history contains it and
	// goes further, so the device keeps its clock (and its time line).
	a := testAssignment("B1", "300", action(kStart, 0, white))
	a.State = &hallv1.BoardState{AtMs: 1500}
	assign(h, a)
	check("server behind", false, 2000, 1, 1)

	// The server knows more (another device's event, a restored log): adopt.
	a = testAssignment("B1", "300", action(kStart, 0, white), action(kPress, 1000, white),
		action(kPress, 2000, black), action(kPress, 2500, white))
	a.State = &hallv1.BoardState{AtMs: 2600}
	assign(h, a)
	check("server ahead", true, 2600, 2, 1)
	if st := d.State(); st.ToMove != rules.Black || st.P[rules.White].MainMs != 300_000-1000-500 {
		t.Errorf("adopted state: %v to move, white %d ms; want black, 298500", st.ToMove, st.P[rules.White].MainMs)
	}
	clk.Advance(100 * time.Millisecond)
	if got := d.BoardNow(); got != 2700 {
		t.Errorf("BoardNow 100 ms after adoption = %d, want 2700", got)
	}

	// Same board, shorter history that disagrees with the device's: adopt.
	a = testAssignment("B1", "300", action(kStart, 0, white), action(kPress, 900, white))
	a.State = &hallv1.BoardState{AtMs: 3000}
	assign(h, a)
	check("histories disagree", true, 3000, 1, 0)

	// Another board: adopt, board time from the server's estimate.
	a = testAssignment("B2", "60")
	a.State = &hallv1.BoardState{AtMs: 5000}
	assign(h, a)
	check("new board", true, 5000, 0, 0)
	if st, s := d.State(), d.Status(); st.Status != rules.Waiting || s.BoardID != "B2" || s.BoardSeq != 0 {
		t.Errorf("on B2: %v, Status %+v; want waiting on B2", st.Status, s)
	}

	// Same board, new configuration (the arbiter corrected the time control): adopt.
	assign(h, testAssignment("B2", "180"))
	check("new configuration", true, 5000, 0, 0)
	if st := d.State(); st.P[rules.White].MainMs != 180_000 {
		t.Errorf("white has %d ms, want 180000", st.P[rules.White].MainMs)
	}

	// Unassigned.
	assign(h, &hallv1.Assignment{})
	waitNotice(t, d, NoticeAssignment)
	if err := d.Press(rules.White, "", ""); !errors.Is(err, ErrNotAssigned) {
		t.Errorf("Press when unassigned = %v, want ErrNotAssigned", err)
	}
	if d.Assignment() != nil || d.Status().BoardID != "" {
		t.Errorf("still assigned: %v", d.Assignment())
	}
}

func TestRejectedEventForcesAdoption(t *testing.T) {
	h := newFakeHall(t)
	h.set(func(h *fakeHall) {
		h.reject = func(ev *hallv1.DeviceEvent) string {
			if ev.GetAction().GetKind() == kPress {
				return "not_to_move"
			}
			return ""
		}
	})
	d := testDevice(t, h, Config{Outbox: assignedOutbox(t, testAssignment("B1", "300"))})
	if err := d.Do(rules.Event{Kind: rules.KindStart}); err != nil {
		t.Fatal(err)
	}
	if err := d.Press(rules.White, "", ""); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the rejection", func() bool { s := d.Status(); return s.Rejected == 1 && s.AckedSeq == 2 })
	// The device's history [start, press] contains the server's [start], but
	// the server refused the press: the record wins.
	assign(h, testAssignment("B1", "300", action(kStart, 0, white)))
	if n := waitNotice(t, d, NoticeAssignment); !n.Adopted {
		t.Error("assignment after a rejection was not adopted")
	}
	if st := d.State(); st.P[rules.White].Moves != 0 || st.ToMove != rules.White {
		t.Errorf("after adoption: white moves %d, %v to move; want 0, white", st.P[rules.White].Moves, st.ToMove)
	}
}
