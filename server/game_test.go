package server_test

import (
	"context"
	"fmt"
	"io"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/chesshall/hallclock/clockdev"
	"github.com/chesshall/hallclock/internal/testkit/halltest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
)

func act(t *testing.T, arb pb.ArbiterClient, ctx context.Context, boardID string, a *pb.ClockAction, want pb.CommandStatus) *pb.BoardActionResponse {
	t.Helper()
	r, err := arb.BoardAction(ctx, &pb.BoardActionRequest{BoardId: boardID, Action: a, Reason: "test", WaitMs: 5000})
	if err != nil {
		t.Fatalf("BoardAction(%v): %v", a, err)
	}
	if r.GetStatus() != want {
		t.Fatalf("BoardAction(%v) = %v (%s), want %v", a, r.GetStatus(), r.GetMessage(), want)
	}
	return r
}

func press(t *testing.T, d *clockdev.Device, side rules.Side) {
	t.Helper()
	if err := d.Press(side, "", ""); err != nil {
		t.Fatalf("press %s: %v", side, err)
	}
}

// A game through the hall: devices press, the arbiter pauses, adds time and
// rules an illegal move through the clock, and a watcher sees every state.
func TestGameThroughTheHall(t *testing.T) {
	t.Parallel()
	for _, tr := range []struct {
		name string
		opts []halltest.Option
	}{{"bufconn", nil}, {"loopback", []halltest.Option{halltest.OnLoopback()}}} {
		t.Run(tr.name, func(t *testing.T) {
			h := halltest.Start(t, tr.opts...)
			boards := h.Round(t, "5400", 1) // standard: FIDE 2023 7.5.5 gives 2 minutes
			id := boards[0].GetBoardId()
			d := h.Device(t, boards[0].GetDeviceId())
			w := h.WatchHall(t)
			arb, ctx := h.Arbiter(t)

			sr, err := arb.StartRound(ctx, &pb.StartRoundRequest{RoundId: boards[0].GetRoundId()})
			if err != nil || len(sr.GetBoards()) != 1 || sr.GetBoards()[0].GetStatus() != pb.CommandStatus_COMMAND_STATUS_APPLIED {
				t.Fatalf("StartRound = %v, %v; want the board started", sr, err)
			}
			press(t, d, rules.White)
			press(t, d, rules.Black)
			act(t, arb, ctx, id, &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_PAUSE}, pb.CommandStatus_COMMAND_STATUS_APPLIED)
			act(t, arb, ctx, id, &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_ADD_TIME, Side: pb.Side_SIDE_BLACK, Ms: 60_000}, pb.CommandStatus_COMMAND_STATUS_APPLIED)
			// An absolute setting is refused while the clock runs; here it is paused.
			act(t, arb, ctx, id, &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_RESUME}, pb.CommandStatus_COMMAND_STATUS_APPLIED)
			act(t, arb, ctx, id, &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_SET_CLOCK, WhiteMs: 1, BlackMs: 1}, pb.CommandStatus_COMMAND_STATUS_REFUSED)
			press(t, d, rules.White)
			halltest.Synced(t, d) // the press must be committed before it can be ruled illegal
			r := act(t, arb, ctx, id, &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_ILLEGAL_MOVE, Side: pb.Side_SIDE_WHITE}, pb.CommandStatus_COMMAND_STATUS_APPLIED)
			halltest.Synced(t, d)

			st := d.State()
			if st.P[rules.White].Illegal != 1 || st.P[rules.White].Moves != 1 || st.ToMove != rules.White {
				t.Errorf("device after illegal move: white illegal %d, moves %d, to move %s; want 1, 1, white",
					st.P[rules.White].Illegal, st.P[rules.White].Moves, st.ToMove)
			}
			if got := r.GetState().GetWhite().GetIllegalMoves(); got != 1 {
				t.Errorf("BoardAction state white illegal moves = %d, want 1", got)
			}
			// Black got 60 s from the arbiter and 2 min for the illegal move,
			// and used some time on one move.
			if b := st.P[rules.Black].MainMs; b < 5_400_000+180_000-5_000 || b > 5_400_000+180_000 {
				t.Errorf("black remaining %d ms, want about %d", b, 5_400_000+180_000)
			}
			got, err := arb.GetBoard(ctx, &pb.GetBoardRequest{BoardId: id})
			if err != nil {
				t.Fatal(err)
			}
			if got.GetState().GetBoardSeq() != 8 {
				t.Errorf("board_seq = %d, want 8 (start, 2 presses, pause, add, resume, press, illegal)", got.GetState().GetBoardSeq())
			}
			halltest.Eventually(t, 3*time.Second, func() error {
				l := w.Last(id)
				if l.GetBoardSeq() != got.GetState().GetBoardSeq() {
					return fmt.Errorf("watcher at board_seq %d, want %d", l.GetBoardSeq(), got.GetState().GetBoardSeq())
				}
				return nil
			})
			// What the watcher saw last, what the server says, what the log replays to.
			srvState, _, err := h.Store.Replay(context.Background(), id)
			if err != nil {
				t.Fatal(err)
			}
			if srvState.P != st.Project(srvState.At).P && srvState.At == st.At {
				t.Errorf("replayed state %+v differs from the device's %+v", srvState.P, st.P)
			}
			if l := w.Last(id); l.GetWhite().GetIllegalMoves() != 1 || l.GetBlack().GetRemainingMs() != srvState.P[rules.Black].MainMs {
				t.Errorf("watcher's last state %v disagrees with the log's %+v", l, srvState.P)
			}
		})
	}
}

