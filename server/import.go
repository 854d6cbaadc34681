package server

import (
	"context"
	"errors"
	"fmt"

	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
	"github.com/chesshall/hallclock/server/auth"
	"github.com/chesshall/hallclock/server/hallerr"
	"github.com/chesshall/hallclock/storage"
)

// ImportRound sets a round up from a pairing program's file in one
// transaction: the round (unless it exists and is replaced), its boards
// with their players, tables and the clocks the venue's hall plan puts
// there, its byes, and the file itself.
func (a *arbiterService) ImportRound(ctx context.Context, req *pb.ImportRoundRequest) (*pb.ImportRoundResponse, error) {
	s := a.s
	actor := auth.IdentityFrom(ctx).Actor()
	t, err := s.tournamentRef(req.GetTournament())
	if err != nil {
		return nil, err
	}
	p, err := readPairing(req)
	if err != nil {
		return nil, err
	}
	rec, existing := s.roundByNumber(t.ID, p.number)
	var old []*board
	if existing {
		if !req.GetReplace() {
			return nil, fmt.Errorf("%w: round %d of %s is set up already: replace it (hallctl import-round -replace) while none of its boards has started",
				storage.ErrDuplicate, p.number, t.Name)
		}
		old = s.roundBoards(rec.ID)
		for _, b := range old {
			var started bool
			_ = b.do(ctx, func() { started = b.seq > 0 || len(b.pending) > 0 })
			if started {
				return nil, fmt.Errorf("%w: round %d of %s has started (board %d): a round is replaced only before any of its clocks runs",
					hallerr.ErrRoundStarted, p.number, t.Name, b.rec.Number)
			}
		}
	} else {
		eff := mergeConfig(wireConfigOf(t.Config), req.GetConfig())
		cfg, err := checkConfig(eff, false)
		if err != nil {
			return nil, err
		}
		venue := t.Venue
		if req.GetVenue() != "" {
			venue = req.GetVenue()
		}
		rec = storage.RoundRecord{ID: s.newID("r"), TournamentID: t.ID, Number: p.number, Venue: venue}
		if req.GetConfig() != nil {
			rec.Config, rec.TimeControl = &cfg, eff.GetTimeControl()
		}
	}
	cfgWire := s.roundConfigWith(rec, t)
	cfg, err := checkConfig(cfgWire, true)
	if err != nil {
		return nil, err
	}
	if _, err := rules.NewState(cfg); err != nil {
		return nil, err
	}

	// Clocks from the hall plan, by table; a clock still keeping a game
	// that goes on stays there.
	plan, err := s.store.Plan(ctx, rec.Venue)
	if err != nil {
		return nil, err
	}
	atTable := map[int]string{}
	for _, e := range plan {
		atTable[e.Table] = e.DeviceID
	}
	leaving := map[string]bool{}
	for _, b := range old {
		leaving[b.rec.ID] = true
	}
	tables := p.tables(int(req.GetFirstTable()))
	warnings := p.warnings
	var recs []storage.BoardRecord
	type boardMove struct {
		deviceMove
		to string
	}
	var moves []boardMove // clocks leaving finished boards, audited there
	for i := range p.games {
		g := &p.games[i]
		br := storage.BoardRecord{ID: s.newID("b"), RoundID: rec.ID, Number: g.board, Section: g.section,
			White: g.white, Black: g.black, Config: cfg, TimeControl: cfgWire.GetTimeControl(), Table: tables[g]}
		dev := atTable[br.Table]
		switch {
		case dev == "":
			warnings = append(warnings, fmt.Sprintf("table %d (board %d%s) has no clock in the hall plan of %s", br.Table, g.board, sectionSuffix(g.section), venueName(rec.Venue)))
		default:
			if busy, move := s.busyBoard(ctx, dev, leaving); busy != nil {
				warnings = append(warnings, fmt.Sprintf("table %d's clock %s still keeps board %d of round %d of %s, which has not ended: assign it when that game is over",
					br.Table, dev, busy.rec.Number, busy.round, busy.tournament))
			} else {
				br.DeviceID = dev
				moves = append(moves, boardMove{move, br.ID})
			}
		}
		recs = append(recs, br)
	}
	byes := make([]storage.ByeRecord, len(p.byes))
	for i, b := range p.byes {
		b.RoundID = rec.ID
		byes[i] = b
	}
	what := fmt.Sprintf("import_round %d of %s from %s: %s", rec.Number, t.Name, p.format, p.describe())
	if existing {
		what = fmt.Sprintf("import_round %d of %s from %s, replacing its %d boards: %s", rec.Number, t.Name, p.format, len(old), p.describe())
	}
	file := storage.RoundFile{RoundID: rec.ID, Format: p.format, Content: string(req.GetContent()), Pairings: string(req.GetPairings())}
	err = s.store.Write(ctx, func(tx *storage.Tx) error {
		if !existing {
			if err := tx.CreateRound(&rec); err != nil {
				return err
			}
		}
		for _, b := range old {
			if err := tx.DeleteBoard(b.rec.ID); err != nil {
				return err
			}
		}
		for i := range recs {
			if err := tx.CreateBoard(&recs[i]); err != nil {
				return err
			}
		}
		for _, m := range moves {
			if err := m.audit(tx, actor, m.to, ""); err != nil {
				return err
			}
		}
		if err := tx.SetByes(rec.ID, byes); err != nil {
			return err
		}
		if err := tx.PutRoundFile(&file); err != nil {
			return err
		}
		return tx.AddAudit(&storage.AuditRecord{Actor: actor, What: what, Outcome: storage.OutcomeApplied})
	})
	if err != nil {
		return nil, err
	}

	s.mu.Lock()
	s.rounds[rec.ID] = rec
	s.mu.Unlock()
	freed := map[string]bool{}
	for _, b := range old {
		if dev := s.withdraw(ctx, b); dev != "" {
			freed[dev] = true
		}
	}
	out := &pb.ImportRoundResponse{Warnings: warnings}
	var boards []*board
	for _, br := range recs {
		st, err := rules.NewState(br.Config)
		if err != nil {
			return nil, err
		}
		b := newBoard(s, br, st, 0)
		s.place(br.ID, br.Section)
		s.publish(rec.ID, b.wireState(st, 0), 0)
		if br.DeviceID != "" {
			s.moveDevice(br.DeviceID, br.ID)
			delete(freed, br.DeviceID)
		}
		s.addBoard(b)
		boards = append(boards, b)
	}
	for _, br := range recs {
		if br.DeviceID != "" {
			s.sendAssignment(s.ctx, br.DeviceID, true)
		}
	}
	for dev := range freed {
		s.sendAssignment(s.ctx, dev, false)
	}
	for _, b := range boards {
		w, err := a.boardWire(ctx, b)
		if err != nil {
			return nil, err
		}
		out.Boards = append(out.Boards, w)
	}
	if out.Round, err = s.roundWire(ctx, rec, false); err != nil {
		return nil, err
	}
	return out, nil
}

