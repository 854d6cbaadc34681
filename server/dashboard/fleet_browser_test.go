package dashboard_test

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/chesshall/hallclock/clockdev/sim"
	"github.com/chesshall/hallclock/internal/testkit/halltest"
	"github.com/chesshall/hallclock/internal/testkit/longtest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// The demo's hall — three tournaments of 67 boards each, 201 games
// playing — on one 1920×1080 screen: every tile within the window without
// scrolling, every clock running and online. The hall view (large, for a
// screen seen from a distance) fits them too, and the list holds a row
// for each. One round chosen at the top is followed on its own.
//
// The games run on the server's virtual clocks, cheap enough for the race
// detector (the demo's 201 clocks are cmd/hallserver's
// TestDemoDashboardInABrowser). For the README's screenshots
// (HALL_SCREENSHOTS=1) the demo's simulated fleet plays instead, six times
// faster than real time, shot 20 s into its rounds.
func TestDashboardWholeHallOnOneScreen(t *testing.T) {
	longtest.Skip(t)
	if testing.Short() {
		t.Skip("201 games and a browser")
	}
	t.Parallel()
	fleet := os.Getenv("HALL_SCREENSHOTS") != ""
	var h *halltest.Hall
	setup := time.Now()
	if fleet {
		h = halltest.Start(t, halltest.OnLoopback(), halltest.WithSpeed(6))
		playDemo(t, h, 6)
	} else {
		h = halltest.Start(t)
		virtualHall(t, h)
	}
	t.Logf("the hall set up in %s", time.Since(setup).Round(time.Millisecond))
	base := h.HTTP(t)
	p := openPage(t, base, 1920, 1080)
	code, err := h.Server.Sessions().IssueCode(context.Background(), h.Chief)
	if err != nil {
		t.Fatal(err)
	}
	began := time.Now()
	p.useLink(base + "/signin?code=" + code)
	p.poll("the whole hall", `document.querySelectorAll(".tile").length === 201 && document.querySelectorAll(".tile.st-running").length >= 190`, time.Minute)
	t.Logf("201 boards shown, playing, after %s", time.Since(began).Round(time.Millisecond))
	p.poll("every clock online", `document.querySelectorAll(".tile.off").length === 0`, 5*time.Second)
	if fleet {
		time.Sleep(20 * time.Second) // HALL_SCREENSHOTS only: games under way for the README
	}
	checkFits(t, p, "tiles")
	p.shot("dashboard-hall-201.png", "")

	p.click("hall view", "#mode-hall")
	p.poll("hall view", `document.body.classList.contains("hallview")`, 2*time.Second)
	checkFits(t, p, "hall view")
	p.shot("dashboard-hallview-201.png", "")
	p.do("leave the hall view", keyEscape())
	p.click("list", "#mode-list")
	p.poll("a row for each board", `document.querySelectorAll("#hall tr.row").length === 201`, 2*time.Second)

	// One round chosen at the top: its 67 boards, followed live.
	p.click("tiles", "#mode-tiles")
	p.do("the blitz round", setSelect("#view", evalAs[string](p, `[...document.querySelectorAll("#view option")].find(o => o.textContent.startsWith("Blitz Night")).value`)))
	p.poll("the round's boards, live", `document.querySelectorAll(".tile").length === 67 && document.getElementById("live").textContent === "live" &&
		document.getElementById("title").textContent === "Blitz Night · round 1"`, 5*time.Second)
	if !fleet {
		arb, ctx := h.Arbiter(t)
		list, err := arb.ListBoards(ctx, &pb.ListBoardsRequest{Tournament: "Blitz Night", Number: 1})
		if err != nil || len(list.GetBoards()) != 67 {
			t.Fatalf("the blitz round: %v", err)
		}
		id := list.GetBoards()[40].GetBoardId()
		if _, err := arb.BoardAction(ctx, &pb.BoardActionRequest{BoardId: id, Action: &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_PRESS, Side: pb.Side_SIDE_WHITE}}); err != nil {
			t.Fatal(err)
		}
		p.poll("a move in the round", `document.querySelector('`+tile(id)+`').classList.contains("run-black")`, 3*time.Second)
	}
}

// virtualHall sets up the demo's three tournaments of 67 boards, each
// board on a virtual clock (the server keeps its time), all started.
func virtualHall(t *testing.T, h *halltest.Hall) {
	t.Helper()
	arb, ctx := h.Arbiter(t)
	n := 0
	for _, spec := range sim.DemoRounds(67) {
		r := h.NewRound(t, spec.Tournament, 1, &pb.ClockConfig{TimeControl: spec.TimeControl})
		for i := 1; i <= spec.Boards; i++ {
			n++
			b, err := arb.AddBoard(ctx, &pb.AddBoardRequest{RoundId: r.GetRoundId(), Number: int32(i), White: player(2*n - 1), Black: player(2 * n)})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := arb.UseVirtualClock(ctx, &pb.UseVirtualClockRequest{BoardId: b.GetBoardId(), Reason: "no clocks in this test"}); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := arb.StartRound(ctx, &pb.StartRoundRequest{RoundId: r.GetRoundId()}); err != nil {
			t.Fatal(err)
		}
	}
}

// playDemo plays the demo's rounds on h with the demo's simulated fleet
// until the test ends.
func playDemo(t *testing.T, h *halltest.Hall, speed float64) {
	t.Helper()
	f, err := sim.New(sim.Config{Target: h.Addr(), ChiefToken: h.Chief, Rounds: sim.DemoRounds(67), Speed: speed, Seed: 9, DevicePrefix: "demo"})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _, _ = f.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
}

// checkFits fails unless every tile lies within the window and the hall
// does not scroll.
func checkFits(t *testing.T, p *page, mode string) {
	t.Helper()
	p.poll(mode+": laid out", `document.querySelectorAll(".tile").length > 0`, time.Second)
	got := evalAs[string](p, `(() => {
		const hall = document.getElementById("hall");
		const out = [...document.querySelectorAll(".tile")].filter(t => {
			const r = t.getBoundingClientRect();
			return r.height === 0 || r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth;
		}).length;
		return out + " " + (hall.scrollHeight > hall.clientHeight + 1) + " " + getComputedStyle(hall).getPropertyValue("--font");
	})()`)
	var outside int
	var scrolls bool
	var font string
	fmt.Sscanf(got, "%d %t %s", &outside, &scrolls, &font)
	if outside != 0 || scrolls {
		t.Errorf("%s: %d of 201 tiles outside the 1920×1080 window, the hall scrolls: %v", mode, outside, scrolls)
	}
	t.Logf("%s: 201 tiles in 1920×1080, type %s", mode, font)
}
