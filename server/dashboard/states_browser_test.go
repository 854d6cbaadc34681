package dashboard_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chesshall/hallclock/internal/testkit/halltest"
	"github.com/chesshall/hallclock/internal/testkit/longtest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// The attention panel and the time-trouble filter on states a real hall
// reaches, in Chromium. A1's Black is absent at the start with a default
// time of 5 min: the panel says so, urgently as the default nears, and the
// arrival recorded from the page (followed from the panel) clears it, in
// the timeline and the audit log. A2's clock reports 12% battery in its
// heartbeats. White has 4:00 on A3 (90 min, no increment: time trouble,
// 8.4), on A4 (30 s increment: none) and on A5 (rapid: the players need
// not record); the filter leaves A3 alone.
func TestDashboardAttentionAndTimeTroubleOnRealStates(t *testing.T) {
	longtest.Skip(t)
	t.Parallel()
	h := halltest.Start(t, halltest.OnLoopback())
	base := h.HTTP(t)
	defaultTime := int64(5 * 60_000)
	late := &pb.ClockConfig{TimeControl: "90m", Regulations: &pb.Regulations{DefaultTimeMs: &defaultTime}}
	tb := newTable(t, h, "90m", []boardSpec{{section: "A", config: late}, {section: "A", battery: 12}, {section: "A"},
		{section: "A", config: &pb.ClockConfig{TimeControl: "90m+30s"}}, {section: "A", config: &pb.ClockConfig{TimeControl: "15m+10s"}}})
	a1, a2, a3 := tb.boards[0], tb.boards[1], tb.boards[2]
	arb, ctx := h.Arbiter(t)
	r, err := arb.StartRound(ctx, &pb.StartRoundRequest{RoundId: tb.round.GetRoundId(),
		Absent: []*pb.Absence{{BoardId: a1.GetBoardId(), Side: pb.Side_SIDE_BLACK}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range r.GetBoards() {
		if b.GetStatus() != pb.CommandStatus_COMMAND_STATUS_APPLIED {
			t.Fatalf("starting board %s: %v %s", b.GetBoardId(), b.GetStatus(), b.GetMessage())
		}
	}
	for _, b := range tb.boards[2:] {
		tb.act(t, b.GetBoardId(), &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_PAUSE})
		tb.act(t, b.GetBoardId(), &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_SET_CLOCK, WhiteMs: 4 * 60_000, BlackMs: 20 * 60_000})
		tb.act(t, b.GetBoardId(), &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_RESUME})
	}
	// The page reads the devices when it opens: wait for A2's heartbeat.
	halltest.Eventually(t, 5*time.Second, func() error {
		ds, err := arb.ListDevices(ctx, &pb.ListDevicesRequest{})
		if err != nil {
			return err
		}
		for _, d := range ds.GetDevices() {
			if d.GetDeviceId() == a2.GetDeviceId() && d.GetBatteryPct() == 12 {
				return nil
			}
		}
		return fmt.Errorf("no heartbeat of %s with its battery yet", a2.GetDeviceId())
	})

	p := openPage(t, base, 1600, 1000)
	p.signIn(h.Chief)
	p.waitHall(len(tb.boards))
	entry := func(kind string, b *pb.Board) string {
		return `#attn-list li.k-` + kind + `[data-board="` + b.GetBoardId() + `"]`
	}
	p.poll("the attention panel", `document.querySelector('`+entry("battery", a2)+`') !== null && document.querySelector('`+entry("trouble", a3)+`') !== null &&
		document.querySelector('`+entry("absent-black", a1)+`') !== null`, 5*time.Second)
	if got := p.text(entry("battery", a2)); !contains(got, "clock "+a2.GetDeviceId()+" battery 12%") {
		t.Errorf("the battery entry says %q", got)
	}
	if got := p.text(entry("trouble", a3)); !contains(got, "White in time trouble (8.4)") {
		t.Errorf("the time-trouble entry says %q", got)
	}
	absent := entry("absent-black", a1)
	if got := p.text(absent); !contains(got, "Black absent: default in ") || !evalAs[bool](p, `document.querySelector('`+absent+`').classList.contains("u2")`) {
		t.Errorf("the absence entry says %q (urgency 2 wanted: the default time is within 10 min)", got)
	}
	if n := evalAs[int](p, `document.querySelectorAll("#attn-list li.k-trouble").length`); n != 1 {
		t.Errorf("%d boards in time trouble in the panel; want A3 alone (A4 has a 30 s increment, A5 is rapid)", n)
	}

	// The time-trouble filter narrows the tiles to A3, and lets go.
	p.click("the time-trouble filter", "#f-trouble")
	if got := p.shown(); got != a3.GetBoardId() {
		t.Errorf("time trouble: the tiles of %q; want A3 (%s) alone", got, a3.GetBoardId())
	}
	p.click("the time-trouble filter off", "#f-trouble")
	if n := len(strings.Fields(p.shown())); n != len(tb.boards) {
		t.Errorf("the filter off: %d tiles shown, want %d", n, len(tb.boards))
	}

	// Black arrives on A1: recorded from the page, followed from the panel.
	p.click("follow the absence", absent)
	p.poll("board A1 open", `!document.getElementById("board").hidden && document.querySelector("#board h2").textContent.includes("Board A1")`, 2*time.Second)
	p.click("Player arrives", `#board button[data-action="arrive"]`)
	p.do("Black", setSelect(`#action-dialog select[name="side"]`, "black"))
	p.confirmApplied("arrived 3 min late")
	p.poll("the absence leaves the panel", `document.querySelector('`+absent+`') === null`, 3*time.Second)
	p.poll("the timeline shows the arrival", `[...document.querySelectorAll("#board .timeline li")].some(li => li.textContent.includes("Black arrives") && li.textContent.includes("arrived 3 min late"))`, 3*time.Second)
	if p.text(`#board button[data-action="arrive"]`) != "" {
		t.Errorf("the board still offers a player's arrival with nobody absent")
	}
	arrived := tb.applied(t, a1.GetBoardId(), pb.ActionKind_ACTION_KIND_ARRIVE)
	if arrived == nil || arrived.GetIssuedBy() != "chief:chief arbiter" || arrived.GetReason() != "arrived 3 min late" ||
		arrived.GetAfter().GetBlack().GetAbsent() || arrived.GetAfter().GetStatus() != pb.BoardStatus_BOARD_STATUS_RUNNING {
		t.Errorf("audit log: the arrival is %v; want Black present, the game running, as the chief's command with the reason", arrived)
	}
}
