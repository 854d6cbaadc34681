package server_test

import (
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chesshall/hallclock/internal/testkit/halltest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/server"
)

// While presses wait to be acknowledged, watchers hold their updates back
// (for how long: fanout's TestHeldWatcherGetsAnUpdateEveryFloor); once
// ingest has caught up, they get what changed meanwhile in one update.
func TestWatchersHoldWhileIngestBehind(t *testing.T) {
	t.Parallel()
	var behind atomic.Bool
	h := halltest.Start(t, halltest.WithOptions(server.Options{WatchInterval: 10 * time.Millisecond, IngestBehind: behind.Load}))
	boards := h.Round(t, "300+2", 3)
	for _, b := range boards {
		h.Device(t, b.GetDeviceId())
	}
	w := openWatch(t, h, h.Chief, watchHall(0))
	if u := w.next(t, 5*time.Second); !u.GetSnapshot() {
		t.Fatalf("first update is not a snapshot: %v", u)
	}

	behind.Store(true)
	holds0 := h.Server.Stats().WatchHolds
	watchStartRound(t, h, boards[0].GetRoundId())
	// The watcher comes for the round's start and is held.
	halltest.Eventually(t, 5*time.Second, func() error {
		if got := h.Server.Stats().WatchHolds - holds0; got == 0 {
			return fmt.Errorf("no hold counted while ingest was behind")
		}
		return nil
	})
	behind.Store(false)
	want := getBoards(t, h, boardIDsOf(boards))
	u := w.next(t, 5*time.Second)
	if len(u.GetBoards()) != len(boards) {
		t.Fatalf("after ingest caught up: %d boards in the update, want the %d started meanwhile", len(u.GetBoards()), len(boards))
	}
	for _, b := range u.GetBoards() {
		if b.GetStatus() != pb.BoardStatus_BOARD_STATUS_RUNNING || b.GetBoardSeq() != want[b.GetBoardId()].GetBoardSeq() {
			t.Errorf("board %s: %v at board_seq %d, want RUNNING at %d", b.GetBoardId(), b.GetStatus(), b.GetBoardSeq(), want[b.GetBoardId()].GetBoardSeq())
		}
	}
}
