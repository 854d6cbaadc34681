package server_test

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/chesshall/hallclock/formats/trf"
	"github.com/chesshall/hallclock/internal/testkit/browsertest"
	"github.com/chesshall/hallclock/internal/testkit/halltest"
	"github.com/chesshall/hallclock/internal/testkit/longtest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// The standings display page in headless Chromium, without a token, on a
// real tournament of 112 players (lichess, at its last round, paired and
// public): at 1920x1080 and at a phone's 390x844 a page of rows fills the
// screen with nothing past its edges, the page turns by itself through the
// long list, and a result entered on a board moves the standings on the
// open page within a second (the page follows the feed's stream).
func TestStandingsDisplayInABrowser(t *testing.T) {
	longtest.Skip(t)
	t.Parallel()
	h := halltest.Start(t)
	arb, actx := h.Arbiter(t)
	path := realFile("real/lichess-j8rtJ5GL.trf")
	f, err := trf.Read(bytes.NewReader(realRound(t, path, 1, classicPoints).orig))
	if err != nil {
		t.Fatal(err)
	}
	n, _ := f.PairedRounds()
	rf := realRound(t, path, n, classicPoints)
	imp := realImport(t, arb, actx, "Lichess Open", nil, &pb.ImportRoundRequest{Content: rf.paired})
	if _, err := arb.SetBroadcast(actx, &pb.SetBroadcastRequest{RoundId: imp.GetRound().GetRoundId(), Public: ptrBool(true)}); err != nil {
		t.Fatal(err)
	}
	ctx := browsertest.Start(t)
	base := h.HTTP(t)
	do := func(step string, as ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(ctx, as...); err != nil {
			t.Fatalf("%s: %v", step, err)
		}
	}
	poll := func(step, js string, within time.Duration) {
		t.Helper()
		if err := browsertest.Poll(ctx, js, within); err != nil {
			t.Fatalf("%s (%s) not within %s: %v", step, js, within, err)
		}
	}
	// fits checks the page at the screen's size: nothing past the edges,
	// a page of rows within the height, as many pages as it takes.
	fits := func(size string) {
		t.Helper()
		if wider, err := browsertest.Wider(ctx); err != nil || len(wider) > 0 {
			t.Errorf("%s: past the screen's edges: %v (%v)", size, wider, err)
		}
		got, err := chromedp.Run(ctx, chromedp.Evaluate[[]int](`(() => {
			const shown = Array.from(document.querySelectorAll("#rows tr")).filter((tr) => !tr.hidden);
			const bottom = Math.max(...shown.map((tr) => tr.getBoundingClientRect().bottom));
			return [shown.length, Math.ceil(bottom), window.innerHeight, Number(document.body.dataset.pages),
				document.querySelectorAll("#rows tr").length, Number(document.body.dataset.perPage), Math.round(parseFloat(getComputedStyle(document.querySelector("#rows td")).fontSize))];
		})()`))
		if err != nil {
			t.Fatal(err)
		}
		shown, bottom, height, pages, rows, per, font := got[0], got[1], got[2], got[3], got[4], got[5], got[6]
		t.Logf("%s: %d rows a page, %d pages, type %d px", size, per, pages, font)
		if rows != 112 || bottom > height || pages < 2 || pages != (rows+per-1)/per || shown > per || shown < 1 || per < 10 || font < 12 {
			t.Errorf("%s: %d of %d rows shown (%d a page) on %d pages, the last ending at %d px of %d, type %d px; want pages of at least 10 rows of type 12 px or more within the screen, 112 rows over the pages",
				size, shown, rows, per, pages, bottom, height, font)
		}
	}
	do("a hall's screen", chromedp.EmulateViewport(1920, 1080), chromedp.Navigate(base+"/display/standings/Lichess%20Open?page=2"))
	poll("112 players listed", `document.querySelectorAll("#rows tr").length === 112 && Number(document.body.dataset.pages) > 1`, 10*time.Second)
	poll("fitted", `document.body.dataset.fitted === "1920x1080"`, 5*time.Second)
	fits("1920x1080")
	poll("the page turns by itself", `document.body.dataset.page === "2"`, 5*time.Second)
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(80))
	if err == nil {
		t.Logf("screenshot: %s", browsertest.Artifact(t, "display-standings.png", png))
	}

	// A result on the open page: board 1's White wins.
	b := imp.GetBoards()[0]
	white := b.GetWhite().GetStartRank()
	pts := fmt.Sprintf(`document.querySelector('#rows tr[data-start="%d"] td.pts').textContent`, white)
	before, err := chromedp.Run(ctx, chromedp.Evaluate[string](pts))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := arb.UseVirtualClock(actx, &pb.UseVirtualClockRequest{BoardId: b.GetBoardId(), Reason: "scoresheets"}); err != nil {
		t.Fatal(err)
	}
	entered := time.Now()
	act(t, arb, actx, b.GetBoardId(), &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_RESULT, Result: "1-0"}, pb.CommandStatus_COMMAND_STATUS_APPLIED)
	poll("the result moves the standings", pts+` !== "`+before+`"`, time.Second)
	t.Logf("the result showed in the standings %s after it was entered", time.Since(entered).Round(time.Millisecond))

	do("a phone", chromedp.EmulateViewport(390, 844))
	poll("fitted again", `document.body.dataset.fitted === "390x844"`, 5*time.Second)
	fits("390x844")

	// The plain page, on the phone: every row, nothing past the edges.
	do("the plain page", chromedp.Navigate(base+"/standings/Lichess%20Open"))
	poll("112 players listed", `document.querySelectorAll("#rows tr").length === 112 && !document.querySelector("#rows tr[hidden]")`, 10*time.Second)
	if wider, err := browsertest.Wider(ctx); err != nil || len(wider) > 0 {
		t.Errorf("the plain page at 390x844: past the screen's edges: %v (%v)", wider, err)
	}
}
