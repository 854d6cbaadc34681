package dashboard_test

import (
	"testing"
	"time"

	"github.com/chesshall/hallclock/internal/testkit/halltest"
	"github.com/chesshall/hallclock/internal/testkit/longtest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
)

// Setting a paused clock can hand the move to the other player, after a
// retrace to where the scoresheets agree (FIDE 2018 Appendix D.2.9): the
// confirmation says who will have the move, and the clock restarts on
// that side, with no penalty time.
func TestDashboardRetraceHandsTheMoveBack(t *testing.T) {
	longtest.Skip(t)
	t.Parallel()
	h := halltest.Start(t, halltest.OnLoopback())
	base := h.HTTP(t)
	tb := newTable(t, h, "90m+30s", []boardSpec{{section: "A"}})
	a1 := tb.boards[0]
	tb.start(t)
	d := tb.devs[a1.GetBoardId()]
	if err := d.Press(rules.White, "", ""); err != nil {
		t.Fatal(err)
	}
	halltest.Synced(t, d)
	tb.act(t, a1.GetBoardId(), &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_PAUSE})

	p := openPage(t, base, 1600, 1000)
	p.signIn(h.Chief)
	p.waitHall(1)
	p.click("open board A1", tile(a1.GetBoardId()))
	p.poll("set offered", `document.querySelector('#board button[data-action="set"]') !== null`, 3*time.Second)
	p.click("Set the clock", `#board button[data-action="set"]`)
	p.poll("the rules' answer", `document.getElementById("action-preview").textContent.startsWith("What will happen") && !document.getElementById("action-confirm").disabled`, 3*time.Second)
	evalAs[bool](p, `(() => {
		const f = document.querySelector('#action-dialog [name="toMove"]');
		f.value = "white";
		f.dispatchEvent(new Event("change", { bubbles: true }));
		const m = document.querySelector('#action-dialog [name="moves"]');
		m.value = "0,0";
		m.dispatchEvent(new Event("input", { bubbles: true }));
		return true;
	})()`)
	p.poll("the confirmation names who moves", `document.getElementById("action-preview").textContent.includes("To move: Black → White")`, 3*time.Second)
	p.confirmApplied("scoresheets differ: retraced to the start")
	e := tb.applied(t, a1.GetBoardId(), pb.ActionKind_ACTION_KIND_SET_CLOCK)
	if e == nil || e.GetAction().GetToMove() != pb.Side_SIDE_WHITE {
		t.Fatalf("the audit log's clock setting: %v, want one handing the move to White", e)
	}
	tb.act(t, a1.GetBoardId(), &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_RESUME})
	p.poll("White's clock runs", `document.querySelector('`+tile(a1.GetBoardId())+`').classList.contains("run-white")`, 3*time.Second)
}
