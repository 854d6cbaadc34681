package dashboard_test

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/chesshall/hallclock/internal/testkit/browsertest"
	"github.com/chesshall/hallclock/internal/testkit/halltest"
	"github.com/chesshall/hallclock/internal/testkit/longtest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
)

// An Armageddon board (White 5 min, Black 4, +2 s from move 61, draw odds
// for Black) beside an ordinary one, both drawn: the Armageddon's tile,
// row, hall-view tile and board page show the draw and that it counts as
// Black's win, and the board page says both sides' controls and the draw
// odds; the ordinary board shows a plain draw. At 360 px nothing reaches
// past the screen's edge.
func TestDashboardArmageddon(t *testing.T) {
	longtest.Skip(t)
	t.Parallel()
	h := halltest.Start(t, halltest.OnLoopback())
	arm := &pb.ClockConfig{TimeControl: "white 60/5m:0+2s | black 60/4m:0+2s", Regulations: &pb.Regulations{DrawOdds: "black"}}
	tb := newTable(t, h, "90m+30s", []boardSpec{{section: "A", config: arm}, {section: "A"}})
	tb.start(t)
	for _, b := range tb.boards {
		d := tb.devs[b.GetBoardId()]
		for _, s := range []rules.Side{rules.White, rules.Black} {
			if err := d.Press(s, "", ""); err != nil {
				t.Fatal(err)
			}
		}
		halltest.Synced(t, d)
		tb.act(t, b.GetBoardId(), &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_RESULT, Result: "1/2-1/2", Termination: "agreement"})
	}
	a, plain := tb.boards[0].GetBoardId(), tb.boards[1].GetBoardId()

	p := openPage(t, h.HTTP(t), 1280, 800)
	p.signIn(h.Chief)
	p.waitHall(2)
	row := func(id string) string { return `[data-board="` + id + `"]` }
	p.poll("the results shown", `document.querySelector('`+row(a)+`') && document.querySelector('`+row(a)+`').textContent.includes("½-½, counts 0-1") &&
		document.querySelector('`+row(plain)+`').textContent.includes("½-½")`, 5*time.Second)
	if got := p.text(row(plain)); strings.Contains(got, "counts") {
		t.Errorf("the ordinary board's tile says %q: no draw odds there", got)
	}
	p.click("hall view", "#mode-hall")
	p.poll("hall view: the result in the clocks' place", `document.body.classList.contains("hallview") &&
		document.querySelector('`+tile(a)+` .res').textContent === "½-½ → 0-1" && document.querySelector('`+tile(plain)+` .res').textContent === "½-½"`, 3*time.Second)
	p.click("the Armageddon board", tile(a))
	p.poll("its board open", `!document.getElementById("board").hidden`, 5*time.Second)
	page := p.text("#board")
	for _, want := range []string{"White 5 min for 60 moves", "Black 4 min for 60 moves", "blitz", "draw odds for Black: a draw counts as Black's win",
		"result ½-½, counts 0-1"} {
		if !strings.Contains(page, want) {
			t.Errorf("the board page does not say %q:\n%s", want, page)
		}
	}
	p.do("360 px", chromedp.EmulateViewport(360, 800, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulateScale(3)), navigate(p.base+"/?mode=hall"))
	p.waitHall(2)
	p.poll("hall view at 360 px", `document.querySelector('`+tile(a)+` .res') && document.querySelector('`+tile(a)+` .res').textContent === "½-½ → 0-1"`, 5*time.Second)
	for _, what := range []string{"the hall", "the board"} {
		if what == "the board" {
			p.click("the Armageddon board", tile(a))
			p.poll("its board open", `!document.getElementById("board").hidden`, 5*time.Second)
		}
		wide, err := browsertest.Wider(p.ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(wide) > 0 {
			t.Errorf("360 px, %s: %d elements reach past the screen's edge:\n\t%s", what, len(wide), strings.Join(wide, "\n\t"))
		}
	}
}

// The dashboard sets up an Armageddon board: "+ board" on the round's
// header, "Armageddon", the players, Add. The hall answers with both
// controls in words and the draw odds; the board arrives on the page and
// the hall holds it with both.
func TestDashboardAddsAnArmageddonBoard(t *testing.T) {
	longtest.Skip(t)
	t.Parallel()
	h := halltest.Start(t, halltest.OnLoopback())
	tb := newTable(t, h, "90m+30s", []boardSpec{{section: "A"}})
	p := openPage(t, h.HTTP(t), 1280, 800)
	p.signIn(h.Chief)
	p.waitHall(1)
	p.click("+ board", ".ghead .gadd")
	p.poll("the dialog open", `document.getElementById("addboard-dialog").open && document.getElementById("ab-number").value === "2"`, 2*time.Second)
	p.click("Armageddon", "#ab-armageddon")
	p.do("the players", sendKeys("#ab-white", "Tie, Anna"), sendKeys("#ab-black", "Break, Bert"))
	p.click("Add", "#ab-add")
	p.poll("the hall's answer", `!document.getElementById("ab-says").hidden`, 5*time.Second)
	says := p.text("#ab-says")
	for _, want := range []string{"Board 2 added", "White 5 min for 60 moves", "Black 4 min for 60 moves", "(blitz)", "draw odds for Black"} {
		if !strings.Contains(says, want) {
			t.Errorf("the dialog says %q, want %q in it", says, want)
		}
	}
	p.click("Close", "#ab-close")
	p.waitHall(2)
	arb, ctx := h.Arbiter(t)
	r, err := arb.ListBoards(ctx, &pb.ListBoardsRequest{RoundId: tb.round.GetRoundId()})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, b := range r.GetBoards() {
		if b.GetNumber() == 2 {
			found = true
			if b.GetConfig().GetTimeControl() != "white 60/300:0+2 | black 60/240:0+2" || b.GetConfig().GetRegulations().GetDrawOdds() != "black" {
				t.Errorf("board 2: %v", b.GetConfig())
			}
		}
	}
	if !found {
		t.Errorf("no board 2 in the hall: %v", r.GetBoards())
	}
}
