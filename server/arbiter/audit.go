package arbiter

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/chesshall/hallclock/internal/wire"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/server/hall"
	"github.com/chesshall/hallclock/storage"
)

// hallAudit answers the hall-wide audit: the entries of every board the
// caller may see (an arbiter's sections; the hall's own entries, of no
// board, only to those who see every section), by round, tournament,
// actor, kind and time — "who changed which result today". Board events
// come bare (no clocks after them: a board's own log folds those); a
// clock device's own presses are left out.
func (a *Service) hallAudit(ctx context.Context, req *pb.AuditLogRequest) (*pb.AuditLogResponse, error) {
	rd := a.readerOf(ctx)
	q := storage.AuditQuery{Sections: rd.id.SectionsSeen(), Actor: req.GetActor(), Kinds: req.GetKinds(), Limit: int(req.GetLimit())}
	if q.Limit <= 0 {
		q.Limit = 500
	}
	if ms := req.GetSinceUnixMs(); ms > 0 {
		q.Since = time.UnixMilli(ms)
	}
	if ms := req.GetUntilUnixMs(); ms > 0 {
		q.Until = time.UnixMilli(ms)
	}
	if req.GetRoundId() != "" {
		r, err := a.hall.FindRound(req.GetRoundId())
		if err != nil {
			return nil, err
		}
		q.RoundID = r.ID
	}
	if req.GetTournament() != "" {
		t, err := a.hall.Tournament(req.GetTournament())
		if err != nil {
			return nil, err
		}
		q.TournamentID = t.ID
	}
	items, more, err := a.store.AuditSearch(ctx, q)
	if err != nil {
		return nil, err
	}
	out := &pb.AuditLogResponse{More: more}
	issuers := map[string]string{}
	titles := map[string]string{}
	for _, it := range items {
		var e *pb.AuditEntry
		if it.Event != nil {
			ev := it.Event
			act := wire.Action(ev.Event)
			e = &pb.AuditEntry{UnixMs: ev.Wall.UnixMilli(), Actor: ev.Actor, What: hall.ActionText(act), Reason: ev.Reason,
				Outcome: storage.OutcomeApplied, Action: act, BoardSeq: ev.BoardSeq, CommandId: ev.CommandID, BoardId: ev.BoardID}
			if ev.CommandID != "" {
				e.What += " (command " + ev.CommandID + ")"
				if _, ok := issuers[ev.CommandID]; !ok {
					c, err := a.store.Command(ctx, ev.CommandID)
					if err != nil && !errors.Is(err, storage.ErrNotFound) {
						return nil, err
					}
					issuers[ev.CommandID] = c.IssuedBy
				}
				e.IssuedBy = issuers[ev.CommandID]
			}
		} else {
			e = auditEntry(*it.Audit)
		}
		if id := e.GetBoardId(); id != "" {
			if _, ok := titles[id]; !ok {
				titles[id] = a.hall.BoardTitle(id)
			}
			e.Board = titles[id]
		}
		out.Entries = append(out.Entries, e)
	}
	return out, nil
}

// narrow keeps the entries of board b's log that req's filters select,
// and names the board in each.
func (a *Service) narrow(entries []*pb.AuditEntry, b *hall.Board, req *pb.AuditLogRequest) ([]*pb.AuditEntry, error) {
	if req.GetRoundId() != "" {
		r, err := a.hall.FindRound(req.GetRoundId())
		if err != nil {
			return nil, err
		}
		if r.ID != b.RoundID() {
			return nil, nil
		}
	}
	if req.GetTournament() != "" {
		t, err := a.hall.Tournament(req.GetTournament())
		if err != nil {
			return nil, err
		}
		r, err := a.hall.FindRound(b.RoundID())
		if err != nil || r.TournamentID != t.ID {
			return nil, err
		}
	}
	title := a.hall.BoardTitle(b.ID())
	out := entries[:0]
	for _, e := range entries {
		kind, _, _ := strings.Cut(e.GetWhat(), " ")
		switch {
		case req.GetActor() != "" && !actorIs(e.GetActor(), req.GetActor()),
			len(req.GetKinds()) > 0 && !contains(req.GetKinds(), kind),
			req.GetSinceUnixMs() > 0 && e.GetUnixMs() < req.GetSinceUnixMs(),
			req.GetUntilUnixMs() > 0 && e.GetUnixMs() >= req.GetUntilUnixMs():
			continue
		}
		e.BoardId, e.Board = b.ID(), title
		out = append(out, e)
	}
	return out, nil
}

// actorIs reports whether actor ("arbiter:Anna") is who: the actor
// whole, its name ("Anna") or its role ("arbiter"), as the hall-wide
// audit (storage.AuditQuery.Actor) matches it.
func actorIs(actor, who string) bool {
	role, name, ok := strings.Cut(actor, ":")
	return actor == who || (ok && (name == who || role == who))
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
