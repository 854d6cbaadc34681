package hall

import (
	"context"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/server/auth"
)

// A clock that picks up a board (a replacement, another browser with the
// device's credentials) is told the pause in force with its reason and
// who gave it — the history's actions do not say them — and nothing of a
// pause the arbiter has lifted. Running, the board comes as it runs.
func TestAssignmentCarriesThePauseInForce(t *testing.T) {
	t.Parallel()
	h := hallForTest(t)
	ctx := context.Background()
	s, l, _ := open(t, h, 0, 1)
	seq := uint64(0)
	send := func(a *pb.ClockAction, cmd string) {
		t.Helper()
		seq++
		ev := event(seq, "b1", a)
		ev.CommandId = cmd
		if err := s.Event(ctx, ev); err != nil {
			t.Fatal(err)
		}
		if a := l.lastAck(t); a.GetUpToSeq() != seq || len(a.GetRejected()) != 0 {
			t.Fatalf("event %d: %v, want it applied", seq, a)
		}
	}
	// pickUp is a newer session of the device, with nothing of its own
	// (a fresh browser): it takes over, and is sent the board.
	pickUp := func() *pb.Assignment {
		t.Helper()
		nl := &fakeLink{}
		ns, _, err := h.Open(ctx, "d1", &pb.Hello{DeviceId: "d1", NextSeq: 1}, nl, time.Second)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(ns.Close)
		s, l = ns, nl
		var a *pb.Assignment
		for _, m := range nl.take() {
			if m.m.GetAssignment() != nil {
				a = m.m.GetAssignment()
			}
		}
		if a.GetBoardId() != "b1" {
			t.Fatalf("the newer session was sent %v; want board b1", a)
		}
		return a
	}
	b, err := h.Board("b1")
	if err != nil {
		t.Fatal(err)
	}
	chief := &auth.Identity{Role: auth.RoleChief, Label: "Anna"}
	// carryOut is the arbiter's action, sent to the device, carried out
	// at board time at.
	carryOut := func(act *pb.ClockAction, reason string, at int64) {
		t.Helper()
		kind := act.GetKind()
		if _, err := b.Act(ctx, chief, act, reason, -1); err != nil {
			t.Fatal(err)
		}
		var c *pb.Command
		for _, m := range l.take() {
			if m.m.GetCommand() != nil {
				c = m.m.GetCommand()
			}
		}
		if c == nil {
			t.Fatalf("the arbiter's %v was not sent to the device", kind)
		}
		a := proto.Clone(c.GetAction()).(*pb.ClockAction)
		a.TMs = at
		send(a, c.GetCommandId())
	}

	send(start(0), "")
	send(press(pb.Side_SIDE_WHITE, 1500), "")
	if a := pickUp(); a.GetPause() != nil || a.GetState().GetStatus() != pb.BoardStatus_BOARD_STATUS_RUNNING || len(a.GetHistory()) != 2 {
		t.Errorf("a running board is picked up as %v", a)
	}

	carryOut(&pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_PAUSE}, "a phone rang", 2000)
	carryOut(&pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_ADD_TIME, Side: pb.Side_SIDE_BLACK, Ms: 60000}, "the opponent's phone", 2100)
	want := &pb.PauseNote{Reason: "a phone rang", IssuedBy: "chief:Anna"}
	if a := pickUp(); !proto.Equal(a.GetPause(), want) {
		t.Errorf("a paused board is picked up with the pause %v; want %v", a.GetPause(), want)
	}

	carryOut(&pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_RESUME}, "play goes on", 2500)
	if a := pickUp(); a.GetPause() != nil {
		t.Errorf("a board resumed is picked up with the pause %v; want none", a.GetPause())
	}
}
