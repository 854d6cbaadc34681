package server_test

import (
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chesshall/hallclock/internal/mono"
	"github.com/chesshall/hallclock/internal/testkit/halltest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/server"
)

// Guessing sign-in codes: 3,000 wrong codes went through in 0.9 s without
// a log line. Now an address has 10 failed sign-ins, then one every 6 s:
// the rest are 429 with Retry-After, counted, and the burst is logged.
// Right tokens give their attempt back. 120 guesses pass the 100th
// refusal, the last the log marks.
func TestSignInGuessesAreLimitedPerAddress(t *testing.T) {
	t.Parallel()
	clock := mono.NewFake(time.Now())
	logs := &halltest.SyncBuffer{}
	h := halltest.Start(t, halltest.WithOptions(server.Options{Clock: clock,
		Logger: slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelInfo}))}))
	w := newWeb(t, h)
	arb := h.Token(t, pb.Role_ROLE_ARBITER, "Anna", "")
	answers := map[int]int{}
	var retryAfter string
	for i := range 120 {
		var resp *http.Response
		switch i % 3 {
		case 0:
			resp, _ = w.do("GET", "/signin?code=sc_guess"+strings.Repeat("x", i%7), nil, nil)
		case 1:
			resp, _ = w.do("POST", "/signin", url.Values{"code": {"sc_guess"}}, nil)
		default:
			resp, _ = w.do("POST", "/api/session", url.Values{"token": {"hc_guess"}}, nil)
		}
		answers[resp.StatusCode]++
		if resp.StatusCode == http.StatusTooManyRequests {
			retryAfter = resp.Header.Get("Retry-After")
		}
	}
	if answers[http.StatusUnauthorized] != 10 || answers[http.StatusTooManyRequests] != 110 {
		t.Errorf("120 wrong sign-ins were answered %v; want 10 × 401, then 110 × 429", answers)
	}
	if retryAfter != "6" {
		t.Errorf("Retry-After = %q, want 6 (seconds until the next attempt)", retryAfter)
	}
	// Limited: even a right token waits.
	if resp, _ := w.do("POST", "/signin", url.Values{"token": {arb}}, nil); resp.StatusCode != http.StatusTooManyRequests {
		t.Errorf("a right token from the limited address = %d, want 429", resp.StatusCode)
	}
	// Six seconds later, one more attempt: a right one signs in and gives
	// it back.
	clock.Advance(6 * time.Second)
	if resp, _ := w.do("POST", "/signin", url.Values{"token": {arb}}, nil); resp.StatusCode != http.StatusSeeOther || w.cookie == nil {
		t.Errorf("6 s later, a right token = %d, want 303 and a session", resp.StatusCode)
	}
	if resp, _ := w.do("POST", "/api/session", url.Values{"token": {arb}}, nil); resp.StatusCode != http.StatusOK {
		t.Errorf("then another right token = %d, want 200 (a sign-in gives its attempt back)", resp.StatusCode)
	}

	if n := strings.Count(logs.String(), "sign-in attempts from an address refused"); n < 1 || n > 4 {
		t.Errorf("the burst of 110 refusals was logged %d times; want once, then at the 10th and 100th:\n%s", n, logs.String())
	}
	resp := get(t, w.base+"/metrics", "")
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !regexp.MustCompile(`(?m)^hall_signin_refused_total 111$`).Match(body) {
		t.Errorf("/metrics does not count the 111 refused sign-ins:\n%s", regexp.MustCompile(`(?m)^hall_signin.*$`).FindAll(body, -1))
	}
}
