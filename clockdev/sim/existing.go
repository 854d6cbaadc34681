package sim

import (
	"context"
	"fmt"

	hallv1 "github.com/chesshall/hallclock/proto/hall/v1"
)

// A round the hall already has (Config.Round): imported from a pairing
// program, or set up by hand. The fleet brings one clock per board,
// assigns it to the board as an arbiter assigns a replacement clock (the
// hall plan follows), and plays the boards under their own configuration;
// it creates no tournament and sets no plan of its own.

// findRound finds Config.Round in the hall and makes it the fleet's only
// tournament: one table per board, the round already saved, its spec the
// boards' own time control and rules.
func (f *Fleet) findRound(ctx context.Context) error {
	ref := f.cfg.Round
	// The hall reads the name as every command's: "Open:3", "3", an id.
	req := &hallv1.GetRoundRequest{RoundId: ref}
	r, err := call(ctx, f, func(ctx context.Context) (*hallv1.Round, error) { return f.arb.GetRound(ctx, req) })
	if err != nil {
		return fmt.Errorf("sim: round %q: %w", ref, err)
	}
	bs, err := f.listBoards(ctx, r.GetRoundId())
	if err != nil {
		return fmt.Errorf("sim: boards of round %q: %w", ref, err)
	}
	name := fmt.Sprintf("%s:%d", r.GetTournamentName(), r.GetNumber())
	if len(bs) == 0 {
		return fmt.Errorf("sim: round %s has no boards to play", name)
	}
	seen := map[int32]bool{}
	for _, b := range bs {
		if n := b.GetNumber(); n < 1 || int(n) > len(bs) || seen[n] {
			return fmt.Errorf("sim: round %s: board number %d of %d boards; the fleet plays boards numbered 1 to %d, once each", name, n, len(bs), len(bs))
		}
		seen[b.GetNumber()] = true
	}
	cfg := bs[0].GetConfig()
	c, err := RoundSpec{Tournament: r.GetTournamentName(), Ruleset: cfg.GetRuleset(), TimeControl: cfg.GetTimeControl(),
		Regulations: cfg.GetRegulations(), Boards: len(bs)}.check()
	if err != nil {
		return fmt.Errorf("sim: round %s: %w", name, err)
	}
	f.tours = []*tournament{{index: 1, name: r.GetTournamentName(), id: r.GetTournamentId(), specs: []*checked{&c}, existing: bs,
		saved: &savedTournament{Name: r.GetTournamentName(), ID: r.GetTournamentId(),
			Rounds: []*savedRound{{ID: r.GetRoundId(), Number: int(r.GetNumber())}}}}}
	f.log.Info("playing a round of the hall", "round", name, "boards", len(bs), "time_control", cfg.GetTimeControl())
	return nil
}

// assignExisting gives each unfinished board of the hall's round the
// clock of its table.
func (f *Fleet) assignExisting(ctx context.Context, t *tournament) error {
	for _, b := range t.existing {
		tb := t.tables[b.GetNumber()-1]
		if b.GetDeviceId() == tb.id || b.GetState().GetStatus() == hallv1.BoardStatus_BOARD_STATUS_FINISHED {
			continue
		}
		_, err := call(ctx, f, func(ctx context.Context) (*hallv1.Board, error) {
			return f.arb.AssignDevice(ctx, &hallv1.AssignDeviceRequest{BoardId: b.GetBoardId(), DeviceId: tb.id,
				Reason: "the simulated fleet plays this round", Replace: true})
		})
		if err != nil {
			return fmt.Errorf("sim: assign clock %s to board %d: %w", tb.id, b.GetNumber(), err)
		}
	}
	return nil
}

// playExisting plays the hall's round: its finished boards count as
// finished from the start (no clock of the fleet sits at them).
func (f *Fleet) playExisting(ctx context.Context, t *tournament) error {
	saved := t.saved.Rounds[0]
	rr, err := f.prepareRound(ctx, t, t.specs[0], saved.Number, saved)
	if err != nil {
		return err
	}
	for _, b := range t.existing {
		if b.GetState().GetStatus() == hallv1.BoardStatus_BOARD_STATUS_FINISHED {
			rr.finished(b.GetBoardId())
		}
	}
	return f.playRound(ctx, rr)
}
