package server_test

import (
	"context"
	"strings"
	"testing"

	"github.com/chesshall/hallclock/internal/testkit/halltest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
	"github.com/chesshall/hallclock/storage"
)

// A board's log may hold an event that this version's rules refuse: one
// acknowledged under an earlier version, whose rules took it (a clock's
// result on a board whose clock never started was one). Such a hall still
// starts after an upgrade — a refused event stopped it before, "replaying
// board ..." — and the board's audit log tells the arbiters once, however
// often the hall restarts.
func TestHallStartsOverAnEventTheRulesNowRefuse(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := halltest.Start(t)
	id := h.Round(t, "90m+30s", 1)[0].GetBoardId()
	// What an earlier version stored: a press before the clock started.
	if err := h.Store.Write(ctx, func(tx *storage.Tx) error {
		return tx.AppendEvent(&storage.EventRecord{BoardID: id, BoardSeq: 1,
			Event: rules.Event{Kind: rules.KindPress, Side: rules.White, T: 500}})
	}); err != nil {
		t.Fatal(err)
	}
	alerts := func() (n int) {
		as, err := h.Store.Audit(ctx, id, 0, 100)
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range as {
			if strings.HasPrefix(a.What, "replay ") && strings.Contains(a.Outcome, "refused by this version's rules") {
				n++
			}
		}
		return n
	}
	h.Restart(t)
	if n := alerts(); n != 1 {
		t.Fatalf("after the first start: %d audit entries of the passed event, want 1", n)
	}
	h.Restart(t)
	if n := alerts(); n != 1 {
		t.Errorf("after a second start: %d audit entries of the passed event, want still 1", n)
	}
	// The board is there, its log read past the refused event.
	arb, actx := h.Arbiter(t)
	b, err := arb.GetBoard(actx, &pb.GetBoardRequest{BoardId: id})
	if err != nil || b.GetState().GetBoardSeq() != 1 || b.GetState().GetWhite().GetMoves() != 0 {
		t.Errorf("GetBoard after the restarts = %v, %v; want the board at event 1, no move", b.GetState(), err)
	}
}
