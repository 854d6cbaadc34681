package dashboard_test

import (
	"testing"
	"time"

	"github.com/chesshall/hallclock/internal/testkit/halltest"
	"github.com/chesshall/hallclock/internal/testkit/longtest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
)

// The sealed move's rulings from the page, against a real hall and its
// clocks. A1 is adjourned with Black to seal and resumed: the page offers
// "Sealed move illegal" and "Sealed move ended the game"; the first, whose
// confirmation shows the rules' answer (Black loses, no penalty time:
// FIDE 2023 Guidelines I.8.3), ends the game. A2, adjourned, offers
// "Envelope lost" (I.12), which resumes it with Black to move.
func TestDashboardSealedMoveRulings(t *testing.T) {
	longtest.Skip(t)
	t.Parallel()
	h := halltest.Start(t, halltest.OnLoopback())
	base := h.HTTP(t)
	tb := newTable(t, h, "90m+30s", []boardSpec{{section: "A"}, {section: "A"}})
	a1, a2 := tb.boards[0], tb.boards[1]
	tb.start(t)
	for _, b := range tb.boards {
		d := tb.devs[b.GetBoardId()]
		if err := d.Press(rules.White, "", ""); err != nil {
			t.Fatal(err)
		}
		halltest.Synced(t, d)
		tb.act(t, b.GetBoardId(), &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_ADJOURN})
	}
	tb.act(t, a1.GetBoardId(), &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_RESUME})

	p := openPage(t, base, 1600, 1000)
	p.signIn(h.Chief)
	p.waitHall(2)
	p.click("open board A1", tile(a1.GetBoardId()))
	p.poll("the sealed move's rulings offered", `document.querySelector('#board button[data-action="sealedillegal"]') !== null &&
		document.querySelector('#board button[data-action="sealedends"]') !== null &&
		document.querySelector('#board button[data-action="envelope"]') === null`, 3*time.Second)
	p.click("Sealed move illegal", `#board button[data-action="sealedillegal"]`)
	p.poll("the rules' answer", `document.getElementById("action-preview").textContent.includes("Result: ") && !document.getElementById("action-confirm").disabled`, 3*time.Second)
	if got := p.text("#action-preview"); !contains(got, "Result: 1-0", "illegal moves") || contains(got, "+2:00") {
		t.Errorf("the confirmation of Black's illegal sealed move says %q; want 1-0 by an illegal move and no penalty time", got)
	}
	p.confirmApplied("Bxh7 with a knight")
	p.poll("the tile shows the result", `document.querySelector('`+tile(a1.GetBoardId())+`').classList.contains("st-finished")`, 3*time.Second)
	if e := tb.applied(t, a1.GetBoardId(), pb.ActionKind_ACTION_KIND_ILLEGAL_MOVE); e == nil || e.GetAction().GetSide() != pb.Side_SIDE_BLACK {
		t.Errorf("the audit log's illegal move: %v, want one by Black, the sealer", e)
	}

	p.click("open board A2", tile(a2.GetBoardId()))
	p.poll("board A2 open, adjourned", `document.querySelector("#board h2").textContent.includes("Board A2") &&
		document.querySelector('#board button[data-action="envelope"]') !== null &&
		document.querySelector('#board button[data-action="sealedillegal"]') === null`, 3*time.Second)
	p.click("Envelope lost", `#board button[data-action="envelope"]`)
	p.poll("the rules' answer", `document.getElementById("action-preview").textContent.includes("adjourned → playing") && !document.getElementById("action-confirm").disabled`, 3*time.Second)
	p.confirmApplied("the envelope is not in the safe")
	p.poll("Black's clock runs", `document.querySelector('`+tile(a2.GetBoardId())+`').classList.contains("run-black")`, 3*time.Second)
}
