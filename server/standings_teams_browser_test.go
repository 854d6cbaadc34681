package server_test

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/chesshall/hallclock/internal/testkit/browsertest"
	"github.com/chesshall/hallclock/internal/testkit/halltest"
	"github.com/chesshall/hallclock/internal/testkit/longtest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// A public team event on the hall's screen and a phone, without a token:
// /display/standings shows the teams' table above a page of players, the
// players' rows within the screen, nothing past its edges; the plain page
// on the phone too.
func TestTeamStandingsDisplayInABrowser(t *testing.T) {
	longtest.Skip(t)
	t.Parallel()
	h := halltest.Start(t)
	arb, actx := h.Arbiter(t)
	rf := realRound(t, realFile("constructed/team-013-swiss.trf"), 3, classicPoints)
	imp := realImport(t, arb, actx, "Nordic Teams", nil, &pb.ImportRoundRequest{Content: rf.paired})
	if _, err := arb.SetBroadcast(actx, &pb.SetBroadcastRequest{RoundId: imp.GetRound().GetRoundId(), Public: ptrBool(true)}); err != nil {
		t.Fatal(err)
	}
	ctx := browsertest.Start(t)
	base := h.HTTP(t)
	check := func(what string, w, ht int64, path string) {
		t.Helper()
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(w, ht), chromedp.Navigate(base+path)); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if err := browsertest.Poll(ctx, `document.querySelectorAll("#trows tr").length === 5 && document.querySelectorAll("#rows tr").length === 10 && !document.getElementById("teams").hidden`, 10*time.Second); err != nil {
			t.Fatalf("%s: the teams' and players' tables not shown: %v", what, err)
		}
		if wider, err := browsertest.Wider(ctx); err != nil || len(wider) > 0 {
			t.Errorf("%s: past the screen's edges: %v (%v)", what, wider, err)
		}
		got, err := chromedp.Run(ctx, chromedp.Evaluate[[]int](`(() => {
			const shown = Array.from(document.querySelectorAll("#rows tr")).filter((tr) => !tr.hidden);
			return [Math.ceil(Math.max(...shown.map((tr) => tr.getBoundingClientRect().bottom))), window.innerHeight,
				Math.ceil(document.getElementById("teams").getBoundingClientRect().bottom), Math.floor(document.getElementById("table").getBoundingClientRect().top), shown.length];
		})()`))
		if err != nil {
			t.Fatal(err)
		}
		if got[2] > got[3] || got[4] < 1 || (path[1] == 'd' && got[0] > got[1]) {
			t.Errorf("%s: teams end at %d px, players start at %d; %d players shown ending at %d px of %d", what, got[2], got[3], got[4], got[0], got[1])
		}
	}
	check("a hall's screen", 1920, 1080, "/display/standings/Nordic%20Teams")
	check("a phone", 390, 844, "/display/standings/Nordic%20Teams")
	check("the plain page on a phone", 390, 844, "/standings/Nordic%20Teams")
}
