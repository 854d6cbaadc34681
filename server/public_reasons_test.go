package server_test

import (
	"bufio"
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/encoding/protojson"

	"github.com/chesshall/hallclock/internal/testkit/halltest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/server"
)

// firstEvent returns the first server-sent event of url read with token.
func firstEvent(t *testing.T, url, token string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d", url, resp.StatusCode)
	}
	var ev strings.Builder
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() && sc.Text() != "" {
		ev.WriteString(sc.Text() + "\n")
	}
	return ev.String()
}

// An arbiter's reason is for the audit and the arbiters: the public's
// feeds say what happened (the clock was paused) without the arbiter's
// words — the PGN of a public round without a token and with a broadcast
// token, a board's PGN, the display page's JSON, the event stream and
// Watch of a broadcast token — while the chief and an arbiter read the
// reason in their PGN. (The tokenless PGN of a public round carried
// "{Clock paused — phone rang}" word for word.) Without a broadcast delay,
// the public's view is the live one: the worst case.
func TestPublicFeedsLeaveOutArbitersReasons(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t, halltest.WithOptions(server.Options{HeartbeatInterval: time.Hour}))
	boards := h.Round(t, "5400+30", 1)
	roundID, boardID := boards[0].GetRoundId(), boards[0].GetBoardId()
	h.Device(t, boards[0].GetDeviceId())
	arb, ctx := h.Arbiter(t)
	feed := h.Token(t, pb.Role_ROLE_BROADCAST, "relay", "")
	arbiter := h.Token(t, pb.Role_ROLE_ARBITER, "Anna", "")
	if _, err := arb.SetBroadcast(ctx, &pb.SetBroadcastRequest{RoundId: roundID, Public: ptrBool(true)}); err != nil {
		t.Fatal(err)
	}
	for _, kind := range []pb.ActionKind{pb.ActionKind_ACTION_KIND_START, pb.ActionKind_ACTION_KIND_PAUSE} {
		if _, err := arb.BoardAction(ctx, &pb.BoardActionRequest{BoardId: boardID, Action: &pb.ClockAction{Kind: kind},
			Reason: "phone rang", WaitMs: 5000}); err != nil {
			t.Fatal(err)
		}
	}
	const reason = "phone rang"
	base := h.HTTP(t)
	for _, c := range []struct {
		path, token, who string
		reason           bool // the reader sees it
	}{
		{"/api/pgn/round/" + roundID, "", "anyone", false},
		{"/api/pgn/round/" + roundID, feed, "a broadcast token", false},
		{"/api/pgn/board/" + boardID, "", "anyone", false},
		{"/api/pgn/board/" + boardID, feed, "a broadcast token", false},
		{"/api/display/round/" + roundID, "", "anyone", false},
		{"/api/display/round/" + roundID, feed, "a broadcast token", false},
		{"/api/pgn/round/" + roundID, h.Chief, "the chief", true},
		{"/api/pgn/board/" + boardID, arbiter, "an arbiter", true},
	} {
		code, _, body := fetch(t, base+c.path, c.token, "")
		if code != http.StatusOK {
			t.Fatalf("%s, as %s: %d %s", c.path, c.who, code, body)
		}
		if strings.Contains(body, reason) != c.reason {
			t.Errorf("%s, as %s: the reason shown %v, want %v:\n%s", c.path, c.who, !c.reason, c.reason, body)
		}
		if strings.Contains(c.path, "/pgn/") && !strings.Contains(body, "Clock paused") {
			t.Errorf("%s, as %s: no word of the pause:\n%s", c.path, c.who, body)
		}
	}
	if ev := firstEvent(t, base+"/api/watch?round="+roundID, feed); strings.Contains(ev, reason) || !strings.Contains(ev, boardID) {
		t.Errorf("/api/watch as a broadcast token: %s; want the board, without the reason", ev)
	}
	wctx, cancel := context.WithTimeout(halltest.Ctx(context.Background(), feed), 10*time.Second)
	defer cancel()
	stream, err := pb.NewWatchClient(h.Conn(t)).WatchRound(wctx, &pb.WatchRoundRequest{RoundId: roundID})
	if err != nil {
		t.Fatal(err)
	}
	u, err := stream.Recv()
	if err != nil {
		t.Fatal(err)
	}
	if js := protojson.Format(u); strings.Contains(js, reason) || len(u.GetBoards()) != 1 {
		t.Errorf("Watch as a broadcast token: %s; want the board, without the reason", js)
	}
}
