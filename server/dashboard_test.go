package server_test

import (
	"bufio"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/encoding/protojson"

	"github.com/chesshall/hallclock/internal/testkit/halltest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
)

func get(t *testing.T, url, token string) *http.Response {
	t.Helper()
	req, err := http.NewRequest("GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// The dashboard's HTTP side: the page, the board list and the live feed,
// each behind a token of a role that may read them.
func TestDashboardEndpoints(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t)
	boards := h.Round(t, "300+2", 2)
	d := h.Device(t, boards[0].GetDeviceId())
	base := h.HTTP(t)
	feed := h.Token(t, pb.Role_ROLE_BROADCAST, "feed", "")
	dev := h.DeviceToken(t, boards[0].GetDeviceId())

	page := get(t, base+"/", "")
	body, _ := io.ReadAll(page.Body)
	page.Body.Close()
	if page.StatusCode != 200 || !strings.Contains(string(body), "/dashboard/app.js") {
		t.Errorf("GET / = %d, want the dashboard page", page.StatusCode)
	}
	for _, c := range []struct {
		token string
		want  int
	}{{"", 401}, {"hc_nonsense", 401}, {dev, 403}, {feed, 200}, {h.Chief, 200}} {
		r := get(t, base+"/api/boards", c.token)
		r.Body.Close()
		if r.StatusCode != c.want {
			t.Errorf("GET /api/boards with token %.8q = %d, want %d", c.token, r.StatusCode, c.want)
		}
	}
	r := get(t, base+"/api/boards", feed)
	var list pb.ListBoardsResponse
	b, _ := io.ReadAll(r.Body)
	r.Body.Close()
	if err := protojson.Unmarshal(b, &list); err != nil || len(list.GetBoards()) != 2 || list.GetBoards()[0].GetWhite().GetName() != "White 1" {
		t.Errorf("/api/boards = %s (%v), want the 2 boards with their players", b, err)
	}

	// The live feed: a snapshot first, then the change of a press.
	resp := get(t, base+"/api/watch", feed)
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("/api/watch Content-Type %q, want text/event-stream", ct)
	}
	events := make(chan *pb.WatchUpdate, 16)
	go func() {
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
				var u pb.WatchUpdate
				if protojson.Unmarshal([]byte(data), &u) == nil {
					events <- &u
				}
			}
		}
		close(events)
	}()
	first := <-events
	if !first.GetSnapshot() || len(first.GetBoards()) != 2 {
		t.Fatalf("first SSE event = %v, want a snapshot of 2 boards", first)
	}
	arb, ctx := h.Arbiter(t)
	if _, err := arb.BoardAction(ctx, &pb.BoardActionRequest{BoardId: boards[0].GetBoardId(), Action: &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_START}, WaitMs: 5000}); err != nil {
		t.Fatal(err)
	}
	if err := d.Press(rules.White, "", ""); err != nil {
		t.Fatal(err)
	}
	deadline := time.After(5 * time.Second)
	for {
		select {
		case u, ok := <-events:
			if !ok {
				t.Fatal("feed ended")
			}
			for _, st := range u.GetBoards() {
				if st.GetBoardId() == boards[0].GetBoardId() && st.GetWhite().GetMoves() == 1 {
					return
				}
			}
		case <-deadline:
			t.Fatal("the press never reached the feed")
		}
	}
}
