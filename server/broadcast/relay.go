package broadcast

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"sync"
	"time"
)

// Relay is where a round's PGN is pushed: a URL taking a POST of the
// round's PGN with a bearer token, as the lichess broadcast push API does
// (POST https://lichess.org/api/broadcast/round/{roundId}/push,
// Authorization: Bearer <token with study:write>, body text/plain PGN).
type Relay struct {
	URL   string
	Token string // sent as 'Authorization: Bearer <Token>'; "" sends none
	// LichessResults pushes the results PGN has no notation for ("0-0",
	// "1/2-0", "0-1/2") in the Result tag as lichess reads them, for
	// lichess to score; without it the tag is "*" for them (pgn.Options).
	// LichessRelay says whether a URL is lichess's.
	LichessResults bool
}

// LichessRelay reports whether a relay's URL is lichess's (lichess.org or
// one of its hosts), whose broadcasts score lichess's own results.
func LichessRelay(rawURL string) bool {
	u, err := url.Parse(rawURL)
	if err != nil {
		return false
	}
	host := strings.ToLower(u.Hostname())
	return host == "lichess.org" || strings.HasSuffix(host, ".lichess.org")
}

// RelayOptions tune the pushes.
type RelayOptions struct {
	Client *http.Client // default: a client with a 30 s timeout
	// MinInterval is the least time between two pushes of one round
	// (default 1 s): changes meanwhile are coalesced into the next push.
	MinInterval time.Duration
	// MinBackoff and MaxBackoff bound the wait after a failed push, which
	// doubles with each failure in a row (default 1 s and 1 min).
	MinBackoff, MaxBackoff time.Duration
}

func (o *RelayOptions) defaults() {
	if o.Client == nil {
		o.Client = &http.Client{Timeout: 30 * time.Second}
	}
	if o.MinInterval == 0 {
		o.MinInterval = time.Second
	}
	if o.MinBackoff <= 0 {
		o.MinBackoff = time.Second
	}
	if o.MaxBackoff < o.MinBackoff {
		o.MaxBackoff = max(time.Minute, o.MinBackoff)
	}
}

// Relay states.
const (
	RelayUpToDate = "up_to_date" // the relay has the round as the feeds show it
	RelayPending  = "pending"    // a change waits for the least interval between pushes
	RelayPushing  = "pushing"    // a push is in flight
	RelayRetrying = "retrying"   // the last push failed; the next try is at NextAttempt
)

// RelayStatus is how pushing a round to its relay goes.
type RelayStatus struct {
	RoundID  string
	URL      string
	TokenSet bool
	State    string // RelayUpToDate, RelayPending, RelayPushing or RelayRetrying
	// Behind: the relay has not got the round's current PGN.
	Behind              bool
	Pushes              uint64 // pushes the relay accepted
	Failures            uint64 // pushes that failed
	ConsecutiveFailures int
	LastAttempt         time.Time
	LastSuccess         time.Time
	LastError           string // of the last failed push, "" after a success
	LastHTTPStatus      int    // the relay's answer to the last push, 0 if none came
	PushedGames         int    // games in the last accepted push
	PushedBytes         int
	// GameErrors: what the relay said of the games it did not take in the
	// last accepted push (lichess answers per game).
	GameErrors  []string
	NextAttempt time.Time // RelayRetrying: when the next try is
}

// relay is the pusher of one round: one goroutine, so at most one push of
// the round is ever in flight, and each push takes the round as it is
// then (the latest state wins; what changed meanwhile is not queued).
type relay struct {
	roundID string
	cfg     Relay
	cancel  context.CancelFunc
	done    chan struct{}

	mu sync.Mutex
	st RelayStatus
}

func (rl *relay) update(f func(st *RelayStatus)) {
	rl.mu.Lock()
	f(&rl.st)
	rl.mu.Unlock()
}

// SetRelay starts pushing the round to the relay, or, with nil, stops. A
// new relay replaces the round's old one (its status starts afresh).
func (f *Feeds) SetRelay(roundID string, cfg *Relay) {
	f.mu.Lock()
	old := f.relays[roundID]
	delete(f.relays, roundID)
	f.mu.Unlock()
	if old != nil {
		old.cancel()
		<-old.done
	}
	if cfg == nil || f.ctx.Err() != nil {
		return
	}
	ctx, cancel := context.WithCancel(f.ctx)
	rl := &relay{roundID: roundID, cfg: *cfg, cancel: cancel, done: make(chan struct{}),
		st: RelayStatus{RoundID: roundID, URL: cfg.URL, TokenSet: cfg.Token != "", State: RelayPending, Behind: true}}
	f.mu.Lock()
	f.relays[roundID] = rl
	f.mu.Unlock()
	f.wg.Add(1)
	go func() {
		defer f.wg.Done()
		defer close(rl.done)
		f.runRelay(ctx, rl)
	}()
}

// RelayStatuses returns the status of every round's relay, by round id.
func (f *Feeds) RelayStatuses() []RelayStatus {
	f.mu.Lock()
	rls := make([]*relay, 0, len(f.relays))
	for _, rl := range f.relays {
		rls = append(rls, rl)
	}
	f.mu.Unlock()
	out := make([]RelayStatus, 0, len(rls))
	for _, rl := range rls {
		rl.mu.Lock()
		st := rl.st
		st.GameErrors = append([]string(nil), st.GameErrors...)
		rl.mu.Unlock()
		out = append(out, st)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].RoundID < out[j].RoundID })
	return out
}

// RelayStatus returns the status of the round's relay, and false if it
// has none.
func (f *Feeds) RelayStatus(roundID string) (RelayStatus, bool) {
	for _, st := range f.RelayStatuses() {
		if st.RoundID == roundID {
			return st, true
		}
	}
	return RelayStatus{}, false
}

