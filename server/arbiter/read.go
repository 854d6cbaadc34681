package arbiter

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sort"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	"github.com/chesshall/hallclock/formats/words"
	"github.com/chesshall/hallclock/internal/wire"
	"github.com/chesshall/hallclock/internal/wirewords"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
	"github.com/chesshall/hallclock/server/auth"
	"github.com/chesshall/hallclock/server/hall"
	"github.com/chesshall/hallclock/server/hallerr"
	"github.com/chesshall/hallclock/storage"
)

// boardWire returns a board as the caller may see it: live, or (a
// broadcast token) as its watch streams show it, the broadcast delay ago
// (nothing, for a board younger than that), without the arbiters'
// commands and reasons.
func (a *Service) boardWire(ctx context.Context, b *hall.Board) (*pb.Board, error) {
	out, err := b.Wire(ctx)
	if err != nil {
		return nil, err
	}
	rd := a.readerOf(ctx)
	if !rd.id.Live() {
		// Broadcast feeds see the board as their watch streams do: as it
		// was the broadcast delay ago (nothing, for a board younger than
		// that), without the arbiters' commands and reasons, and without
		// who is visually disabled (the arbiters' to know).
		out.Pending = nil
		out.State, _ = rd.state(b.ID())
	}
	switch id := rd.id; {
	case id != nil && id.Role == auth.RoleBroadcast:
		out.Pending = nil
		if c := out.GetConfig(); c != nil {
			c.BlindPlay = nil
		}
	case id != nil && id.Role == auth.RoleAssistant:
		// An assistant sees his board, not the arbiters' commands.
		out.Pending = nil
	}
	return out, nil
}

// boardFor returns a board the caller may read and act on, by its id or
// its name ("5.12", "Open:5.A3": hall.FindBoard), a name matched among the
// boards the caller may see; one of another section is "no such board", as
// one that does not exist.
func (a *Service) boardFor(ctx context.Context, boardID string) (*hall.Board, error) {
	rd := a.readerOf(ctx)
	if !rd.id.MayBoard(boardID) {
		// Said before the board is looked up: an assistant learns nothing
		// of the hall's other boards, not even whether they exist.
		return nil, fmt.Errorf("%w: %s may act on board %s only", hallerr.ErrPermission, rd.id.Actor(), rd.id.BoardID)
	}
	b, err := a.hall.FindBoard(boardID, func(b *hall.Board) bool { return rd.sees(b.Section()) })
	if err != nil {
		return nil, err
	}
	return rd.board(a.hall, b.ID())
}

func (a *Service) ListBoards(ctx context.Context, req *pb.ListBoardsRequest) (*pb.ListBoardsResponse, error) {
	s := a
	rd := a.readerOf(ctx)
	round := req.GetRoundId()
	if round != "" || req.GetTournament() != "" {
		r, err := s.hall.RoundRef(round, req.GetTournament(), req.GetNumber())
		if err != nil {
			return nil, err
		}
		round = r.ID
	}
	out := &pb.ListBoardsResponse{}
	for _, b := range rd.boards(s.hall.Boards(round)) {
		if req.GetSection() != "" && b.Section() != req.GetSection() {
			continue
		}
		w, err := a.boardWire(ctx, b)
		if err != nil {
			return nil, err
		}
		out.Boards = append(out.Boards, w)
	}
	sort.Slice(out.Boards, func(i, j int) bool {
		x, y := out.Boards[i], out.Boards[j]
		if x.GetRoundId() != y.GetRoundId() {
			return x.GetRoundId() < y.GetRoundId()
		}
		if x.GetSection() != y.GetSection() {
			return x.GetSection() < y.GetSection()
		}
		return x.GetNumber() < y.GetNumber()
	})
	return out, nil
}

func (a *Service) GetBoard(ctx context.Context, req *pb.GetBoardRequest) (*pb.Board, error) {
	b, err := a.boardFor(ctx, req.GetBoardId())
	if err != nil {
		return nil, err
	}
	return a.boardWire(ctx, b)
}

// AuditLog merges the board's events (who pressed, who commanded) with the
// audit entries (refusals, commands, assignments, alerts), in time order.
// Without a board, the hall-wide audit (hallAudit); with one, its filters
// narrow the board's log.
func (a *Service) AuditLog(ctx context.Context, req *pb.AuditLogRequest) (*pb.AuditLogResponse, error) {
	s := a
	if req.GetBoardId() == "" {
		out, err := a.hallAudit(ctx, req)
		if out != nil {
			out.TimeZone = a.zoneName()
		}
		return out, err
	}
	b, err := a.boardFor(ctx, req.GetBoardId())
	if err != nil {
		return nil, err
	}
	limit := int(req.GetLimit())
	if limit <= 0 {
		limit = 500
	}
	rec, err := b.Record(ctx)
	if err != nil {
		return nil, err
	}
	audits, err := s.store.Audit(ctx, rec.ID, req.GetAfterSeq(), limit)
	if err != nil {
		return nil, err
	}
	evs, err := s.store.Events(ctx, rec.ID, 0)
	if err != nil {
		return nil, err
	}
	out := &pb.AuditLogResponse{TimeZone: a.zoneName()}
	for _, r := range audits {
		out.Entries = append(out.Entries, auditEntry(r))
	}
	entries, err := s.eventEntries(ctx, rec, evs)
	if err != nil {
		return nil, err
	}
	out.Entries = append(out.Entries, entries...)
	sort.SliceStable(out.Entries, func(i, j int) bool { return out.Entries[i].GetUnixMs() < out.Entries[j].GetUnixMs() })
	out.Entries, err = a.narrow(out.Entries, b, req)
	return out, err
}

