package arbiter

import (
	"context"
	"fmt"
	"strconv"

	"github.com/chesshall/hallclock/formats/trf"
	"github.com/chesshall/hallclock/internal/wire"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
	"github.com/chesshall/hallclock/server/auth"
	"github.com/chesshall/hallclock/server/hall"
	"github.com/chesshall/hallclock/server/hallerr"
	"github.com/chesshall/hallclock/storage"
)

// ImportRound sets a round up from a pairing program's file: the file is
// read (readPairing), the round is planned against the hall as it is —
// the round (unless it exists and is replaced), its boards with their
// players and tables, the clocks the venue's hall plan puts there, its
// byes — (planImport), everything is written in one transaction (write),
// and only then does the hall take the round in (hall.InstallRound).
func (a *Service) ImportRound(ctx context.Context, req *pb.ImportRoundRequest) (*pb.ImportRoundResponse, error) {
	p, err := readPairing(req)
	if err != nil {
		return nil, err
	}
	plan, err := a.planImport(ctx, req, p)
	if err != nil {
		return nil, err
	}
	if err := a.store.Write(ctx, plan.write(auth.IdentityFrom(ctx).Actor())); err != nil {
		return nil, err
	}
	boards, err := a.hall.InstallRound(ctx, plan.round, plan.boards, plan.old)
	if err != nil {
		return nil, err
	}
	out := &pb.ImportRoundResponse{Warnings: plan.warnings, Encoding: p.encoding}
	for _, a := range p.absent {
		out.Absent = append(out.Absent, hall.PlayerWire(a))
	}
	for _, b := range boards {
		w, err := a.boardWire(ctx, b)
		if err != nil {
			return nil, err
		}
		out.Boards = append(out.Boards, w)
	}
	if out.Round, err = a.roundWire(ctx, plan.round, false); err != nil {
		return nil, err
	}
	return out, nil
}

// importPlan is what an import writes: everything decided before the
// transaction, so that the transaction only writes.
type importPlan struct {
	round    storage.RoundRecord
	existing bool                  // the round is set up already: replaced
	old      []*hall.Board         // its boards, replaced
	boards   []storage.BoardRecord // the new boards
	moves    []clockMove           // clocks leaving boards whose games are over, audited there
	byes     []storage.ByeRecord
	file     storage.RoundFile
	what     string            // the audit entry
	kind     string            // the audit entry as a kind (formats/words)
	params   map[string]string // and its parameters
	warnings []string
}

// clockMove is a hall plan's clock taken from a finished board to board to.
type clockMove struct {
	hall.DeviceMove
	to string
}

// planImport decides what importing p does: the round (a new one, or the
// existing one replaced while none of its clocks has run), its effective
// configuration, its boards at their tables with the clocks the hall plan
// puts there (a clock still keeping a game that goes on stays there, with
// a warning), and its byes.
func (a *Service) planImport(ctx context.Context, req *pb.ImportRoundRequest, p *pairing) (*importPlan, error) {
	h := a.hall
	t, err := h.Tournament(req.GetTournament())
	if err != nil {
		return nil, err
	}
	plan := &importPlan{warnings: p.warnings}
	plan.round, plan.existing = h.RoundByNumber(t.ID, p.number)
	if plan.existing {
		if plan.old, err = a.replaceable(ctx, req, p, t); err != nil {
			return nil, err
		}
	} else if plan.round, err = newImportedRound(h, req, p, t); err != nil {
		return nil, err
	}
	cfgWire := hall.RoundConfigWith(plan.round, t)
	cfg, err := hall.CheckConfig(cfgWire, true)
	if err != nil {
		return nil, err
	}
	if _, err := rules.NewState(cfg); err != nil {
		return nil, err
	}
	if err := sameScoring(p, cfg.Regulations.Scoring, t); err != nil {
		return nil, err
	}
	// Clocks from the hall plan, by table.
	entries, err := a.store.Plan(ctx, plan.round.Venue)
	if err != nil {
		return nil, err
	}
	atTable := map[int]string{}
	for _, e := range entries {
		atTable[e.Table] = e.DeviceID
	}
	leaving := map[string]bool{}
	for _, b := range plan.old {
		leaving[b.ID()] = true
	}
	tables := p.tables(int(req.GetFirstTable()))
	for i := range p.games {
		g := &p.games[i]
		br := storage.BoardRecord{ID: h.NewID("b"), RoundID: plan.round.ID, Number: g.board, Section: g.section,
			White: g.white, Black: g.black, Config: cfg, TimeControl: cfgWire.GetTimeControl(), Table: tables[g]}
		if g.blind != nil {
			br.Config.Blind = *g.blind
			if _, err := rules.NewState(br.Config); err != nil {
				return nil, fmt.Errorf("board %d%s (line %d), Blind %s: %w", g.board, sectionSuffix(g.section), g.line, blindOrNone(*g.blind), err)
			}
		}
		dev := atTable[br.Table]
		switch {
		case dev == "":
			plan.warnings = append(plan.warnings, fmt.Sprintf("table %d (board %d%s) has no clock in the hall plan of %s", br.Table, g.board, sectionSuffix(g.section), venueName(plan.round.Venue)))
		default:
			if busy, move := h.BusyBoard(ctx, dev, leaving); busy != nil {
				plan.warnings = append(plan.warnings, fmt.Sprintf("table %d's clock %s still keeps board %d of round %d of %s, which has not ended: assign it when that game is over",
					br.Table, dev, busy.Board.Number, busy.Round, busy.Tournament))
			} else {
				br.DeviceID = dev
				plan.moves = append(plan.moves, clockMove{move, br.ID})
			}
		}
		plan.boards = append(plan.boards, br)
	}
	plan.byes = make([]storage.ByeRecord, 0, len(p.byes))
	for _, b := range p.byes {
		b.RoundID = plan.round.ID
		plan.byes = append(plan.byes, b)
	}
	plan.what = fmt.Sprintf("import_round %d of %s from %s: %s", plan.round.Number, t.Name, p.format, p.describe())
	plan.kind = "did.import_round"
	if plan.existing {
		plan.what = fmt.Sprintf("import_round %d of %s from %s, replacing its %d boards: %s", plan.round.Number, t.Name, p.format, len(plan.old), p.describe())
		plan.kind = "did.import_round_replacing"
	}
	plan.params = map[string]string{"number": strconv.Itoa(plan.round.Number), "tournament": t.Name, "format": p.format,
		"boards": strconv.Itoa(len(p.games)), "byes": strconv.Itoa(len(p.byes)), "old": strconv.Itoa(len(plan.old)), "text": plan.what}
	plan.file = storage.RoundFile{RoundID: plan.round.ID, Format: p.format, Content: req.GetContent(), Pairings: req.GetPairings(), Encoding: p.encoding}
	return plan, nil
}

