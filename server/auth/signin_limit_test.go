package auth_test

import (
	"bytes"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chesshall/hallclock/server/auth"
)

// fakeNow is a clock the test moves.
type fakeNow struct {
	mu sync.Mutex
	t  time.Time
}

func (f *fakeNow) now() time.Time      { f.mu.Lock(); defer f.mu.Unlock(); return f.t }
func (f *fakeNow) add(d time.Duration) { f.mu.Lock(); f.t = f.t.Add(d); f.mu.Unlock() }
func newFakeNow() *fakeNow             { return &fakeNow{t: time.Unix(1_700_000_000, 0)} }
func refuse(w http.ResponseWriter, _ *http.Request, err error) {
	http.Error(w, err.Error(), http.StatusTooManyRequests)
}

// signIn is a sign-in handler: the token "right" signs in (303), any
// other is refused (401).
func signIn(w http.ResponseWriter, r *http.Request) {
	if r.FormValue("token") == "right" {
		http.Redirect(w, r, "/", http.StatusSeeOther)
		return
	}
	http.Error(w, "unknown token", http.StatusUnauthorized)
}

func attempt(h http.Handler, addr, token string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(http.MethodPost, "/signin", strings.NewReader("token="+token))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	r.RemoteAddr = addr
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

func TestSignInLimitPerAddress(t *testing.T) {
	clock := newFakeNow()
	var logs bytes.Buffer
	l := auth.NewSignInLimit(3, 10*time.Second, clock.now, slog.New(slog.NewTextHandler(&logs, nil)))
	h := l.Wrap(signIn, refuse)
	const a, b = "192.0.2.7:40000", "198.51.100.3:5000"

	// Burst: three wrong tokens are answered, the fourth is 429.
	for i := range 3 {
		if w := attempt(h, a, "wrong"); w.Code != http.StatusUnauthorized {
			t.Fatalf("wrong token %d from %s = %d, want 401", i+1, a, w.Code)
		}
	}
	w := attempt(h, a, "wrong")
	if w.Code != http.StatusTooManyRequests || w.Header().Get("Retry-After") != "10" {
		t.Errorf("4th wrong token from %s = %d, Retry-After %q; want 429 with Retry-After 10", a, w.Code, w.Header().Get("Retry-After"))
	}
	// Limited, even with the right token: the guess is not tried.
	if w := attempt(h, a, "right"); w.Code != http.StatusTooManyRequests {
		t.Errorf("right token from a limited address = %d, want 429", w.Code)
	}
	// Another address has its own bucket; another port is the same address.
	if w := attempt(h, b, "wrong"); w.Code != http.StatusUnauthorized {
		t.Errorf("wrong token from %s = %d, want 401", b, w.Code)
	}
	if w := attempt(h, "192.0.2.7:40001", "wrong"); w.Code != http.StatusTooManyRequests {
		t.Errorf("wrong token from %s's other port = %d, want 429", a, w.Code)
	}
	// One more attempt every 10 s.
	clock.add(9 * time.Second)
	if w := attempt(h, a, "wrong"); w.Code != http.StatusTooManyRequests || w.Header().Get("Retry-After") != "1" {
		t.Errorf("after 9 s: %d, Retry-After %q; want 429 with Retry-After 1", w.Code, w.Header().Get("Retry-After"))
	}
	clock.add(time.Second)
	if w := attempt(h, a, "right"); w.Code != http.StatusSeeOther {
		t.Errorf("after 10 s, the right token = %d, want 303", w.Code)
	}
	// A sign-in that succeeds gives its attempt back: right tokens never
	// run out (a hall's arbiters behind one address).
	for i := range 20 {
		if w := attempt(h, b, "right"); w.Code != http.StatusSeeOther {
			t.Fatalf("right token %d from %s = %d, want 303", i+1, b, w.Code)
		}
	}
	// The form without a code is no attempt.
	r := httptest.NewRequest(http.MethodGet, "/signin", nil)
	r.RemoteAddr = a
	rec := httptest.NewRecorder()
	l.Wrap(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusOK) }, refuse)(rec, r)
	if rec.Code != http.StatusOK {
		t.Errorf("GET /signin from a limited address = %d, want the form (200)", rec.Code)
	}
	if got := l.Refused(); got != 4 {
		t.Errorf("Refused() = %d, want 4", got)
	}
	if n := strings.Count(logs.String(), "sign-in attempts from an address refused"); n != 1 {
		t.Errorf("the burst was logged %d times, want once:\n%s", n, logs.String())
	}
}

// IPv6 addresses count by their /64: one machine holds a whole /64.
func TestSignInLimitIPv6CountsBySlash64(t *testing.T) {
	l := auth.NewSignInLimit(2, time.Minute, newFakeNow().now, slog.New(slog.DiscardHandler))
	h := l.Wrap(signIn, refuse)
	attempt(h, "[2001:db8:1:2::1]:1000", "wrong")
	attempt(h, "[2001:db8:1:2::abcd]:1000", "wrong")
	if w := attempt(h, "[2001:db8:1:2:ffff::9]:1000", "wrong"); w.Code != http.StatusTooManyRequests {
		t.Errorf("3rd wrong token from the same /64 = %d, want 429", w.Code)
	}
	if w := attempt(h, "[2001:db8:1:3::1]:1000", "wrong"); w.Code != http.StatusUnauthorized {
		t.Errorf("wrong token from another /64 = %d, want 401", w.Code)
	}
}

// A long burst is logged at its 1st, 10th, 100th and 1000th refusal, not
// 1000 times.
func TestSignInLimitLogsABurstSparingly(t *testing.T) {
	var logs bytes.Buffer
	l := auth.NewSignInLimit(1, time.Hour, newFakeNow().now, slog.New(slog.NewTextHandler(&logs, nil)))
	h := l.Wrap(signIn, refuse)
	for range 1001 {
		attempt(h, "203.0.113.5:999", "wrong")
	}
	if n := strings.Count(logs.String(), "sign-in attempts from an address refused"); n != 4 {
		t.Errorf("1000 refusals were logged %d times, want 4 (1st, 10th, 100th, 1000th):\n%s", n, logs.String())
	}
	if !strings.Contains(logs.String(), "refused=1000") || !strings.Contains(logs.String(), "address=203.0.113.5/32") {
		t.Errorf("the log does not say how many and from where:\n%s", logs.String())
	}
}
