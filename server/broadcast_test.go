package server_test

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chesshall/hallclock/internal/mono"
	"github.com/chesshall/hallclock/internal/testkit/halltest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
	"github.com/chesshall/hallclock/server"
)

// fetch GETs a feed with a bearer token ("" none) and an If-None-Match
// ("" none), and returns its status, ETag and body.
func fetch(t *testing.T, url, token, etag string) (int, string, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if etag != "" {
		req.Header.Set("If-None-Match", etag)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, resp.Header.Get("ETag"), string(b)
}

// The hall's PGN feeds at the door: a private round needs a token, a
// public one none; arbiters read it live, broadcast tokens and the public
// as it was BroadcastDelay ago — exactly the live PGN of then, on the
// server's (fake) clock — with ETags; the dashboard's API lists it.
func TestBroadcastPGNThroughTheHall(t *testing.T) {
	t.Parallel()
	clock := mono.NewFake(time.Date(2025, 9, 15, 15, 0, 0, 0, time.UTC))
	const delay = 15 * time.Minute
	h := halltest.Start(t, halltest.WithOptions(server.Options{Clock: clock, BroadcastDelay: delay, WatchInterval: -1,
		HeartbeatInterval: time.Hour}), halltest.WallClock())
	boards := h.Round(t, "5400+30", 2)
	roundID, boardID := boards[0].GetRoundId(), boards[0].GetBoardId()
	d := h.Device(t, boards[0].GetDeviceId())
	arb, ctx := h.Arbiter(t)
	feed := h.Token(t, pb.Role_ROLE_BROADCAST, "relay", "")
	base := h.HTTP(t)
	url := base + "/api/pgn/round/" + roundID

	if code, _, msg := fetch(t, url, "", ""); code != http.StatusUnauthorized || !strings.Contains(msg, "not public") {
		t.Errorf("a private round without a token: %d %s", code, msg)
	}
	if code, _, _ := fetch(t, url, "hc_forged", ""); code != http.StatusUnauthorized {
		t.Errorf("a forged token: %d, want 401", code)
	}
	if _, err := arb.SetBroadcast(ctx, &pb.SetBroadcastRequest{RoundId: roundID, Public: ptrBool(true)}); err != nil {
		t.Fatal(err)
	}
	var live []string
	record := func() {
		t.Helper()
		code, _, b := fetch(t, url, h.Chief, "")
		if code != http.StatusOK {
			t.Fatalf("live PGN: %d %s", code, b)
		}
		live = append(live, b)
	}
	record() // T0, nothing played
	if _, err := arb.BoardAction(ctx, &pb.BoardActionRequest{BoardId: boardID, Action: &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_START}, WaitMs: 5000}); err != nil {
		t.Fatal(err)
	}
	record() // T0: started
	for _, m := range []struct {
		side rules.Side
		san  string
	}{{rules.White, "e4"}, {rules.Black, "e5"}} {
		clock.Advance(10 * time.Second)
		if err := d.Press(m.side, m.san, ""); err != nil {
			t.Fatal(err)
		}
		halltest.Synced(t, d)
		record() // T0+10s, T0+20s
	}
	// The device keeps the time (its own clock, not the server's fake one).
	if !strings.Contains(live[3], "1. e4 {[%clk 1:30:") || !strings.Contains(live[3], "1... e5 {[%clk 1:30:") {
		t.Errorf("the live PGN after two moves:\n%s", live[3])
	}
	check := func(at string, want string) {
		t.Helper()
		for _, tok := range []string{"", feed} {
			if code, _, got := fetch(t, url, tok, ""); code != http.StatusOK || got != want {
				t.Errorf("%s, token %q: %d\n%s\nwant the live PGN of 15 minutes before:\n%s", at, tok, code, got, want)
			}
		}
	}
	check("T0+20s", live[0])
	clock.Advance(delay - 20*time.Second)
	check("T0+15m", live[1])
	clock.Advance(10 * time.Second)
	check("T0+15m10s", live[2])
	clock.Advance(9 * time.Second)
	check("T0+15m19s", live[2])
	clock.Advance(time.Second)
	check("T0+15m20s", live[3])

	code, etag, _ := fetch(t, url, feed, "")
	if code2, _, body := fetch(t, url, feed, etag); code != http.StatusOK || code2 != http.StatusNotModified || body != "" {
		t.Errorf("a poll with the ETag: %d then %d (%q), want 200 then 304", code, code2, body)
	}
	if _, _, one := fetch(t, base+"/api/pgn/board/"+boardID, feed, ""); strings.Count(one, "[Event ") != 1 || !strings.Contains(one, `[Round "1.1"]`) {
		t.Errorf("board 1's PGN:\n%s", one)
	}
	if code, _, list := fetch(t, base+"/api/broadcasts", h.Chief, ""); code != http.StatusOK || !strings.Contains(list, roundID) || !strings.Contains(list, `"public":true`) {
		t.Errorf("/api/broadcasts: %d %s", code, list)
	}
	if code, _, _ := fetch(t, base+"/api/broadcasts", feed, ""); code != http.StatusForbidden {
		t.Errorf("/api/broadcasts with a broadcast token: %d, want 403", code)
	}
	if _, err := arb.SetBroadcast(ctx, &pb.SetBroadcastRequest{RoundId: roundID, RelayUrl: ptrString("ftp://relay")}); err == nil {
		t.Errorf("SetBroadcast took an ftp:// relay")
	}
	if _, err := arb.SetBroadcast(ctx, &pb.SetBroadcastRequest{RoundId: roundID, Public: ptrBool(false)}); err != nil {
		t.Fatal(err)
	}
	if code, _, _ := fetch(t, url, "", ""); code != http.StatusUnauthorized {
		t.Errorf("the round made private again, without a token: %d, want 401", code)
	}
}

func ptrBool(b bool) *bool       { return &b }
func ptrString(s string) *string { return &s }