// roundConfigWith is a round's effective configuration (the round may not
// be registered yet).
func (s *Server) roundConfigWith(r storage.RoundRecord, t storage.TournamentRecord) *pb.ClockConfig {
	base := wireConfigOf(t.Config)
	if r.Config == nil {
		return base
	}
	return mergeConfig(base, wireConfigOf(*r.Config))
}

// busy is a board whose game a device still keeps.
type busy struct {
	rec        storage.BoardRecord
	round      int
	tournament string
}

// busyBoard applies the busy-device rule (claimDevice) to the hall plan's
// clock dev: it returns the board dev keeps whose game is not over (not
// counting the boards leaving), or nil and the move that giving dev a new
// board makes (to audit on the board it leaves).
func (s *Server) busyBoard(ctx context.Context, dev string, leaving map[string]bool) (*busy, deviceMove) {
	m, err := s.claimDevice(ctx, nil, dev, "", false)
	if m.from != nil && leaving[m.from.rec.ID] {
		return nil, deviceMove{dev: dev} // withdrawn with its round: nothing to say there
	}
	if !errors.Is(err, hallerr.ErrDeviceBusy) {
		return nil, m
	}
	rec := m.from.rec
	n, t := s.roundInfo(rec.RoundID)
	return &busy{rec: rec, round: int(n), tournament: t}, m
}

func sectionSuffix(s string) string {
	if s == "" {
		return ""
	}
	return " of section " + s
}

func venueName(v string) string {
	if v == "" {
		return "the hall"
	}
	return fmt.Sprintf("%q", v)
}
