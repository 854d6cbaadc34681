package sim

import (
	"bytes"
	"context"
	"fmt"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/chesshall/hallclock/formats/trf"
	hallv1 "github.com/chesshall/hallclock/proto/hall/v1"
)

// The fleet sets each round up as a chief arbiter with a pairing program
// does: the TRF of the results so far (the tournament's players for round
// 1, the hall's export of the last round after it), paired by a simple
// Swiss stand-in (pairStandIn: not FIDE Dutch), imported with
// ImportRound; the hall plan puts each table's clock on its board.

// venue is the fleet's venue in the hall: its devices' prefix, so that
// two fleets on one hall keep their own plans.
func (f *Fleet) venue() string { return f.cfg.DevicePrefix }

// setPlan puts every table's device in the fleet's venue's hall plan,
// the tournaments one after the other.
func (f *Fleet) setPlan(ctx context.Context) error {
	req := &hallv1.SetPlanRequest{Venue: f.venue()}
	next := 1
	for _, t := range f.tours {
		t.firstTable = next
		for i, tb := range t.tables {
			req.Tables = append(req.Tables, &hallv1.PlanTable{Table: int32(next + i), DeviceId: tb.id})
		}
		next += len(t.tables)
	}
	_, err := call(ctx, f, func(ctx context.Context) (*hallv1.HallPlan, error) { return f.arb.SetPlan(ctx, req) })
	if err != nil {
		return fmt.Errorf("sim: set the hall plan: %w", err)
	}
	return nil
}

// importRound pairs round number and imports it; it returns the round's id.
func (f *Fleet) importRound(ctx context.Context, t *tournament, spec *checked, number int) (string, error) {
	content, pairings := spec.TRF, spec.Pairings
	if content == nil {
		file, err := f.standings(ctx, t, number)
		if err != nil {
			return "", err
		}
		var tb, pb bytes.Buffer
		if err := file.Write(&tb); err != nil {
			return "", err
		}
		if err := trf.WritePairings(&pb, pairStandIn(file, number)); err != nil {
			return "", err
		}
		f.log.Info("round paired", "tournament", t.name, "round", number, "pairing", standInPairing)
		content, pairings = tb.Bytes(), pb.Bytes()
	}
	req := &hallv1.ImportRoundRequest{Tournament: t.id, Number: int32(number), Content: content, Pairings: pairings,
		Venue: f.venue(), FirstTable: int32(t.firstTable), Config: spec.wire}
	if spec.TRF != nil {
		req.Number = 0 // the file's round
	}
	resp, err := call(ctx, f, func(ctx context.Context) (*hallv1.ImportRoundResponse, error) { return f.arb.ImportRound(ctx, req) })
	switch {
	case status.Code(err) == codes.AlreadyExists:
		// Imported before a restart that came before the fleet saved it.
		rs, lerr := call(ctx, f, func(ctx context.Context) (*hallv1.ListRoundsResponse, error) {
			return f.arb.ListRounds(ctx, &hallv1.ListRoundsRequest{Tournament: t.id})
		})
		if lerr != nil {
			return "", lerr
		}
		for _, r := range rs.GetRounds() {
			if r.GetNumber() == int32(number) {
				return r.GetRoundId(), nil
			}
		}
		return "", fmt.Errorf("sim: import round %d of %q: %w", number, t.name, err)
	case status.Code(err) == codes.NotFound && f.cfg.StateDir != "":
		return "", fmt.Errorf("sim: import round %d of %q: %w (the state in %s belongs to another hall? remove it to start afresh)", number, t.name, err, f.cfg.StateDir)
	case err != nil:
		return "", fmt.Errorf("sim: import round %d of %q: %w", number, t.name, err)
	}
	for _, w := range resp.GetWarnings() {
		f.log.Warn("import", "tournament", t.name, "round", number, "warning", w)
	}
	return resp.GetRound().GetRoundId(), nil
}

// standings returns the TRF to pair round number from: the players for
// round 1, else the hall's results of the round before.
func (f *Fleet) standings(ctx context.Context, t *tournament, number int) (*trf.File, error) {
	if number == 1 {
		n := 0
		for _, s := range t.specs {
			n = max(n, s.Boards)
		}
		return roster(f.cfg.Seed, t.name, n), nil
	}
	ex, err := call(ctx, f, func(ctx context.Context) (*hallv1.ExportRoundResponse, error) {
		return f.arb.ExportRound(ctx, &hallv1.ExportRoundRequest{Tournament: t.id, Number: int32(number - 1), Format: hallv1.ExportFormat_EXPORT_FORMAT_TRF})
	})
	if err != nil {
		return nil, fmt.Errorf("sim: results of round %d of %q: %w", number-1, t.name, err)
	}
	return trf.Read(bytes.NewReader(ex.GetContent()))
}
