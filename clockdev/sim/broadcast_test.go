package sim_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chesshall/hallclock/clockdev/sim"
	"github.com/chesshall/hallclock/internal/testkit/halltest"
	"github.com/chesshall/hallclock/internal/testkit/longtest"
	"github.com/chesshall/hallclock/internal/testkit/pgncheck"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
)

// relayInTest takes pushes as the lichess broadcast push API does; its
// third to fifth pushes meet an outage (503).
type relayInTest struct {
	mu       sync.Mutex
	requests int
	failed   int
	got      []string
	auth     string
}

func (r *relayInTest) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	b, _ := io.ReadAll(req.Body)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.requests++
	r.auth = req.Header.Get("Authorization")
	if r.requests >= 3 && r.requests <= 5 {
		r.failed++
		http.Error(w, "relay down", http.StatusServiceUnavailable)
		return
	}
	r.got = append(r.got, string(b))
	fmt.Fprint(w, `{"games":[]}`)
}

func (r *relayInTest) pushes() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.got...)
}

func behind(now, before []int) string {
	for i := range now {
		if i < len(before) && now[i] < before[i] {
			return fmt.Sprintf("game %d went back from %d to %d", i+1, before[i], now[i])
		}
	}
	return ""
}

// A round of the simulated fleet on e-boards, broadcast: a poller of the
// round's PGN (If-None-Match every few milliseconds) and a relay pushed
// to (through an outage) see the games only move forward and end with the
// final PGN, which pgn-extract reads as the store has it — every move,
// every clock.
func TestBroadcastOfASimulatedRound(t *testing.T) {
	longtest.Skip(t)
	t.Parallel() // like the other fleet tests: it waits on the scaled clock
	speed := 60.0
	if raceDetector {
		speed = 45
	}
	relay := &relayInTest{}
	rs := httptest.NewServer(relay)
	defer rs.Close()
	h := startHall(t, speed)
	base := h.HTTP(t)
	arb, ctx := h.Arbiter(t)
	cfg := h.config(sim.RoundSpec{Tournament: "Broadcast Open", TimeControl: "60+1", Boards: 4, EBoard: true})
	fleet, err := sim.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	runCtx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	done := make(chan error, 1)
	go func() { _, err := fleet.Run(runCtx); done <- err }()

	var roundID string
	halltest.Eventually(t, 30*time.Second, func() error {
		rs, err := arb.ListRounds(ctx, &pb.ListRoundsRequest{Tournament: "Broadcast Open"})
		if err != nil || len(rs.GetRounds()) == 0 {
			return fmt.Errorf("no round yet (%v)", err)
		}
		roundID = rs.GetRounds()[0].GetRoundId()
		return nil
	})
	public := true
	if _, err := arb.SetBroadcast(ctx, &pb.SetBroadcastRequest{RoundId: roundID, RelayUrl: ptr(rs.URL + "/push"), RelayToken: ptr("lip_x"), Public: &public}); err != nil {
		t.Fatal(err)
	}

	url := base + "/api/pgn/round/" + roundID
	poll := func(etag string) (int, string, string) {
		req, _ := http.NewRequest(http.MethodGet, url, nil)
		req.Header.Set("Authorization", "Bearer "+h.Chief)
		if etag != "" {
			req.Header.Set("If-None-Match", etag)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, resp.Header.Get("ETag"), string(b)
	}
	var etag, doc string
	fresh, notModified := 0, 0
	for running := true; running; {
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("fleet: %v", err)
			}
			running = false
		case <-time.After(5 * time.Millisecond):
		}
		code, tag, b := poll(etag)
		switch code {
		case http.StatusNotModified:
			notModified++
		case http.StatusOK:
			fresh++
			if d := behind(pgncheck.Plies(b), pgncheck.Plies(doc)); d != "" {
				t.Fatalf("the polled PGN went backwards: %s", d)
			}
			etag, doc = tag, b
		default:
			t.Fatalf("poll: %d %s", code, b)
		}
	}
	_, finalTag, _ := poll("")
	// The relay is pushed what the public reads: the round's PGN without
	// the arbiters' reasons (a claim the fleet's players cut short is
	// ruled with one); the round is public, so a tokenless GET is that.
	final := publicPGN(t, url)
	if notModified == 0 {
		// On a loaded machine every poll during play can find a move
		// made since the last: the finished round no longer changes,
		// and polled with its ETag it answers 304.
		code, _, b := poll(finalTag)
		switch code {
		case http.StatusNotModified:
			notModified++
		case http.StatusOK:
			t.Errorf("the finished round polled with its own ETag %s: 200 with a PGN of %d bytes, want 304", finalTag, len(b))
		default:
			t.Fatalf("poll: %d %s", code, b)
		}
	}
	t.Logf("polls: %d with a new PGN, %d not modified", fresh, notModified)
	if fresh < 5 || notModified == 0 {
		t.Errorf("polls: %d new, %d not modified; want the round seen moving and unchanged polls answered 304", fresh, notModified)
	}

	halltest.Eventually(t, 20*time.Second, func() error {
		p := relay.pushes()
		if len(p) == 0 || p[len(p)-1] != final {
			return fmt.Errorf("the relay has %d pushes, the last not the final PGN", len(p))
		}
		return nil
	})
	pushes := relay.pushes()
	for i := 1; i < len(pushes); i++ {
		if d := behind(pgncheck.Plies(pushes[i]), pgncheck.Plies(pushes[i-1])); d != "" {
			t.Errorf("push %d: %s", i+1, d)
		}
	}
	relay.mu.Lock()
	if relay.failed != 3 || relay.auth != "Bearer lip_x" {
		t.Errorf("the relay refused %d pushes (want 3, its outage) and got Authorization %q", relay.failed, relay.auth)
	}
	relay.mu.Unlock()
	t.Logf("relay: %d pushes accepted after an outage of 3", len(pushes))

	games := pgncheck.ReadWithComments(t, []byte(final))
	bs, err := arb.ListBoards(ctx, &pb.ListBoardsRequest{RoundId: roundID})
	if err != nil || len(games) != len(bs.GetBoards()) || len(games) != 4 {
		t.Fatalf("pgn-extract read %d games of %d boards (%v)", len(games), len(bs.GetBoards()), err)
	}
	for i, b := range bs.GetBoards() {
		g := games[i]
		wantTags := map[string]string{"White": b.GetWhite().GetName(), "Black": b.GetBlack().GetName(),
			"Round": fmt.Sprintf("1.%d", b.GetNumber()), "TimeControl": "60+1", "Event": "Broadcast Open"}
		for k, v := range wantTags {
			if g.Tags[k] != v {
				t.Errorf("board %d: tag %s %q, want %q", b.GetNumber(), k, g.Tags[k], v)
			}
		}
		sans, clocks := storeMoves(t, h, b)
		moves := make([]string, len(g.Moves))
		for j, m := range g.Moves {
			moves[j] = strings.TrimRight(m, "+#")
		}
		if !reflect.DeepEqual(moves, sans) || len(sans) == 0 {
			t.Errorf("board %d: %d moves, want the store's %d%s", b.GetNumber(), len(moves), len(sans), firstDifference(moves, sans))
			continue
		}
		if i == 0 {
			t.Logf("board 1: %d moves, first %s {%s}, last %s {%s}", len(moves), moves[0], g.Comments[0], moves[len(moves)-1], g.Comments[len(moves)-1])
		}
		for j, c := range g.Comments {
			clk, emt := clockOf(c, "%clk"), clockOf(c, "%emt")
			if clk != clocks[j] || emt == "" {
				t.Errorf("board %d ply %d (%s): comment %q, want [%%clk %s] and an [%%emt]", b.GetNumber(), j+1, moves[j], c, clocks[j])
				break
			}
		}
	}
}

