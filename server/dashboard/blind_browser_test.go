package dashboard_test

import (
	"strings"
	"testing"
	"time"

	"github.com/chesshall/hallclock/internal/testkit/halltest"
	"github.com/chesshall/hallclock/internal/testkit/longtest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// An arbiter plays a board under the rules for visually disabled players
// from its page (FIDE 2018 Appendix D): the setting goes through the hall
// (audited), the tile marks the visually disabled player and his
// assistant, the board shows each player's time used and the clock's
// voice; the arbiter makes the assistant's sign-in link, and has the
// talking clock announce the moves and the time used to the player
// (D.2.6.1, D.2.10.4).
func TestDashboardBlindPlay(t *testing.T) {
	longtest.Skip(t)
	t.Parallel()
	h := halltest.Start(t, halltest.OnLoopback())
	base := h.HTTP(t)
	tb := newTable(t, h, "90m+30s", []boardSpec{{voices: []string{"en", "de"}}, {}})
	b1, b2 := tb.boards[0], tb.boards[1]
	tb.start(t)
	p := openPage(t, base, 1600, 1000)
	p.signIn(h.Chief)
	p.waitHall(2)
	vd := func(b *pb.Board, side string) string {
		return p.text(tile(b.GetBoardId()) + " .nm." + side + " .vd")
	}
	if vd(b1, "white") != "" || vd(b2, "white") != "" {
		t.Errorf("a board not under the appendix is marked")
	}

	p.click("open board 1", tile(b1.GetBoardId()))
	p.poll("the board's actions", `document.querySelector('#board button[data-action="blind"]') !== null`, 5*time.Second)
	if offered := evalAs[string](p, `[...document.querySelectorAll("#board button.act")].map(b => b.dataset.action).join(" ")`); strings.Contains(offered, "announce") || strings.Contains(offered, "assistant") {
		t.Errorf("a board not under the appendix offers %q", offered)
	}
	p.click("set the appendix", `#board button[data-action="blind"]`)
	p.do("White visually disabled, with an assistant, in German", sendKeys(`#action-fields input[name="whiteLang"]`, "de"))
	p.click("visually disabled", `#action-fields input[name="whiteVd"]`)
	p.click("assistant", `#action-fields input[name="whiteAssistant"]`)
	p.do("the reason", sendKeys("#action-reason", "Anna plays with her assistant"))
	p.confirm()
	p.poll("done", `document.getElementById("action-outcome").textContent === "Done."`, 5*time.Second)
	p.click("close", "#action-confirm")

	p.poll("the tile's mark", `(document.querySelector(`+jsString(tile(b1.GetBoardId())+" .nm.white .vd")+`) || {}).textContent === "VD+A"`, 5*time.Second)
	if got := evalAs[string](p, `document.querySelector(`+jsString(tile(b1.GetBoardId()))+`).getAttribute("aria-label")`); !strings.HasSuffix(got, "; White visually disabled, with an assistant, the clock speaks de") {
		t.Errorf("the tile's label is %q; want it to say White plays under the appendix", got)
	}
	p.poll("the board's line", `/^Appendix D: White visually disabled, with an assistant, the clock speaks de\. Time used: White \d+:\d\d · Black 0:00\.$/.test(document.querySelector("#board .bblind").textContent)`, 5*time.Second)
	p.poll("the clock's voice", `document.querySelector("#board .bdevice").textContent.includes("talking clock (en, de)")`, 20*time.Second)
	p.poll("the timeline", `document.querySelector("#board .timeline").textContent.includes("rules for visually disabled players on this board: W+A:de")`, 5*time.Second)
	if e := findEntry(tb.auditOf(t, b1.GetBoardId()), "blind_play W+A:de"); e == nil || e.GetActor() != "chief:chief arbiter" || e.GetReason() != "Anna plays with her assistant" {
		t.Errorf("the audit log has %v; want the setting with who and why", e)
	}

	// The assistant's link, to give to his phone.
	p.click("the assistant's link", `#board button[data-action="assistant"]`)
	p.do("his name", sendKeys(`#action-fields input[name="label"]`, "Maria"))
	p.confirm()
	p.poll("the link", `document.getElementById("action-outcome").textContent.includes(location.origin + "/signin?code=sc_")`, 5*time.Second)
	p.click("close", "#action-confirm")

	// Anna asks; her talking clock says it, in German.
	p.click("announce", `#board button[data-action="announce"]`)
	p.confirm()
	p.poll("the words", `document.getElementById("action-outcome").textContent.startsWith("Said by the clock `+b1.GetDeviceId()+`: Weiß: 0 Züge")`, 5*time.Second)
	p.click("close", "#action-confirm")
	p.poll("the dialog closed", `!document.getElementById("action-dialog").open`, 2*time.Second)
	p.shot("dashboard-blind-board.png", "#board")
	if e := findEntry(tb.auditOf(t, b1.GetBoardId()), "announce to white (de, said by the clock "+b1.GetDeviceId()+")"); e == nil {
		t.Errorf("the announcement is not in the audit log")
	}
}

func findEntry(entries []*pb.AuditEntry, prefix string) *pb.AuditEntry {
	for _, e := range entries {
		if strings.HasPrefix(e.GetWhat(), prefix) {
			return e
		}
	}
	return nil
}