// auditEntry writes an audit record as an entry.
func auditEntry(r storage.AuditRecord) *pb.AuditEntry {
	e := &pb.AuditEntry{Seq: r.Seq, UnixMs: r.Wall.UnixMilli(), Actor: r.Actor, What: r.What, Reason: r.Reason, Outcome: r.Outcome,
		BoardSeq: r.BoardSeq, CommandId: r.CommandID, BoardId: r.BoardID,
		Words: wirewords.Words(words.Message{Kind: r.Kind, Params: r.Params})}
	if len(r.Action) > 0 {
		var act pb.ClockAction
		if protojson.Unmarshal(r.Action, &act) == nil {
			e.Action = &act
		}
	}
	return e
}

// eventEntries writes a board's events as audit entries, folding them
// through the rules as the board did, so that each says the clocks after
// it, the time a move took, and how the event itself changed each clock
// (a penalty, an increment, a new period, time given or set): the
// timeline the dashboard draws.
func (s *Service) eventEntries(ctx context.Context, rec storage.BoardRecord, evs []storage.EventRecord) ([]*pb.AuditEntry, error) {
	st, err := rules.NewState(rec.Config)
	if err != nil {
		return nil, err
	}
	issuers := map[string]string{}
	out := make([]*pb.AuditEntry, 0, len(evs))
	for _, ev := range evs {
		e := ev.Event
		act := wire.Action(e)
		what := hall.ActionText(act)
		entry := &pb.AuditEntry{UnixMs: ev.Wall.UnixMilli(), Actor: ev.Actor, What: what, Reason: ev.Reason,
			Outcome: storage.OutcomeApplied, Action: act, BoardSeq: ev.BoardSeq, CommandId: ev.CommandID, BoardId: ev.BoardID}
		if ev.CommandID != "" {
			entry.What += " (command " + ev.CommandID + ")"
			if _, ok := issuers[ev.CommandID]; !ok {
				c, err := s.store.Command(ctx, ev.CommandID)
				if err != nil && !errors.Is(err, storage.ErrNotFound) {
					return nil, err
				}
				issuers[ev.CommandID] = c.IssuedBy
			}
			entry.IssuedBy = issuers[ev.CommandID]
		}
		before := st.Project(max(e.T, st.At))
		next, err := rules.Apply(st, e)
		if err != nil {
			// The log holds what the rules accepted; a board that no
			// longer folds (rules changed since) shows its events bare.
			out = append(out, entry)
			continue
		}
		entry.After = wire.State(next)
		if next.Over() && !before.Over() && next.CountingResult() != next.Result {
			// Draw odds: the board's result stays, the log says what counts.
			entry.What += fmt.Sprintf("; the game ends %s, counts %s (draw odds for %s)", next.Result, next.CountingResult(),
				next.Config.Regulations.DrawOdds)
		}
		entry.WhiteChangeMs = next.P[rules.White].MainMs - before.P[rules.White].MainMs
		entry.BlackChangeMs = next.P[rules.Black].MainMs - before.P[rules.Black].MainMs
		if e.Kind == rules.KindPress {
			// The time the move took on the clock, as the PGN's [%emt]
			// takes it (formats/pgn): the rules' own count.
			entry.UsedMs = before.P[e.Side].MoveUsedMs
		}
		st = next
		out = append(out, entry)
	}
	return out, nil
}

func (a *Service) ListDevices(ctx context.Context, _ *pb.ListDevicesRequest) (*pb.ListDevicesResponse, error) {
	recs, err := a.store.Devices(ctx)
	if err != nil {
		return nil, err
	}
	// A device keeping a board of a section out of the caller's reach is
	// not theirs to see; spares (no board) are everyone's.
	rd := a.readerOf(ctx)
	var out []*pb.Device
	for _, d := range a.hall.Devices(recs) {
		if b := d.GetBoardId(); b != "" {
			if _, err := rd.board(a.hall, b); err != nil {
				continue
			}
		}
		out = append(out, d)
	}
	return &pb.ListDevicesResponse{Devices: out}, nil
}

// serveBoards lists the boards the caller may see, with players and live
// state (protojson of ListBoardsResponse), for the dashboard.
func (s *Service) serveBoards(w http.ResponseWriter, r *http.Request) {
	s.serveCall(w, r, []auth.Role{auth.RoleChief, auth.RoleArbiter, auth.RoleBroadcast}, false, func(ctx context.Context) (proto.Message, error) {
		return s.ListBoards(ctx, &pb.ListBoardsRequest{RoundId: r.URL.Query().Get("round")})
	})
}

// serveCall answers a read of the web pages with an Arbiter method's
// response in protojson, the method called as the request's caller if its
// role is one of roles; noStore keeps browsers from caching it.
func (s *Service) serveCall(w http.ResponseWriter, r *http.Request, roles []auth.Role, noStore bool, call func(context.Context) (proto.Message, error)) {
	id, err := s.sessions.WebIdentity(r, roles...)
	if err != nil {
		s.codes.WriteHTTP(w, err)
		return
	}
	resp, err := call(auth.WithIdentity(r.Context(), id))
	if err != nil {
		s.codes.WriteHTTP(w, err)
		return
	}
	b, err := protojson.Marshal(resp)
	if err != nil {
		s.codes.WriteHTTP(w, err)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	if noStore {
		w.Header().Set("Cache-Control", "no-store")
	}
	_, _ = w.Write(b)
}