func ptr(s string) *string { return &s }

// storeMoves folds a board's log from the store: each move with its SAN
// (check marks as pgn-extract may differ, dropped) and the mover's clock
// right after it, in whole seconds, as h:mm:ss.
func storeMoves(t *testing.T, h *hall, b *pb.Board) (sans, clocks []string) {
	t.Helper()
	evs, err := h.Store.Events(context.Background(), b.GetBoardId(), 0)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := h.Store.Board(context.Background(), b.GetBoardId())
	if err != nil {
		t.Fatal(err)
	}
	st, err := rules.NewState(rec.Config)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range evs {
		if st, err = rules.Apply(st, e.Event); err != nil {
			t.Fatal(err)
		}
		if e.Event.Kind == rules.KindPress && e.Event.SAN != "" {
			sans = append(sans, strings.TrimRight(e.Event.SAN, "+#"))
			s := st.P[e.Event.Side].MainMs / 1000
			clocks = append(clocks, fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60))
		}
	}
	return sans, clocks
}

// clockOf returns the value of a clock command ("%clk") in a comment.
func clockOf(comment, cmd string) string {
	_, after, ok := strings.Cut(comment, "["+cmd+" ")
	if !ok {
		return ""
	}
	v, _, _ := strings.Cut(after, "]")
	return v
}

// publicPGN reads url without a token, as the public and the relays do.
func publicPGN(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s without a token: %d %s", url, resp.StatusCode, b)
	}
	return string(b)
}
