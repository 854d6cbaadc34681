package server_test

import (
	"strings"
	"testing"

	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// A round's PGN holds PGN's four results; lichess's "0-0" and "0-1/2"
// only when asked for (hallctl export-round -lichess), for a lichess
// broadcast to score.
func TestPGNExportResults(t *testing.T) {
	t.Parallel()
	_, arb, ctx := openHall(t, 0)
	imp := importRound(t, arb, ctx)
	for i, r := range []string{"0-0", "0-1/2"} {
		b := imp.GetBoards()[i].GetBoardId()
		if _, err := arb.UseVirtualClock(ctx, &pb.UseVirtualClockRequest{BoardId: b, Reason: "scoresheets"}); err != nil {
			t.Fatal(err)
		}
		act(t, arb, ctx, b, &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_RESULT, Result: r, Termination: "arbiter"}, pb.CommandStatus_COMMAND_STATUS_APPLIED)
	}
	for _, lichess := range []bool{false, true} {
		ex, err := arb.ExportRound(ctx, &pb.ExportRoundRequest{RoundId: imp.GetRound().GetRoundId(), Format: pb.ExportFormat_EXPORT_FORMAT_PGN,
			PgnLichessResults: lichess, PgnRoundAndBoard: lichess})
		if err != nil {
			t.Fatal(err)
		}
		games := strings.Split(string(ex.GetContent()), "[Event ")[1:]
		want := []string{`[Result "*"]`, `[Result "*"]`}
		if lichess {
			want = []string{`[Result "0-0"]`, `[Result "0-1/2"]`}
		}
		for i, w := range want {
			if !strings.Contains(games[i], w) {
				t.Errorf("lichess %v, game %d: no %s in\n%s", lichess, i+1, w, games[i])
			}
		}
	}
}
