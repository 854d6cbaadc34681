package broadcast_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chesshall/hallclock/internal/mono"
	"github.com/chesshall/hallclock/internal/testkit/pgncheck"
	"github.com/chesshall/hallclock/rules"
	"github.com/chesshall/hallclock/server/broadcast"
)

// fakeRelay is a relay in the test: it takes POSTs as lichess's push API
// does, answers per game, can be taken down, and records what it got.
type fakeRelay struct {
	t        *testing.T
	down     atomic.Bool
	inFlight atomic.Int32
	most     atomic.Int32 // most pushes in flight at once

	mu     sync.Mutex
	got    []string // accepted pushes, in order
	failed int
}

func newFakeRelay(t *testing.T) (*fakeRelay, string) {
	r := &fakeRelay{t: t}
	srv := httptest.NewServer(r)
	t.Cleanup(srv.Close)
	return r, srv.URL + "/api/broadcast/round/AbCd1234/push"
}

func (r *fakeRelay) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	n := r.inFlight.Add(1)
	defer r.inFlight.Add(-1)
	for m := r.most.Load(); n > m && !r.most.CompareAndSwap(m, n); m = r.most.Load() {
	}
	if req.Method != http.MethodPost || req.Header.Get("Authorization") != "Bearer lip_secret" ||
		!strings.HasPrefix(req.Header.Get("Content-Type"), "text/plain") || req.URL.Path != "/api/broadcast/round/AbCd1234/push" {
		http.Error(w, "not a push", http.StatusBadRequest)
		return
	}
	b, _ := io.ReadAll(req.Body)
	time.Sleep(2 * time.Millisecond) // a push takes a while: changes pile up meanwhile
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.down.Load() {
		r.failed++
		http.Error(w, "upstream down", http.StatusServiceUnavailable)
		return
	}
	r.got = append(r.got, string(b))
	games := strings.Split(string(b), "[Event ")[1:]
	fmt.Fprint(w, `{"games":[`)
	for i, g := range games {
		if i > 0 {
			fmt.Fprint(w, ",")
		}
		fmt.Fprintf(w, `{"tags":{"White":"w"},"moves":%d}`, strings.Count(g, "[%clk"))
	}
	fmt.Fprint(w, `]}`)
}

func (r *fakeRelay) pushes() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.got...)
}

// A relay pushed to during a round gets pushes one at a time, never an
// older state after a newer one, keeps working through an outage, and
// ends with the round's final PGN.
func TestRelayGetsTheLatestThroughAnOutage(t *testing.T) {
	relay, url := newFakeRelay(t)
	h := newHall(t, mono.Real(), "180+2", 3)
	f, base := serve(t, broadcast.Options{Source: h, Relay: broadcast.RelayOptions{
		MinInterval: time.Millisecond, MinBackoff: 5 * time.Millisecond, MaxBackoff: 20 * time.Millisecond}})
	f.SetRelay("r5", &broadcast.Relay{URL: url, Token: "lip_secret"})
	for _, b := range []string{"b1", "b2", "b3"} {
		h.commit(b, rules.Event{Kind: rules.KindStart, T: 0})
	}
	waitFor := func(what string, ok func() bool) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for !ok() {
			if time.Now().After(deadline) {
				st, _ := f.RelayStatus("r5")
				t.Fatalf("%s: not after 10 s (status %+v)", what, st)
			}
			time.Sleep(2 * time.Millisecond)
		}
	}
	play := func(from, to int) {
		for i := from; i < to; i++ {
			for _, b := range []string{"b1", "b2", "b3"} {
				h.commit(b, press(rules.Side(i%2), opening[i], int64(i+1)*1000))
			}
			time.Sleep(time.Millisecond)
		}
	}
	play(0, 5)
	now := body(t, get(t, base+"/api/pgn/round/r5", "arbiter"))
	waitFor("the relay has the first five moves", func() bool { p := relay.pushes(); return len(p) > 0 && p[len(p)-1] == now })
	relay.down.Store(true)
	play(5, 11)
	waitFor("pushes meet the outage", func() bool { st, _ := f.RelayStatus("r5"); return st.ConsecutiveFailures >= 3 })
	if st, _ := f.RelayStatus("r5"); !st.Behind || st.State != broadcast.RelayRetrying || !strings.Contains(st.LastError, "503") {
		t.Errorf("status in the outage: %+v; want behind, retrying, the relay's 503", st)
	}
	relay.down.Store(false)
	play(11, len(opening))
	final := body(t, get(t, base+"/api/pgn/round/r5", "arbiter"))
	deadline := time.Now().Add(10 * time.Second)
	for {
		st, ok := f.RelayStatus("r5")
		got := relay.pushes()
		if ok && st.State == broadcast.RelayUpToDate && len(got) > 0 && got[len(got)-1] == final {
			if st.Behind || st.LastError != "" || st.PushedGames != 3 || st.Failures == 0 || st.Pushes != uint64(len(got)) {
				t.Errorf("status at the end: %+v; want not behind, no error, 3 games, the outage's failures counted, %d pushes", st, len(got))
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the relay did not end with the final PGN: status %+v, %d pushes, last:\n%s", st, len(got), last(got))
		}
		time.Sleep(5 * time.Millisecond)
	}
	got := relay.pushes()
	for i := 1; i < len(got); i++ {
		before, after := pgncheck.Plies(got[i-1]), pgncheck.Plies(got[i])
		for g := range after {
			if g < len(before) && after[g] < before[g] {
				t.Errorf("push %d takes game %d back from %d to %d plies", i, g+1, before[g], after[g])
			}
		}
	}
	if m := relay.most.Load(); m != 1 {
		t.Errorf("%d pushes were in flight at once, want 1", m)
	}
	if relay.failed == 0 {
		t.Errorf("no push met the outage")
	}
	if len(got) > 3*len(opening)+4 {
		t.Errorf("%d pushes for %d commits: changes were not coalesced", len(got), 3*len(opening)+6)
	}
	t.Logf("%d pushes accepted, %d refused in the outage, for %d commits", len(got), relay.failed, 3*len(opening)+6)

	f.SetRelay("r5", nil)
	if _, ok := f.RelayStatus("r5"); ok {
		t.Errorf("a relay still reported after it was removed")
	}
}

