package gateway

import (
	"context"
	"fmt"
	"net/http"
	"sort"
	"time"

	"github.com/chesshall/hallclock/formats/hallstream"
	"github.com/chesshall/hallclock/formats/pgn"
	"github.com/chesshall/hallclock/server/broadcast"
)

// A hall is the broadcast feeds' Source: the same PGN and display code
// serves the hall and its gateways, read here from the stream.
var _ broadcast.Source = (*hall)(nil)

// Round returns a round with its boards by section, then number.
func (h *hall) Round(_ context.Context, roundID string) (broadcast.Round, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	r, ok := h.rounds[roundID]
	if !ok {
		return broadcast.Round{}, fmt.Errorf("%w: round %q", broadcast.ErrNotFound, roundID)
	}
	t := h.tournaments[r.TournamentID]
	out := broadcast.Round{ID: r.ID, Tournament: t.Name, Number: r.Number, Venue: r.Venue, Public: h.publicLocked(roundID)}
	for _, b := range h.boards {
		if b.rec.RoundID != roundID {
			continue
		}
		out.Boards = append(out.Boards, broadcast.Board{ID: b.rec.ID, Number: b.rec.Number, Section: b.rec.Section,
			White: pgnPlayer(b.rec.White), Black: pgnPlayer(b.rec.Black), Config: b.rec.Config,
			Created: time.UnixMilli(b.rec.CreatedUnixMs).UTC(), Seq: b.seq})
	}
	sort.Slice(out.Boards, func(i, j int) bool {
		a, b := out.Boards[i], out.Boards[j]
		if a.Section != b.Section {
			return a.Section < b.Section
		}
		return a.Number < b.Number
	})
	return out, nil
}

func pgnPlayer(p hallstream.Player) pgn.Player {
	return pgn.Player{Name: p.Name, Elo: p.Rating, FideID: p.FideID, Title: p.Title}
}

// BoardRound returns the id of a board's round.
func (h *hall) BoardRound(_ context.Context, boardID string) (string, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	b, ok := h.boards[boardID]
	if !ok {
		return "", fmt.Errorf("%w: board %q", broadcast.ErrNotFound, boardID)
	}
	return b.rec.RoundID, nil
}

// Events returns a board's events after board sequence after.
func (h *hall) Events(_ context.Context, boardID string, after uint64) ([]broadcast.Event, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	b, ok := h.boards[boardID]
	if !ok {
		return nil, fmt.Errorf("%w: board %q", broadcast.ErrNotFound, boardID)
	}
	if after >= uint64(len(b.events)) {
		return nil, nil
	}
	return append([]broadcast.Event(nil), b.events[after:]...), nil
}

// Changes returns the round's change counter.
func (h *hall) Changes(roundID string) (uint64, <-chan struct{}) { return h.changes.Version(roundID) }

// newFeeds returns the hall's broadcast feeds with a delay; h.feeds is
// replaced when the hall announces another delay.
func (h *hall) newFeeds(delay time.Duration) *broadcast.Feeds {
	return broadcast.New(broadcast.Options{
		Source: h, Clock: h.gw.clock, Delay: delay, Error: refusals.WriteHTTP,
		Authenticate: func(r *http.Request) (broadcast.Viewer, bool, error) {
			ok, err := h.gw.viewerOf(r.Header.Get("Authorization"), h)
			return broadcast.Viewer{Live: false}, ok, err
		},
		Logger: h.log,
	})
}
