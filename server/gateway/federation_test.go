package gateway_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/chesshall/hallclock/internal/testkit/browsertest"
	"github.com/chesshall/hallclock/internal/testkit/halltest"
	"github.com/chesshall/hallclock/internal/testkit/longtest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/server"
	"github.com/chesshall/hallclock/server/gateway"
)

// federation reads /api/federation with an optional token.
func federation(t *testing.T, url, token string) map[string]gateway.FederationHall {
	t.Helper()
	code, body := get(t, url+"/api/federation", token)
	if code != 200 {
		t.Fatalf("GET /api/federation = %d %s", code, body)
	}
	var halls []gateway.FederationHall
	if err := json.Unmarshal([]byte(body), &halls); err != nil {
		t.Fatal(err)
	}
	out := map[string]gateway.FederationHall{}
	for _, h := range halls {
		out[h.Hall] = h
	}
	return out
}

// A gateway following hall.> finds every hall's stream and shows every
// hall's rounds, boards and results on one page: the public ones to
// anyone, a hall's others to holders of its broadcast tokens.
func TestFederationView(t *testing.T) {
	longtest.Skip(t)
	const speed = 45
	n := startNATS(t)
	bergen := startPublishedHall(t, n.URL(), "bergen", halltest.WithOptions(server.Options{PublicRounds: true}),
		halltest.WithSpeed(speed), halltest.InDir(tmpDir(t)))
	oslo := startPublishedHall(t, n.URL(), "oslo")
	osloBoards := oslo.Round(t, "180+2", 3)
	osloToken := oslo.Token(t, pb.Role_ROLE_BROADCAST, "federation", "")
	g := startGateway(t, n.URL(), gateway.Options{}) // every hall
	round := playRound(t, bergen, speed, "Bergen Rapid", 2)
	g.caughtUp(t, bergen)
	g.caughtUp(t, oslo)

	view := federation(t, g.URL, "")
	if len(view) != 2 {
		t.Fatalf("the federation view shows halls %v, want bergen and oslo", view)
	}
	b := view["bergen"]
	if len(b.Rounds) != 1 || b.Rounds[0].ID != round || b.Rounds[0].Finished != 2 || len(b.Rounds[0].Boards) != 2 {
		t.Fatalf("bergen in the view = %+v, want its round with 2 boards finished", b)
	}
	for _, fb := range b.Rounds[0].Boards {
		if fb.Result == "*" || fb.White == "" || fb.Status != "finished" {
			t.Errorf("bergen board %d = %+v, want a finished game with its result and players", fb.Number, fb)
		}
	}
	if o := view["oslo"]; len(o.Rounds) != 0 || !o.Ready {
		t.Errorf("oslo for the public = %+v, want the hall without its private round", o)
	}
	if o := federation(t, g.URL, osloToken)["oslo"]; len(o.Rounds) != 1 || len(o.Rounds[0].Boards) != len(osloBoards) || o.Rounds[0].Waiting != 3 {
		t.Errorf("oslo with its broadcast token = %+v, want its round with 3 boards waiting", o)
	}

	// WatchHall names the hall on a gateway following several.
	wc := pb.NewWatchClient(g.Conn)
	ctx := context.Background()
	if err := firstRecv(wc.WatchHall(ctx, &pb.WatchHallRequest{})); status.Code(err) != codes.InvalidArgument {
		t.Errorf("WatchHall without a hall on a gateway following two = %v, want InvalidArgument", err)
	}
	stream, err := wc.WatchHall(ctx, &pb.WatchHallRequest{Hall: "bergen"})
	if err != nil {
		t.Fatal(err)
	}
	u, err := stream.Recv()
	if err != nil || !u.GetSnapshot() || len(u.GetBoards()) != 2 {
		t.Errorf("WatchHall(bergen), every round public = %v, %v; want a snapshot of its 2 boards", u, err)
	}
	if err := firstRecv(wc.WatchHall(ctx, &pb.WatchHallRequest{Hall: "oslo"})); status.Code(err) != codes.Unauthenticated {
		t.Errorf("anonymous WatchHall(oslo) = %v, want Unauthenticated", err)
	}
	if err := firstRecv(wc.WatchHall(halltest.Ctx(ctx, osloToken), &pb.WatchHallRequest{Hall: "bergen"})); status.Code(err) != codes.Unauthenticated {
		t.Errorf("WatchHall(bergen) with oslo's token = %v, want Unauthenticated: a token reads its own hall", err)
	}

	// The page, in a browser.
	bctx := browsertest.Start(t)
	if err := chromedp.Do(bctx, chromedp.Navigate(g.URL+"/")); err != nil {
		t.Fatal(err)
	}
	if err := browsertest.Poll(bctx, `document.querySelectorAll("tr[data-board]").length === 2`, 10*time.Second); err != nil {
		t.Fatalf("the page shows no boards: %v", err)
	}
	text, err := chromedp.Run(bctx, chromedp.Text(chromedp.CSS("main")))
	if err != nil {
		t.Fatal(err)
	}
	png, err := chromedp.Run(bctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Hall bergen", "Bergen Rapid — round 1", "2 finished", "Hall oslo", "No public round."} {
		if !strings.Contains(text, want) {
			t.Errorf("the federation page lacks %q:\n%s", want, text)
		}
	}
	t.Logf("screenshot: %s", browsertest.Artifact(t, "federation.png", png))
}
