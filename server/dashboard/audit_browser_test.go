package dashboard_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chesshall/hallclock/internal/testkit/halltest"
	"github.com/chesshall/hallclock/internal/testkit/longtest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// auditJS reads the audit view's entries: board, the rest of the line.
const auditJS = `[...document.querySelectorAll("#audit-list li")].map(l => ({ board: l.dataset.board, text: l.textContent }))`

type auditLine struct{ Board, Text string }

// The Audit view on a phone: the chief asks who changed which result, and
// sees it on the board it was, by whom and why, with no board named
// first; a filter by who narrows it on the hall; an arbiter of section B
// sees section B's boards only. Nothing in the view is wider than the
// phone.
func TestDashboardAuditView(t *testing.T) {
	longtest.Skip(t)
	t.Parallel()
	h := halltest.Start(t, halltest.OnLoopback())
	base := h.HTTP(t)
	tb := newTable(t, h, "90m+30s", []boardSpec{{section: "A"}, {section: "A"}, {section: "B"}})
	a1, b3 := tb.boards[0].GetBoardId(), tb.boards[2].GetBoardId()
	tb.start(t)
	tb.act(t, a1, &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_ADD_TIME, Side: pb.Side_SIDE_BLACK, Ms: 60_000})
	bo := h.Token(t, pb.Role_ROLE_ARBITER, "Bo", "", "B")
	arb, _ := h.Arbiter(t)
	r, err := arb.BoardAction(halltest.Ctx(context.Background(), bo), &pb.BoardActionRequest{BoardId: b3, Reason: "Black resigned", WaitMs: 5000,
		Action: &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_RESULT, Result: "1-0"}})
	if err != nil || r.GetStatus() != pb.CommandStatus_COMMAND_STATUS_APPLIED {
		t.Fatalf("Bo's result: %v %v", r, err)
	}

	p := openPage(t, base, 360, 740)
	p.signIn(h.Chief)
	p.waitHall(3)
	p.click("Audit", "#audit-open")
	p.poll("the hall's audit", `document.getElementById("audit-says").textContent.includes("entries")`, 5*time.Second)
	all := evalAs[[]auditLine](p, auditJS)
	var results, added int
	for _, l := range all {
		if strings.Contains(l.Text, "result 1-0") {
			results++
			if l.Board != "Nordic Open:3.B1" || !strings.Contains(l.Text, "Bo") || !strings.Contains(l.Text, "“Black resigned”") {
				t.Errorf("Bo's result reads %+v; want board Nordic Open:3.B1, Bo, his reason", l)
			}
		}
		if strings.Contains(l.Text, "Black +1:00") && l.Board == "Nordic Open:3.A1" {
			added++
		}
	}
	if results != 1 || added != 1 {
		t.Errorf("the hall's audit lists Bo's result %d times and the chief's minute %d times; want once each (a command and its event are one entry): %+v", results, added, all)
	}

	// Who changed which result: the kind filter, asked of the hall.
	p.do("kind result", sendKeys(`#audit-form input[name="kind"]`, "result"))
	p.click("Show", "#audit-show")
	p.poll("results only", `(() => { const l = `+auditJS+`; return l.length === 1 && l[0].text.includes("result 1-0"); })()`, 5*time.Second)
	// By whom: the chief's own.
	evalAs[bool](p, `(document.querySelector('#audit-form input[name="kind"]').value = "", true)`)
	p.do("who: chief", sendKeys(`#audit-form input[name="actor"]`, "chief"))
	p.click("Show", "#audit-show")
	p.poll("the chief's entries", `(() => { const l = `+auditJS+`; return l.length > 0 && l.every(x => x.text.includes("chief arbiter")); })()`, 5*time.Second)
	if n := evalAs[int](p, `[...document.querySelectorAll("#audit-view, #audit-view *")].filter(e => e.getBoundingClientRect().right > innerWidth + 1 || e.getBoundingClientRect().left < -1).length`); n != 0 {
		t.Errorf("%d elements of the audit view are wider than a 360 px phone", n)
	}
	p.shot("dashboard-audit-phone.png", "")

	// An arbiter of section B: section B's board only, nothing of the hall.
	q := openPage(t, base, 360, 740)
	q.signIn(bo)
	q.waitHall(1)
	q.click("Audit", "#audit-open")
	q.poll("Bo's audit", `document.getElementById("audit-says").textContent.includes("entries")`, 5*time.Second)
	for _, l := range evalAs[[]auditLine](q, auditJS) {
		if l.Board != "Nordic Open:3.B1" {
			t.Errorf("an arbiter of section B sees an entry of %q: %q", l.Board, l.Text)
		}
	}
}
