package server_test

import (
	"strings"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// A board without a clock (the hall plan had none for its table) takes
// its result from the scoresheet directly: no virtual clock first. The
// result is applied at once and audited as the scoresheet's; any other
// action on the clock it does not have is still refused, saying what to
// do.
func TestScoresheetResultWithoutAClock(t *testing.T) {
	t.Parallel()
	_, arb, ctx := openHall(t, 3) // clocks at tables 1-3 only
	imp := importRound(t, arb, ctx)
	var bare *pb.Board
	for _, b := range imp.GetBoards() {
		if b.GetDeviceId() == "" {
			bare = b
			break
		}
	}
	if bare == nil {
		t.Fatal("every board has a clock; want one without")
	}
	id := bare.GetBoardId()

	_, err := arb.BoardAction(ctx, &pb.BoardActionRequest{BoardId: id, Action: &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_START}, Reason: "test"})
	if status.Code(err) != codes.FailedPrecondition || !strings.Contains(status.Convert(err).Message(), "virtual clock") {
		t.Errorf("start on a board without a clock: %v; want FailedPrecondition saying to assign a clock or use a virtual one", err)
	}

	// The dashboard's confirmation asks the rules first (a dry run).
	dry, err := arb.BoardAction(ctx, &pb.BoardActionRequest{BoardId: id, DryRun: true,
		Action: &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_RESULT, Result: "0-1", Termination: "normal"}})
	if err != nil || dry.GetStatus() != pb.CommandStatus_COMMAND_STATUS_DRY_RUN || dry.GetState().GetResult() != "0-1" {
		t.Errorf("dry run of the result on a board without a clock: %v, %v; want DRY_RUN showing 0-1", dry, err)
	}

	r, err := arb.BoardAction(ctx, &pb.BoardActionRequest{BoardId: id, Reason: "Anna's scoresheet",
		Action: &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_RESULT, Result: "0-1", Termination: "normal"}})
	if err != nil {
		t.Fatalf("result on a board without a clock: %v", err)
	}
	if r.GetStatus() != pb.CommandStatus_COMMAND_STATUS_APPLIED || r.GetState().GetResult() != "0-1" ||
		r.GetState().GetStatus() != pb.BoardStatus_BOARD_STATUS_FINISHED {
		t.Errorf("result on a board without a clock = %v %q, state %v; want APPLIED, finished 0-1", r.GetStatus(), r.GetMessage(), r.GetState())
	}
	b, err := arb.GetBoard(ctx, &pb.GetBoardRequest{BoardId: id})
	if err != nil {
		t.Fatal(err)
	}
	if b.GetState().GetResult() != "0-1" || b.GetState().GetSource() == pb.ClockSource_CLOCK_SOURCE_VIRTUAL || b.GetDeviceId() != "" {
		t.Errorf("board after the result: %v, device %q; want 0-1, still without a clock (no virtual one)", b.GetState(), b.GetDeviceId())
	}

	log, err := arb.AuditLog(ctx, &pb.AuditLogRequest{BoardId: id})
	if err != nil {
		t.Fatal(err)
	}
	var said, event bool
	for _, e := range log.GetEntries() {
		if strings.Contains(e.GetWhat(), "result from the scoresheet, no clock") {
			said = e.GetReason() == "Anna's scoresheet" && e.GetOutcome() == "applied" && e.GetBoardSeq() > 0 && strings.HasPrefix(e.GetActor(), "chief")
		}
		if e.GetAction().GetKind() == pb.ActionKind_ACTION_KIND_RESULT && e.GetAfter() != nil {
			event = true
		}
	}
	if !said || !event {
		t.Errorf("audit log: the scoresheet's entry %v, the result event %v; want both:\n%v", said, event, log.GetEntries())
	}
}