// sameScoring refuses a TRF whose point system is not the round's
// scoring: the points of its earlier rounds were counted otherwise, and
// its export would be counted with two systems at once.
func sameScoring(p *pairing, sc rules.Scoring, t storage.TournamentRecord) error {
	if p.format != "trf" {
		return nil
	}
	round := trf.PointSystemOf(sc)
	switch {
	case p.points != nil && p.points.Scoring() != round.Scoring():
		return hallerr.BadRequest("the TRF scores %s (its XXS, BBW... or 162 lines say so), the tournament %s scores %s: the points of the TRF's earlier rounds were counted otherwise; import it into a tournament created with -scoring %s, or give the round that scoring",
			p.points, t.Name, round, scoringFlag(p.points.Scoring()))
	case p.points == nil && round.Scoring() != trf.Classic.Scoring():
		return hallerr.BadRequest("the TRF states no point system (no XXS, BBW... or 162 line), so it scores 1-0.5-0, and the tournament %s scores %s: the points of its earlier rounds were counted otherwise; export the TRF with its point system from the pairing program (e.g. \"XXS W=%s D=%s\")",
			t.Name, round, pointsText(sc.Win), pointsText(sc.Draw))
	}
	return nil
}

// scoringFlag writes a scoring as hallctl's -scoring reads it: "3-1-0".
func scoringFlag(sc rules.Scoring) string {
	return pointsText(sc.Win) + "-" + pointsText(sc.Draw) + "-" + pointsText(sc.Loss)
}

// replaceable returns the boards of a round set up already, if the import
// may replace it: it says so, and none of its clocks has run.
func (a *Service) replaceable(ctx context.Context, req *pb.ImportRoundRequest, p *pairing, t storage.TournamentRecord) ([]*hall.Board, error) {
	if !req.GetReplace() {
		return nil, fmt.Errorf("%w: round %d of %s is set up already: replace it (hallctl import-round -replace) while none of its boards has started",
			storage.ErrDuplicate, p.number, t.Name)
	}
	r, _ := a.hall.RoundByNumber(t.ID, p.number)
	old := a.hall.Boards(r.ID)
	for _, b := range old {
		if started, _ := b.Started(ctx); started {
			return nil, fmt.Errorf("%w: round %d of %s has started (board %d): a round is replaced only before any of its clocks runs",
				hallerr.ErrRoundStarted, p.number, t.Name, b.Number())
		}
	}
	return old, nil
}

// newImportedRound is the round an import creates, with the configuration
// and venue the request gives (else its tournament's).
func newImportedRound(h *hall.Hall, req *pb.ImportRoundRequest, p *pairing, t storage.TournamentRecord) (storage.RoundRecord, error) {
	eff := hall.MergeConfig(wire.WireConfig(t.Config), req.GetConfig())
	cfg, err := hall.CheckConfig(eff, false)
	if err != nil {
		return storage.RoundRecord{}, err
	}
	venue := t.Venue
	if req.GetVenue() != "" {
		venue = req.GetVenue()
	}
	r := storage.RoundRecord{ID: h.NewID("r"), TournamentID: t.ID, Number: p.number, Venue: venue}
	if req.GetConfig() != nil {
		r.Config, r.TimeControl = &cfg, eff.GetTimeControl()
	}
	return r, nil
}

// write is the import's one transaction: the round (unless it exists),
// the old boards deleted, the new ones created, the clocks' moves audited
// on the boards they leave, the byes, the file, and the audit entry.
func (plan *importPlan) write(actor string) func(tx *storage.Tx) error {
	return func(tx *storage.Tx) error {
		if !plan.existing {
			if err := tx.CreateRound(&plan.round); err != nil {
				return err
			}
		}
		for _, b := range plan.old {
			if err := tx.DeleteBoard(b.ID()); err != nil {
				return err
			}
		}
		for i := range plan.boards {
			if err := tx.CreateBoard(&plan.boards[i]); err != nil {
				return err
			}
		}
		for _, m := range plan.moves {
			if err := m.Audit(tx, actor, m.to, ""); err != nil {
				return err
			}
		}
		if err := tx.SetByes(plan.round.ID, plan.byes); err != nil {
			return err
		}
		if err := tx.PutRoundFile(&plan.file); err != nil {
			return err
		}
		return tx.AddAudit(&storage.AuditRecord{Actor: actor, What: plan.what, Outcome: storage.OutcomeApplied, Kind: plan.kind, Params: plan.params})
	}
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
