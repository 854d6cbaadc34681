package dashboard_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/chesshall/hallclock/internal/testkit/halltest"
	"github.com/chesshall/hallclock/internal/testkit/longtest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// A hall of 400 boards (16 tournaments of 25, imported: no clocks yet).
// The attention panel lists their "no clock" as one entry with its count,
// which opens to the list of the boards (each opening its board), rather
// than 400 entries; the ⚑ badge still counts every board's entry. Hall
// view shows one tournament at a time, chosen at the top or with
// PageDown, its tiles large enough to read from a distance; all 400 at
// once, too small for that, it says so and how to show fewer.
func TestDashboardHallOf400Boards(t *testing.T) {
	longtest.Skip(t)
	t.Parallel()
	h := halltest.Start(t, halltest.OnLoopback())
	arb, ctx := h.Arbiter(t)
	const tournaments, boards = 16, 25
	for k := range tournaments {
		r := h.NewRound(t, fmt.Sprintf("Open %02d of the Festival", k+1), 3, &pb.ClockConfig{TimeControl: "90m+30s"})
		for n := 1; n <= boards; n++ {
			if _, err := arb.AddBoard(ctx, &pb.AddBoardRequest{RoundId: r.GetRoundId(), Number: int32(n), White: player(2*n - 1), Black: player(2 * n)}); err != nil {
				t.Fatal(err)
			}
		}
	}
	code, err := h.Server.Sessions().IssueCode(context.Background(), h.Chief)
	if err != nil {
		t.Fatal(err)
	}
	p := openPage(t, h.HTTP(t), 1920, 1080)
	p.useLink(p.base + "/signin?code=" + code)
	p.waitHall(tournaments * boards)

	p.poll("the attention panel", `document.getElementById("attn-count").textContent === "400"`, 5*time.Second)
	type panel struct {
		Top    int
		Groups []string
	}
	got := evalAs[panel](p, `({ top: document.querySelectorAll("#attn-list > li").length,
		groups: [...document.querySelectorAll("#attn-list > li.group")].map(g => g.querySelector(".count").textContent + ": " + g.querySelector(".why").textContent) })`)
	if got.Top != 1 || len(got.Groups) != 1 || got.Groups[0] != "400 boards: no clock: assign one or use a virtual clock" {
		t.Errorf("the attention panel lists %d entries, groups %q; want one: 400 boards without a clock", got.Top, got.Groups)
	}
	p.click("the group", "#attn-list > li.group .count")
	p.poll("its 400 boards listed", `document.querySelectorAll("#attn-list li.group .members li.attn .goto").length === 400`, 3*time.Second)
	p.shot("dashboard-attention-400.png", "#attention")
	p.click("one of them", `#attn-list li.group .members li.attn .goto`)
	p.poll("its board open", `!document.getElementById("board").hidden && document.querySelector("#board h2").textContent.includes("Board 1")`, 3*time.Second)
	p.do("back", keyEscape())
	p.poll("the board closed", `document.getElementById("board").hidden`, 2*time.Second)

	font := `parseFloat(getComputedStyle([...document.querySelectorAll(".tile")].find(t => !t.hidden)).fontSize)`
	p.click("hall view", "#mode-hall")
	p.poll("hall view", `document.body.classList.contains("hallview")`, 2*time.Second)
	all := evalAs[float64](p, font)
	p.poll("the page says the tiles are too small to read, and what to do", `!document.getElementById("fit-hint").hidden &&
		document.getElementById("fit-hint").textContent.startsWith("400 boards in 9 px type: choose a tournament (PageDown)")`, 2*time.Second)
	if !evalAs[bool](p, `document.getElementById("f-tournament").getClientRects().length > 0 && document.getElementById("f-tournament").options.length === 17`) {
		t.Fatalf("hall view has no tournament chooser")
	}
	p.do("one tournament", setSelect("#f-tournament", "Open 02 of the Festival"))
	p.poll("its 25 tiles", `[...document.querySelectorAll(".tile")].filter(t => !t.hidden).length === 25`, 2*time.Second)
	one := evalAs[float64](p, font)
	if !evalAs[bool](p, `document.getElementById("fit-hint").hidden`) {
		t.Errorf("one tournament's tiles, readable: the page still says %q", p.text("#fit-hint"))
	}
	t.Logf("hall view on 1920×1080: type %.1f px with 400 boards, %.1f px with one tournament's 25", all, one)
	if one < 24 {
		t.Errorf("hall view of one tournament's 25 boards: type %.1f px; want 24 px or more, readable from a distance", one)
	}
	p.shot("dashboard-hallview-400-one.png", "")
	p.do("PageDown", pageDown())
	p.poll("the next tournament", `document.getElementById("f-tournament").value === "Open 03 of the Festival" &&
		[...document.querySelectorAll(".tile")].filter(t => !t.hidden).every(t => t.getAttribute("aria-label") && true) &&
		[...document.querySelectorAll("h3.ghead")].filter(h => h.offsetParent).every(h => h.textContent.startsWith("Open 03"))`, 2*time.Second)
}

func pageDown() chromedp.Action[chromedp.Void] { return chromedp.KeyEvent(kb.PageDown) }
