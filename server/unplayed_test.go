package server_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/chesshall/hallclock/clockdev"
	"github.com/chesshall/hallclock/formats/trf"
	"github.com/chesshall/hallclock/internal/testkit/halltest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
)

// A game is exported as lasting less than one move (TRF's W, D, L: not
// rated) only when the clock shows it — a clock device started it and
// neither side completed a move — or the arbiter marks it so with its
// result. A result without moves on the clock (from the scoresheet, or on
// a virtual clock nobody pressed) is a game's 1, =, 0: unknown is not
// zero. White's move alone is a move; a forfeit stays + and -.
func TestUnplayedOnlyWhenTheClockShowsIt(t *testing.T) {
	t.Parallel()
	h, arb, ctx := openHall(t, 9)
	imp := importRound(t, arb, ctx)
	bs := imp.GetBoards()
	result := func(i int, r string, unplayed bool) {
		t.Helper()
		act(t, arb, ctx, bs[i].GetBoardId(), &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_RESULT, Result: r, Termination: "arbiter", Unplayed: unplayed},
			pb.CommandStatus_COMMAND_STATUS_APPLIED)
	}
	start := func(i int) {
		t.Helper()
		act(t, arb, ctx, bs[i].GetBoardId(), &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_START}, pb.CommandStatus_COMMAND_STATUS_APPLIED)
	}
	devs := map[int]*clockdev.Device{}
	for _, i := range []int{0, 1, 2, 4, 5, 6} {
		devs[i] = h.Device(t, bs[i].GetDeviceId())
	}
	press := func(i int, sides ...rules.Side) {
		t.Helper()
		for _, s := range sides {
			if err := devs[i].Press(s, "", ""); err != nil {
				t.Fatal(err)
			}
		}
		halltest.Synced(t, devs[i])
	}

	result(0, "1-0", false) // board 1: the scoresheet's result, the clock never started
	start(1)                // board 2: started, nobody moved
	result(1, "1-0", false)
	start(2) // board 3: White moved, Black did not
	press(2, rules.White)
	result(2, "0-1", false)
	if _, err := arb.UseVirtualClock(ctx, &pb.UseVirtualClockRequest{BoardId: bs[3].GetBoardId(), Reason: "clock broke"}); err != nil {
		t.Fatal(err)
	}
	start(3) // board 4: a virtual clock nobody pressed
	result(3, "1/2-1/2", false)
	result(4, "1-0", true) // board 5: the arbiter marks it unplayed
	start(5)               // board 6: both moved
	press(5, rules.White, rules.Black)
	result(5, "1/2-1/2", false)
	start(6) // board 7: a forfeit
	result(6, "+-", false)

	ex, err := arb.ExportRound(ctx, &pb.ExportRoundRequest{RoundId: imp.GetRound().GetRoundId(), Format: pb.ExportFormat_EXPORT_FORMAT_TRF})
	if err != nil {
		t.Fatal(err)
	}
	f, err := trf.Read(bytes.NewReader(ex.GetContent()))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"1 0", "W L", "0 1", "= =", "W L", "= =", "+ -", "   ", "   "}
	for i, b := range bs {
		w, bl := f.Player(int(b.GetWhite().GetStartRank())).Round(5), f.Player(int(b.GetBlack().GetStartRank())).Round(5)
		if got := fmt.Sprintf("%c %c", w.Result, bl.Result); got != want[i] {
			t.Errorf("board %d exported %q, want %q", i+1, got, want[i])
		}
	}
	// The audit says what the arbiter marked.
	log, err := arb.AuditLog(ctx, &pb.AuditLogRequest{BoardId: bs[4].GetBoardId()})
	if err != nil {
		t.Fatal(err)
	}
	marked := false
	for _, e := range log.GetEntries() {
		marked = marked || e.GetAction().GetUnplayed() && e.GetWhat() == "result 1-0 unplayed (less than one move)"
	}
	if !marked {
		t.Errorf("the audit log of board 5 does not show the result marked unplayed: %v", log.GetEntries())
	}
}
