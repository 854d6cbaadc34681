package arbiter

import (
	"context"
	"fmt"
	"time"

	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/server/auth"
	"github.com/chesshall/hallclock/server/fanout"
	"github.com/chesshall/hallclock/server/hall"
	"github.com/chesshall/hallclock/server/hallerr"
)

// A reader is what one caller may read of the hall (DESIGN, roles): an
// arbiter limited to sections reads the boards, byes and tallies of those
// sections only, on every path; a broadcast token reads the hall as it was
// the broadcast delay ago, on every path. Every read of the service goes
// through the caller's reader, so that no path shows more.
type reader struct {
	id  *auth.Identity
	hub *fanout.Hub // the boards' states as the caller sees them: live, or delayed
	// asOf: events committed after it are not the caller's to see yet
	// (a broadcast token under a delay); zero: every event.
	asOf time.Time
}

// readerOf returns the caller's reader.
func (a *Service) readerOf(ctx context.Context) reader {
	id := auth.IdentityFrom(ctx)
	r := reader{id: id, hub: fanout.Views{Live: a.hub, Delayed: a.public}.For(id.Live())}
	if !id.Live() && a.opts.BroadcastDelay > 0 {
		r.asOf = a.clock.Now().Add(-a.opts.BroadcastDelay)
	}
	return r
}

// sees reports whether the reader may read a section's boards and byes.
func (r reader) sees(section string) bool { return r.id.MaySection(section) }

// boards returns the boards of bs the reader may read.
func (r reader) boards(bs []*hall.Board) []*hall.Board {
	out := make([]*hall.Board, 0, len(bs))
	for _, b := range bs {
		if r.sees(b.Section()) {
			out = append(out, b)
		}
	}
	return out
}

// board returns a board the reader may read: one of a section out of its
// reach is refused as a board that does not exist, in the same words, so
// an error tells nothing of another section.
func (r reader) board(h *hall.Hall, boardID string) (*hall.Board, error) {
	b, err := h.Board(boardID)
	if err != nil {
		return nil, err
	}
	if !r.sees(b.Section()) {
		return nil, fmt.Errorf("%w %q", hallerr.ErrUnknownBoard, boardID)
	}
	return b, nil
}

// state returns a board's state as the reader sees it (none yet: a board
// younger than the delay, for a delayed reader).
func (r reader) state(boardID string) (*pb.BoardState, bool) {
	st, _, ok := r.hub.State(boardID)
	return st, ok
}

// shows reports whether an event committed at wall is the reader's to
// see.
func (r reader) shows(wall time.Time) bool { return r.asOf.IsZero() || !wall.After(r.asOf) }
