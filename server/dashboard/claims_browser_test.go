package dashboard_test

import (
	"testing"
	"time"

	"github.com/chesshall/hallclock/internal/testkit/halltest"
	"github.com/chesshall/hallclock/internal/testkit/longtest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// Claims decided from the page, end to end against a real hall and its
// clocks. A1 (60 min, quickplay finish announced): White, to move with
// 1:30 left, claims; the arbiter postpones the decision (III.5): Black
// gets two minutes, the claim waits in the attention panel, and the
// arbiter later records the result from the page, which ends the game.
// A2: White's draw claim was incorrect (9.5.3): Black gets two minutes.
// Each ruling shows in the board's timeline with its reason and lands in
// the audit log as the chief's command.
func TestDashboardClaimsDecidedFromThePage(t *testing.T) {
	longtest.Skip(t)
	t.Parallel()
	h := halltest.Start(t, halltest.OnLoopback())
	base := h.HTTP(t)
	qp := &pb.ClockConfig{TimeControl: "60m", Regulations: &pb.Regulations{QuickplayFinish: true}}
	tb := newTable(t, h, "90m+30s", []boardSpec{{section: "A", config: qp}, {section: "A"}})
	a1, a2 := tb.boards[0], tb.boards[1]
	tb.start(t)
	tb.act(t, a1.GetBoardId(), &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_PAUSE})
	tb.act(t, a1.GetBoardId(), &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_SET_CLOCK, WhiteMs: 90_000, BlackMs: 600_000})
	tb.act(t, a1.GetBoardId(), &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_RESUME})

	p := openPage(t, base, 1600, 1000)
	p.signIn(h.Chief)
	p.waitHall(2)

	// The quickplay claim, postponed (the dialog's default decision).
	p.click("open board A1", tile(a1.GetBoardId()))
	p.poll("board A1 open", `!document.getElementById("board").hidden && document.querySelector("#board h2").textContent.includes("Board A1")`, 2*time.Second)
	p.click("Quickplay claim", `#board button[data-action="qpclaim"]`)
	p.poll("the rules' answer", `document.getElementById("action-preview").textContent.includes("The claim waits for the arbiter's decision") && !document.getElementById("action-confirm").disabled`, 3*time.Second)
	if got := p.text("#action-preview"); !contains(got, "Black: 10:00", "(+2:00)") {
		t.Errorf("the confirmation of White's quickplay claim, postponed, says %q; want Black +2:00", got)
	}
	p.confirmApplied("to watch whether Black tries to win")
	claim := `#attn-list li.k-quickplay[data-board="` + a1.GetBoardId() + `"]`
	p.poll("the claim waits in the attention panel", `document.querySelector('`+claim+`') !== null`, 3*time.Second)
	p.poll("the timeline shows the claim", `[...document.querySelectorAll("#board .timeline li")].some(li => li.textContent.includes("White's quickplay claim postponed") &&
		li.textContent.includes("Black +2:00") && li.textContent.includes("to watch whether Black tries to win"))`, 3*time.Second)

	// The arbiter decides it: drawn, recorded as the result.
	p.click("Result", `#board button[data-action="result"]`)
	p.do("a draw on the claim", setSelect(`#action-dialog select[name="result"]`, "1/2-1/2"), setSelect(`#action-dialog select[name="termination"]`, "quickplay_claim"))
	p.poll("the rules' answer", `document.getElementById("action-preview").textContent.includes("Result: ") && !document.getElementById("action-confirm").disabled`, 3*time.Second)
	p.confirmApplied("Black made no attempt to win")
	p.poll("the tile shows the result", `document.querySelector('`+tile(a1.GetBoardId())+`').classList.contains("st-finished")`, 3*time.Second)
	p.poll("the claim leaves the panel", `document.querySelector('`+claim+`') === null`, 3*time.Second)
	p.poll("the timeline shows the result", `[...document.querySelectorAll("#board .timeline li")].some(li => li.textContent.includes("result") &&
		li.textContent.includes("game over") && li.textContent.includes("Black made no attempt to win"))`, 3*time.Second)

	postponed := tb.applied(t, a1.GetBoardId(), pb.ActionKind_ACTION_KIND_QUICKPLAY_CLAIM)
	result := tb.applied(t, a1.GetBoardId(), pb.ActionKind_ACTION_KIND_RESULT)
	if postponed == nil || postponed.GetIssuedBy() != "chief:chief arbiter" || !postponed.GetAfter().GetQuickplayPostponed() || postponed.GetAfter().GetBlack().GetRemainingMs() != 720_000 ||
		postponed.GetReason() != "to watch whether Black tries to win" {
		t.Errorf("audit log: the quickplay claim is %v; want it postponed, Black 12:00, with the reason", postponed)
	}
	if result == nil || result.GetIssuedBy() != "chief:chief arbiter" || result.GetAfter().GetResult() != "1/2-1/2" || result.GetAfter().GetStatus() != pb.BoardStatus_BOARD_STATUS_FINISHED ||
		result.GetReason() != "Black made no attempt to win" {
		t.Errorf("audit log: the result is %v; want 1/2-1/2, finished, with the reason", result)
	}

	// A2: an incorrect draw claim by White, to move.
	p.do("board A2", navigate(base+"/#board="+a2.GetBoardId()))
	p.poll("board A2 open", `document.querySelector("#board h2").textContent.includes("Board A2")`, 3*time.Second)
	p.click("Incorrect draw claim", `#board button[data-action="drawclaim"]`)
	p.poll("the rules' answer", `document.getElementById("action-preview").textContent.includes("Black:") && !document.getElementById("action-confirm").disabled`, 3*time.Second)
	if got := p.text("#action-preview"); !contains(got, "Black: 1:30:00", "(+2:00)") {
		t.Errorf("the confirmation of White's incorrect draw claim says %q; want Black +2:00", got)
	}
	p.confirmApplied("no threefold repetition")
	p.poll("the timeline shows the ruling", `[...document.querySelectorAll("#board .timeline li")].some(li => li.textContent.includes("White's draw claim incorrect") &&
		li.textContent.includes("Black +2:00") && li.textContent.includes("no threefold repetition"))`, 3*time.Second)
	if got := tb.boardOf(t, a2.GetBoardId()).GetState().GetBlack().GetRemainingMs(); got != 92*60_000 {
		t.Errorf("Black's time after White's incorrect draw claim: %d ms, want 92 min", got)
	}
	rejected := tb.applied(t, a2.GetBoardId(), pb.ActionKind_ACTION_KIND_DRAW_CLAIM_REJECTED)
	if rejected == nil || rejected.GetIssuedBy() != "chief:chief arbiter" || rejected.GetReason() != "no threefold repetition" {
		t.Errorf("audit log: the incorrect draw claim is %v; want it applied as the chief's command, with the reason", rejected)
	}
}
