package clockdev

import (
	"slices"
	"testing"

	hallv1 "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// A hall restored from a backup taken before the clock changed boards:
// the clock resends what it recorded on both boards, in order, and its
// Hello lists both boards as the hall assigned them (the one it keeps
// first, without history), from which the hall rebuilds the later one; an
// event carrying out a command keeps who gave it and why.
func TestClockResendsAcrossBoardsToARestoredHall(t *testing.T) {
	h := newFakeHall(t)
	start := action(hallv1.ActionKind_ACTION_KIND_START, 0, hallv1.Side_SIDE_WHITE)
	b1 := testAssignment("B1", "300", start)
	b1.RoundId, b1.TournamentId, b1.Section, b1.Table = "R1", "T1", "Open", 3
	h.set(func(h *fakeHall) { h.assignment = b1 })
	d := testDevice(t, h, Config{})
	waitFor(t, "board 1", func() bool { return d.Status().BoardID == "B1" })
	if err := d.Press(rules.White, "", ""); err != nil {
		t.Fatal(err)
	}
	if err := d.Press(rules.Black, "", ""); err != nil {
		t.Fatal(err)
	}
	h.push(&hallv1.ServerMessage{Msg: &hallv1.ServerMessage_Command{Command: &hallv1.Command{CommandId: "c1", Reason: "a phone rang", IssuedBy: "arbiter:Anna",
		Action: &hallv1.ClockAction{Kind: hallv1.ActionKind_ACTION_KIND_ADD_TIME, Side: hallv1.Side_SIDE_BLACK, Ms: 60_000}}}})
	waitFor(t, "board 1's events acknowledged", func() bool { return d.Status().AckedSeq == 3 })

	// The next round: another board.
	b2 := testAssignment("B2", "300", start)
	b2.RoundId, b2.TournamentId, b2.Round = "R2", "T1", 2
	h.set(func(h *fakeHall) { h.assignment = b2 })
	h.push(&hallv1.ServerMessage{Msg: &hallv1.ServerMessage_Assignment{Assignment: b2}})
	waitFor(t, "board 2", func() bool { return d.Status().BoardID == "B2" })
	if err := d.Press(rules.White, "", ""); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "board 2's event acknowledged", func() bool { return d.Status().AckedSeq == 4 })

	// The hall comes back from a backup that had the first event only.
	h.set(func(h *fakeHall) { h.acked, h.got = 1, nil })
	h.drop(status.Error(codes.Unavailable, "restored"))
	waitFor(t, "the resend", func() bool { got, _, _, _ := h.snapshot(); return len(got) == 3 })
	got, _, hellos, _ := h.snapshot()
	if s := seqs(got); !slices.Equal(s, []uint64{2, 3, 4}) || got[0].GetBoardId() != "B1" || got[1].GetBoardId() != "B1" || got[2].GetBoardId() != "B2" {
		t.Errorf("resent %v on %s, %s, %s; want 2, 3 on B1 and 4 on B2", s, got[0].GetBoardId(), got[1].GetBoardId(), got[2].GetBoardId())
	}
	if c := got[1]; c.GetCommandId() != "c1" || c.GetCommandIssuedBy() != "arbiter:Anna" || c.GetCommandReason() != "a phone rang" ||
		c.GetAction().GetKind() != hallv1.ActionKind_ACTION_KIND_ADD_TIME || c.GetAction().GetMs() != 60_000 {
		t.Errorf("the command's event %v, want c1 with who gave it, why and its action", c)
	}
	hello := hellos[len(hellos)-1]
	boards := hello.GetBoards()
	if hello.GetLastAckedSeq() != 4 || len(boards) != 2 || boards[0].GetBoardId() != "B2" || boards[1].GetBoardId() != "B1" {
		t.Fatalf("Hello: last acked %d, boards %v; want 4, B2 then B1", hello.GetLastAckedSeq(), boards)
	}
	if r := boards[1]; r.GetRoundId() != "R1" || r.GetTournamentId() != "T1" || r.GetSection() != "Open" || r.GetTable() != 3 ||
		r.GetWhite().GetName() != "Anna" || r.GetConfig().GetTimeControl() != "300" || r.GetHistory() != nil || r.GetState() != nil {
		t.Errorf("the record of board 1 %v, want it as assigned, without history or state", r)
	}
}
