package server_test

import (
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/chesshall/hallclock/internal/testkit/halltest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
)

// Every place a time control is entered answers with the control as read,
// in words and with its game type; a control that may mean two things is
// refused with both readings (FIDE 2023 Art. 6.2, Appendix A.1 / B.1).
func TestTimeControlAnsweredWhereItIsEntered(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t)
	arb, ctx := h.Arbiter(t)

	info, err := arb.DescribeTimeControl(ctx, &pb.DescribeTimeControlRequest{TimeControl: "40/90m+30s:30m+30s"})
	if err != nil {
		t.Fatal(err)
	}
	if info.GetCanonical() != "40/5400+30:1800+30" || info.GetGameType() != "standard" || info.GetRuleset() != "fide-2023" ||
		info.GetWords() != "90 min for 40 moves, then 30 min, +30 s per move from move 1" {
		t.Errorf("DescribeTimeControl(40/90m+30s:30m+30s) = %v", info)
	}
	// FIDE 2009 B1: 14 min + 1 s a move is T = 15 min: rapid; in 2023, rapid too.
	info, err = arb.DescribeTimeControl(ctx, &pb.DescribeTimeControlRequest{TimeControl: "840+1", Ruleset: "fide-2009"})
	if err != nil || info.GetGameType() != "rapid" || info.GetWithUnits() != "14m+1s" {
		t.Errorf("DescribeTimeControl(840+1, fide-2009) = %v, %v", info, err)
	}
	for _, c := range []struct{ tc, ruleset, want string }{
		{"3+2", "", "3 s + 2 s per move? write 3m+2s for 3 minutes, or 3s+2s for seconds"},
		{"40/90, 30", "", "has no unit"},
		{"90m+30s", "fide-1999", "fide-1999"},
	} {
		_, err := arb.DescribeTimeControl(ctx, &pb.DescribeTimeControlRequest{TimeControl: c.tc, Ruleset: c.ruleset})
		if status.Code(err) != codes.InvalidArgument || !strings.Contains(status.Convert(err).Message(), c.want) {
			t.Errorf("DescribeTimeControl(%q, %q) = %v, want InvalidArgument saying %q", c.tc, c.ruleset, err, c.want)
		}
	}
	_, err = arb.CreateTournament(ctx, &pb.CreateTournamentRequest{Name: "Blitz", DefaultConfig: &pb.ClockConfig{TimeControl: "3+2"}})
	if status.Code(err) != codes.InvalidArgument || !strings.Contains(status.Convert(err).Message(), "write 3m+2s") {
		t.Errorf("CreateTournament with 3+2 = %v, want InvalidArgument with both readings", err)
	}

	tr, err := arb.CreateTournament(ctx, &pb.CreateTournamentRequest{Name: "Open", DefaultConfig: &pb.ClockConfig{TimeControl: "90m+30s"}})
	if err != nil {
		t.Fatal(err)
	}
	if i := tr.GetTimeControlInfo(); i.GetWords() != "90 min for the game, +30 s per move from move 1" || i.GetGameType() != "standard" ||
		tr.GetDefaultConfig().GetTimeControl() != "5400+30" {
		t.Errorf("CreateTournament = %v, want the control read back", tr)
	}
	r, err := arb.CreateRound(ctx, &pb.CreateRoundRequest{TournamentId: tr.GetTournamentId(), Number: 1, Config: &pb.ClockConfig{TimeControl: "G/15"}})
	if err != nil {
		t.Fatal(err)
	}
	if i := r.GetTimeControlInfo(); i.GetWords() != "15 min for the game" || i.GetGameType() != "rapid" {
		t.Errorf("CreateRound = %v, want G/15 read back as rapid", r)
	}
	b, err := arb.AddBoard(ctx, &pb.AddBoardRequest{RoundId: r.GetRoundId(), Number: 1, White: &pb.Player{Name: "A"}, Black: &pb.Player{Name: "B"},
		Config: &pb.ClockConfig{TimeControl: "3m+2s"}})
	if err != nil {
		t.Fatal(err)
	}
	if i := b.GetTimeControlInfo(); i.GetCanonical() != "180+2" || i.GetGameType() != "blitz" || b.GetConfig().GetTimeControl() != "180+2" {
		t.Errorf("AddBoard = %v, want 3m+2s read back as blitz", b)
	}
	// A round without its own control answers with the tournament's.
	r2, err := arb.CreateRound(ctx, &pb.CreateRoundRequest{TournamentId: tr.GetTournamentId(), Number: 2})
	if err != nil || r2.GetTimeControlInfo().GetCanonical() != "5400+30" {
		t.Errorf("CreateRound without a control = %v, %v; want the tournament's 5400+30", r2, err)
	}
}

// A claim with no arbiter present ends the game and is referred (FIDE 2023
// Guidelines III.6); the board says so, with time trouble (8.4), until the
// arbiter's result decides it.
func TestClaimReferredThroughTheHall(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t)
	boards := h.Round(t, "900", 1, &pb.ClockConfig{Regulations: &pb.Regulations{QuickplayFinish: true}})
	id := boards[0].GetBoardId()
	d := h.Device(t, boards[0].GetDeviceId())
	arb, ctx := h.Arbiter(t)
	w := h.WatchHall(t)
	act(t, arb, ctx, id, &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_START}, pb.CommandStatus_COMMAND_STATUS_APPLIED)
	act(t, arb, ctx, id, &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_PAUSE}, pb.CommandStatus_COMMAND_STATUS_APPLIED)
	act(t, arb, ctx, id, &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_SET_CLOCK, WhiteMs: 100_000, BlackMs: 600_000}, pb.CommandStatus_COMMAND_STATUS_APPLIED)
	act(t, arb, ctx, id, &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_RESUME}, pb.CommandStatus_COMMAND_STATUS_APPLIED)
	r := act(t, arb, ctx, id, &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_QUICKPLAY_CLAIM, Side: pb.Side_SIDE_WHITE,
		Decision: pb.QuickplayDecision_QUICKPLAY_DECISION_REFER}, pb.CommandStatus_COMMAND_STATUS_APPLIED)
	st := r.GetState()
	if st.GetStatus() != pb.BoardStatus_BOARD_STATUS_REFERRED || st.GetClaimReferredBy() != pb.Side_SIDE_WHITE ||
		st.GetRunning() != pb.Side_SIDE_UNSPECIFIED || !st.GetWhite().GetTimeTrouble() || st.GetBlack().GetTimeTrouble() {
		t.Errorf("after the referred claim: %v", st)
	}
	if err := d.Press(rules.White, "", ""); err == nil {
		t.Error("the device accepted a press after the claim ended the game")
	}
	halltest.Eventually(t, 3*time.Second, func() error {
		if s := w.Last(id); s.GetStatus() != pb.BoardStatus_BOARD_STATUS_REFERRED {
			return status.Errorf(codes.Unknown, "watcher sees %v", s.GetStatus())
		}
		return nil
	})
	r = act(t, arb, ctx, id, &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_RESULT, Result: "1/2-1/2"}, pb.CommandStatus_COMMAND_STATUS_APPLIED)
	if st := r.GetState(); st.GetStatus() != pb.BoardStatus_BOARD_STATUS_FINISHED || st.GetTermination() != "quickplay_claim" ||
		st.GetClaimReferredBy() != pb.Side_SIDE_UNSPECIFIED || st.GetWhiteScore() != 0.5 {
		t.Errorf("after the arbiter's decision: %v", st)
	}
}
