package hall

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/chesshall/hallclock/internal/hallref"
	"github.com/chesshall/hallclock/server/hallerr"
	"github.com/chesshall/hallclock/storage"
)

// Names of tournaments, rounds and boards are read as hallref reads them,
// for every request: an id is looked up first, and anything else is a
// name ("Open", "Open:5", "5.12"...). A name that fits nothing is
// NOT_FOUND saying what there is; one that fits several is
// INVALID_ARGUMENT naming them.

// refError gives hallref's errors the hall's kinds.
func refError(err error) error {
	var nf *hallref.NotFoundError
	var amb *hallref.AmbiguousError
	switch {
	case errors.As(err, &nf):
		return fmt.Errorf("%w: %s", storage.ErrNotFound, nf.Error())
	case errors.As(err, &amb):
		return fmt.Errorf("%w: %s", hallerr.ErrBadRequest, amb.Error())
	}
	return err
}

// refs returns the schedule as hallref sees it.
func (sc *schedule) refs() ([]hallref.Tournament, []hallref.Round) {
	ts := make([]hallref.Tournament, 0, len(sc.tournaments))
	for _, t := range sc.tournaments {
		ts = append(ts, hallref.Tournament{ID: t.ID, Name: t.Name})
	}
	rs := make([]hallref.Round, 0, len(sc.rounds))
	for _, r := range sc.rounds {
		rs = append(rs, hallref.Round{ID: r.ID, TournamentID: r.TournamentID, Tournament: sc.tournaments[r.TournamentID].Name, Number: r.Number})
	}
	return ts, rs
}

// Tournament finds a tournament by its id, the start of its id, or its
// name (any case).
func (h *Hall) Tournament(ref string) (storage.TournamentRecord, error) {
	sc := &h.schedule
	sc.mu.RLock()
	defer sc.mu.RUnlock()
	if t, ok := sc.tournaments[ref]; ok {
		return t, nil
	}
	ts, _ := sc.refs()
	t, err := hallref.FindTournament(ref, ts)
	if err != nil {
		return storage.TournamentRecord{}, refError(err)
	}
	return sc.tournaments[t.ID], nil
}

// TournamentNamed returns the tournament called name (any case, blanks
// around it ignored), if there is one.
func (h *Hall) TournamentNamed(name string) (storage.TournamentRecord, bool) {
	sc := &h.schedule
	sc.mu.RLock()
	defer sc.mu.RUnlock()
	for _, t := range sc.tournaments {
		if hallref.SameName(t.Name, name) {
			return t, true
		}
	}
	return storage.TournamentRecord{}, false
}

// FindRound finds a round by its id (or the start of it) or its name: "5"
// (round 5 of the only tournament that has one) or "Open:5".
func (h *Hall) FindRound(ref string) (storage.RoundRecord, error) {
	sc := &h.schedule
	sc.mu.RLock()
	defer sc.mu.RUnlock()
	if r, ok := sc.rounds[ref]; ok {
		return r, nil
	}
	ts, rs := sc.refs()
	r, err := hallref.FindRound(ref, ts, rs)
	if err != nil {
		return storage.RoundRecord{}, refError(err)
	}
	return sc.rounds[r.ID], nil
}

// RoundRef finds a round by its id or name (FindRound), or by its
// tournament (id or name) and number.
func (h *Hall) RoundRef(id, tournament string, number int32) (storage.RoundRecord, error) {
	if id != "" {
		return h.FindRound(id)
	}
	t, err := h.Tournament(tournament)
	if err != nil {
		return storage.RoundRecord{}, err
	}
	return h.FindRound(t.ID + ":" + strconv.Itoa(int(number)))
}

// FindBoard finds a board by its id (or the start of it) or its name:
// "12" (board 12 of the only round that has one), "5.12", "5.A3" (section
// A), "Open:5.12". Names are matched among the boards visible lets the
// caller see (nil: every board), and so are the candidates an ambiguous
// name lists; an id is looked up whatever visible says (the caller checks
// what it may do with the board).
func (h *Hall) FindBoard(ref string, visible func(*Board) bool) (*Board, error) {
	if b, err := h.Board(ref); err == nil {
		return b, nil
	}
	sc := &h.schedule
	sc.mu.RLock()
	ts, rs := sc.refs()
	sc.mu.RUnlock()
	var bs []hallref.Board
	for _, b := range h.Boards("") {
		if visible == nil || visible(b) {
			bs = append(bs, hallref.Board{ID: b.rec.ID, RoundID: b.rec.RoundID, Section: b.rec.Section, Number: b.rec.Number})
		}
	}
	found, err := hallref.FindBoard(ref, ts, rs, bs)
	if err != nil {
		var nf *hallref.NotFoundError
		if errors.As(err, &nf) && nf.What == "board" {
			return nil, fmt.Errorf("%w %q (%s)", hallerr.ErrUnknownBoard, ref, nf.Hint)
		}
		return nil, refError(err)
	}
	return h.Board(found.ID)
}

// BoardTitle names a board with its tournament, as a reference that finds
// it again: "Nordic Open:3.A1"; its id if it is not known.
func (h *Hall) BoardTitle(id string) string {
	b, err := h.Board(id)
	if err != nil {
		return id
	}
	sc := &h.schedule
	sc.mu.RLock()
	r, ok := sc.rounds[b.rec.RoundID]
	t := sc.tournaments[r.TournamentID]
	sc.mu.RUnlock()
	if !ok {
		return id
	}
	return fmt.Sprintf("%s:%d.%s%d", t.Name, r.Number, b.rec.Section, b.rec.Number)
}
