package server_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/chesshall/hallclock/internal/mono"
	"github.com/chesshall/hallclock/internal/testkit/halltest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
	"github.com/chesshall/hallclock/server"
)

// DESIGN §7: a public feed can be delayed against cheating while the
// arbiters see the hall live.
func TestBroadcastIsDelayedArbitersAreLive(t *testing.T) {
	t.Parallel()
	clock := mono.NewFake(time.Now())
	h := halltest.Start(t, halltest.WithOptions(server.Options{Clock: clock, BroadcastDelay: 15 * time.Minute, WatchInterval: -1}))
	boards := h.Round(t, "5400+30", 1)
	id := boards[0].GetBoardId()
	d := h.Device(t, boards[0].GetDeviceId())
	arb, ctx := h.Arbiter(t)
	feed := h.Token(t, pb.Role_ROLE_BROADCAST, "relay", "")

	type latest struct {
		mu    sync.Mutex
		moves int32
		seen  bool
	}
	follow := func(token string) *latest {
		l := &latest{}
		c, cancel := context.WithCancel(halltest.Ctx(context.Background(), token))
		t.Cleanup(cancel)
		s, err := pb.NewWatchClient(h.Conn(t)).WatchBoard(c, &pb.WatchBoardRequest{BoardId: id})
		if err != nil {
			t.Fatal(err)
		}
		go func() {
			for {
				u, err := s.Recv()
				if err != nil {
					return
				}
				l.mu.Lock()
				for _, b := range u.GetBoards() {
					l.seen, l.moves = true, b.GetWhite().GetMoves()
				}
				l.mu.Unlock()
			}
		}()
		return l
	}
	live, public := follow(h.Chief), follow(feed)

	if _, err := arb.BoardAction(ctx, &pb.BoardActionRequest{BoardId: id, Action: &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_START}, WaitMs: 5000}); err != nil {
		t.Fatal(err)
	}
	if err := d.Press(rules.White, "e4", ""); err != nil {
		t.Fatal(err)
	}
	halltest.Eventually(t, 5*time.Second, func() error {
		live.mu.Lock()
		defer live.mu.Unlock()
		if live.moves != 1 {
			return fmt.Errorf("the arbiter sees %d white moves, want 1 at once", live.moves)
		}
		return nil
	})
	clock.Settle() // no timer of the delay line is due: nothing reached the public hub
	public.mu.Lock()
	if public.moves != 0 {
		t.Errorf("the public feed shows %d white moves before the delay passed, want 0", public.moves)
	}
	public.mu.Unlock()
	// The board lists a broadcast token reads (the dashboard's) are as late
	// as its watch streams, and hold no arbiter's commands.
	feedCtx := halltest.Ctx(context.Background(), feed)
	listed := func() *pb.Board {
		t.Helper()
		r, err := arb.ListBoards(feedCtx, &pb.ListBoardsRequest{})
		if err != nil || len(r.GetBoards()) != 1 {
			t.Fatalf("ListBoards as broadcast: %v, %v", r, err)
		}
		return r.GetBoards()[0]
	}
	if b := listed(); b.GetState().GetWhite().GetMoves() != 0 || b.GetState().GetStatus() == pb.BoardStatus_BOARD_STATUS_RUNNING {
		t.Errorf("ListBoards as broadcast before the delay passed: %v, want the board not yet started", b.GetState())
	}
	clock.Advance(15*time.Minute + time.Second)
	halltest.Eventually(t, 5*time.Second, func() error {
		public.mu.Lock()
		defer public.mu.Unlock()
		if public.moves != 1 {
			return fmt.Errorf("after the delay the public feed shows %d white moves, want 1", public.moves)
		}
		return nil
	})
	if b := listed(); b.GetState().GetWhite().GetMoves() != 1 || len(b.GetPending()) != 0 {
		t.Errorf("ListBoards as broadcast after the delay: %v (%d pending), want White's move, no commands", b.GetState(), len(b.GetPending()))
	}
}