// runRelay pushes the round whenever what the public sees of it changes.
func (f *Feeds) runRelay(ctx context.Context, rl *relay) {
	o := f.opts.Relay
	backoff := o.MinBackoff
	pushed := "" // ETag of the document the relay has
	var last time.Time
	public := view{live: f.opts.Delay <= 0, lichess: rl.cfg.LichessResults}
	for ctx.Err() == nil {
		_, changed := f.src.Changes(rl.roundID)
		c, err := f.cutFor(ctx, rl.roundID, public)
		var d *document
		if err == nil {
			d, err = f.pgnDocument(c)
		}
		if err != nil {
			if ctx.Err() != nil {
				return
			}
			rl.update(func(st *RelayStatus) {
				st.State, st.Behind, st.LastError, st.NextAttempt = RelayRetrying, true, err.Error(), f.clock.Now().Add(backoff)
			})
			_ = f.sleep(ctx, backoff, nil)
			backoff = min(2*backoff, o.MaxBackoff)
			continue
		}
		if d.etag == pushed {
			rl.update(func(st *RelayStatus) { st.State, st.Behind = RelayUpToDate, false })
			var until time.Duration
			if !c.until.IsZero() {
				until = max(c.until.Sub(f.clock.Now()), time.Millisecond)
			}
			if err := f.sleep(ctx, until, changed); err != nil {
				return
			}
			continue
		}
		if wait := o.MinInterval - f.clock.Since(last); !last.IsZero() && wait > 0 {
			rl.update(func(st *RelayStatus) { st.State, st.Behind = RelayPending, true })
			if err := f.sleep(ctx, wait, nil); err != nil {
				return
			}
			continue // take the round as it is now
		}
		last = f.clock.Now()
		rl.update(func(st *RelayStatus) { st.State, st.Behind, st.LastAttempt = RelayPushing, true, last })
		res, err := f.push(ctx, rl.cfg, d.body)
		if ctx.Err() != nil {
			return
		}
		if err != nil {
			f.metrics.pushes.WithLabelValues(rl.roundID, "failed").Inc()
			f.log.Warn("broadcast: push to the relay failed; retrying", "round", rl.roundID, "url", rl.cfg.URL, "err", err, "retry_in", backoff)
			rl.update(func(st *RelayStatus) {
				st.State, st.Failures, st.ConsecutiveFailures = RelayRetrying, st.Failures+1, st.ConsecutiveFailures+1
				st.LastError, st.LastHTTPStatus, st.NextAttempt = err.Error(), res.status, f.clock.Now().Add(backoff)
			})
			if err := f.sleep(ctx, backoff, nil); err != nil {
				return
			}
			backoff = min(2*backoff, o.MaxBackoff)
			continue
		}
		f.metrics.pushes.WithLabelValues(rl.roundID, "ok").Inc()
		backoff, pushed = o.MinBackoff, d.etag
		rl.update(func(st *RelayStatus) {
			st.Pushes++
			st.ConsecutiveFailures, st.LastError, st.LastHTTPStatus, st.LastSuccess = 0, "", res.status, f.clock.Now()
			st.PushedGames, st.PushedBytes, st.GameErrors, st.NextAttempt = res.games, len(d.body), res.gameErrors, time.Time{}
		})
	}
}

// sleep waits d (0: no timer) or until wake is closed or ctx is done.
func (f *Feeds) sleep(ctx context.Context, d time.Duration, wake <-chan struct{}) error {
	var timer <-chan struct{}
	if d > 0 {
		ch := make(chan struct{})
		t := f.clock.AfterFunc(d, func() { close(ch) })
		defer t.Stop()
		timer = ch
	}
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-timer:
	case <-wake:
	}
	return nil
}

type pushResult struct {
	status     int
	games      int
	gameErrors []string
}

// push POSTs the PGN to the relay. A 2xx answer is success; its body, if
// it is lichess's {"games": [{"tags": {...}, "moves": n} or {..., "error":
// "..."}]}, says what became of each game.
func (f *Feeds) push(ctx context.Context, cfg Relay, body []byte) (pushResult, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, cfg.URL, bytes.NewReader(body))
	if err != nil {
		return pushResult{}, fmt.Errorf("relay URL %q: %w", cfg.URL, err)
	}
	req.Header.Set("Content-Type", "text/plain; charset=utf-8")
	req.Header.Set("User-Agent", "hallclock-broadcast")
	if cfg.Token != "" {
		req.Header.Set("Authorization", "Bearer "+cfg.Token)
	}
	resp, err := f.opts.Relay.Client.Do(req)
	if err != nil {
		return pushResult{}, err
	}
	defer resp.Body.Close()
	answer, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	res := pushResult{status: resp.StatusCode}
	if resp.StatusCode/100 != 2 {
		msg := strings.TrimSpace(string(answer))
		if len(msg) > 200 {
			msg = msg[:200] + "…"
		}
		return res, fmt.Errorf("the relay answered %s: %s", resp.Status, msg)
	}
	var parsed struct {
		Games []struct {
			Tags  map[string]string `json:"tags"`
			Moves int               `json:"moves"`
			Error string            `json:"error"`
		} `json:"games"`
	}
	if json.Unmarshal(answer, &parsed) == nil && parsed.Games != nil {
		res.games = len(parsed.Games)
		for _, g := range parsed.Games {
			if g.Error != "" {
				res.gameErrors = append(res.gameErrors, fmt.Sprintf("%s - %s: %s", g.Tags["White"], g.Tags["Black"], g.Error))
			}
		}
	} else {
		res.games = bytes.Count(body, []byte("\n[Event "))
		if bytes.HasPrefix(body, []byte("[Event ")) {
			res.games++
		}
	}
	return res, nil
}
