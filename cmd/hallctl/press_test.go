package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/chesshall/hallclock/internal/testkit/halltest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// The two things an arbiter does from the command line for a board
// without a working clock: press its virtual clock for the players (the
// dashboard's Press button), and enter a scoresheet's result on a board
// that has no clock at all, without moving it to a virtual clock first.
func TestPressAndScoresheetResult(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t, halltest.OnLoopback())
	boards := h.Round(t, "90m+30s", 2)
	virtual, onDevice := boards[0].GetBoardId(), boards[1].GetBoardId()
	h.Device(t, boards[1].GetDeviceId())
	do, expect := runner(t, chiefEnv(h))
	fails := func(want string, args ...string) {
		t.Helper()
		var out bytes.Buffer
		err := run(context.Background(), args, &out, chiefEnv(h))
		if err == nil || !strings.Contains(err.Error()+out.String(), want) {
			t.Errorf("hallctl %s: err %v, output %q; want a failure saying %q", strings.Join(args, " "), err, out.String(), want)
		}
	}

	do("virtual", virtual, "-reason", "the clock's display died")
	do("start", virtual)
	expect(do("press", virtual), "APPLIED")                                        // White, to move
	expect(do("press", virtual, "black", "-san", "e5", "-reason", "r"), "APPLIED") // named
	arb, ctx := h.Arbiter(t)
	b, err := arb.GetBoard(ctx, &pb.GetBoardRequest{BoardId: virtual})
	if err != nil {
		t.Fatal(err)
	}
	if w, bl := b.GetState().GetWhite().GetMoves(), b.GetState().GetBlack().GetMoves(); w != 1 || bl != 1 {
		t.Errorf("after two presses the moves are %d and %d, want 1 and 1", w, bl)
	}
	do("press", virtual) // the side to move, White again
	if b, err = arb.GetBoard(ctx, &pb.GetBoardRequest{BoardId: virtual}); err != nil || b.GetState().GetWhite().GetMoves() != 2 {
		t.Errorf("a press without a side: %v, White's moves %d; want 2 (the side to move pressed)", err, b.GetState().GetWhite().GetMoves())
	}
	fails("not on a virtual clock", "press", onDevice)
	fails("usage", "press", virtual, "white", "extra")

	// A board with no clock: its result from the scoresheet, audited so.
	do("add-board", boards[0].GetRoundId(), "3", "White 3", "Black 3")
	ref := t.Name() + ":1.3"
	expect(do("result", ref, "1/2-1/2", "-reason", "scoresheet signed by both"), "APPLIED", "1/2-1/2")
	expect(do("audit", ref), "result from the scoresheet, no clock", "scoresheet signed by both")
}
