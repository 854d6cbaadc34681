package arbiter

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/chesshall/hallclock/internal/wire"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/server/auth"
	"github.com/chesshall/hallclock/server/hall"
	"github.com/chesshall/hallclock/server/hallerr"
	"github.com/chesshall/hallclock/storage"
)

func (a *Service) CreateTournament(ctx context.Context, req *pb.CreateTournamentRequest) (*pb.Tournament, error) {
	s := a
	if strings.TrimSpace(req.GetName()) == "" {
		return nil, hallerr.BadRequest("a tournament needs a name")
	}
	if t, ok := s.hall.TournamentNamed(req.GetName()); ok {
		return nil, fmt.Errorf("%w: a tournament is called %q already (id %s): a name says which tournament is meant, so each has its own",
			storage.ErrDuplicate, t.Name, t.ID)
	}
	cfg, err := hall.CheckConfigOf("default_config", req.GetDefaultConfig(), false)
	if err != nil {
		return nil, err
	}
	rec := storage.TournamentRecord{ID: s.hall.NewID("t"), Name: strings.TrimSpace(req.GetName()), Config: cfg, TimeControl: req.GetDefaultConfig().GetTimeControl(), Venue: req.GetVenue()}
	if rec.TieBreaks, rec.SectionTieBreaks, err = checkTieBreaks(req.GetTieBreaks(), req.GetSectionTieBreaks()); err != nil {
		return nil, err
	}
	err = s.store.Write(ctx, func(tx *storage.Tx) error {
		if err := tx.CreateTournament(&rec); err != nil {
			return err
		}
		return tx.AddAudit(&storage.AuditRecord{Actor: auth.IdentityFrom(ctx).Actor(), What: "create_tournament " + rec.Name, Outcome: storage.OutcomeApplied,
			Kind: "did.create_tournament", Params: map[string]string{"name": rec.Name, "text": "create_tournament " + rec.Name}})
	})
	if err != nil {
		return nil, err
	}
	s.hall.AddTournament(rec)
	return tournamentToWire(rec), nil
}

func tournamentToWire(r storage.TournamentRecord) *pb.Tournament {
	return &pb.Tournament{TournamentId: r.ID, Name: r.Name, DefaultConfig: wire.WireConfig(r.Config), CreatedUnixMs: r.Created.UnixMilli(),
		TimeControlInfo: hall.ConfigInfo(r.Config), Venue: r.Venue, TieBreaks: r.TieBreaks, SectionTieBreaks: r.SectionTieBreaks}
}

func (a *Service) CreateRound(ctx context.Context, req *pb.CreateRoundRequest) (*pb.Round, error) {
	s := a
	t, err := s.hall.Tournament(req.GetTournamentId())
	if err != nil {
		return nil, err
	}
	if req.GetNumber() <= 0 {
		return nil, hallerr.BadRequest("round number %d: rounds are numbered from 1", req.GetNumber())
	}
	eff := hall.MergeConfig(wire.WireConfig(t.Config), req.GetConfig())
	cfg, err := hall.CheckConfig(eff, false)
	if err != nil {
		return nil, err
	}
	rec := storage.RoundRecord{ID: s.hall.NewID("r"), TournamentID: t.ID, Number: int(req.GetNumber()), Venue: t.Venue}
	if req.GetConfig() != nil {
		rec.Config, rec.TimeControl = &cfg, eff.GetTimeControl()
	}
	err = s.store.Write(ctx, func(tx *storage.Tx) error {
		if err := tx.CreateRound(&rec); err != nil {
			return err
		}
		what := fmt.Sprintf("create_round %d of %s", rec.Number, t.Name)
		return tx.AddAudit(&storage.AuditRecord{Actor: auth.IdentityFrom(ctx).Actor(), What: what, Outcome: storage.OutcomeApplied,
			Kind: "did.create_round", Params: map[string]string{"number": strconv.Itoa(int(rec.Number)), "tournament": t.Name, "text": what}})
	})
	if err != nil {
		return nil, err
	}
	s.hall.AddRound(rec)
	out := &pb.Round{RoundId: rec.ID, TournamentId: t.ID, Number: int32(rec.Number), Config: s.hall.RoundConfig(rec), TournamentName: t.Name, Venue: rec.Venue, Tally: &pb.RoundTally{}}
	if out.GetConfig().GetTimeControl() != "" {
		out.TimeControlInfo = hall.ConfigInfo(cfg)
	}
	return out, nil
}

func (a *Service) AddBoard(ctx context.Context, req *pb.AddBoardRequest) (*pb.Board, error) {
	s := a
	id := auth.IdentityFrom(ctx)
	if !id.MaySection(req.GetSection()) {
		return nil, fmt.Errorf("%w: %s may not act on section %q", hallerr.ErrPermission, id.Actor(), req.GetSection())
	}
	r, err := s.hall.FindRound(req.GetRoundId())
	if err != nil {
		return nil, err
	}
	if req.GetNumber() <= 0 {
		return nil, hallerr.BadRequest("board number %d: boards are numbered from 1", req.GetNumber())
	}
	eff := hall.MergeConfig(s.hall.RoundConfig(r), req.GetConfig())
	cfg, err := hall.CheckConfig(eff, true)
	if err != nil {
		return nil, err
	}
	rec := storage.BoardRecord{
		ID: s.hall.NewID("b"), RoundID: r.ID, Number: int(req.GetNumber()), Section: req.GetSection(),
		White: hall.PlayerRecord(req.GetWhite()), Black: hall.PlayerRecord(req.GetBlack()),
		Config: cfg, TimeControl: eff.GetTimeControl(), DeviceID: req.GetDeviceId(),
	}
	b, err := s.hall.AddBoard(ctx, id, rec, req.GetReplace())
	if err != nil {
		return nil, err
	}
	return a.boardWire(ctx, b)
}
