package dashboard_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chesshall/hallclock/internal/mono"
	"github.com/chesshall/hallclock/internal/testkit/halltest"
	"github.com/chesshall/hallclock/internal/testkit/longtest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/server"
)

// An arbiter limited to section A sees section A and acts there; a board
// of section B, opened by its link, is refused with the reason, and so is
// an action on it sent from the page.
func TestDashboardSectionArbiter(t *testing.T) {
	longtest.Skip(t)
	t.Parallel()
	h := halltest.Start(t, halltest.OnLoopback())
	base := h.HTTP(t)
	tb := newTable(t, h, "90m+30s", []boardSpec{{section: "A"}, {section: "A"}, {section: "B"}, {section: "B"}})
	a1, b1 := tb.boards[0], tb.boards[2]
	anna := h.Token(t, pb.Role_ROLE_ARBITER, "Anna", "", "A")
	tb.start(t)
	p := openPage(t, base, 1280, 800)
	p.signIn(anna)
	p.waitHall(2)
	if got := p.text("#who-label"); got != "Anna (arbiter, sections A)" {
		t.Errorf("signed in as %q", got)
	}
	if n := evalAs[int](p, `document.querySelectorAll('`+tile(b1.GetBoardId())+`').length`); n != 0 {
		t.Errorf("Anna sees section B's board")
	}
	// A clock of her section is cut off after her page read its board
	// (a state newer in time, with as many events): it shows offline.
	a2 := tb.boards[1]
	revokeDevice(t, tb, a2.GetDeviceId())
	p.poll("A2 offline", `document.querySelector('`+tile(a2.GetBoardId())+`').classList.contains("off")`, 5*time.Second)

	// Her section: she pauses A1 from the page.
	p.click("open A1", tile(a1.GetBoardId()))
	p.click("Pause", `#board button[data-action="pause"]`)
	p.confirmApplied("player feels unwell")
	p.poll("A1 paused", `document.querySelector('`+tile(a1.GetBoardId())+`').classList.contains("st-paused")`, 2*time.Second)

	// Section B, by its link: not found, as a board that does not exist
	// (nothing of another section is told).
	p.do("B1's link", navigate(base+"/#board="+b1.GetBoardId()))
	p.poll("not found", `document.querySelector("#board .error") !== null && document.querySelector("#board .error").textContent.includes("no such board")`, 5*time.Second)
	if got := p.text("#board"); strings.Contains(got, "section") || strings.Contains(got, b1.GetWhite().GetName()) {
		t.Errorf("section B's board by its link tells of it: %q", got)
	}
	// And an action on it sent from the page, as a crafted call would be.
	got := evalAs[string](p, fmt.Sprintf(`(async () => {
		const r = await fetch("/api/arbiter/BoardAction", {method: "POST", headers: {"Content-Type": "application/json",
			"X-CSRF-Token": window.hallDashboard.session.csrf},
			body: JSON.stringify({boardId: %q, action: {kind: "ACTION_KIND_PAUSE"}, reason: "not mine"})});
		return r.status + " " + (await r.json()).code;
	})()`, b1.GetBoardId()))
	if got != "404 NotFound" {
		t.Errorf("pausing section B's board from Anna's page: %s, want 404 NotFound", got)
	}
	for _, e := range tb.auditOf(t, b1.GetBoardId()) {
		if e.GetReason() == "not mine" {
			t.Errorf("section B's audit log has Anna's refused call as an action: %v", e)
		}
	}
	if st := tb.boardOf(t, b1.GetBoardId()).GetState(); st.GetStatus() != pb.BoardStatus_BOARD_STATUS_RUNNING {
		t.Errorf("B1 is %v after Anna's attempt, want running", st.GetStatus())
	}
}

// A broadcast token sees the hall as its feeds do: read-only, without the
// arbiters' panel or actions, as it was the broadcast delay ago.
func TestDashboardBroadcastView(t *testing.T) {
	longtest.Skip(t)
	t.Parallel()
	clock := mono.NewFake(time.Now())
	h := halltest.Start(t, halltest.OnLoopback(), halltest.WithOptions(server.Options{Clock: clock, BroadcastDelay: 15 * time.Minute}))
	base := h.HTTP(t)
	arb, ctx := h.Arbiter(t)
	r := h.NewRound(t, "Nordic Open", 1, &pb.ClockConfig{TimeControl: "90m+30s"})
	b, err := arb.AddBoard(ctx, &pb.AddBoardRequest{RoundId: r.GetRoundId(), Number: 1, White: player(1), Black: player(2)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := arb.UseVirtualClock(ctx, &pb.UseVirtualClockRequest{BoardId: b.GetBoardId(), Reason: "the hall's screen"}); err != nil {
		t.Fatal(err)
	}
	if _, err := arb.BoardAction(ctx, &pb.BoardActionRequest{BoardId: b.GetBoardId(), Action: &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_START}}); err != nil {
		t.Fatal(err)
	}
	clock.Advance(16 * time.Minute) // the start is public now
	if _, err := arb.BoardAction(ctx, &pb.BoardActionRequest{BoardId: b.GetBoardId(), Action: &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_PRESS, Side: pb.Side_SIDE_WHITE}}); err != nil {
		t.Fatal(err)
	}
	feed := h.Token(t, pb.Role_ROLE_BROADCAST, "hall screen", "")
	p := openPage(t, base, 1280, 800)
	p.signIn(feed)
	p.waitHall(1)
	p.poll("the delay is said", `document.getElementById("delay").textContent.includes("as it was 15:00 ago")`, 2*time.Second)
	// White's press is not public yet: White's clock runs on the page.
	if !evalAs[bool](p, `document.querySelector('`+tile(b.GetBoardId())+`').classList.contains("run-white")`) {
		t.Errorf("the broadcast view shows White's press before the delay passed:\n%s", p.dump())
	}
	if evalAs[bool](p, `getComputedStyle(document.getElementById("attention")).display !== "none"`) {
		t.Error("the broadcast view shows the arbiters' attention panel")
	}
	p.click("open the board", tile(b.GetBoardId()))
	p.poll("the board", `!document.getElementById("board").hidden`, 2*time.Second)
	if n := evalAs[int](p, `document.querySelectorAll("#board button.act").length`); n != 0 {
		t.Errorf("the broadcast view offers %d actions", n)
	}
}
