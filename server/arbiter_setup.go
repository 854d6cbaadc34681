package server

import (
	"context"
	"fmt"
	"strings"

	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
	"github.com/chesshall/hallclock/server/auth"
	"github.com/chesshall/hallclock/server/hallerr"
	"github.com/chesshall/hallclock/storage"
)

func (a *arbiterService) CreateTournament(ctx context.Context, req *pb.CreateTournamentRequest) (*pb.Tournament, error) {
	s := a.s
	if strings.TrimSpace(req.GetName()) == "" {
		return nil, hallerr.BadRequest("a tournament needs a name")
	}
	cfg, err := checkConfig(req.GetDefaultConfig(), false)
	if err != nil {
		return nil, err
	}
	rec := storage.TournamentRecord{ID: s.newID("t"), Name: req.GetName(), Config: cfg, TimeControl: req.GetDefaultConfig().GetTimeControl(), Venue: req.GetVenue()}
	err = s.store.Write(ctx, func(tx *storage.Tx) error {
		if err := tx.CreateTournament(&rec); err != nil {
			return err
		}
		return tx.AddAudit(&storage.AuditRecord{Actor: auth.IdentityFrom(ctx).Actor(), What: "create_tournament " + rec.Name, Outcome: storage.OutcomeApplied})
	})
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	s.tournaments[rec.ID] = rec
	s.mu.Unlock()
	return tournamentToWire(rec), nil
}

func tournamentToWire(r storage.TournamentRecord) *pb.Tournament {
	return &pb.Tournament{TournamentId: r.ID, Name: r.Name, DefaultConfig: wireConfigOf(r.Config), CreatedUnixMs: r.Created.UnixMilli(),
		TimeControlInfo: configInfo(r.Config), Venue: r.Venue}
}

// roundConfig returns a round's effective wire configuration.
func (s *Server) roundConfig(r storage.RoundRecord) *pb.ClockConfig {
	s.mu.Lock()
	t := s.tournaments[r.TournamentID]
	s.mu.Unlock()
	return s.roundConfigWith(r, t)
}

func (a *arbiterService) CreateRound(ctx context.Context, req *pb.CreateRoundRequest) (*pb.Round, error) {
	s := a.s
	s.mu.Lock()
	t, ok := s.tournaments[req.GetTournamentId()]
	s.mu.Unlock()
	if !ok {
		return nil, fmt.Errorf("%w: tournament %q", storage.ErrNotFound, req.GetTournamentId())
	}
	if req.GetNumber() <= 0 {
		return nil, hallerr.BadRequest("round number %d: rounds are numbered from 1", req.GetNumber())
	}
	eff := mergeConfig(wireConfigOf(t.Config), req.GetConfig())
	cfg, err := checkConfig(eff, false)
	if err != nil {
		return nil, err
	}
	rec := storage.RoundRecord{ID: s.newID("r"), TournamentID: t.ID, Number: int(req.GetNumber()), Venue: t.Venue}
	if req.GetConfig() != nil {
		rec.Config, rec.TimeControl = &cfg, eff.GetTimeControl()
	}
	err = s.store.Write(ctx, func(tx *storage.Tx) error {
		if err := tx.CreateRound(&rec); err != nil {
			return err
		}
		return tx.AddAudit(&storage.AuditRecord{Actor: auth.IdentityFrom(ctx).Actor(), What: fmt.Sprintf("create_round %d of %s", rec.Number, t.Name), Outcome: storage.OutcomeApplied})
	})
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	s.rounds[rec.ID] = rec
	s.mu.Unlock()
	out := &pb.Round{RoundId: rec.ID, TournamentId: t.ID, Number: int32(rec.Number), Config: s.roundConfig(rec), TournamentName: t.Name, Venue: rec.Venue, Tally: &pb.RoundTally{}}
	if out.GetConfig().GetTimeControl() != "" {
		out.TimeControlInfo = configInfo(cfg)
	}
	return out, nil
}

func (a *arbiterService) AddBoard(ctx context.Context, req *pb.AddBoardRequest) (*pb.Board, error) {
	s := a.s
	id := auth.IdentityFrom(ctx)
	if !id.MaySection(req.GetSection()) {
		return nil, fmt.Errorf("%w: %s may not act on section %q", hallerr.ErrPermission, id.Actor(), req.GetSection())
	}
	s.mu.Lock()
	r, ok := s.rounds[req.GetRoundId()]
	s.mu.Unlock()
	if !ok {
		return nil, fmt.Errorf("%w: round %q", storage.ErrNotFound, req.GetRoundId())
	}
	if req.GetNumber() <= 0 {
		return nil, hallerr.BadRequest("board number %d: boards are numbered from 1", req.GetNumber())
	}
	eff := mergeConfig(s.roundConfig(r), req.GetConfig())
	cfg, err := checkConfig(eff, true)
	if err != nil {
		return nil, err
	}
	rec := storage.BoardRecord{
		ID: s.newID("b"), RoundID: r.ID, Number: int(req.GetNumber()), Section: req.GetSection(),
		White: playerRecord(req.GetWhite()), Black: playerRecord(req.GetBlack()),
		Config: cfg, TimeControl: eff.GetTimeControl(), DeviceID: req.GetDeviceId(),
	}
	st, err := rules.NewState(cfg)
	if err != nil {
		return nil, err
	}
	var move deviceMove
	if rec.DeviceID != "" {
		if move, err = s.claimDevice(ctx, id, rec.DeviceID, rec.ID, req.GetReplace()); err != nil {
			return nil, err
		}
	}
	b := newBoard(s, rec, st, 0)
	s.place(rec.ID, rec.Section)
	err = s.store.Write(ctx, func(tx *storage.Tx) error {
		if err := tx.CreateBoard(&b.rec); err != nil {
			return err
		}
		tx.AfterCommit(func() { s.publish(r.ID, b.wireState(st, 0), 0) })
		if err := move.audit(tx, id.Actor(), rec.ID, ""); err != nil {
			return err
		}
		what := fmt.Sprintf("add_board %d %s - %s", rec.Number, rec.White.Name, rec.Black.Name)
		if rec.DeviceID != "" {
			what += fmt.Sprintf(", device %s%s", rec.DeviceID, move.note())
		}
		return tx.AddAudit(&storage.AuditRecord{BoardID: rec.ID, Actor: id.Actor(), What: what, Outcome: storage.OutcomeApplied})
	})
	if err != nil {
		return nil, err
	}
	if rec.DeviceID != "" {
		s.moveDevice(rec.DeviceID, rec.ID)
	}
	s.addBoard(b)
	if rec.DeviceID != "" {
		s.sendAssignment(s.ctx, rec.DeviceID, true)
	}
	return a.boardWire(ctx, b)
}

func playerRecord(p *pb.Player) storage.PlayerRecord {
	return storage.PlayerRecord{Name: p.GetName(), FideID: p.GetFideId(), Rating: int(p.GetRating()),
		StartRank: int(p.GetStartRank()), Title: p.GetTitle(), Federation: p.GetFederation()}
}

func playerWire(p storage.PlayerRecord) *pb.Player {
	return &pb.Player{Name: p.Name, FideId: p.FideID, Rating: int32(p.Rating), StartRank: int32(p.StartRank), Title: p.Title, Federation: p.Federation}
}
