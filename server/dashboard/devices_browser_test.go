package dashboard_test

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/device"

	"github.com/chesshall/hallclock/internal/testkit/halltest"
	"github.com/chesshall/hallclock/internal/testkit/longtest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// A deputy arbiter at a section with a tablet, or a phone: the page fits
// the screen's width (nothing to scroll sideways), the attention panel
// opens from its button on a phone, and a board opens full screen with
// its actions within reach.
func TestDashboardOnATabletAndAPhone(t *testing.T) {
	longtest.Skip(t)
	t.Parallel()
	h := halltest.Start(t, halltest.OnLoopback())
	base := h.HTTP(t)
	specs := []boardSpec{}
	for range 12 {
		specs = append(specs, boardSpec{section: "A"})
	}
	tb := newTable(t, h, "90m+30s", specs)
	tb.start(t)
	tb.act(t, tb.boards[2].GetBoardId(), &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_PAUSE})
	p := openPage(t, base, 1280, 800)
	p.signIn(h.Chief)
	p.waitHall(len(specs))

	for _, c := range []struct {
		name   string
		device chromedp.Device
	}{{"tablet", device.IPad}, {"phone", device.IPhone12}} {
		p.do(c.name, chromedp.Emulate(c.device), navigate(base+"/"))
		p.waitHall(len(specs))
		if w := evalAs[int](p, `document.documentElement.scrollWidth - innerWidth`); w > 0 {
			t.Errorf("%s: the page is %d px wider than the screen", c.name, w)
		}
		if n := evalAs[int](p, `[...document.querySelectorAll(".tile")].filter(t => t.getBoundingClientRect().right > innerWidth).length`); n != 0 {
			t.Errorf("%s: %d tiles reach past the screen's edge", c.name, n)
		}
		p.shot("dashboard-"+c.name+".png", "")
		if c.name == "phone" {
			p.click("the attention button", "#attn-toggle")
			p.poll("the attention panel", `getComputedStyle(document.getElementById("attention")).display !== "none" && document.querySelectorAll("#attn-list li").length > 0`, 2*time.Second)
			p.click("the paused board", `#attn-list li[data-board="`+tb.boards[2].GetBoardId()+`"]`)
		} else {
			p.click("a board", tile(tb.boards[2].GetBoardId()))
		}
		p.poll("the board full width", `!document.getElementById("board").hidden && document.getElementById("board").getBoundingClientRect().width >= Math.min(innerWidth, 760) - 1`, 2*time.Second)
		if !evalAs[bool](p, `(() => { const b = document.querySelector('#board button[data-action="resume"]'); const r = b.getBoundingClientRect(); return r.width >= 40 && r.right <= innerWidth; })()`) {
			t.Errorf("%s: the Resume button is not within reach", c.name)
		}
		p.shot("dashboard-"+c.name+"-board.png", "")
		p.do("back", keyEscape())
		p.do("reset", chromedp.EmulateReset())
	}
}
