package gateway

import (
	"log/slog"
	"net/http"
	"sort"
	"sync"
	"time"

	"github.com/chesshall/hallclock/formats/hallstream"
	"github.com/chesshall/hallclock/formats/pgn"
	"github.com/chesshall/hallclock/internal/wire"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
	"github.com/chesshall/hallclock/server/broadcast"
	"github.com/chesshall/hallclock/server/fanout"
)

// hall is what a gateway knows of one hall: the records and boards its
// stream told, each board's log folded through the rules as the hall
// folds it, and the hubs watchers read. apply is called by the hall's
// follower, one message at a time in stream order; everything else reads
// under mu.
type hall struct {
	id      string
	gw      *Gateway
	log     *slog.Logger
	changes *broadcast.Changes

	live    *fanout.Hub       // every change at once (internal: the delayed hub is fed from it)
	delayed *fanout.DelayLine // what viewers see: each change at its commit time + delay
	feeds   *broadcast.Feeds  // PGN and display pages, with the hall's delay (setFeeds)
	mux     *http.ServeMux    // their routes
	minimum time.Duration     // the gateway's own least delay

	mu          sync.Mutex
	settings    hallstream.Hall
	tournaments map[string]hallstream.Tournament
	rounds      map[string]hallstream.Round
	boards      map[string]*board
	tokens      map[string]hallstream.Token // by hash
	lastSeq     uint64                      // the hall's change number of the last event applied
	lastWall    time.Time                   // the latest commit time seen (events, boards created)
	streamSeq   uint64                      // the last stream sequence applied
	pending     uint64                      // messages the stream still holds after it
	caughtUp    bool                        // pending reached 0 at least once
	applied     uint64                      // messages applied
	refused     uint64                      // messages the hall did not write, replayed, events the rules refused or out of order (never expected)
	replayed    uint64                      // messages refused as replayed: their outbox number not above the last applied
	problem     string                      // why its stream is not read now, "" while it is

	trust *hallstream.Trust // which key signs the hall's messages (the follower's goroutine only)
	order *order            // which outbox numbers were applied (the follower's goroutine only)
}

// board is one board as the gateway folds its log.
type board struct {
	rec    hallstream.Board
	state  rules.State
	seq    uint64
	events []broadcast.Event
}

func newHall(gw *Gateway, id string) *hall {
	h := &hall{id: id, gw: gw, log: gw.log.With("hall", id), changes: broadcast.NewChanges(),
		live: fanout.NewHub(0), delayed: fanout.NewDelayLine(0, gw.clock), minimum: gw.opts.Delay,
		tournaments: map[string]hallstream.Tournament{}, rounds: map[string]hallstream.Round{},
		boards: map[string]*board{}, tokens: map[string]hallstream.Token{},
		trust: hallstream.NewTrust(gw.opts.Keys[id], gw.opts.AllowUnsigned), order: &order{}}
	h.setFeeds(h.minimum)
	return h
}

// delay is the delay viewers see this hall with: the hall's, or the
// gateway's own if longer.
func (h *hall) delay() time.Duration {
	h.mu.Lock()
	defer h.mu.Unlock()
	return max(time.Duration(h.settings.DelayMs)*time.Millisecond, h.minimum)
}

// apply takes one message of the hall's stream. It reports false for an
// event that comes before the one it follows (the hall sends it again).
func (h *hall) apply(m hallstream.Message, streamSeq, pending uint64) bool {
	took := true
	switch m.Kind {
	case hallstream.KindHall:
		h.applySettings(*m.Settings)
	case hallstream.KindTournament:
		h.mu.Lock()
		h.tournaments[m.ID] = *m.Tournament
		h.mu.Unlock()
	case hallstream.KindRound:
		h.mu.Lock()
		was, known := h.rounds[m.ID]
		h.rounds[m.ID] = *m.Round
		h.mu.Unlock()
		if !known || was.Public != m.Round.Public {
			h.changes.Touch(m.ID)
		}
	case hallstream.KindToken:
		h.mu.Lock()
		for hash, t := range h.tokens {
			if t.ID == m.Token.ID {
				delete(h.tokens, hash)
			}
		}
		if !m.Token.Revoked && m.Token.Hash != "" {
			h.tokens[m.Token.Hash] = *m.Token
		}
		h.mu.Unlock()
	case hallstream.KindBoard:
		h.applyBoard(*m.Board)
	case hallstream.KindEvent:
		took = h.applyEvent(*m.Event)
	}
	h.mu.Lock()
	h.applied++
	h.streamSeq, h.pending = streamSeq, pending
	if pending == 0 {
		h.caughtUp = true
	}
	h.mu.Unlock()
	return took
}

