package dashboard_test

import (
	"strconv"
	"testing"
	"time"

	"github.com/chesshall/hallclock/internal/testkit/halltest"
	"github.com/chesshall/hallclock/internal/testkit/longtest"
)

// previewJS reads the action preview's line for White ("White: 1:29:19 →
// 1:30:19 (+1:00)") and the board panel's clock of White, in seconds.
const previewJS = `(() => {
	const secs = t => t.split(":").reduce((a, x) => a * 60 + Number(x), 0);
	const li = [...document.querySelectorAll("#action-preview li")].find(l => l.textContent.startsWith("White: "));
	if (!li) return null;
	const m = /^White: ([\d:]+) → ([\d:]+)(?: \((.*)\))?/.exec(li.textContent);
	if (!m) return null;
	const panel = document.querySelector("#board .bside.white .bclock").textContent;
	return { text: li.textContent, before: secs(m[1]), after: secs(m[2]), change: m[3] || "", panel: secs(panel) };
})()`

type previewLine struct {
	Text                 string
	Before, After, Panel int
	Change               string
}

// The confirmation of "+1:00" says the running clock's time now and with
// the minute, from the same instant and ticking with the clock while the
// arbiter writes the reason: the difference is the minute, exactly, and
// "now" is the time the board's own clock shows.
func TestDashboardActionPreviewTicks(t *testing.T) {
	longtest.Skip(t)
	t.Parallel()
	h := halltest.Start(t, halltest.OnLoopback())
	base := h.HTTP(t)
	tb := newTable(t, h, "90m+30s", []boardSpec{{section: "A"}})
	b := tb.boards[0]
	tb.start(t)
	p := openPage(t, base, 1600, 1000)
	p.signIn(h.Chief)
	p.waitHall(1)
	p.click("open board A1", tile(b.GetBoardId()))
	p.click("Add time", `#board button[data-action="add"]`)
	p.poll("the preview", previewJS+` !== null`, 5*time.Second)

	read := func(step string) previewLine {
		t.Helper()
		l := evalAs[previewLine](p, previewJS)
		if l.After-l.Before != 60 || l.Change != "+1:00" {
			t.Errorf("%s: the preview says %q: want the minute exactly, from the same instant", step, l.Text)
		}
		if d := l.Before - l.Panel; d < -1 || d > 1 {
			t.Errorf("%s: the preview's White now is %d s, the board's clock shows %d s", step, l.Before, l.Panel)
		}
		return l
	}
	first := read("at first")
	// White's clock runs: so does the preview, while the dialog is open.
	p.poll("the preview ticks", previewJS+`.before <= `+strconv.Itoa(first.Before-2), 10*time.Second)
	later := read("two seconds on")
	if later.After > first.After-2 {
		t.Errorf("the time White would have stands at %d s while her clock runs (it said %d s before)", later.After, first.After)
	}
	if !evalAs[bool](p, `document.getElementById("action-dialog").open`) {
		t.Error("the dialog closed by itself")
	}
}
