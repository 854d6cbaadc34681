package arbiter

import (
	"context"
	"fmt"
	"strings"

	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/server/auth"
	"github.com/chesshall/hallclock/server/hallerr"
	"github.com/chesshall/hallclock/storage"
)

func (a *Service) GetPlan(ctx context.Context, req *pb.GetPlanRequest) (*pb.HallPlan, error) {
	p, err := a.planWire(ctx, req.GetVenue())
	return p, err
}

func (s *Service) planWire(ctx context.Context, venue string) (*pb.HallPlan, error) {
	entries, err := s.store.Plan(ctx, venue)
	if err != nil {
		return nil, err
	}
	out := &pb.HallPlan{Venue: venue}
	rd := s.readerOf(ctx)
	for _, e := range entries {
		online, board := s.hall.DeviceState(e.DeviceID)
		if _, err := rd.board(s.hall, board); board != "" && err != nil {
			board = "" // a board of a section out of the caller's reach
		}
		out.Tables = append(out.Tables, &pb.PlanTable{Table: int32(e.Table), DeviceId: e.DeviceID, Online: online,
			BoardId: board, UpdatedUnixMs: e.Updated.UnixMilli()})
	}
	return out, nil
}

func (a *Service) SetPlan(ctx context.Context, req *pb.SetPlanRequest) (*pb.HallPlan, error) {
	s := a
	venue := req.GetVenue()
	type set struct {
		table int
		dev   string
	}
	var sets []set
	if id := req.GetFromRoundId(); id != "" {
		r, err := s.hall.RoundRef(id, "", 0)
		if err != nil {
			return nil, err
		}
		if r.Venue != venue {
			return nil, hallerr.BadRequest("round %d plays in %s, not in %s", r.Number, venueName(r.Venue), venueName(venue))
		}
		for _, b := range s.hall.Boards(r.ID) {
			rec, err := b.Record(ctx)
			if err != nil {
				return nil, err
			}
			if rec.Table > 0 && rec.DeviceID != "" {
				sets = append(sets, set{rec.Table, rec.DeviceID})
			}
		}
	}
	for _, t := range req.GetTables() {
		sets = append(sets, set{int(t.GetTable()), t.GetDeviceId()})
	}
	var what []string
	if req.GetClear() {
		what = append(what, "cleared")
	}
	var tables []string // "3: CLK-007", the same in every language
	for _, st := range sets {
		what = append(what, fmt.Sprintf("table %d %s", st.table, or(st.dev, "-")))
		tables = append(tables, fmt.Sprintf("%d: %s", st.table, or(st.dev, "—")))
	}
	kind := "did.set_plan"
	if venue == "" {
		kind += "_hall"
	}
	text := fmt.Sprintf("set_plan of %s: %s", venueName(venue), strings.Join(what, ", "))
	err := s.store.Write(ctx, func(tx *storage.Tx) error {
		if req.GetClear() {
			if err := tx.ClearPlan(venue); err != nil {
				return err
			}
		}
		for _, st := range sets {
			if err := tx.SetPlanTable(venue, st.table, st.dev); err != nil {
				return err
			}
		}
		return tx.AddAudit(&storage.AuditRecord{Actor: auth.IdentityFrom(ctx).Actor(), What: text, Outcome: storage.OutcomeApplied,
			Kind: kind, Params: map[string]string{"venue": venue, "tables": strings.Join(tables, ", "), "cleared": fmt.Sprint(req.GetClear()), "text": text}})
	})
	if err != nil {
		return nil, err
	}
	p, err := s.planWire(ctx, venue)
	return p, err
}

func or(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
