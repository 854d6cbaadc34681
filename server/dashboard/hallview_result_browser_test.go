package dashboard_test

import (
	"testing"
	"time"

	"github.com/chesshall/hallclock/internal/testkit/halltest"
	"github.com/chesshall/hallclock/internal/testkit/longtest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// In hall view (a screen read from a distance, no meta line) a finished
// game shows its result, large and bright in its clocks' place — not only
// a greyed tile; a game still playing shows its clocks.
func TestHallViewShowsResults(t *testing.T) {
	longtest.Skip(t)
	t.Parallel()
	h := halltest.Start(t, halltest.OnLoopback())
	tb := newTable(t, h, "90m+30s", []boardSpec{{}, {}, {}})
	tb.start(t)
	for i, r := range []string{"1-0", "1/2-1/2"} {
		tb.act(t, tb.boards[i].GetBoardId(), &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_RESULT, Result: r, Termination: "normal"})
	}
	p := openPage(t, h.HTTP(t), 1920, 1080)
	p.useLink(p.base + "/signin?code=" + tb.code(t))
	p.waitHall(3)
	p.click("hall view", "#mode-hall")
	p.poll("hall view", `document.body.classList.contains("hallview")`, 2*time.Second)
	type shown struct {
		Text             string
		ResPx, NamePx    float64
		ResShown, Clocks bool
	}
	read := func(id string) shown {
		return evalAs[shown](p, `(() => { const t = document.querySelector('`+tile(id)+`'), r = t.querySelector(".res"), n = t.querySelector(".nm");
			const visible = e => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== "hidden";
			return { text: t.innerText, resPx: parseFloat(getComputedStyle(r).fontSize), namePx: parseFloat(getComputedStyle(n).fontSize),
				resShown: visible(r), clocks: [...t.querySelectorAll(".ck")].every(visible) }; })()`)
	}
	for i, want := range []string{"1-0", "½-½"} {
		got := read(tb.boards[i].GetBoardId())
		if !got.ResShown || !contains(got.Text, want) {
			t.Errorf("hall view, board %d finished %s: the tile shows %q", i+1, want, got.Text)
		}
		if got.ResPx < 1.3*got.NamePx {
			t.Errorf("hall view, board %d: the result is %.0f px, the names %.0f px; want it larger than the names", i+1, got.ResPx, got.NamePx)
		}
	}
	if got := read(tb.boards[2].GetBoardId()); got.ResShown || !got.Clocks {
		t.Errorf("hall view, a game playing: its tile shows %q (result shown %v, clocks shown %v); want its clocks", got.Text, got.ResShown, got.Clocks)
	}
	p.shot("dashboard-hallview-results.png", "")
}
