package broadcast_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/chesshall/hallclock/formats/pgn"
	"github.com/chesshall/hallclock/internal/mono"
	"github.com/chesshall/hallclock/rules"
	"github.com/chesshall/hallclock/server/broadcast"
)

// hall is an in-memory Source: one round, boards whose logs the test
// appends to as a hall commits events (Wall from the clock, the change
// counter bumped after).
type hall struct {
	clock   mono.Clock
	changes *broadcast.Changes

	mu     sync.Mutex
	round  broadcast.Round
	logs   map[string][]broadcast.Event
	reads  int // Events calls
	rounds int // Round calls
}

func newHall(t *testing.T, clock mono.Clock, tc string, boards int) *hall {
	t.Helper()
	c, err := rules.ParseTimeControl(tc)
	if err != nil {
		t.Fatal(err)
	}
	h := &hall{clock: clock, changes: broadcast.NewChanges(), logs: map[string][]broadcast.Event{},
		round: broadcast.Round{ID: "r5", Tournament: "Nordic Autumn Open 2025", Number: 5, Venue: "Bergen NOR"}}
	for i := 1; i <= boards; i++ {
		id := fmt.Sprintf("b%d", i)
		h.round.Boards = append(h.round.Boards, broadcast.Board{ID: id, Number: i,
			White: pgn.Player{Name: fmt.Sprintf("White %d", i), Elo: 2400 - i}, Black: pgn.Player{Name: fmt.Sprintf("Black %d", i)},
			Config: rules.Config{TimeControl: c}, Created: clock.Now()})
		h.changes.Board("r5", id, 0)
	}
	return h
}

func (h *hall) Round(_ context.Context, id string) (broadcast.Round, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.rounds++
	if id != h.round.ID {
		return broadcast.Round{}, fmt.Errorf("%w: round %q", broadcast.ErrNotFound, id)
	}
	r := h.round
	r.Boards = append([]broadcast.Board(nil), r.Boards...)
	for i := range r.Boards {
		r.Boards[i].Seq = h.changes.Seq(r.Boards[i].ID)
	}
	return r, nil
}

func (h *hall) BoardRound(_ context.Context, id string) (string, error) {
	if _, ok := h.logs[id]; ok || h.changes.Seq(id) > 0 {
		return h.round.ID, nil
	}
	for _, b := range h.round.Boards {
		if b.ID == id {
			return h.round.ID, nil
		}
	}
	return "", fmt.Errorf("%w: board %q", broadcast.ErrNotFound, id)
}

func (h *hall) Events(_ context.Context, id string, after uint64) ([]broadcast.Event, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.reads++
	l := h.logs[id]
	if after >= uint64(len(l)) {
		return nil, nil
	}
	return append([]broadcast.Event(nil), l[after:]...), nil
}

func (h *hall) Changes(id string) (uint64, <-chan struct{}) { return h.changes.Version(id) }

// commit appends an event to a board's log at the clock's time and tells
// the change counter, as the hall does after a commit.
func (h *hall) commit(board string, e rules.Event, reason ...string) {
	h.mu.Lock()
	l := h.logs[board]
	ev := broadcast.Event{BoardSeq: uint64(len(l)) + 1, Entry: pgn.Entry{Event: e, Actor: "test"}, Wall: h.clock.Now()}
	if len(reason) > 0 {
		ev.Reason = reason[0]
	}
	h.logs[board] = append(l, ev)
	seq := ev.BoardSeq
	h.mu.Unlock()
	h.changes.Board(h.round.ID, board, seq)
}

func (h *hall) setPublic(p bool) {
	h.mu.Lock()
	h.round.Public = p
	h.mu.Unlock()
	h.changes.Touch(h.round.ID)
}

func (h *hall) counts() (reads, rounds int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.reads, h.rounds
}

// door authenticates as the hall would: "Bearer arbiter" is live,
// "Bearer arbiter-A" live in section A, "Bearer broadcast" delayed, any
// other token refused, no header no credentials.
func door(r *http.Request) (broadcast.Viewer, bool, error) {
	switch r.Header.Get("Authorization") {
	case "":
		return broadcast.Viewer{}, false, nil
	case "Bearer arbiter":
		return broadcast.Viewer{Live: true}, true, nil
	case "Bearer arbiter-A":
		return broadcast.Viewer{Live: true, Sections: []string{"A"}}, true, nil
	case "Bearer broadcast":
		return broadcast.Viewer{}, true, nil
	}
	return broadcast.Viewer{}, false, fmt.Errorf("unknown token")
}

// serve starts the feeds of h over HTTP.
func serve(t *testing.T, opts broadcast.Options) (*broadcast.Feeds, string) {
	t.Helper()
	if opts.Authenticate == nil {
		opts.Authenticate = door
	}
	f := broadcast.New(opts)
	mux := http.NewServeMux()
	f.Routes(mux)
	srv := httptest.NewServer(mux)
	t.Cleanup(func() { f.Close(); srv.Close() })
	return f, srv.URL
}

// get fetches a feed with the token ("" none) and extra headers.
func get(t *testing.T, url, token string, headers ...string) *http.Response {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := plainTransport.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// plainTransport neither asks for gzip nor unzips by itself.
var plainTransport = &http.Transport{DisableCompression: true}

func body(t *testing.T, resp *http.Response) string {
	t.Helper()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// playGame commits an opening on board, one event every step of the fake
// clock, calling each after each commit.
var opening = []string{"e4", "c5", "Nf3", "d6", "d4", "cxd4", "Nxd4", "Nf6", "Nc3", "a6", "Be3", "e5", "Nb3", "Be6", "f3", "Be7"}

func press(side rules.Side, san string, t int64) rules.Event {
	return rules.Event{Kind: rules.KindPress, Side: side, SAN: san, T: t}
}