func last(s []string) string {
	if len(s) == 0 {
		return "(none)"
	}
	return s[len(s)-1]
}

// A relay to lichess gets the results PGN has no notation for as lichess
// scores them ("0-0", "1/2-0"); the feeds, and a relay elsewhere, keep
// PGN's four results ("*" for these). LichessRelay tells lichess's URLs.
func TestRelayToLichessGetsItsResults(t *testing.T) {
	h := newHall(t, mono.Real(), "180+2", 2)
	f, base := serve(t, broadcast.Options{Source: h, Relay: broadcast.RelayOptions{MinInterval: time.Millisecond}})
	h.commit("b1", rules.Event{Kind: rules.KindResult, T: 0, Result: rules.BothLose, ByArbiter: true})
	h.commit("b2", rules.Event{Kind: rules.KindResult, T: 0, Result: rules.WhiteHalf, ByArbiter: true})
	for _, lichess := range []bool{true, false} {
		relay, url := newFakeRelay(t)
		f.SetRelay("r5", &broadcast.Relay{URL: url, Token: "lip_secret", LichessResults: lichess})
		deadline := time.Now().Add(10 * time.Second)
		for len(relay.pushes()) == 0 {
			if time.Now().After(deadline) {
				t.Fatalf("no push in 10 s")
			}
			time.Sleep(2 * time.Millisecond)
		}
		got := relay.pushes()[0]
		want := []string{`[Result "0-0"]`, `[Result "1/2-0"]`}
		if !lichess {
			want = []string{`[Result "*"]`}
		}
		for _, w := range want {
			if !strings.Contains(got, w) {
				t.Errorf("lichess %v: the push has no %s:\n%s", lichess, w, got)
			}
		}
	}
	feed := body(t, get(t, base+"/api/pgn/round/r5", "arbiter"))
	if strings.Contains(feed, `"0-0"`) || strings.Count(feed, `[Result "*"]`) != 2 {
		t.Errorf("the feed's results are not PGN's:\n%s", feed)
	}
	for url, want := range map[string]bool{
		"https://lichess.org/api/broadcast/round/AbCd1234/push": true, "https://LICHESS.ORG/x": true,
		"https://dev.lichess.org/api/x": true, "https://notlichess.org/x": false, "http://127.0.0.1:9/push": false, "::": false,
	} {
		if got := broadcast.LichessRelay(url); got != want {
			t.Errorf("LichessRelay(%q) = %v, want %v", url, got, want)
		}
	}
}
