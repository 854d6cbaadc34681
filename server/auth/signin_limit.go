package auth

import (
	"fmt"
	"log/slog"
	"math"
	"net"
	"net/http"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"

	"github.com/chesshall/hallclock/server/hallerr"
)

// Sign-in attempts are limited per address: a token bucket of Burst
// attempts that refills one every Every. An attempt that signs in gives
// its token back, so only failures count: a hall's arbiters behind one
// address who type their tokens right are never held back, while a
// guesser gets Burst tries and then one every Every, answered 429 with
// Retry-After. Each burst of refusals from an address is logged at its
// first refusal and at its 10th, 100th, 1000th..., with how many so far.
//
// The address is the connection's (behind a reverse proxy, the proxy's);
// IPv6 addresses count by their /64, which one machine usually holds
// whole.

// Defaults of SignInLimit.
const (
	DefaultSignInBurst = 10
	DefaultSignInEvery = 6 * time.Second
)

// maxSignInAddrs bounds the addresses remembered: past it, those whose
// bucket is full again are forgotten.
const maxSignInAddrs = 10_000

// SignInLimit limits sign-in attempts per address.
type SignInLimit struct {
	burst float64
	every time.Duration
	now   func() time.Time
	log   *slog.Logger

	refused atomic.Uint64

	mu    sync.Mutex
	addrs map[netip.Prefix]*signInBucket
}

type signInBucket struct {
	tokens  float64
	at      time.Time // when tokens was reckoned
	refused uint64    // refusals in the current burst
}

// NewSignInLimit returns a limit of burst attempts per address, one more
// every every (0: the defaults), on the clock now, logging bursts to log.
func NewSignInLimit(burst int, every time.Duration, now func() time.Time, log *slog.Logger) *SignInLimit {
	if burst <= 0 {
		burst = DefaultSignInBurst
	}
	if every <= 0 {
		every = DefaultSignInEvery
	}
	if log == nil {
		log = slog.Default()
	}
	return &SignInLimit{burst: float64(burst), every: every, now: now, log: log, addrs: map[netip.Prefix]*signInBucket{}}
}

// Refused returns how many attempts were refused since the start.
func (l *SignInLimit) Refused() uint64 { return l.refused.Load() }

// addrOf is the address an attempt counts against: the peer's IPv4
// address, or its IPv6 /64.
func addrOf(r *http.Request) netip.Prefix {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	a, err := netip.ParseAddr(host)
	if err != nil {
		return netip.Prefix{} // all unreadable addresses share one bucket
	}
	a = a.Unmap()
	bits := 32
	if a.Is6() {
		bits = 64
	}
	p, _ := a.Prefix(bits)
	return p
}

// take takes one attempt for r's address: ok, or how long until the next.
func (l *SignInLimit) take(addr netip.Prefix) (ok bool, wait time.Duration) {
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.addrs[addr]
	if b == nil {
		if len(l.addrs) >= maxSignInAddrs {
			l.forgetFullLocked(now)
		}
		b = &signInBucket{tokens: l.burst, at: now}
		l.addrs[addr] = b
	}
	l.refillLocked(b, now)
	if b.tokens >= 1 {
		b.tokens--
		if b.refused > 0 {
			l.log.Info("sign-in attempts from an address allowed again", "address", addr, "refused", b.refused)
			b.refused = 0
		}
		return true, 0
	}
	b.refused++
	l.refused.Add(1)
	wait = time.Duration(math.Ceil((1 - b.tokens) * float64(l.every)))
	if n := b.refused; n == 1 || isPowerOfTen(n) {
		l.log.Warn("sign-in attempts from an address refused: too many failed", "address", addr,
			"refused", n, "burst", int(l.burst), "every", l.every, "retry_after", wait.Round(time.Second))
	}
	return false, wait
}

// giveBack returns the attempt of a sign-in that succeeded.
func (l *SignInLimit) giveBack(addr netip.Prefix) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if b := l.addrs[addr]; b != nil {
		b.tokens = min(b.tokens+1, l.burst)
	}
}

func (l *SignInLimit) refillLocked(b *signInBucket, now time.Time) {
	if d := now.Sub(b.at); d > 0 {
		b.tokens = min(l.burst, b.tokens+float64(d)/float64(l.every))
		b.at = now
	}
}

// forgetFullLocked forgets the addresses whose bucket is full again.
func (l *SignInLimit) forgetFullLocked(now time.Time) {
	for a, b := range l.addrs {
		if l.refillLocked(b, now); b.tokens >= l.burst {
			delete(l.addrs, a)
		}
	}
}

func isPowerOfTen(n uint64) bool {
	for n >= 10 && n%10 == 0 {
		n /= 10
	}
	return n == 1
}

// Wrap limits the sign-ins of h (GET /signin?code=, POST /signin, POST
// /api/session): an attempt beyond the limit is answered 429 with
// Retry-After by refuse, an attempt answered below 400 is given back.
// Requests that do not sign in (GET /signin without a code) pass.
func (l *SignInLimit) Wrap(h http.HandlerFunc, refuse func(w http.ResponseWriter, r *http.Request, err error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && !r.URL.Query().Has("code") {
			h(w, r)
			return
		}
		addr := addrOf(r)
		ok, wait := l.take(addr)
		if !ok {
			secs := int(math.Ceil(wait.Seconds()))
			w.Header().Set("Retry-After", fmt.Sprint(secs))
			refuse(w, r, fmt.Errorf("%w: too many failed sign-ins from %s: try again in %d s (%d tries, then one every %s)",
				hallerr.ErrTooManyAttempts, r.RemoteAddr, secs, int(l.burst), l.every))
			return
		}
		rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
		h(rec, r)
		if rec.status < http.StatusBadRequest {
			l.giveBack(addr)
		}
	}
}

// statusRecorder remembers the status a handler answered with.
type statusRecorder struct {
	http.ResponseWriter
	status int
	wrote  bool
}

func (s *statusRecorder) WriteHeader(code int) {
	if !s.wrote {
		s.status, s.wrote = code, true
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusRecorder) Write(b []byte) (int, error) {
	s.wrote = true
	return s.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the connection.
func (s *statusRecorder) Unwrap() http.ResponseWriter { return s.ResponseWriter }
