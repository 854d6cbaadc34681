package broadcast

import (
	"context"
	"errors"
	"time"

	"github.com/chesshall/hallclock/formats/pgn"
	"github.com/chesshall/hallclock/rules"
)

// Errors of the feeds; the hall maps them to HTTP statuses with its own
// (Options.Error).
var (
	// ErrNotFound: no such round or board. A Source wraps it too.
	ErrNotFound = errors.New("not found")
	// ErrNotPublic: a request without credentials for a round the chief
	// arbiter has not made public.
	ErrNotPublic = errors.New("round not public")
)

// Source is what the feeds read: the rounds, their boards and each board's
// committed events with the wall time they were committed, and a change
// counter per round. The hall server implements it over its store; a
// gateway can implement it over the hall's event stream. It must be safe
// for concurrent use.
type Source interface {
	// Round returns a round with its boards (by section, then number).
	// An unknown round is an error wrapping ErrNotFound.
	Round(ctx context.Context, roundID string) (Round, error)
	// BoardRound returns the id of a board's round (ErrNotFound).
	BoardRound(ctx context.Context, boardID string) (string, error)
	// Events returns a board's committed events after board sequence
	// number after (1, 2, 3... within the board), in order.
	Events(ctx context.Context, boardID string, after uint64) ([]Event, error)
	// Changes returns the round's change counter and a channel closed at
	// its next change (a board's event committed, a board added or
	// withdrawn, the round made public or private). Changes is the helper
	// that implements it.
	Changes(roundID string) (version uint64, changed <-chan struct{})
}

// Places numbers a round's boards across its sections, in their order
// (Board.Place).
func Places(boards []Board) {
	for i := range boards {
		boards[i].Place = i + 1
	}
}

// Round is a round as the feeds show it.
type Round struct {
	ID         string
	Tournament string // the event's name
	Number     int
	Venue      string // the PGN Site
	// Public: the chief arbiter has made the round public; its feeds need
	// no credentials (and show it with the broadcast delay).
	Public bool
	Boards []Board
}

// Board is one game of a round.
type Board struct {
	ID           string
	Number       int
	Section      string
	White, Black pgn.Player
	Config       rules.Config
	Created      time.Time
	// Seq is the number of the board's committed events the source knows
	// of (the feeds read the ones they have not seen with Events).
	Seq uint64
	// Place is the game's number in its round across the round's
	// sections (1 up, in the order of Round.Boards): the PGN's Round tag
	// "5.<place>", so that board 1 of two sections never share a tag.
	// The feeds number a round's boards themselves; 0: Number.
	Place int
}

// Event is one committed event of a board's log.
type Event struct {
	BoardSeq uint64 // 1, 2, 3... within the board
	pgn.Entry
	Wall time.Time // when the hall committed it (its server's wall clock)
}

// Game returns the PGN writer's value of a board of the round with its
// events (cut where the caller wants). The hall's PGN archive export and
// the feeds share it, so both write a game the same way.
func Game(r Round, b Board, events []Event) pgn.Game {
	event := r.Tournament
	if b.Section != "" {
		event += " (" + b.Section + ")"
	}
	g := pgn.Game{Event: event, Site: r.Venue, Date: b.Created, Round: r.Number, Board: b.Number, Place: b.Place,
		White: b.White, Black: b.Black, Config: b.Config}
	for i, e := range events {
		if i == 0 {
			g.Date = e.Wall
		}
		g.Log = append(g.Log, e.Entry)
	}
	return g
}
