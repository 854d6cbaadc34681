package server_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/chesshall/hallclock/formats/roundcsv"
	"github.com/chesshall/hallclock/formats/trf"
	"github.com/chesshall/hallclock/internal/testkit/halltest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
)

// An Armageddon board in a round with 3-1-0 scoring: White 5 minutes,
// Black 4, a draw counting as Black's win. Each clock starts with its own
// time; drawn over the board, the board keeps 1/2-1/2 (its state, PGN)
// while what counts is Black's win: the state's counting result and
// scores, the TRF's codes, the CSV's points and Counts column. The round's
// scoring stays (the board's regulations name only the draw odds); the
// round's other board, drawn without odds, counts as a draw.
func TestArmageddonCountsBlackWin(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t)
	arb, ctx := h.Arbiter(t)
	r := h.NewRound(t, t.Name(), 1, &pb.ClockConfig{TimeControl: "90m+30s", Regulations: &pb.Regulations{Scoring: &pb.Scoring{Win: 3, Draw: 1, Loss: 0}}})
	add := func(n int32, cfg *pb.ClockConfig) *pb.Board {
		t.Helper()
		b, err := arb.AddBoard(ctx, &pb.AddBoardRequest{RoundId: r.GetRoundId(), Number: n, DeviceId: fmt.Sprintf("CLK-A%d", n), Config: cfg,
			White: &pb.Player{Name: fmt.Sprintf("White %d", n), StartRank: 2*n - 1}, Black: &pb.Player{Name: fmt.Sprintf("Black %d", n), StartRank: 2 * n}})
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	arm := add(1, &pb.ClockConfig{TimeControl: "white 60/5m:0+2s | black 60/4m:0+2s", Regulations: &pb.Regulations{DrawOdds: "black"}})
	plain := add(2, nil)
	if w := arm.GetTimeControlInfo().GetWords(); !strings.Contains(w, "White 5 min") || !strings.Contains(w, "Black 4 min") {
		t.Errorf("the Armageddon board's control in words: %q", w)
	}
	if got := arm.GetTimeControlInfo().GetBlackPeriods(); len(got) != 2 || got[0].GetBaseMs() != 240_000 {
		t.Errorf("Black's periods: %v", got)
	}
	if st := arm.GetState(); st.GetWhite().GetRemainingMs() != 300_000 || st.GetBlack().GetRemainingMs() != 240_000 || st.GetCategory() != "blitz" {
		t.Errorf("before the start: white %d, black %d, %s", st.GetWhite().GetRemainingMs(), st.GetBlack().GetRemainingMs(), st.GetCategory())
	}
	for _, b := range []*pb.Board{arm, plain} {
		d := h.Device(t, b.GetDeviceId())
		act(t, arb, ctx, b.GetBoardId(), &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_START}, pb.CommandStatus_COMMAND_STATUS_APPLIED)
		press(t, d, rules.White)
		press(t, d, rules.Black)
		halltest.Synced(t, d)
		act(t, arb, ctx, b.GetBoardId(), &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_RESULT, Result: "1/2-1/2", Termination: "agreement"},
			pb.CommandStatus_COMMAND_STATUS_APPLIED)
	}
	got, err := arb.GetBoard(ctx, &pb.GetBoardRequest{BoardId: arm.GetBoardId()})
	if err != nil {
		t.Fatal(err)
	}
	if st := got.GetState(); st.GetResult() != "1/2-1/2" || st.GetCountingResult() != "0-1" || st.GetWhiteScore() != 0 || st.GetBlackScore() != 3 {
		t.Errorf("Armageddon drawn: result %q counting %q scores %v-%v, want 1/2-1/2 counting 0-1, 0-3",
			st.GetResult(), st.GetCountingResult(), st.GetWhiteScore(), st.GetBlackScore())
	}
	log, err := arb.AuditLog(ctx, &pb.AuditLogRequest{BoardId: arm.GetBoardId()})
	if err != nil {
		t.Fatal(err)
	}
	audited := false
	for _, e := range log.GetEntries() {
		audited = audited || strings.Contains(e.GetWhat(), "the game ends 1/2-1/2, counts 0-1 (draw odds for black)") &&
			e.GetAfter().GetCountingResult() == "0-1"
	}
	if !audited {
		t.Errorf("the audit log does not say what the draw counts as: %v", log.GetEntries())
	}

	ex, err := arb.ExportRound(ctx, &pb.ExportRoundRequest{RoundId: r.GetRoundId(), Format: pb.ExportFormat_EXPORT_FORMAT_TRF})
	if err != nil {
		t.Fatal(err)
	}
	f, err := trf.Read(bytes.NewReader(ex.GetContent()))
	if err != nil {
		t.Fatal(err)
	}
	for rank, want := range map[int]trf.Code{1: trf.Loss, 2: trf.Win, 3: trf.Draw, 4: trf.Draw} {
		if g := f.Player(rank).Round(1); g.Result != want {
			t.Errorf("TRF: player %d scored %c, want %c", rank, g.Result, want)
		}
	}

	ex, err = arb.ExportRound(ctx, &pb.ExportRoundRequest{RoundId: r.GetRoundId(), Format: pb.ExportFormat_EXPORT_FORMAT_CSV})
	if err != nil {
		t.Fatal(err)
	}
	rd, err := roundcsv.Read(bytes.NewReader(ex.GetContent()))
	if err != nil {
		t.Fatalf("%v\n%s", err, ex.GetContent())
	}
	if g := rd.Games[0]; g.Result != rules.Draw || g.Counts != rules.BlackWins || g.WhitePoints != 0 || g.BlackPoints != 3 {
		t.Errorf("CSV board 1: %+v\n%s", g, ex.GetContent())
	}
	if g := rd.Games[1]; g.Result != rules.Draw || g.Counts != "" || g.WhitePoints != 1 || g.BlackPoints != 1 {
		t.Errorf("CSV board 2: %+v\n%s", g, ex.GetContent())
	}

	ex, err = arb.ExportRound(ctx, &pb.ExportRoundRequest{RoundId: r.GetRoundId(), Format: pb.ExportFormat_EXPORT_FORMAT_PGN})
	if err != nil {
		t.Fatal(err)
	}
	pgn := string(ex.GetContent())
	if !strings.Contains(pgn, `[Result "1/2-1/2"]`) || strings.Contains(pgn, `[Result "0-1"]`) {
		t.Errorf("PGN: the board's result is the draw:\n%s", pgn)
	}
}