func (h *hall) applySettings(s hallstream.Hall) {
	h.mu.Lock()
	was := h.settings
	h.settings = s
	h.mu.Unlock()
	if was.DelayMs != s.DelayMs {
		h.setFeeds(max(time.Duration(s.DelayMs)*time.Millisecond, h.minimum))
	}
	if was.AllPublic != s.AllPublic {
		h.mu.Lock()
		rounds := make([]string, 0, len(h.rounds))
		for id := range h.rounds {
			rounds = append(rounds, id)
		}
		h.mu.Unlock()
		for _, id := range rounds {
			h.changes.Touch(id)
		}
	}
}

// applyBoard takes a board's record. Its change reaches the delayed hub
// at the board's creation (a withdrawal at the latest commit seen) plus
// the delay, so that a gateway replaying a hall's day shows it in order.
func (h *hall) applyBoard(rec hallstream.Board) {
	h.mu.Lock()
	b, known := h.boards[rec.ID]
	at := h.lastWall
	if rec.CreatedUnixMs > 0 {
		at = time.UnixMilli(rec.CreatedUnixMs)
		h.lastWall = maxTime(h.lastWall, at)
	}
	if rec.Withdrawn {
		if !known {
			h.mu.Unlock()
			return
		}
		delete(h.boards, rec.ID)
		roundID := b.rec.RoundID
		h.mu.Unlock()
		st := &pb.BoardState{BoardId: rec.ID, Withdrawn: true, ServerUnixMs: at.UnixMilli()}
		h.publish(roundID, st, 0, at)
		h.changes.Drop(rec.ID)
		return
	}
	if !known {
		st, err := rules.NewState(rec.Config)
		if err != nil {
			h.mu.Unlock()
			h.log.Error("gateway: board's rules refused", "board", rec.ID, "err", err)
			return
		}
		b = &board{state: st}
		h.boards[rec.ID] = b
	}
	b.rec = rec
	ws := h.wireState(b, at.UnixMilli())
	h.mu.Unlock()
	h.live.Place(rec.ID, rec.Section)
	h.delayed.Hub().Place(rec.ID, rec.Section)
	h.publish(rec.RoundID, ws, 0, at)
	h.changes.Board(rec.RoundID, rec.ID, ws.GetBoardSeq())
	h.changes.Touch(rec.RoundID)
}

// applyEvent applies a board's event; false if it comes before the one
// it follows.
func (h *hall) applyEvent(e hallstream.Event) bool {
	h.mu.Lock()
	b, ok := h.boards[e.BoardID]
	if !ok || e.BoardSeq != b.seq+1 {
		h.refused++
		h.mu.Unlock()
		if ok && e.BoardSeq <= b.seq {
			return true // already applied: the stream never repeats, but a follower must not care
		}
		h.log.Error("gateway: event out of order in the hall's stream", "board", e.BoardID, "board_seq", e.BoardSeq)
		return false
	}
	next, err := rules.Apply(b.state, e.Event)
	if err != nil {
		h.refused++
		h.mu.Unlock()
		h.log.Error("gateway: the rules refuse an event the hall committed", "board", e.BoardID, "board_seq", e.BoardSeq, "err", err)
		return true
	}
	wall := time.UnixMilli(e.WallUnixMs)
	b.state, b.seq = next, e.BoardSeq
	b.events = append(b.events, broadcast.Event{BoardSeq: e.BoardSeq, Entry: pgn.Entry{Event: e.Event, Actor: e.Actor}, Wall: wall})
	h.lastSeq = max(h.lastSeq, e.Seq)
	h.lastWall = maxTime(h.lastWall, wall)
	ws := h.wireState(b, e.WallUnixMs)
	roundID := b.rec.RoundID
	h.mu.Unlock()
	h.publish(roundID, ws, e.Seq, wall)
	h.changes.Board(roundID, e.BoardID, e.BoardSeq)
	return true
}

