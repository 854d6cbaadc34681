package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/chesshall/hallclock/internal/testkit/halltest"
)

// A round made public and pushed to a relay with a token read from a
// file; the relay gets the round's PGN with the token; the status says so;
// the relay is stopped again.
func TestBroadcastCommands(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var auth, body string
	relay := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		auth, body = r.Header.Get("Authorization"), string(b)
		mu.Unlock()
		_, _ = w.Write([]byte(`{"games":[{"tags":{"White":"White 1"},"moves":0},{"tags":{"White":"White 2"},"error":"no moves"}]}`))
	}))
	defer relay.Close()
	h := halltest.Start(t, halltest.OnLoopback())
	h.Round(t, "3m+2s", 2)
	env := chiefEnv(h)
	do, expect := runner(t, env)
	tokenFile := filepath.Join(t.TempDir(), "lichess.token")
	if err := os.WriteFile(tokenFile, []byte("lip_secret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	expect(do("broadcasts"), "no round is public")
	expect(do("broadcast", "1"), "needs a broadcast token", "/api/pgn/round/", "relay    none")
	url := relay.URL + "/api/broadcast/round/AbCd1234/push"
	out := do("broadcast", "1", "-public", "-relay", url, "-relay-token", "@"+tokenFile)
	expect(out, "round 1: public, live", "/display/round/", url+" (token set)")
	if strings.Contains(out, "lip_secret") {
		t.Errorf("the relay's token is shown:\n%s", out)
	}
	halltest.Eventually(t, 5e9, func() error {
		if out := do("broadcast", "1"); !strings.Contains(out, "up to date; 1 pushes accepted") {
			return &waitErr{out}
		}
		return nil
	})
	mu.Lock()
	if auth != "Bearer lip_secret" || strings.Count(body, "[Event ") != 2 || !strings.Contains(body, `[Round "1.2"]`) {
		t.Errorf("the relay got Authorization %q and\n%s", auth, body)
	}
	mu.Unlock()
	expect(do("broadcasts"), "the relay refused a game: White 2 - : no moves")
	expect(do("broadcast", "1", "-private", "-relay", ""), "needs a broadcast token", "relay    none")
}

type waitErr struct{ out string }

func (e *waitErr) Error() string { return "status:\n" + e.out }