// Stopping and restarting the server on the same database mid-game brings
// every board back identical, and the games go on.
func TestRestartMidGame(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t)
	boards := h.Round(t, "40/5400+30:1800+30", 3)
	arb, ctx := h.Arbiter(t)
	var devs []*clockdev.Device
	for _, b := range boards {
		devs = append(devs, h.Device(t, b.GetDeviceId()))
	}
	if _, err := arb.StartRound(ctx, &pb.StartRoundRequest{RoundId: boards[0].GetRoundId()}); err != nil {
		t.Fatal(err)
	}
	for i, d := range devs {
		for m := 0; m < 2*(i+1); m++ {
			press(t, d, rules.Side(m%2))
		}
		halltest.Synced(t, d)
	}
	act(t, arb, ctx, boards[1].GetBoardId(), &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_PAUSE}, pb.CommandStatus_COMMAND_STATUS_APPLIED)
	before := map[string]*pb.BoardState{}
	for _, b := range boards {
		got, err := arb.GetBoard(ctx, &pb.GetBoardRequest{BoardId: b.GetBoardId()})
		if err != nil {
			t.Fatal(err)
		}
		before[b.GetBoardId()] = got.GetState()
	}
	h.Restart(t)
	arb, ctx = h.Arbiter(t)
	for _, b := range boards {
		st, _, err := h.Store.Replay(context.Background(), b.GetBoardId())
		if err != nil {
			t.Fatal(err)
		}
		want := before[b.GetBoardId()]
		if st.P[rules.White].Moves != int(want.GetWhite().GetMoves()) || st.At > want.GetAtMs() && st.Status != rules.Running {
			t.Errorf("board %s replays to %+v, had %v", b.GetBoardId(), st.P, want)
		}
		got, err := arb.GetBoard(ctx, &pb.GetBoardRequest{BoardId: b.GetBoardId()})
		if err != nil {
			t.Fatal(err)
		}
		// GetBoard shows the board projected to the server's estimate of
		// board time now: a stopped clock shows the same times, a running
		// one has moved on; everything else the log decides is equal.
		g, w := halltest.Ruled(got.GetState()), halltest.Ruled(want)
		g.AtMs, w.AtMs = 0, 0
		if g.GetStatus() == pb.BoardStatus_BOARD_STATUS_RUNNING {
			if g.GetRunning() == pb.Side_SIDE_WHITE {
				g.White.RemainingMs, w.White.RemainingMs = 0, 0
				g.White.DelayLeftMs, w.White.DelayLeftMs = 0, 0
				g.White.UsedMs, w.White.UsedMs = 0, 0
			} else {
				g.Black.RemainingMs, w.Black.RemainingMs = 0, 0
				g.Black.UsedMs, w.Black.UsedMs = 0, 0
			}
			g.NextDeadlineMs, w.NextDeadlineMs = 0, 0
		}
		if !proto.Equal(g, w) {
			t.Errorf("board %s after restart:\n got %v\nwant %v", b.GetBoardId(), g, w)
		}
	}
	// The devices reconnect by themselves and play on.
	for i, d := range devs {
		halltest.Eventually(t, 5*time.Second, func() error {
			if !d.Status().Connected {
				return fmt.Errorf("device %d not reconnected", i)
			}
			return nil
		})
	}
	press(t, devs[0], rules.White)
	halltest.Synced(t, devs[0])
	got, err := arb.GetBoard(ctx, &pb.GetBoardRequest{BoardId: boards[0].GetBoardId()})
	if err != nil {
		t.Fatal(err)
	}
	if got.GetState().GetWhite().GetMoves() != 2 {
		t.Errorf("after restart and a press white has %d moves, want 2", got.GetState().GetWhite().GetMoves())
	}
}

var _ = io.EOF
