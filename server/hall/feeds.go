package hall

import (
	"context"
	"fmt"

	"github.com/chesshall/hallclock/formats/pgn"
	"github.com/chesshall/hallclock/server/broadcast"
	"github.com/chesshall/hallclock/storage"
)

// The broadcast feeds (package broadcast: PGN polled and pushed, the
// display page) read the hall through FeedSource. The hall tells its
// change counter of each commit (publish) and of boards added; the feeds
// do their work when read, never on the ingest path.

// FeedSource is the hall as the broadcast feeds read it.
func (h *Hall) FeedSource() broadcast.Source { return feedSource{h} }

type feedSource struct{ h *Hall }

func (fs feedSource) Round(ctx context.Context, roundID string) (broadcast.Round, error) {
	h := fs.h
	r, ok := h.Round(roundID)
	if !ok {
		return broadcast.Round{}, fmt.Errorf("%w: round %q", broadcast.ErrNotFound, roundID)
	}
	t, _ := h.TournamentByID(r.TournamentID)
	out := broadcast.Round{ID: r.ID, Tournament: t.Name, Number: r.Number, Venue: r.Venue, Public: h.RoundPublic(roundID)}
	for _, b := range h.Boards(roundID) {
		out.Boards = append(out.Boards, FeedBoard(&b.rec, h.changes.Seq(b.rec.ID)))
	}
	return out, nil
}

func (fs feedSource) BoardRound(ctx context.Context, boardID string) (string, error) {
	b, err := fs.h.Board(boardID)
	if err != nil {
		return "", fmt.Errorf("%w: board %q", broadcast.ErrNotFound, boardID)
	}
	return b.rec.RoundID, nil
}

func (fs feedSource) Events(ctx context.Context, boardID string, after uint64) ([]broadcast.Event, error) {
	evs, err := fs.h.store.Events(ctx, boardID, after)
	if err != nil {
		return nil, err
	}
	return FeedEvents(evs), nil
}

func (fs feedSource) Changes(roundID string) (uint64, <-chan struct{}) {
	return fs.h.changes.Version(roundID)
}

// FeedBoard is a board as the feeds read it: the fields of its record that
// never change (its device and source do, on the actor, and are not read
// here), and seq, its events the feeds know of.
func FeedBoard(rec *storage.BoardRecord, seq uint64) broadcast.Board {
	return broadcast.Board{ID: rec.ID, Number: rec.Number, Section: rec.Section, White: pgnPlayer(rec.White), Black: pgnPlayer(rec.Black),
		Config: rec.Config, Created: rec.Created, Seq: seq}
}

// FeedEvents are a board's stored events as the feeds read them.
func FeedEvents(evs []storage.EventRecord) []broadcast.Event {
	out := make([]broadcast.Event, len(evs))
	for i, e := range evs {
		out[i] = broadcast.Event{BoardSeq: e.BoardSeq, Entry: pgn.Entry{Event: e.Event, Actor: e.Actor, Reason: e.Reason}, Wall: e.Wall}
	}
	return out
}

func pgnPlayer(p storage.PlayerRecord) pgn.Player {
	return pgn.Player{Name: p.Name, Elo: p.Rating, FideID: p.FideID, Title: p.Title}
}

// Changed returns a channel closed at the next change of any round (a
// board's event committed, a board added or withdrawn, a round made public
// or private): what a tournament's standings follow.
func (h *Hall) Changed() <-chan struct{} {
	_, ch := h.changes.All()
	return ch
}

// TouchTournament tells the feeds that something of a tournament beyond
// its boards changed (its tie-break lists): the standings streams compute
// its standings again.
func (h *Hall) TouchTournament(tournamentID string) {
	for _, r := range h.Rounds(tournamentID) {
		h.changes.Touch(r.ID)
	}
}
