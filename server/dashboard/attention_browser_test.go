package dashboard_test

import (
	"strings"
	"testing"

	"github.com/chesshall/hallclock/internal/testkit/halltest"
	"github.com/chesshall/hallclock/internal/testkit/longtest"
)

// The attention panel's order, from the page's own code (attention.js) in
// the browser, on a board of each kind: urgency first (a fallen flag, a
// referred or postponed claim, a player absent as the default time nears;
// then a clock offline or a command not applied; a clock paused, a clock
// disagreeing with the rules, a low battery; what was ruled lately; time
// trouble), and within an urgency the order of the list. Time
// trouble in a blitz game is no one's business (B.2: no recording).
func TestAttentionOrder(t *testing.T) {
	longtest.Skip(t)
	t.Parallel()
	h := halltest.Start(t)
	p := openPage(t, h.HTTP(t), 800, 600)
	p.do("a page of the hall", navigate(p.base+"/signin"))
	got := evalAs[[]string](p, `(async () => {
		const { attention } = await import("/dashboard/attention.js");
		const now = String(Date.now());
		const b = (id, st, extra = {}) => ({ info: { boardId: id, number: +id.slice(1), roundNumber: 1, deviceId: "C" + id },
			state: { serverUnixMs: now, status: "BOARD_STATUS_RUNNING", deviceOnline: true, category: "standard",
				white: { remainingMs: "600000" }, black: { remainingMs: "600000" }, running: "SIDE_WHITE", toMove: "SIDE_WHITE", ...st }, ...extra });
		const boards = [
			b("b1", { status: "BOARD_STATUS_FINISHED", result: "0-1", termination: "time", firstFlag: "SIDE_WHITE", running: "" }, { finishedLive: Date.now() }),
			b("b2", { white: { remainingMs: "200000", timeTrouble: true } }),
			b("b3", { deviceOnline: false }),
			b("b4", { firstFlag: "SIDE_BLACK", black: { remainingMs: "0", flagAtMs: "5000" } }),
			b("b5", { status: "BOARD_STATUS_PAUSED", running: "" }),
			b("b6", { lastRuling: { kind: "ACTION_KIND_ILLEGAL_MOVE", side: "SIDE_BLACK", whiteChangeMs: "120000", unixMs: now, boardSeq: "7" } }),
			b("b7", { pendingCommands: 1 }),
			b("b8", { status: "BOARD_STATUS_REFERRED", claimReferredBy: "SIDE_WHITE", running: "" }),
			b("b9", { black: { remainingMs: "600000", absent: true }, nextDeadlineMs: "60000", atMs: "0" }),
			b("b10", { alerts: ["device CLK-1 shows white 1000 ms; the rules give 2000 ms"] }),
			b("b11", {}, { device: { deviceId: "Cb11", online: true, batteryPct: 12 } }),
			b("b12", { white: { remainingMs: "200000", timeTrouble: true }, category: "blitz" }),
			b("b13", { quickplayPostponed: true }),
		];
		return attention(boards).map(e => e.urgency + ":" + e.kind + ":" + e.board.info.boardId);
	})()`)
	want := []string{"1:flag:b4", "1:referred:b8", "1:quickplay:b13", "1:absent-black:b9", "2:offline:b3", "2:pending:b7",
		"3:paused:b5", "3:alert:b10", "3:battery:b11", "4:ruling:b6", "4:flagged:b1", "5:trouble:b2"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("attention order:\n got %v\nwant %v", got, want)
	}
}

// What many boards have in common is one entry with its count, from the
// page's own code: five clocks offline (each naming its own clock) are
// one "clock offline" entry where the most urgent of them was; four
// paused clocks stay four entries (fewer than attention.js's GROUP_MIN).
func TestAttentionGroups(t *testing.T) {
	longtest.Skip(t)
	t.Parallel()
	h := halltest.Start(t)
	p := openPage(t, h.HTTP(t), 800, 600)
	p.do("a page of the hall", navigate(p.base+"/signin"))
	got := evalAs[[]string](p, `(async () => {
		const { attention, grouped } = await import("/dashboard/attention.js");
		const now = String(Date.now());
		const b = (n, st) => ({ info: { boardId: "b" + n, number: n, roundNumber: 1, deviceId: "CLK-" + n },
			state: { serverUnixMs: now, status: "BOARD_STATUS_RUNNING", deviceOnline: true, category: "rapid",
				white: { remainingMs: "600000" }, black: { remainingMs: "600000" }, running: "SIDE_WHITE", toMove: "SIDE_WHITE", ...st } });
		const boards = [b(1, { firstFlag: "SIDE_WHITE", white: { remainingMs: "0", flagAtMs: "5000" } })];
		for (let n = 2; n <= 6; n++) boards.push(b(n, { deviceOnline: false }));
		for (let n = 7; n <= 10; n++) boards.push(b(n, { status: "BOARD_STATUS_PAUSED", running: "" }));
		return grouped(attention(boards)).map(x => x.group ? x.group.length + "×" + x.gist : x.entry.kind + ":" + x.entry.board.info.boardId);
	})()`)
	want := []string{"flag:b1", "5×clock offline", "paused:b7", "paused:b8", "paused:b9", "paused:b10"}
	if strings.Join(got, " | ") != strings.Join(want, " | ") {
		t.Errorf("attention grouped:\n got %q\nwant %q", got, want)
	}
}
