package dashboard_test

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chesshall/hallclock/internal/testkit/halltest"
	"github.com/chesshall/hallclock/internal/testkit/longtest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
)

// What a newcomer does with the demo, in Chromium against a real hall of
// simulated clocks: signs in with the printed one-time link, sees every
// board online, a press on a clock shows within a second, follows an alert
// (a flag fallen where nobody supervises every game) to its board, rules
// on it from the page after the confirmation said what would happen, and
// finds the ruling in the board's timeline and in the audit log. On the
// way: a penalty ruled from the page shows as a +2:00 jump saying which
// ruling made it, a clock cut off shows offline within seconds, the
// section's header counts the round's progress with the result, and the
// filters and the search show the boards they name.
func TestDashboardInABrowser(t *testing.T) {
	longtest.Skip(t)
	t.Parallel()
	h := halltest.Start(t, halltest.OnLoopback())
	base := h.HTTP(t)
	rapid := &pb.ClockConfig{TimeControl: "25m+10s", Regulations: &pb.Regulations{Supervision: pb.Supervision_SUPERVISION_INSUFFICIENT}}
	tb := newTable(t, h, "90m+30s", []boardSpec{{section: "A"}, {section: "A"}, {section: "A"}, {section: "A"},
		{section: "B"}, {section: "B"}, {section: "B"}, {section: "B", config: rapid}})
	a1, a2, a4, b4 := tb.boards[0], tb.boards[1], tb.boards[3], tb.boards[7]
	p := openPage(t, base, 1920, 1080)

	p.useLink(base + "/signin?code=" + tb.code(t))
	p.waitHall(len(tb.boards))
	if n := evalAs[int](p, `document.querySelectorAll(".tile.off").length`); n != 0 {
		t.Errorf("%d tiles show their clock offline; every clock is connected", n)
	}
	// The live feed comes gzipped (the browser asks for it), and the
	// browser reads its first event while the stream goes on.
	feed := evalAs[string](p, `(async () => {
		const stop = new AbortController();
		const r = await fetch("/api/watch", {signal: stop.signal});
		const body = r.body.getReader(), text = new TextDecoder();
		let got = "";
		while (!got.includes("\n\n")) {
			const {value, done} = await body.read();
			if (done) break;
			got += text.decode(value, {stream: true});
		}
		stop.abort();
		return (r.headers.get("content-encoding") || "none") + "|" + got.slice(0, 300);
	})()`)
	if enc, event, _ := strings.Cut(feed, "|"); enc != "gzip" || !strings.Contains(event, "\ndata: {") || !regexp.MustCompile(`"snapshot":\s*true`).MatchString(event) {
		t.Errorf("the live feed in the browser: Content-Encoding %q, first event %q; want gzip and the hall's snapshot", enc, event)
	}
	if got := p.text("#title"); !strings.Contains(got, "Nordic Open R3") {
		t.Errorf("title %q: want the tournament and round by name and number", got)
	}

	tb.start(t)
	if err := tb.devs[a1.GetBoardId()].Press(rules.White, "", ""); err != nil {
		t.Fatal(err)
	}
	pressed := time.Now()
	p.poll("the press shows", `document.querySelector('`+tile(a1.GetBoardId())+`').classList.contains("run-black")`, time.Second)
	t.Logf("a press showed on its tile %s after it was made", time.Since(pressed).Round(time.Millisecond))

	// A2 is an e-board: its moves come with the position. White's third
	// move was illegal: a penalty ruled from the page, whose confirmation
	// says what it will do.
	for i, m := range opening {
		side := rules.White
		if i%2 == 1 {
			side = rules.Black
		}
		if err := tb.devs[a2.GetBoardId()].Press(side, m.san, m.fen); err != nil {
			t.Fatal(err)
		}
	}
	p.poll("A2's moves show", `document.querySelector('`+tile(a2.GetBoardId())+`').classList.contains("run-black") &&
		document.querySelector('`+tile(a2.GetBoardId())+` .meta').textContent.startsWith("m3")`, 2*time.Second)
	p.click("open board A2", tile(a2.GetBoardId()))
	p.poll("board A2 open", `!document.getElementById("board").hidden && document.querySelector("#board h2").textContent.includes("Board A2")`, 2*time.Second)
	p.click("Illegal move", `#board button[data-action="illegal"]`)
	p.poll("the rules' answer", `document.getElementById("action-preview").textContent.includes("Black:") && !document.getElementById("action-confirm").disabled`, 3*time.Second)
	if got := p.text("#action-preview"); !contains(got, "Black", "(+2:00)") {
		t.Errorf("the confirmation of an illegal move by White says %q; want Black +2:00", got)
	}
	p.confirmApplied("the bishop jumped over its own pawn")
	p.poll("the timeline shows the ruling", `[...document.querySelectorAll("#board .timeline li")].some(li => li.textContent.includes("illegal move by White") && li.textContent.includes("Black +2:00") && li.textContent.includes("the bishop jumped over its own pawn"))`, 3*time.Second)
	p.poll("the tile says which ruling made the jump", `document.querySelector('`+tile(a2.GetBoardId())+` .meta').textContent.includes("⚖B+2:00")`, 2*time.Second)
	p.poll("the moves and the position", `document.querySelector("#board .moves").textContent.includes("3. Bb5") &&
		document.querySelectorAll("#board .diagram .sq.pb").length === 16`, 2*time.Second)
	p.shot("dashboard-board.png", "")
	p.do("back to the hall", keyEscape())
	p.poll("the board closed", `document.getElementById("board").hidden`, 2*time.Second)

	// A clock cut off from the hall (its token revoked) is offline at once.
	revokeDevice(t, tb, a4.GetDeviceId())
	cut := time.Now()
	p.poll("A4 offline", `document.querySelector('`+tile(a4.GetBoardId())+`').classList.contains("off") && [...document.querySelectorAll("#attn-list li")].some(li => li.textContent.includes("`+a4.GetDeviceId()+` offline"))`, 5*time.Second)
	t.Logf("a clock cut off showed offline after %s", time.Since(cut).Round(time.Millisecond))

	// A flag falls on B4 (rapid, insufficient supervision: the game goes
	// on until it is claimed) with White to move and 1.5 s left.
	tb.act(t, b4.GetBoardId(), &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_PAUSE})
	tb.act(t, b4.GetBoardId(), &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_SET_CLOCK, WhiteMs: 1500, BlackMs: 4 * 60_000})
	tb.act(t, b4.GetBoardId(), &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_RESUME})
	flag := `#attn-list li.k-flag[data-board="` + b4.GetBoardId() + `"]`
	p.poll("the flag in the attention panel", `document.querySelector('`+flag+`') !== null`, 6*time.Second)
	if got := p.text(flag); !contains(got, "White's flag has fallen", "B4") {
		t.Errorf("the attention entry says %q; want White's flag on B4", got)
	}
	if first := evalAs[string](p, `document.querySelector("#attn-list li").dataset.board`); first != b4.GetBoardId() {
		t.Errorf("the first entry of the attention panel is board %s; want the fallen flag on B4 first", first)
	}
	p.shot("dashboard-attention.png", "#attention")

	p.click("follow the alert", flag)
	p.poll("board B4 open", `!document.getElementById("board").hidden && document.querySelector("#board h2").textContent.includes("Board B4")`, 2*time.Second)
	p.click("Flag claim", `#board button[data-action="flagclaim"]`)
	p.do("Black claims", setSelect(`#action-dialog select[name="side"]`, "black"))
	p.poll("the rules' answer", `document.getElementById("action-preview").textContent.includes("Result: 0-1") && !document.getElementById("action-confirm").disabled`, 3*time.Second)
	p.confirmApplied("Black claimed at the board")
	p.poll("the ruling in the timeline", `[...document.querySelectorAll("#board .timeline li")].some(li => li.textContent.includes("Black claims the flag") && li.textContent.includes("Black claimed at the board") && li.textContent.includes("game over: 0-1"))`, 3*time.Second)
	p.poll("the tile shows the result", `document.querySelector('`+tile(b4.GetBoardId())+`').classList.contains("st-finished")`, 2*time.Second)
	p.poll("the flag leaves the panel", `document.querySelector('`+flag+`') === null`, 2*time.Second)
	p.poll("the round's progress and its result", `[...document.querySelectorAll("h3.ghead")].some(h => h.textContent.includes("Nordic Open · Round 3 · Section B") &&
		h.textContent.includes("1 finished · 3 playing · 0 not started") && h.textContent.includes("latest: B4 0-1"))`, 2*time.Second)

	claimed := tb.applied(t, b4.GetBoardId(), pb.ActionKind_ACTION_KIND_FLAG_CLAIM)
	if claimed == nil || claimed.GetIssuedBy() != "chief:chief arbiter" || claimed.GetReason() != "Black claimed at the board" || claimed.GetAfter().GetResult() != "0-1" {
		t.Errorf("audit log: the flag claim is %v; want it applied as the chief's command, with his reason, 0-1", claimed)
	}
	p.do("back to the hall", keyEscape())
	p.poll("the board closed", `document.getElementById("board").hidden`, 2*time.Second)
	p.shot("dashboard-hall.png", "")

	// The filters and the search: a section, a status, both; a board by
	// section and number, a player by name and by FIDE id.
	ids := func(bs ...*pb.Board) string {
		var s []string
		for _, b := range bs {
			s = append(s, b.GetBoardId())
		}
		return strings.Join(s, " ")
	}
	for _, c := range []struct {
		section, status, search string
		want                    string
	}{
		{"B", "", "", ids(tb.boards[4:]...)},
		{"", "finished", "", ids(b4)},
		{"A", "finished", "", ""},
		{"", "", "B4", ids(b4)},
		{"", "", "caruana", ids(a2)},
		{"", "", a2.GetBlack().GetFideId(), ids(a2)},
		{"", "", "", ids(tb.boards...)},
	} {
		p.do("filter", setSelect("#f-section", c.section), setSelect("#f-status", c.status), setSelect("#f-search", c.search))
		if got := p.shown(); got != c.want {
			t.Errorf("section %q, status %q, search %q: the tiles of %q; want %q", c.section, c.status, c.search, got, c.want)
		}
	}
}

// revokeDevice revokes a clock's token: its link is cut and it cannot
// come back.
func revokeDevice(t *testing.T, tb *table, dev string) {
	t.Helper()
	arb, ctx := tb.h.Arbiter(t)
	toks, err := arb.ListTokens(ctx, &pb.ListTokensRequest{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tok := range toks.GetTokens() {
		if tok.GetDeviceId() == dev && !tok.GetRevoked() {
			if _, err := arb.RevokeToken(ctx, &pb.RevokeTokenRequest{TokenId: tok.GetTokenId()}); err != nil {
				t.Fatal(err)
			}
			return
		}
	}
	t.Fatalf("no token of device %s", dev)
}

// opening is an e-board's first moves, with the positions after them.
var opening = []struct{ san, fen string }{
	{"e4", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"},
	{"e5", "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2"},
	{"Nf3", "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"},
	{"Nc6", "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"},
	{"Bb5", "r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3"},
}
