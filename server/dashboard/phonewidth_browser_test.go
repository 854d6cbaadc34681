package dashboard_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/chesshall/hallclock/internal/testkit/browsertest"
	"github.com/chesshall/hallclock/internal/testkit/halltest"
	"github.com/chesshall/hallclock/internal/testkit/longtest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
	"github.com/chesshall/hallclock/server"
)

// The dashboard fits a phone's width (docs/dashboard.md says 360 to 430
// px), and a tablet's: at 360, 390, 430, 768 and 1024 px nothing on the
// page reaches past the screen's edge — the top bar of a real hall full (three tournaments of
// long names, sections, the stream badge, the buttons), the hall's tiles
// and group headers, the attention panel open, and a board open with its
// clocks, position, moves, actions and timeline, its close button within
// reach.
func TestDashboardFitsAPhone(t *testing.T) {
	longtest.Skip(t)
	t.Parallel()
	// The stream's badge at its widest: NATS away, a backlog waiting.
	away := func(context.Context) (server.StreamStatus, error) {
		return server.StreamStatus{Hall: "reykjavik", Stream: "HALL_reykjavik", NATS: "nats://10.0.0.7:4222", Backlog: 3712, OldestAgeMs: 754_000,
			LastError: "nats: no servers available for connection", LastErrorUnixMs: time.Now().UnixMilli()}, nil
	}
	h := halltest.Start(t, halltest.OnLoopback(), halltest.WithOptions(server.Options{Stream: away}))
	specs := []boardSpec{{section: "A"}, {section: "A"}, {section: "A"}, {section: "B"}, {section: "B"}, {section: "B"}}
	var first, eboard *table
	for _, e := range []struct{ name, clocks, tc string }{
		{"Reykjavik International Chess Open Championship", "REY", "40/90m+30s:30m+30s"},
		{"Rapid Cup of the Nordic Federations", "RAP", "15m+10s"},
		{"Blitz Night Under-2000 Rating Group", "BLZ", "3m+2s"}} {
		tb := newEvent(t, h, e.name, e.clocks, e.tc, specs)
		tb.start(t)
		tb.act(t, tb.boards[1].GetBoardId(), &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_PAUSE})
		if first == nil {
			first, eboard = tb, tb
		}
	}
	b := eboard.boards[0].GetBoardId()
	for i, m := range opening {
		side := rules.White
		if i%2 == 1 {
			side = rules.Black
		}
		if err := eboard.devs[b].Press(side, m.san, m.fen); err != nil {
			t.Fatal(err)
		}
	}
	eboard.act(t, b, &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_ADD_TIME, Side: pb.Side_SIDE_BLACK, Ms: 60_000})

	p := openPage(t, h.HTTP(t), 1280, 800)
	p.useLink(p.base + "/signin?code=" + first.code(t))
	p.waitHall(3 * len(specs))
	fits := func(w int64, what string) {
		t.Helper()
		wide, err := browsertest.Wider(p.ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(wide) > 0 {
			t.Errorf("%d px, %s: %d elements reach past the screen's edge:\n\t%s", w, what, len(wide), strings.Join(wide, "\n\t"))
		}
	}
	for _, w := range []int64{360, 390, 430, 768, 1024} {
		p.do(fmt.Sprint(w, " px"), chromedp.EmulateViewport(w, 844, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulateScale(3)), navigate(p.base+"/"))
		p.waitHall(3 * len(specs))
		p.poll("the top bar full", `document.getElementById("title").textContent.includes("Blitz") && document.getElementById("f-section").options.length === 3 &&
			!document.getElementById("stream").hidden && document.getElementById("attn-count").textContent !== "0"`, 10*time.Second)
		fits(w, "the hall")
		p.shot(fmt.Sprintf("dashboard-phone-%d.png", w), "")

		if w <= 760 { // a phone's attention panel opens from its button; a tablet's is beside the hall
			p.click("the ⚑ button", "#attn-toggle")
			p.poll("the attention panel open", `getComputedStyle(document.getElementById("attention")).display !== "none"`, 2*time.Second)
			fits(w, "the attention panel open")
			p.click("the ⚑ button again", "#attn-toggle")
		}

		p.click("the e-board", tile(b))
		p.poll("its board open, with its position and timeline", `!document.getElementById("board").hidden && document.querySelectorAll("#board .diagram .sq").length === 64 &&
			document.querySelectorAll("#board .timeline li").length > 0`, 5*time.Second)
		fits(w, "a board open")
		if !evalAs[bool](p, `(() => { const b = document.querySelector("#board .close"), r = b.getBoundingClientRect();
			return r.left >= 0 && r.right <= innerWidth && b.contains(document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2)); })()`) {
			t.Errorf("%d px: the board's close button is out of reach", w)
		}
		p.shot(fmt.Sprintf("dashboard-phone-%d-board.png", w), "")
		p.do("back", keyEscape())
		p.poll("the board closed", `document.getElementById("board").hidden`, 2*time.Second)
	}
}
