package server_test

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/chesshall/hallclock/internal/testkit/browsertest"
	"github.com/chesshall/hallclock/internal/testkit/halltest"
	"github.com/chesshall/hallclock/internal/testkit/longtest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
)

const (
	afterE4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
	afterE5 = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2"
)

// The display page of a public round in headless Chromium, without a
// token: both boards drawn, a press on the clock shown within a second
// (the move, the position with the move marked, the other clock running),
// and a screenshot saved as a test artifact.
func TestDisplayPageInABrowser(t *testing.T) {
	longtest.Skip(t)
	t.Parallel()
	ctx := browsertest.Start(t)
	h := halltest.Start(t)
	boards := h.Round(t, "5m+3s", 2)
	roundID := boards[0].GetRoundId()
	d1 := h.Device(t, boards[0].GetDeviceId())
	h.Device(t, boards[1].GetDeviceId())
	arb, actx := h.Arbiter(t)
	if _, err := arb.SetBroadcast(actx, &pb.SetBroadcastRequest{RoundId: roundID, Public: ptrBool(true)}); err != nil {
		t.Fatal(err)
	}
	if _, err := arb.StartRound(actx, &pb.StartRoundRequest{RoundId: roundID}); err != nil {
		t.Fatal(err)
	}
	if err := d1.Press(rules.White, "e4", afterE4); err != nil {
		t.Fatal(err)
	}
	halltest.Synced(t, d1)
	base := h.HTTP(t)

	do := func(step string, a chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(ctx, a); err != nil {
			t.Fatalf("%s: %v", step, err)
		}
	}
	poll := func(step, js string, within time.Duration) {
		t.Helper()
		if err := browsertest.Poll(ctx, js, within); err != nil {
			t.Fatalf("%s (%s) not within %s: %v", step, js, within, err)
		}
	}
	text := func(sel string) string {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(sel)))
		if err != nil {
			t.Fatalf("text of %s: %v", sel, err)
		}
		return v
	}
	do("open the display page", chromedp.Navigate(base+"/display/round/"+roundID))
	// Board 1's clock sent the position with the move; board 2's nothing
	// yet: no diagram (it would be the starting position), its clocks large.
	poll("both boards drawn", `document.querySelectorAll("section.board").length === 2 && document.querySelectorAll("section.board svg").length === 1 &&
		document.querySelector('[data-board="2"]').classList.contains("nopos")`, 10*time.Second)
	poll("board 1 shows 1. e4", `document.querySelector('[data-board="1"] .last').textContent === "1. e4"`, 5*time.Second)
	if got := text(`[data-board="2"] .player.white .name`); got != "White 2" {
		t.Errorf("board 2's white player: %q", got)
	}

	if err := d1.Press(rules.Black, "e5", afterE5); err != nil {
		t.Fatal(err)
	}
	pressed := time.Now()
	poll("the press shows", `document.querySelector('[data-board="1"] .last').textContent === "1... e5"`, time.Second)
	t.Logf("the press showed %s after it was made", time.Since(pressed).Round(time.Millisecond))
	poll("the position drawn", `document.querySelector('[data-board="1"] svg').dataset.fen === "`+afterE5+`"`, time.Second)
	if n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll('[data-board="1"] svg rect.moved').length`)); err != nil || n != 2 {
		t.Errorf("the last move marks %d squares (%v), want e7 and e5", n, err)
	}
	poll("White's clock runs", `document.querySelector('[data-board="1"] .clock.white').classList.contains("running")`, time.Second)
	first := text(`[data-board="1"] .clock.white`)
	poll("White's clock ticks", `document.querySelector('[data-board="1"] .clock.white').textContent !== "`+first+`"`, 3*time.Second)

	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", browsertest.Artifact(t, "display-round.png", png))
}
