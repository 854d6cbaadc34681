package server_test

import (
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/chesshall/hallclock/internal/mono"
	"github.com/chesshall/hallclock/internal/testkit/halltest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
	"github.com/chesshall/hallclock/server"
)

// auditLog returns a board's audit log as the chief reads it.
func auditLog(t *testing.T, h *halltest.Hall, boardID string) []*pb.AuditEntry {
	t.Helper()
	arb, ctx := h.Arbiter(t)
	r, err := arb.AuditLog(ctx, &pb.AuditLogRequest{BoardId: boardID})
	if err != nil {
		t.Fatal(err)
	}
	return r.GetEntries()
}

// The audit log is the board's timeline: each event says the clocks after
// it, the time a move took, how the event itself changed each clock, and
// who gave the command it carried out. The last ruling on time rides on
// the board's state (so a display says which ruling made a +2:00 jump),
// live and after a restart.
func TestTimelineAndLastRuling(t *testing.T) {
	h := halltest.Start(t)
	b := h.Round(t, "90m+30s", 1)[0]
	id := b.GetBoardId()
	d := h.Device(t, b.GetDeviceId())
	arb, ctx := h.Arbiter(t)
	act(t, arb, ctx, id, &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_START}, pb.CommandStatus_COMMAND_STATUS_APPLIED)
	press(t, d, rules.White)
	press(t, d, rules.Black)
	halltest.Synced(t, d)
	// 7.5.5: Black's move was illegal; White gets two minutes (standard).
	act(t, arb, ctx, id, &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_ILLEGAL_MOVE, Side: pb.Side_SIDE_BLACK}, pb.CommandStatus_COMMAND_STATUS_APPLIED)

	var events []*pb.AuditEntry
	for _, e := range auditLog(t, h, id) {
		if e.GetBoardSeq() > 0 && e.GetOutcome() == "applied" && e.GetAfter() != nil {
			events = append(events, e)
		}
	}
	if len(events) != 4 {
		t.Fatalf("events with the state after them: %d, want 4 (start, two presses, illegal move)", len(events))
	}
	start, white, black, illegal := events[0], events[1], events[2], events[3]
	if start.GetCommandId() == "" || start.GetIssuedBy() != "chief:chief arbiter" || start.GetActor() != "device:"+b.GetDeviceId() {
		t.Errorf("start: command %q issued by %q, actor %q; want a command of the chief, carried out by the device",
			start.GetCommandId(), start.GetIssuedBy(), start.GetActor())
	}
	if used := white.GetAfter().GetAtMs() - start.GetAfter().GetAtMs(); white.GetUsedMs() != used || white.GetWhiteChangeMs() != 30_000 ||
		white.GetAfter().GetWhite().GetMoves() != 1 || white.GetAfter().GetWhite().GetRemainingMs() != 5_400_000-used+30_000 {
		t.Errorf("White's press: used %d ms (clock ran %d), White's change %+d, after %v; want the time used, +30 s, one move",
			white.GetUsedMs(), used, white.GetWhiteChangeMs(), white.GetAfter().GetWhite())
	}
	if used := black.GetAfter().GetAtMs() - white.GetAfter().GetAtMs(); black.GetUsedMs() != used || black.GetBlackChangeMs() != 30_000 || black.GetWhiteChangeMs() != 0 {
		t.Errorf("Black's press: used %d (clock ran %d), changes %+d/%+d; want the time used, +30 s to Black only",
			black.GetUsedMs(), used, black.GetWhiteChangeMs(), black.GetBlackChangeMs())
	}
	if illegal.GetWhiteChangeMs() != 120_000 || illegal.GetBlackChangeMs() != 0 || illegal.GetIssuedBy() != "chief:chief arbiter" || illegal.GetReason() != "test" {
		t.Errorf("illegal move: changes %+d/%+d by %q (%q); want White +2:00 by the chief, with his reason",
			illegal.GetWhiteChangeMs(), illegal.GetBlackChangeMs(), illegal.GetIssuedBy(), illegal.GetReason())
	}

	// The command that carried the ruling is named by the entry that
	// issued it, so the two read as one ruling.
	var issued *pb.AuditEntry
	for _, e := range auditLog(t, h, id) {
		if e.GetOutcome() == "pending" && e.GetAction().GetKind() == pb.ActionKind_ACTION_KIND_ILLEGAL_MOVE {
			issued = e
		}
	}
	if issued.GetCommandId() == "" || issued.GetCommandId() != illegal.GetCommandId() || issued.GetActor() != "chief:chief arbiter" {
		t.Errorf("the command's audit entry %v; want the chief's, naming command %s", issued, illegal.GetCommandId())
	}

	want := &pb.TimeRuling{Kind: pb.ActionKind_ACTION_KIND_ILLEGAL_MOVE, Side: pb.Side_SIDE_BLACK, WhiteChangeMs: 120_000,
		BoardSeq: illegal.GetBoardSeq(), By: "chief:chief arbiter"}
	check := func(when string, got *pb.TimeRuling) {
		t.Helper()
		if got.GetUnixMs() == 0 {
			t.Errorf("%s: last ruling %v without its time", when, got)
		}
		got = proto.Clone(got).(*pb.TimeRuling)
		got.UnixMs = 0
		if !proto.Equal(got, want) {
			t.Errorf("%s: last ruling %v, want %v", when, got, want)
		}
	}
	check("GetBoard", fetchBoard(t, h, id).GetState().GetLastRuling())
	st, _, _ := h.Server.Hub().State(id)
	check("the watchers' state", st.GetLastRuling())
	press(t, d, rules.Black) // a press is no ruling: the last ruling stays
	halltest.Synced(t, d)
	check("after a press", fetchBoard(t, h, id).GetState().GetLastRuling())
	h.Restart(t)
	check("after a restart", fetchBoard(t, h, id).GetState().GetLastRuling())
}

