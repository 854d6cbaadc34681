package arbiter

import (
	"context"
	"fmt"
	"sort"
	"strings"

	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/server/auth"
	"github.com/chesshall/hallclock/server/hall"
	"github.com/chesshall/hallclock/storage"
)

// A result correction (a result entered on a board that had one) says in
// the audit log what it changed in the standings: the correction's own
// entry is the hall's (package hall writes it with the event); this one
// follows it, "standings of Open: Player 1 from 3rd to 1st, ...", with the
// same board and actor. The standings are the whole tournament's, live,
// as the chief reads them.

// correctionBefore returns the tournament's ranks before a result action
// on b corrects a result, nil when it is no correction (no result yet, or
// another action) or the standings cannot be computed (nothing to say).
func (a *Service) correctionBefore(ctx context.Context, b *hall.Board, action *pb.ClockAction) (string, map[int32]int32, map[int32]string) {
	if action.GetKind() != pb.ActionKind_ACTION_KIND_RESULT {
		return "", nil, nil
	}
	st, _, ok := a.hub.State(b.ID())
	if !ok || st.GetCountingResult() == "" || st.GetCountingResult() == "*" {
		return "", nil, nil
	}
	r, ok := a.hall.Round(b.RoundID())
	if !ok {
		return "", nil, nil
	}
	ranks, names := a.ranks(ctx, r.TournamentID)
	return r.TournamentID, ranks, names
}

// ranks returns each player's rank by start number, and their names.
func (a *Service) ranks(ctx context.Context, tournamentID string) (map[int32]int32, map[int32]string) {
	chief := auth.WithIdentity(ctx, &auth.Identity{Role: auth.RoleChief, Label: "audit"})
	out, err := a.Standings(chief, &pb.StandingsRequest{Tournament: tournamentID})
	if err != nil {
		return nil, nil
	}
	ranks, names := map[int32]int32{}, map[int32]string{}
	for _, row := range out.GetRows() {
		ranks[row.GetStart()], names[row.GetStart()] = row.GetRank(), row.GetName()
	}
	return ranks, names
}

// auditStandingsMoved writes, after an applied correction, who moved in
// the standings (nothing when nobody did).
func (a *Service) auditStandingsMoved(ctx context.Context, b *hall.Board, tournamentID string, before map[int32]int32, names map[int32]string) error {
	after, _ := a.ranks(ctx, tournamentID)
	if after == nil {
		return nil
	}
	var starts []int32
	for start, was := range before {
		if now, ok := after[start]; ok && now != was {
			starts = append(starts, start)
		}
	}
	// In the new order, the first 12 (a correction moves a few).
	sort.Slice(starts, func(i, j int) bool {
		if after[starts[i]] != after[starts[j]] {
			return after[starts[i]] < after[starts[j]]
		}
		return starts[i] < starts[j]
	})
	var moved, ranks []string // ranks: the words of any language, "Anna 3 → 1"
	for i, start := range starts {
		if i == 12 {
			moved = append(moved, fmt.Sprintf("and %d more", len(starts)-12))
			ranks = append(ranks, fmt.Sprintf("+%d", len(starts)-12))
			break
		}
		moved = append(moved, fmt.Sprintf("%s from %s to %s", names[start], ordinal(before[start]), ordinal(after[start])))
		ranks = append(ranks, fmt.Sprintf("%s %d → %d", names[start], before[start], after[start]))
	}
	if len(moved) == 0 {
		return nil
	}
	t, err := a.hall.Tournament(tournamentID)
	if err != nil {
		return err
	}
	what := fmt.Sprintf("standings of %s: %s", t.Name, strings.Join(moved, ", "))
	return a.store.Write(ctx, func(tx *storage.Tx) error {
		return tx.AddAudit(&storage.AuditRecord{BoardID: b.ID(), Actor: auth.IdentityFrom(ctx).Actor(), What: what, Outcome: storage.OutcomeApplied,
			Kind: "did.standings_moved", Params: map[string]string{"tournament": t.Name, "moved": strings.Join(ranks, ", "), "text": what}})
	})
}

// ordinal writes a rank as 1st, 2nd, 3rd, 4th, 11th, 21st.
func ordinal(n int32) string {
	suffix := "th"
	if n%100 < 11 || n%100 > 13 {
		switch n % 10 {
		case 1:
			suffix = "st"
		case 2:
			suffix = "nd"
		case 3:
			suffix = "rd"
		}
	}
	return fmt.Sprint(n) + suffix
}
