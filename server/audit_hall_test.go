package server_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"

	"github.com/chesshall/hallclock/internal/mono"
	"github.com/chesshall/hallclock/internal/testkit/halltest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/server"
)

// A morning in a hall of two tournaments: the chief asks who changed
// which result today, by round, tournament, actor, kind and time, without
// naming a board; an arbiter of section A asks the same and sees section
// A's boards only, and nothing of the hall's own (tokens).
func TestHallWideAudit(t *testing.T) {
	t.Parallel()
	day := time.Date(2026, 12, 7, 8, 0, 0, 0, time.Local)
	clock := mono.NewFake(day)
	h := halltest.Start(t, halltest.WithOptions(server.Options{Clock: clock}), halltest.WallClock())
	arb, chief := h.Arbiter(t)
	anna := halltest.Ctx(context.Background(), h.Token(t, pb.Role_ROLE_ARBITER, "Anna", "", "A"))
	bo := halltest.Ctx(context.Background(), h.Token(t, pb.Role_ROLE_ARBITER, "Bo", "", "B"))
	open := h.NewRound(t, "Open", 1, &pb.ClockConfig{TimeControl: "90m+30s"})
	blitz := h.NewRound(t, "Blitz", 1, &pb.ClockConfig{TimeControl: "3m+2s"})
	board := func(r *pb.Round, n int32, section string) string {
		t.Helper()
		b, err := arb.AddBoard(chief, &pb.AddBoardRequest{RoundId: r.GetRoundId(), Number: n, Section: section,
			White: &pb.Player{Name: "w"}, Black: &pb.Player{Name: "b"}})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := arb.UseVirtualClock(chief, &pb.UseVirtualClockRequest{BoardId: b.GetBoardId(), Reason: "no clock yet"}); err != nil {
			t.Fatal(err)
		}
		return b.GetBoardId()
	}
	a1, b2, z1 := board(open, 1, "A"), board(open, 2, "B"), board(blitz, 1, "")
	at := func(hm string) int64 {
		d, _ := time.ParseDuration(strings.Replace(hm, ":", "h", 1) + "m")
		return day.Add(d - 8*time.Hour).UnixMilli()
	}
	act := func(ctx context.Context, board, hm string, a *pb.ClockAction, want pb.CommandStatus) {
		t.Helper()
		clock.Advance(time.UnixMilli(at(hm)).Sub(clock.Now()))
		clock.Settle()
		r, err := arb.BoardAction(ctx, &pb.BoardActionRequest{BoardId: board, Action: a, Reason: "at " + hm})
		if err != nil && want != pb.CommandStatus_COMMAND_STATUS_REFUSED || err == nil && r.GetStatus() != want {
			t.Fatalf("%s at %s: %v %v, want %v", a.GetKind(), hm, r, err, want)
		}
	}
	start := &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_START}
	result := func(r string) *pb.ClockAction {
		return &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_RESULT, Result: r, Termination: "agreement"}
	}
	applied := pb.CommandStatus_COMMAND_STATUS_APPLIED
	act(anna, a1, "08:30", start, applied)
	act(anna, a1, "08:40", result("1/2-1/2"), applied) // before the morning's question
	act(bo, b2, "09:00", start, applied)
	act(bo, b2, "09:15", result("1-0"), applied)
	act(chief, z1, "09:20", start, applied)
	act(chief, z1, "09:30", result("0-1"), applied)
	act(bo, b2, "09:45", result("0-1"), applied)                         // Bo corrects his result
	act(bo, b2, "09:50", start, pb.CommandStatus_COMMAND_STATUS_REFUSED) // over already: the rules refuse

	type line struct{ board, actor, what string }
	ask := func(ctx context.Context, req *pb.AuditLogRequest) []line {
		t.Helper()
		r, err := arb.AuditLog(ctx, req)
		if err != nil {
			t.Fatalf("AuditLog(%v): %v", req, err)
		}
		var out []line
		for _, e := range r.GetEntries() {
			w, _, _ := strings.Cut(e.GetWhat(), " (")
			out = append(out, line{e.GetBoard(), e.GetActor(), w + map[bool]string{true: " refused"}[strings.HasPrefix(e.GetOutcome(), "refused")]})
		}
		return out
	}
	check := func(name string, got []line, want ...line) {
		t.Helper()
		if len(got) != len(want) {
			t.Errorf("%s: %d entries %v, want %v", name, len(got), got, want)
			return
		}
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("%s: entry %d is %v, want %v (all: %v)", name, i, got[i], want[i], got)
			}
		}
	}
	chiefA := "chief:chief arbiter"
	results := []string{"result"}
	check("the chief: who changed which result since 09:00", ask(chief, &pb.AuditLogRequest{Kinds: results, SinceUnixMs: at("09:00")}),
		line{"Open:1.B2", "arbiter:Bo", "result 1-0"}, line{"Blitz:1.1", chiefA, "result 0-1"}, line{"Open:1.B2", "arbiter:Bo", "result 0-1"})
	check("one round, by name", ask(chief, &pb.AuditLogRequest{RoundId: "Open:1", Kinds: results}),
		line{"Open:1.A1", "arbiter:Anna", "result 1/2-1/2"}, line{"Open:1.B2", "arbiter:Bo", "result 1-0"}, line{"Open:1.B2", "arbiter:Bo", "result 0-1"})
	check("one tournament, one actor by name", ask(chief, &pb.AuditLogRequest{Tournament: "Open", Actor: "Bo", Kinds: results}),
		line{"Open:1.B2", "arbiter:Bo", "result 1-0"}, line{"Open:1.B2", "arbiter:Bo", "result 0-1"})
	check("refusals too", ask(chief, &pb.AuditLogRequest{RoundId: "Open:1", Actor: "arbiter:Bo", Kinds: []string{"start"}}),
		line{"Open:1.B2", "arbiter:Bo", "start"}, line{"Open:1.B2", "arbiter:Bo", "start refused"})
	check("one tournament, an actor by role", ask(chief, &pb.AuditLogRequest{Tournament: "Blitz", Actor: "chief", Kinds: []string{"start", "result"}}),
		line{"Blitz:1.1", chiefA, "start"}, line{"Blitz:1.1", chiefA, "result 0-1"})
	check("a time range", ask(chief, &pb.AuditLogRequest{Kinds: []string{"start", "result"}, SinceUnixMs: at("09:00"), UntilUnixMs: at("09:20")}),
		line{"Open:1.B2", "arbiter:Bo", "start"}, line{"Open:1.B2", "arbiter:Bo", "result 1-0"})
	check("a board, narrowed", ask(chief, &pb.AuditLogRequest{BoardId: b2, Kinds: results}),
		line{"Open:1.B2", "arbiter:Bo", "result 1-0"}, line{"Open:1.B2", "arbiter:Bo", "result 0-1"})

	// An arbiter of section A: section A's boards only (not Bo's result,
	// not the Blitz's board of no section), and none of the hall's own
	// entries (the tokens the chief issued).
	check("Anna, section A", ask(anna, &pb.AuditLogRequest{SinceUnixMs: at("08:00")}),
		line{"Open:1.A1", chiefA, "add_board 1 w - b"}, line{"Open:1.A1", chiefA, "use virtual clock"}, line{"Open:1.A1", "arbiter:Anna", "start"}, line{"Open:1.A1", "arbiter:Anna", "result 1/2-1/2"})
	if got := ask(chief, &pb.AuditLogRequest{Kinds: []string{"issue_token"}}); len(got) != 3 {
		t.Errorf("the chief's hall-wide audit has %d token entries, want the chief's own, Anna's and Bo's: %v", len(got), got)
	}
	if got := ask(anna, &pb.AuditLogRequest{RoundId: "Open:1", Actor: "Bo"}); len(got) != 0 {
		t.Errorf("Anna sees Bo's section B entries: %v", got)
	}
	if _, err := arb.AuditLog(chief, &pb.AuditLogRequest{SinceUnixMs: at("10:00"), UntilUnixMs: at("09:00")}); codeOf(err) != codes.InvalidArgument {
		t.Errorf("an empty time range: %v, want InvalidArgument", err)
	}
	if _, err := arb.AuditLog(chief, &pb.AuditLogRequest{RoundId: "Nowhere:9"}); codeOf(err) != codes.NotFound {
		t.Errorf("an unknown round: %v, want NotFound", err)
	}
}