// A dry run answers what an action would do, and does nothing: no
// command, no audit entry, no change.
func TestBoardActionDryRun(t *testing.T) {
	h := halltest.Start(t)
	b := h.Round(t, "90m+30s", 1)[0]
	id := b.GetBoardId()
	h.Device(t, b.GetDeviceId())
	arb, ctx := h.Arbiter(t)
	act(t, arb, ctx, id, &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_START}, pb.CommandStatus_COMMAND_STATUS_APPLIED)
	before := len(auditLog(t, h, id))
	dry := func(a *pb.ClockAction) *pb.BoardActionResponse {
		t.Helper()
		r, err := arb.BoardAction(ctx, &pb.BoardActionRequest{BoardId: id, Action: a, Reason: "what if", DryRun: true})
		if err != nil {
			t.Fatalf("dry run of %v: %v", a, err)
		}
		return r
	}
	r := dry(&pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_ADD_TIME, Side: pb.Side_SIDE_BLACK, Ms: 60_000})
	if r.GetStatus() != pb.CommandStatus_COMMAND_STATUS_DRY_RUN || r.GetState().GetBlack().GetRemainingMs() != 5_460_000 || r.GetCommandId() != "" {
		t.Errorf("dry run of +1:00 for Black = %v %q, Black %d ms; want DRY_RUN, 91:00, no command", r.GetStatus(), r.GetMessage(), r.GetState().GetBlack().GetRemainingMs())
	}
	// The board before, at the same instant: the preview's other side.
	if bf, af := r.GetBefore(), r.GetState(); bf.GetAtMs() != af.GetAtMs() || bf.GetServerUnixMs() != af.GetServerUnixMs() ||
		af.GetBlack().GetRemainingMs()-bf.GetBlack().GetRemainingMs() != 60_000 || bf.GetWhite().GetRemainingMs() != af.GetWhite().GetRemainingMs() {
		t.Errorf("dry run of +1:00 for Black: before %v, after %v; want the same instant, Black's time a minute apart", bf, af)
	}
	r = dry(&pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_SET_CLOCK, WhiteMs: 1000, BlackMs: 1000})
	if r.GetStatus() != pb.CommandStatus_COMMAND_STATUS_REFUSED || r.GetMessage() == "" {
		t.Errorf("dry run of a setting while the clock runs = %v %q, want REFUSED with the rules' message", r.GetStatus(), r.GetMessage())
	}
	if _, err := arb.BoardAction(ctx, &pb.BoardActionRequest{BoardId: id, Action: &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_FLAG, Side: pb.Side_SIDE_WHITE}, DryRun: true}); codeOf(err) != 3 {
		t.Errorf("dry run of a flag: %v, want INVALID_ARGUMENT", err)
	}
	if after := len(auditLog(t, h, id)); after != before {
		t.Errorf("audit log grew from %d to %d entries by dry runs", before, after)
	}
	got := fetchBoard(t, h, id)
	if got.GetState().GetBlack().GetRemainingMs() != 5_400_000 || len(got.GetPending()) != 0 || got.GetState().GetBoardSeq() != 1 {
		t.Errorf("after dry runs: Black %d ms, %d pending, board_seq %d; want unchanged", got.GetState().GetBlack().GetRemainingMs(), len(got.GetPending()), got.GetState().GetBoardSeq())
	}
}

// A board's live state says the server's wall time when its times were
// current (server_unix_ms goes with at_ms), also when it is published for
// a change of live fields only, long after its last event: a display runs
// the clock forward from there, and must not give back the time since.
func TestLiveStateTellsWhenItsTimesWere(t *testing.T) {
	clock := mono.NewFake(time.Now())
	h := halltest.Start(t, halltest.WithOptions(server.Options{Clock: clock}))
	b := h.Round(t, "90m+30s", 1)[0]
	id := b.GetBoardId()
	arb, ctx := h.Arbiter(t)
	if _, err := arb.UseVirtualClock(ctx, &pb.UseVirtualClockRequest{BoardId: id, Reason: "no clock yet"}); err != nil {
		t.Fatal(err)
	}
	act(t, arb, ctx, id, &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_START}, pb.CommandStatus_COMMAND_STATUS_APPLIED)
	started, _, _ := h.Server.Hub().State(id)
	clock.Advance(10 * time.Second)
	// A clock that is not connected takes over: only live fields change.
	if _, err := arb.AssignDevice(ctx, &pb.AssignDeviceRequest{BoardId: id, DeviceId: "CLK-LATE", Reason: "a clock found"}); err != nil {
		t.Fatal(err)
	}
	st, _, _ := h.Server.Hub().State(id)
	if st.GetDeviceOnline() || st.GetAtMs() != started.GetAtMs() || st.GetServerUnixMs() != started.GetServerUnixMs() {
		t.Errorf("after the clock changed: at_ms %d at server time %d (online %v); want the start's %d at %d: White's clock has run 10 s since",
			st.GetAtMs(), st.GetServerUnixMs(), st.GetDeviceOnline(), started.GetAtMs(), started.GetServerUnixMs())
	}
}
