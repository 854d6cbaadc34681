package assist_test

import (
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/chesshall/hallclock/internal/testkit/halltest"
	"github.com/chesshall/hallclock/internal/testkit/longtest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// leftRe reads a side's line: "..., 2 min 47 s left, 13 s used".
var leftRe = regexp.MustCompile(`(?:(\d+) min )?(\d+) s left, (?:\d+ min )?\d+ s used`)

// secondsLeft is the time left a side's line on the page says, in seconds;
// -1 if it says none.
func secondsLeft(line string) int {
	m := leftRe.FindStringSubmatch(line)
	if m == nil {
		return -1
	}
	min, _ := strconv.Atoi(m[1])
	sec, _ := strconv.Atoi(m[2])
	return min*60 + sec
}

// The assistant is to claim the opponent's flag "when Black's time has run
// out" (D.2.10.5): the page says each player's time left as well as the
// time used, and the running side's runs down with the clock, on the
// hall's real clock, with no action on the page.
func TestAssistantPageTimeLeft(t *testing.T) {
	longtest.Skip(t)
	h := halltest.Start(t)
	arb, ctx := h.Arbiter(t)
	r := h.NewRound(t, "Blind Open", 3, &pb.ClockConfig{TimeControl: "3m+2s", Ruleset: "fide-2018"})
	b, err := arb.AddBoard(ctx, &pb.AddBoardRequest{RoundId: r.GetRoundId(), Number: 1,
		White: &pb.Player{Name: "Anna Lindqvist"}, Black: &pb.Player{Name: "Boris Petrov"}})
	if err != nil {
		t.Fatal(err)
	}
	id := b.GetBoardId()
	if _, err := arb.SetBlindPlay(ctx, &pb.SetBlindPlayRequest{BoardId: id, Reason: "Anna plays with her assistant",
		BlindPlay: &pb.BlindPlay{White: &pb.BlindPlayer{VisuallyDisabled: true, Assistant: true}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := arb.UseVirtualClock(ctx, &pb.UseVirtualClockRequest{BoardId: id, Reason: "the talking clock charges"}); err != nil {
		t.Fatal(err)
	}
	action := func(k pb.ActionKind, side pb.Side) {
		t.Helper()
		resp, err := arb.BoardAction(ctx, &pb.BoardActionRequest{BoardId: id, Action: &pb.ClockAction{Kind: k, Side: side}})
		if err != nil || resp.GetStatus() != pb.CommandStatus_COMMAND_STATUS_APPLIED {
			t.Fatalf("%s: %v, %v", k, resp, err)
		}
	}
	link, err := arb.IssueAssistantLink(ctx, &pb.IssueAssistantLinkRequest{BoardId: id, Side: pb.Side_SIDE_WHITE, Label: "Maria"})
	if err != nil {
		t.Fatal(err)
	}
	p := openTab(t)
	p.do("the assistant's link", chromedp.Navigate(h.HTTP(t)+link.GetSigninPath()))
	if !evalAs[bool](p, `location.pathname === "/assist"`) {
		p.click("sign in", `form button[type=submit], form input[type=submit]`)
	}
	p.poll("the page", `location.pathname === "/assist" && !document.getElementById("clock").hidden`, 10*time.Second)
	line := func(side string) string {
		return evalAs[string](p, `document.getElementById("side-`+side+`").textContent`)
	}

	// Before the start: both have their three minutes.
	for _, s := range []string{"white", "black"} {
		if got := secondsLeft(line(s)); got != 180 {
			t.Errorf("before the start, %s's line says %q: want 3 min 0 s left", s, line(s))
		}
	}

	// White's clock runs: her time left runs down on the page by itself.
	action(pb.ActionKind_ACTION_KIND_START, pb.Side_SIDE_UNSPECIFIED)
	p.poll("White's clock runs down", `/: 0 moves, 2 min 5\d s left/.test(document.getElementById("side-white").textContent)`, 10*time.Second)
	first := secondsLeft(line("white"))
	p.poll("it ticks", `(() => { const m = /(\d+) min (\d+) s left/.exec(document.getElementById("side-white").textContent);
		return m && Number(m[1]) * 60 + Number(m[2]) <= `+strconv.Itoa(first-2)+`; })()`, 10*time.Second)
	if got := secondsLeft(line("black")); got != 180 {
		t.Errorf("Black's clock does not run, yet his line says %q", line("black"))
	}

	// Anna's move: the increment is hers, Black's time runs down now.
	action(pb.ActionKind_ACTION_KIND_PRESS, pb.Side_SIDE_WHITE)
	p.poll("Black's clock runs down", `/0 moves, 2 min 5\d s left/.test(document.getElementById("side-black").textContent)`, 10*time.Second)
	st, err := arb.GetBoard(ctx, &pb.GetBoardRequest{BoardId: id})
	if err != nil {
		t.Fatal(err)
	}
	want := int((st.GetState().GetWhite().GetRemainingMs() + 999) / 1000)
	if got := secondsLeft(line("white")); got != want {
		t.Errorf("White's line after her move says %q (%d s left); the hall says %d s", line("white"), got, want)
	}

	// A stopped clock stops on the page too.
	action(pb.ActionKind_ACTION_KIND_PAUSE, pb.Side_SIDE_UNSPECIFIED)
	p.poll("the stop shown", `document.getElementById("turn").textContent.startsWith("The clock is stopped")`, 10*time.Second)
	st, err = arb.GetBoard(ctx, &pb.GetBoardRequest{BoardId: id})
	if err != nil {
		t.Fatal(err)
	}
	want = int((st.GetState().GetBlack().GetRemainingMs() + 999) / 1000)
	// Two of the page's ticks later, it says what the hall says.
	p.poll("two ticks", `(() => { window.__stoppedAt = window.__stoppedAt || Date.now(); return Date.now() - window.__stoppedAt > 2100; })()`, 5*time.Second)
	if got := secondsLeft(line("black")); got != want {
		t.Errorf("the stopped clock: Black's line says %q (%d s left); the hall says %d s", line("black"), got, want)
	}
	if n := evalAs[int](p, `[...document.querySelectorAll("body *")].filter(e => e.getBoundingClientRect().right > innerWidth + 1).length`); n != 0 {
		t.Errorf("%d elements are wider than the phone's screen", n)
	}
}
