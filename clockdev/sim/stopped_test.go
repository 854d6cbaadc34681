package sim

import (
	"context"
	"errors"
	"net"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc"

	"github.com/chesshall/hallclock/internal/mono"
	hallv1 "github.com/chesshall/hallclock/proto/hall/v1"
)

// pausedHall answers a table's questions about one paused board on a
// virtual clock: its state, its record (entries), and the actions asked
// of it, which it records and applies.
type pausedHall struct {
	hallv1.ArbiterClient // any other call panics
	mu                   sync.Mutex
	entries              []*hallv1.AuditEntry
	asked                []*hallv1.BoardActionRequest
}

func (h *pausedHall) GetBoard(context.Context, *hallv1.GetBoardRequest, ...grpc.CallOption) (*hallv1.Board, error) {
	return &hallv1.Board{BoardId: "B1", State: &hallv1.BoardState{Status: hallv1.BoardStatus_BOARD_STATUS_PAUSED,
		Source: hallv1.ClockSource_CLOCK_SOURCE_VIRTUAL, White: &hallv1.PlayerClock{RemainingMs: 5_000_000},
		Black: &hallv1.PlayerClock{RemainingMs: 5_100_000}}}, nil
}

func (h *pausedHall) AuditLog(context.Context, *hallv1.AuditLogRequest, ...grpc.CallOption) (*hallv1.AuditLogResponse, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return &hallv1.AuditLogResponse{Entries: h.entries}, nil
}

func (h *pausedHall) BoardAction(_ context.Context, req *hallv1.BoardActionRequest, _ ...grpc.CallOption) (*hallv1.BoardActionResponse, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.asked = append(h.asked, req)
	return &hallv1.BoardActionResponse{BoardId: req.GetBoardId(), Status: hallv1.CommandStatus_COMMAND_STATUS_APPLIED}, nil
}

func (h *pausedHall) actions() []*hallv1.BoardActionRequest {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]*hallv1.BoardActionRequest(nil), h.asked...)
}

// event is a board event as the audit log shows it: after it, the clock
// is in status.
func event(seq uint64, kind hallv1.ActionKind, actor, reason, command string, status hallv1.BoardStatus) *hallv1.AuditEntry {
	return &hallv1.AuditEntry{BoardSeq: seq, Actor: actor, Reason: reason, CommandId: command, Outcome: "applied",
		Action: &hallv1.ClockAction{Kind: kind}, After: &hallv1.BoardState{Status: status}}
}

var (
	running = hallv1.BoardStatus_BOARD_STATUS_RUNNING
	paused  = hallv1.BoardStatus_BOARD_STATUS_PAUSED
	started = event(1, hallv1.ActionKind_ACTION_KIND_START, "device:CLK-1", "", "cmd-1", running)
)

// A person pauses a board (an arbiter at the dashboard: the phone rang).
// The demo's fleet, whose own players stop a clock only to claim, leaves
// the pause alone however long it lasts — it restarted it after a
// minute, "the clock was found paused" — and restarts only a claim of its
// own players that was cut short. Simulated time: the table's clock is a
// fake one, advanced by the test.
func TestFleetNeverResumesAPersonsPause(t *testing.T) {
	for _, tc := range []struct {
		name       string
		pause      *hallv1.AuditEntry
		wantResume bool
	}{
		{"an arbiter's pause", event(2, hallv1.ActionKind_ACTION_KIND_PAUSE, "arbiter:Anna", "phone rang", "", paused), false},
		{"the players' claim, cut short", event(2, hallv1.ActionKind_ACTION_KIND_PAUSE, "chief:demo fleet", playersOnVirtual, "", paused), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wall := mono.NewFake(time.Date(2025, 9, 15, 14, 0, 0, 0, time.UTC))
			f := testFleet(t, Config{ChiefToken: "chief", Clock: wall,
				Rounds: []RoundSpec{{Tournament: "Classical Open", TimeControl: "90m", Boards: 1}},
				Dial:   func(context.Context, string) (net.Conn, error) { return nil, errors.New("no hall in this test") }})
			h := &pausedHall{entries: []*hallv1.AuditEntry{started, tc.pause}}
			f.arb = h
			tour := f.tours[0]
			rr := &roundRun{f: f, tour: tour, spec: tour.specs[0], number: 1, done: map[string]bool{}, signal: make(chan struct{}, 1)}
			f.boards["B1"] = &boardInfo{round: rr, number: 1, spec: tour.specs[0]}
			tb := f.newTable(tour, 1, func(string) string { return "" })
			tb.board, tb.virtual = "B1", true

			ctx := context.Background()
			step := func() {
				tb.poke() // the table's wait returns at once
				tb.step(ctx)
			}
			step() // the table finds the clock stopped
			for range 10 {
				wall.Advance(time.Minute)
				step()
			}
			var resumes int
			for _, a := range h.actions() {
				if a.GetAction().GetKind() == hallv1.ActionKind_ACTION_KIND_RESUME {
					resumes++
				}
			}
			switch {
			case tc.wantResume && resumes == 0:
				t.Errorf("the players' own claim, stopped for ten minutes, was never restarted")
			case !tc.wantResume && resumes > 0:
				t.Errorf("the fleet restarted a person's pause %d times: %v", resumes, h.actions())
			}
		})
	}
}

// Who stopped a clock, as the fleet reads a board's record.
func TestPlayersPaused(t *testing.T) {
	pause := hallv1.ActionKind_ACTION_KIND_PAUSE
	resume := event(3, hallv1.ActionKind_ACTION_KIND_RESUME, "device:CLK-1", "", "cmd-2", running)
	for _, tc := range []struct {
		name string
		es   []*hallv1.AuditEntry
		want bool
	}{
		{"a player's pause on the clock device", []*hallv1.AuditEntry{started, event(2, pause, "device:CLK-1", "", "", paused)}, true},
		{"an arbiter's pause, carried out by the device", []*hallv1.AuditEntry{started, event(2, pause, "device:CLK-1", "phone rang", "cmd-2", paused)}, false},
		{"a person's pause on a virtual clock", []*hallv1.AuditEntry{started, event(2, pause, "arbiter:Anna", "", "", paused)}, false},
		{"the players' pause on a virtual clock", []*hallv1.AuditEntry{started, event(2, pause, "chief:demo fleet", playersOnVirtual, "", paused)}, true},
		{"an illegal move found later", []*hallv1.AuditEntry{started, event(2, hallv1.ActionKind_ACTION_KIND_ILLEGAL_MOVE_FOUND, "device:CLK-1", "", "cmd-2", paused)}, false},
		{"a claim, restarted, then an arbiter's pause", []*hallv1.AuditEntry{started, event(2, pause, "device:CLK-1", "", "", paused), resume,
			event(4, pause, "device:CLK-1", "", "cmd-3", paused)}, false},
		{"an arbiter's pause, then time added while paused", []*hallv1.AuditEntry{started, event(2, pause, "device:CLK-1", "", "cmd-2", paused),
			event(3, hallv1.ActionKind_ACTION_KIND_ADD_TIME, "device:CLK-1", "", "cmd-3", paused)}, false},
		{"a refusal is no event", []*hallv1.AuditEntry{started, event(2, pause, "device:CLK-1", "", "", paused), {Actor: "arbiter:Anna", Outcome: "refused: paused"}}, true},
		{"no record", nil, false},
	} {
		if got := playersPaused(tc.es); got != tc.want {
			t.Errorf("%s: playersPaused = %v, want %v", tc.name, got, tc.want)
		}
	}
}
