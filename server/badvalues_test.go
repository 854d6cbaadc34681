package server_test

import (
	"strings"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/chesshall/hallclock/internal/testkit/halltest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// A refusal that quotes a bad value — a time control, a ruleset, a
// result, a FEN — names the field of the request that held it, whichever
// layer read it (the rules, not the door's validation).
func TestBadValuesNameTheirField(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t)
	b := h.Round(t, "180+2", 1)[0]
	arb, ctx := h.Arbiter(t)
	round, err := arb.GetRound(ctx, &pb.GetRoundRequest{RoundId: b.GetRoundId()})
	if err != nil {
		t.Fatal(err)
	}
	action := func(a *pb.ClockAction, dry bool) func() error {
		return func() error {
			_, err := arb.BoardAction(ctx, &pb.BoardActionRequest{BoardId: b.GetBoardId(), WaitMs: -1, DryRun: dry, Action: a})
			return err
		}
	}
	player := func(n string) *pb.Player { return &pb.Player{Name: n} }
	for _, c := range []struct {
		name  string
		call  func() error
		field string // the message begins with it
	}{
		{"tournament's time control", func() error {
			_, err := arb.CreateTournament(ctx, &pb.CreateTournamentRequest{Name: "x", DefaultConfig: &pb.ClockConfig{TimeControl: "90x"}})
			return err
		}, "default_config.time_control: "},
		{"tournament's ruleset", func() error {
			_, err := arb.CreateTournament(ctx, &pb.CreateTournamentRequest{Name: "y", DefaultConfig: &pb.ClockConfig{Ruleset: "fide-1999"}})
			return err
		}, "default_config.ruleset: "},
		{"round's time control", func() error {
			_, err := arb.CreateRound(ctx, &pb.CreateRoundRequest{TournamentId: round.GetTournamentId(), Number: 2, Config: &pb.ClockConfig{TimeControl: "5 minutes"}})
			return err
		}, "config.time_control: "},
		{"board's ruleset", func() error {
			_, err := arb.AddBoard(ctx, &pb.AddBoardRequest{RoundId: b.GetRoundId(), Number: 9, White: player("W"), Black: player("B"), Config: &pb.ClockConfig{Ruleset: "uscf"}})
			return err
		}, "config.ruleset: "},
		{"described time control", func() error {
			_, err := arb.DescribeTimeControl(ctx, &pb.DescribeTimeControlRequest{TimeControl: "zz"})
			return err
		}, "time_control: "},
		{"described ruleset", func() error {
			_, err := arb.DescribeTimeControl(ctx, &pb.DescribeTimeControlRequest{TimeControl: "90m", Ruleset: "nope"})
			return err
		}, "ruleset: "},
		{"result", action(&pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_RESULT, Result: "2-0"}, false), "action.result: "},
		{"termination", action(&pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_RESULT, Result: "1-0", Termination: "bored"}, false), "action.termination: "},
		{"FEN", action(&pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_POSITION, Fen: "8/8/8/8 w - - 0 1"}, false), "action.fen: "},
		{"FEN, dry run", action(&pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_POSITION, Fen: "xx"}, true), "action.fen: "},
	} {
		err := c.call()
		if msg := status.Convert(err).Message(); status.Code(err) != codes.InvalidArgument || !strings.HasPrefix(msg, c.field) {
			t.Errorf("%s: %v; want INVALID_ARGUMENT beginning %q", c.name, err, c.field)
		}
	}

	// A clock's event: its rejection names the field of the event.
	l, _, _ := connectRaw(t, h, b.GetDeviceId(), 0, 1)
	l.event(1, b.GetBoardId(), &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_POSITION, Fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1"}, 180_000, 180_000)
	if a := l.ack(); len(a.GetRejected()) != 1 || !strings.HasPrefix(a.GetRejected()[0].GetMessage(), "event.action.fen: ") {
		t.Errorf("Ack of a bad FEN from a clock = %v; want a rejection beginning event.action.fen", a)
	}
}
