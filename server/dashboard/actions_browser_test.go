package dashboard_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/chesshall/hallclock/internal/testkit/halltest"
	"github.com/chesshall/hallclock/internal/testkit/longtest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
)

// Every action the page offers opens its confirmation, and the rules (or
// the page, for the clock devices) say what it will do before anything is
// done; cancelled, nothing is done. The clock-device actions then run from
// the page: the board moves to a virtual clock, the arbiter records a
// press on it, a replacement clock takes over, and two boards swap their
// clocks. An e-board's moves show with their position and both clocks'
// chart.
func TestDashboardEveryAction(t *testing.T) {
	longtest.Skip(t)
	t.Parallel()
	h := halltest.Start(t, halltest.OnLoopback())
	base := h.HTTP(t)
	tb := newTable(t, h, "90m+30s", []boardSpec{{section: "A"}, {section: "A"}})
	b1, b2 := tb.boards[0], tb.boards[1]
	tb.start(t)
	d := tb.devs[b1.GetBoardId()]
	if err := d.Press(rules.White, opening[0].san, opening[0].fen); err != nil {
		t.Fatal(err)
	}
	if err := d.Press(rules.Black, opening[1].san, opening[1].fen); err != nil {
		t.Fatal(err)
	}
	halltest.Synced(t, d)
	h.Spare(t, "CLK-SPARE")
	p := openPage(t, base, 1600, 1000)
	p.signIn(h.Chief)
	p.waitHall(2)
	p.click("open board A1", tile(b1.GetBoardId()))
	p.poll("the moves and the position", `[...document.querySelectorAll("#board .moves button")].map(b => b.textContent).join(" ") === "1. e4 e5" &&
		document.querySelectorAll("#board .diagram .sq.pw").length === 16 && document.querySelector("#board .chart polyline") !== null`, 3*time.Second)

	offered := evalAs[[]string](p, `[...document.querySelectorAll("#board button.act")].map(b => b.dataset.action)`)
	for _, want := range []string{"pause", "add", "adjourn", "illegal", "drawclaim", "flagclaim", "qpinc", "qpclaim", "flags",
		"declare", "result", "position", "assign", "swap", "virtual"} {
		if !contains(strings.Join(offered, " ")+" ", want+" ") {
			t.Errorf("a running board does not offer %q (offered: %v)", want, offered)
		}
	}
	before := len(tb.auditOf(t, b1.GetBoardId()))
	said := confirmations(p)
	for _, a := range offered {
		msg := said[a]
		switch a {
		case "qpinc", "qpclaim", "flags", "flagclaim":
			// This event announced no quickplay finish, and no flag fell:
			// the rules refuse, and the confirmation says so.
			if !strings.HasPrefix(msg, "The rules refuse it: ") {
				t.Errorf("%s: the confirmation says %q; want the rules' refusal", a, msg)
			}
		case "assign":
			if msg != "enter the clock device" {
				t.Errorf("%s: the confirmation says %q; want it to ask for the device", a, msg)
			}
		default:
			if msg != "" {
				t.Errorf("%s: the confirmation says %q", a, msg)
			}
		}
	}
	if after := len(tb.auditOf(t, b1.GetBoardId())); after != before {
		t.Errorf("opening and cancelling every action left %d entries in the audit log", after-before)
	}

	// A paused clock offers setting it, an illegal move found later, and
	// resuming: the rules answer each.
	tb.act(t, b2.GetBoardId(), &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_PAUSE})
	p.do("board A2", navigate(base+"/#board="+b2.GetBoardId()))
	p.poll("A2 paused", `document.querySelector('#board button[data-action="set"]') !== null`, 3*time.Second)
	said = confirmations(p)
	for _, a := range []string{"set", "found", "resume"} {
		if msg, ok := said[a]; !ok || (a == "found") != (msg != "") {
			t.Errorf("%s on a paused clock: offered %v, the confirmation says %q", a, ok, msg)
		}
	}
	p.do("board A1", navigate(base+"/#board="+b1.GetBoardId()))
	p.poll("A1", `document.querySelector("#board h2").textContent.includes("Board A1")`, 3*time.Second)

	// The clock dies: the board goes on on the server's virtual clock.
	p.click("Virtual clock", `#board button[data-action="virtual"]`)
	p.confirm()
	p.poll("done", `document.getElementById("action-outcome").textContent === "Done."`, 5*time.Second)
	p.click("close", "#action-confirm")
	p.poll("the virtual clock", `document.querySelector("#board .bdevice").textContent.startsWith("Virtual clock") &&
		document.querySelector('#board button[data-action="press"]') !== null`, 3*time.Second)
	p.click("Press", `#board button[data-action="press"]`)
	p.confirmApplied("")
	p.poll("White's press on the virtual clock", `document.querySelector('`+tile(b1.GetBoardId())+`').classList.contains("run-black")`, 3*time.Second)

	// A replacement clock takes over.
	p.click("Replacement clock", `#board button[data-action="assign"]`)
	p.do("the spare", sendKeys(`#action-dialog input[name="device"]`, "CLK-SPARE"))
	p.confirm()
	p.poll("done", `document.getElementById("action-outcome").textContent === "Done."`, 5*time.Second)
	p.click("close", "#action-confirm")
	p.poll("the spare keeps the board, online", `document.querySelector("#board .bdevice").textContent.startsWith("Clock CLK-SPARE online")`, 5*time.Second)

	// Two boards swap their clocks.
	p.click("Swap clocks", `#board button[data-action="swap"]`)
	p.confirm()
	p.poll("done", `document.getElementById("action-outcome").textContent === "Done."`, 5*time.Second)
	p.click("close", "#action-confirm")
	p.poll("swapped", `document.querySelector("#board .bdevice").textContent.startsWith("Clock `+b2.GetDeviceId()+` online")`, 5*time.Second)
	if got := tb.boardOf(t, b2.GetBoardId()).GetDeviceId(); got != "CLK-SPARE" {
		t.Errorf("board A2's clock after the swap: %q, want CLK-SPARE", got)
	}
	var saw []string
	for _, e := range tb.auditOf(t, b1.GetBoardId()) {
		if e.GetActor() == "chief:chief arbiter" && e.GetOutcome() == "applied" {
			saw = append(saw, e.GetWhat())
		}
	}
	if got := strings.Join(saw, "; "); !contains(got, "use virtual clock", "press white", "assign device CLK-SPARE", "assign device "+b2.GetDeviceId()) {
		t.Errorf("the audit log has the chief's %q; want the virtual clock, the press, the replacement and the swap", got)
	}
}

// confirmations opens the confirmation of every action the open board
// offers, as a click does, waits for what it says will happen, cancels it,
// and returns the error each said ("" for none), by action.
func confirmations(p *page) map[string]string {
	p.t.Helper()
	js := `(async () => {
		const out = {};
		const pre = document.getElementById("action-preview");
		for (const a of [...document.querySelectorAll("#board button.act")].map(b => b.dataset.action)) {
			document.querySelector('#board button[data-action="' + a + '"]').click();
			for (let i = 0; i < 500; i++) {
				const t = pre.textContent;
				if (t.startsWith("What will happen") && !t.includes("Asking the rules")) break;
				await new Promise(r => setTimeout(r, 10));
			}
			const e = pre.querySelector(".error");
			out[a] = pre.textContent.includes("Asking the rules") ? "no answer" : e ? e.textContent : "";
			document.getElementById("action-cancel").click();
			if (document.getElementById("action-dialog").open) out[a] += " (not closed)";
		}
		return JSON.stringify(out);
	})()`
	var out map[string]string
	if err := json.Unmarshal([]byte(evalAs[string](p, js)), &out); err != nil {
		p.t.Fatal(err)
	}
	return out
}
