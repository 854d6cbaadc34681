package dashboard_test

import (
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/device"

	"github.com/chesshall/hallclock/internal/testkit/halltest"
	"github.com/chesshall/hallclock/internal/testkit/longtest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// The attention panel on a phone, where three tournaments play their
// round 3: its ⚑ button counts the entries the panel lists; each entry
// names its tournament as well as round and board ("Rapid R3 · 2"); the
// panel opens below the top bar, whose ⚑ button stays within reach, and
// closes with its close button, with Escape, with the ⚑ button and when an
// entry is tapped (the board opens).
func TestDashboardAttentionOnAPhone(t *testing.T) {
	longtest.Skip(t)
	t.Parallel()
	h := halltest.Start(t, halltest.OnLoopback())
	three := []boardSpec{{}, {}, {}}
	var paused []string
	for _, e := range []struct{ name, clocks, tc string }{{"Classical Open", "CLA", "90m+30s"}, {"Rapid Cup", "RAP", "15m+10s"}, {"Blitz Night", "BLZ", "3m+2s"}} {
		tb := newEvent(t, h, e.name, e.clocks, e.tc, three)
		tb.start(t)
		b := tb.boards[1].GetBoardId()
		tb.act(t, b, &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_PAUSE})
		paused = append(paused, b)
		if e.clocks == "CLA" { // a ruling: less urgent, listed all the same
			tb.act(t, tb.boards[0].GetBoardId(), &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_ADD_TIME, Side: pb.Side_SIDE_BLACK, Ms: 60_000})
		}
	}
	first := newEvent(t, h, "Open", "OPN", "90m+30s", []boardSpec{{}}) // for its sign-in code
	p := openPage(t, h.HTTP(t), 1280, 800)
	p.do("a phone", chromedp.Emulate(device.IPhone12))
	p.useLink(p.base + "/signin?code=" + first.code(t))
	p.waitHall(10)

	// What the panel lists and what the badge says, read at one moment.
	type panel struct {
		Badge   string
		Entries []string
	}
	read := func() panel {
		return evalAs[panel](p, `({ badge: document.getElementById("attn-count").textContent,
			entries: [...document.querySelectorAll("#attn-list li.attn .goto")].map(b => b.textContent) })`)
	}
	p.poll("the paused boards and the ruling need attention", `document.querySelectorAll("#attn-list li.k-paused").length === 3 && document.querySelectorAll("#attn-list li.k-ruling").length === 1`, 5*time.Second)
	got := read()
	if got.Badge != strconv.Itoa(len(got.Entries)) {
		t.Errorf("the ⚑ badge says %s; the panel lists %d entries: %q", got.Badge, len(got.Entries), got.Entries)
	}
	named := regexp.MustCompile(`^(Classical|Rapid|Blitz|Open) R3 · \d+$`)
	for _, e := range got.Entries {
		if !named.MatchString(e) {
			t.Errorf("an entry is named %q; want its tournament, round and board, e.g. \"Rapid R3 · 2\"", e)
		}
	}

	open := `getComputedStyle(document.getElementById("attention")).display !== "none"`
	closed := `getComputedStyle(document.getElementById("attention")).display === "none"`
	p.click("the ⚑ button", "#attn-toggle")
	p.poll("the panel open", open, 2*time.Second)
	if gap := evalAs[float64](p, `document.getElementById("attention").getBoundingClientRect().top - document.getElementById("top").getBoundingClientRect().bottom`); gap < -0.5 {
		t.Errorf("the panel covers the top bar by %.0f px", -gap)
	}
	if !evalAs[bool](p, `(() => { const b = document.getElementById("attn-toggle"), r = b.getBoundingClientRect();
		return b.contains(document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2)); })()`) {
		t.Errorf("the open panel covers its own ⚑ button")
	}
	p.shot("dashboard-phone-attention.png", "")
	p.click("the close button", "#attn-close")
	p.poll("closed by its close button", closed, 2*time.Second)
	p.click("the ⚑ button", "#attn-toggle")
	p.poll("the panel open", open, 2*time.Second)
	p.do("Escape", keyEscape())
	p.poll("closed by Escape", closed, 2*time.Second)
	p.click("the ⚑ button", "#attn-toggle")
	p.poll("the panel open", open, 2*time.Second)
	p.click("the ⚑ button again", "#attn-toggle")
	p.poll("closed by the ⚑ button", closed, 2*time.Second)

	p.click("the ⚑ button", "#attn-toggle")
	p.poll("the panel open", open, 2*time.Second)
	p.click("the Rapid Cup's paused board", `#attn-list li.k-paused[data-board="`+paused[1]+`"]`)
	p.poll("its board open, the panel closed", `!document.getElementById("board").hidden && document.querySelector("#board h2").textContent.startsWith("Rapid Cup · Round 3 · Board 2") && `+closed, 2*time.Second)
	p.do("back", keyEscape())
	p.poll("the hall, the panel still closed", `document.getElementById("board").hidden && `+closed, 2*time.Second)
}