// publish hands a board's state to the live hub at once and to the
// delayed one at its time plus the delay. Viewers read the delayed hub,
// or the live one while the delay is 0 (hub).
func (h *hall) publish(roundID string, st *pb.BoardState, seq uint64, at time.Time) {
	h.live.Publish(roundID, st, seq)
	h.delayed.PublishAt(at.Add(h.delay()), roundID, st, seq)
}

// hub is the hub viewers watch: everyone sees the hall with its delay.
func (h *hall) hub() *fanout.Hub {
	if h.delay() == 0 {
		return h.live
	}
	return h.delayed.Hub()
}

func maxTime(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// wireState is a board's state as the hall's watchers get it (without
// what only the hall knows: its device's connection, pending commands,
// alerts). h.mu is held.
func (h *hall) wireState(b *board, wallMs int64) *pb.BoardState {
	w := wire.State(b.state)
	w.BoardId = b.rec.ID
	w.BoardSeq = b.seq
	w.ServerUnixMs = wallMs
	if b.rec.Virtual {
		w.Source = pb.ClockSource_CLOCK_SOURCE_VIRTUAL
		w.DeviceOnline = true
	}
	return w
}

// public reports whether a round's feeds need no token. h.mu is held.
func (h *hall) publicLocked(roundID string) bool {
	return h.settings.AllPublic || h.rounds[roundID].Public
}

// roundIDs lists the hall's rounds by tournament name and number.
func (h *hall) roundIDs() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	ids := make([]string, 0, len(h.rounds))
	for id := range h.rounds {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool {
		a, b := h.rounds[ids[i]], h.rounds[ids[j]]
		if ta, tb := h.tournaments[a.TournamentID].Name, h.tournaments[b.TournamentID].Name; ta != tb {
			return ta < tb
		}
		return a.Number < b.Number
	})
	return ids
}

// token reports whether a bearer token's hash is one of the hall's
// broadcast tokens.
func (h *hall) token(hash string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	_, ok := h.tokens[hash]
	return ok
}

// started reports whether the hall has applied a message.
func (h *hall) started() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.applied > 0
}

// refuse passes over a message of the hall's stream that the hall did not
// write: counted and logged, never applied.
func (h *hall) refuse(streamSeq uint64, subject string, err error) {
	h.mu.Lock()
	h.refused++
	h.streamSeq = streamSeq
	h.mu.Unlock()
	h.log.Error("gateway: refused a message the hall did not write", "seq", streamSeq, "subject", subject, "err", err)
}

// refuseReplay passes over a message the hall wrote whose outbox number
// is not above the last applied: published again (by someone who may
// write the hall's NATS), never applied twice; counted and logged.
func (h *hall) refuseReplay(streamSeq uint64, subject string, seal hallstream.Seal) {
	h.mu.Lock()
	h.refused++
	h.replayed++
	h.streamSeq = streamSeq
	h.mu.Unlock()
	h.log.Error("gateway: refused a replayed message: its outbox number is not above the last applied", "seq", streamSeq,
		"subject", subject, "outbox", seal.Outbox, "last_applied", h.order.last, "hall_start", seal.Start)
}

// close ends the hall's hubs and feeds.
func (h *hall) close() {
	h.mu.Lock()
	f := h.feeds
	h.mu.Unlock()
	f.Close()
	h.live.Close()
	h.delayed.Close()
}
