package dashboard_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/chesshall/hallclock/clockdev/sim"
	"github.com/chesshall/hallclock/internal/halltest"
)

// The demo's hall — three tournaments of 67 boards each (a classical open
// with e-boards, a rapid cup, a blitz night), 201 simulated clocks — on
// one 1920×1080 screen: every tile within the window without scrolling,
// every clock online, the games running. The hall view (large, for a
// screen seen from a distance) fits them too, and the list holds a row
// for each. One round chosen at the top is followed on its own.
func TestDashboardWholeHallOnOneScreen(t *testing.T) {
	if testing.Short() {
		t.Skip("201 clocks and a browser")
	}
	t.Parallel()
	const speed = 4 // the fleet's clocks and the hall's run 4 times faster than real time
	h := halltest.Start(t, halltest.OnLoopback(), halltest.WithSpeed(speed))
	base := h.HTTP(t)
	fleet, err := sim.New(sim.Config{Target: h.Addr(), ChiefToken: h.Chief, Rounds: sim.DemoRounds(67), Speed: speed, Seed: 9, DevicePrefix: "demo"})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _, _ = fleet.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })

	p := openPage(t, base, 1920, 1080)
	code, err := h.Server.Sessions().IssueCode(h.Chief)
	if err != nil {
		t.Fatal(err)
	}
	began := time.Now()
	p.do("the sign-in link", navigate(base+"/signin?code="+code))
	p.poll("the whole hall", `document.querySelectorAll(".tile").length === 201 && document.querySelectorAll(".tile.st-running").length >= 190`, time.Minute)
	t.Logf("201 boards set up, started and shown after %s", time.Since(began).Round(time.Millisecond))
	p.poll("every clock online", `document.querySelectorAll(".tile.off").length === 0`, 5*time.Second)
	checkFits(t, p, "tiles")
	p.shot("dashboard-hall-201.png", "")

	p.click("hall view", "#mode-hall")
	p.poll("hall view", `document.body.classList.contains("hallview")`, 2*time.Second)
	checkFits(t, p, "hall view")
	p.shot("dashboard-hallview-201.png", "")
	p.do("leave the hall view", keyEscape())
	p.click("list", "#mode-list")
	p.poll("a row for each board", `document.querySelectorAll("#hall tr.row").length === 201`, 2*time.Second)
	p.shot("dashboard-list-201.png", "")

	// One round chosen at the top: its 67 boards, followed live.
	p.click("tiles", "#mode-tiles")
	p.do("the blitz round", setSelect("#view", evalAs[string](p, `[...document.querySelectorAll("#view option")].find(o => o.textContent.startsWith("Blitz Night")).value`)))
	p.poll("the round's boards, live", `document.querySelectorAll(".tile").length === 67 && document.getElementById("live").textContent === "live" &&
		document.getElementById("title").textContent === "Blitz Night · round 1"`, 5*time.Second)
	moves := evalAs[string](p, `[...document.querySelectorAll(".tile .meta")].map(m => m.textContent).join("|")`)
	p.poll("the games go on", `[...document.querySelectorAll(".tile .meta")].map(m => m.textContent).join("|") !== `+jsString(moves), 10*time.Second)
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
