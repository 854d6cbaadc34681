package dashboard_test

import (
	"fmt"
	"github.com/chesshall/hallclock/internal/testkit/relay"
	"testing"
	"time"

	"github.com/chesshall/hallclock/internal/testkit/halltest"
	"github.com/chesshall/hallclock/internal/testkit/longtest"
)

// The server stops in the middle of a round (its port closes): the page
// stops every clock where it last knew it, greys the hall and says since
// when it has heard nothing, and its console stays free of errors while
// the server is away. The server starts again on the same database and
// port: the page is live again, its session kept (sessions are in the
// hall's database), without anyone signing in again.
func TestDashboardWhenTheServerStops(t *testing.T) {
	longtest.Skip(t)
	t.Parallel()
	h := halltest.Start(t, halltest.OnLoopback())
	var specs []boardSpec
	for i := range 16 {
		specs = append(specs, boardSpec{section: string(rune('A' + i/8))})
	}
	tb := newTable(t, h, "3m+2s", specs)
	tb.start(t)
	hall := relay.Open(t, h.HTTP(t))
	p := openPage(t, hall.URL(), 1280, 800)
	p.useLink(hall.URL() + "/signin?code=" + tb.code(t))
	p.waitHall(len(tb.boards))
	p.click("open a board", tile(tb.boards[0].GetBoardId()))
	p.poll("the board open", `!document.getElementById("board").hidden`, 2*time.Second)
	if moved := p.clocksMoveWithin(1500 * time.Millisecond); !moved {
		t.Fatalf("the clocks do not tick while the hall is live:\n%s", p.dump())
	}

	hall.Shut()
	lost := time.Now()
	p.poll("the page says it lost the hall", `document.body.classList.contains("stale") &&
		/^no news since \d\d:\d\d:\d\d — reconnecting/.test(document.getElementById("live").textContent) &&
		/No news from the hall since \d\d:\d\d:\d\d — reconnecting/.test(document.getElementById("banner").textContent)`, 5*time.Second)
	t.Logf("the page showed the hall lost %s after the server's port closed", time.Since(lost).Round(time.Millisecond))
	h.Restart(t) // behind the closed port: a new server on the same database
	p.expectNothingLive("while the server is away")
	p.do("back to the hall", keyEscape())
	p.poll("the board closed", `document.getElementById("board").hidden`, 2*time.Second)
	p.shot("dashboard-offline.png", "")

	hall.Open(h.HTTP(t))
	// The session is in the hall's database: the restart signed nobody out.
	p.poll("the page live again, still signed in", `document.getElementById("live").textContent === "live" &&
		!document.body.classList.contains("stale")`, 20*time.Second)
	if !p.clocksMoveWithin(1500 * time.Millisecond) {
		t.Errorf("the page says it is live again, but its clocks do not tick:\n%s", p.dump())
	}
	if got := p.text("#who-label"); got == "" {
		t.Errorf("after the restart the page names nobody signed in:\n%s", p.dump())
	}
}

// clocksMoveWithin reports whether any clock the page shows (tiles, list,
// the open board) changes within d.
func (p *page) clocksMoveWithin(d time.Duration) bool {
	p.t.Helper()
	return evalAs[bool](p, `(async () => {
		const read = () => [...document.querySelectorAll(".tile .ck, .row .ck, #board .bclock")].map(e => e.textContent).join("|");
		const before = read();
		await new Promise(r => setTimeout(r, `+fmt.Sprint(d.Milliseconds())+`));
		return read() !== before;
	})()`)
}

// expectNothingLive checks that the page shows the hall as lost: greyed,
// no clock coloured as running, the clocks stopped, and since when it has
// heard nothing.
func (p *page) expectNothingLive(when string) {
	p.t.Helper()
	if !evalAs[bool](p, `document.body.classList.contains("stale") && getComputedStyle(document.getElementById("main")).filter.includes("grayscale")`) {
		p.t.Errorf("%s: the hall is not greyed:\n%s", when, p.dump())
	}
	if n := evalAs[int](p, `[...document.querySelectorAll(".run-white .ck.white, .run-black .ck.black, #board .bside.run .bclock")]
		.filter(e => getComputedStyle(e).backgroundColor !== "rgba(0, 0, 0, 0)").length`); n > 0 {
		p.t.Errorf("%s: %d clocks are coloured as running", when, n)
	}
	if p.clocksMoveWithin(1500 * time.Millisecond) {
		p.t.Errorf("%s: the clocks tick on", when)
	}
	if !evalAs[bool](p, `/no news since \d\d:\d\d:\d\d/.test(document.getElementById("banner").textContent + " " + document.getElementById("live").textContent + " " + document.getElementById("live").title)`) {
		p.t.Errorf("%s: the page does not say since when it has heard nothing:\n%s", when, p.dump())
	}
}
