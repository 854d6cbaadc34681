package hall

import (
	"maps"
	"slices"
	"sync"

	"github.com/chesshall/hallclock/rules"
	"github.com/chesshall/hallclock/storage"
)

// schedule is the registry of the hall's tournaments, their rounds and
// each round's broadcast settings (public, its relay), under a lock of its
// own: an arbiter's reads of the schedule never wait for the floor.
type schedule struct {
	mu          sync.RWMutex
	tournaments map[string]storage.TournamentRecord
	rounds      map[string]storage.RoundRecord
	broadcasts  map[string]storage.RoundBroadcast // by round id
}

func newSchedule() schedule {
	return schedule{tournaments: map[string]storage.TournamentRecord{}, rounds: map[string]storage.RoundRecord{},
		broadcasts: map[string]storage.RoundBroadcast{}}
}

func (sc *schedule) load(ts []storage.TournamentRecord, rs []storage.RoundRecord, bs []storage.RoundBroadcast) {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	for _, t := range ts {
		sc.tournaments[t.ID] = t
	}
	for _, r := range rs {
		sc.rounds[r.ID] = r
	}
	for _, b := range bs {
		sc.broadcasts[b.RoundID] = b
	}
}

// AddTournament registers a tournament (once stored).
func (h *Hall) AddTournament(t storage.TournamentRecord) {
	sc := &h.schedule
	sc.mu.Lock()
	sc.tournaments[t.ID] = t
	sc.mu.Unlock()
}

// AddRound registers a round (once stored).
func (h *Hall) AddRound(r storage.RoundRecord) {
	sc := &h.schedule
	sc.mu.Lock()
	sc.rounds[r.ID] = r
	sc.mu.Unlock()
}

// TournamentByID returns a tournament by its id.
func (h *Hall) TournamentByID(id string) (storage.TournamentRecord, bool) {
	sc := &h.schedule
	sc.mu.RLock()
	defer sc.mu.RUnlock()
	t, ok := sc.tournaments[id]
	return t, ok
}

// Tournaments returns every tournament, in no order.
func (h *Hall) Tournaments() []storage.TournamentRecord {
	sc := &h.schedule
	sc.mu.RLock()
	defer sc.mu.RUnlock()
	return slices.Collect(maps.Values(sc.tournaments))
}

// Round returns a round by its id.
func (h *Hall) Round(id string) (storage.RoundRecord, bool) {
	sc := &h.schedule
	sc.mu.RLock()
	defer sc.mu.RUnlock()
	r, ok := sc.rounds[id]
	return r, ok
}

// RoundByNumber returns a tournament's round by its number.
func (h *Hall) RoundByNumber(tournamentID string, number int) (storage.RoundRecord, bool) {
	sc := &h.schedule
	sc.mu.RLock()
	defer sc.mu.RUnlock()
	for _, r := range sc.rounds {
		if r.TournamentID == tournamentID && r.Number == number {
			return r, true
		}
	}
	return storage.RoundRecord{}, false
}

// Rounds returns a tournament's rounds ("": every round), in no order.
func (h *Hall) Rounds(tournamentID string) []storage.RoundRecord {
	sc := &h.schedule
	sc.mu.RLock()
	defer sc.mu.RUnlock()
	var out []storage.RoundRecord
	for _, r := range sc.rounds {
		if tournamentID == "" || r.TournamentID == tournamentID {
			out = append(out, r)
		}
	}
	return out
}

// RoundInfo returns a round's number and its tournament's name (0, "" if
// there is no such round).
func (h *Hall) RoundInfo(roundID string) (number int32, tournament string) {
	sc := &h.schedule
	sc.mu.RLock()
	defer sc.mu.RUnlock()
	r, ok := sc.rounds[roundID]
	if !ok {
		return 0, ""
	}
	return int32(r.Number), sc.tournaments[r.TournamentID].Name
}

// RoundScoring returns the scoring of a round's games.
func (h *Hall) RoundScoring(r storage.RoundRecord) rules.Scoring {
	if r.Config != nil {
		return r.Config.Regulations.Scoring
	}
	t, _ := h.TournamentByID(r.TournamentID)
	return t.Config.Regulations.Scoring
}

// Broadcast returns a round's broadcast settings (false if it has none).
func (h *Hall) Broadcast(roundID string) (storage.RoundBroadcast, bool) {
	sc := &h.schedule
	sc.mu.RLock()
	defer sc.mu.RUnlock()
	b, ok := sc.broadcasts[roundID]
	return b, ok
}

// Broadcasts returns every round's broadcast settings, in no order.
func (h *Hall) Broadcasts() []storage.RoundBroadcast {
	sc := &h.schedule
	sc.mu.RLock()
	defer sc.mu.RUnlock()
	return slices.Collect(maps.Values(sc.broadcasts))
}

// SetBroadcast records a round's broadcast settings (once stored); the
// feeds see the round's access change at once.
func (h *Hall) SetBroadcast(b storage.RoundBroadcast) {
	sc := &h.schedule
	sc.mu.Lock()
	sc.broadcasts[b.RoundID] = b
	sc.mu.Unlock()
	h.changes.Touch(b.RoundID)
}

// RoundPublic reports whether a round's feeds need no token.
func (h *Hall) RoundPublic(roundID string) bool {
	sc := &h.schedule
	sc.mu.RLock()
	defer sc.mu.RUnlock()
	return h.opts.PublicRounds || sc.broadcasts[roundID].Public
}
