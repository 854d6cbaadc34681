package fanout_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/chesshall/hallclock/server/fanout"
)

// Watchers of a busy hall, some slow, some held back while ingest is
// behind (as Ingest.Hold holds them), hold after each update every board
// as it was at the update's seq: what they missed reaches them merged,
// caught up or as a snapshot, and never a board short. The hall has
// enough boards that a watcher far behind catches up with the boards
// that changed, not a snapshot of all (mostChanged), which is where a
// merge could lose one.
// In a bubble: the hub's interval, the holds and the slow readers' pauses
// pass on a fake clock and take no real time.
func TestHubHeldAndSlowWatchersHoldEveryBoard(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const boards, publishes, watchers = 4000, 6000, 8
		h := fanout.NewHub(1 << 12)
		var mu sync.Mutex
		rng := rand.New(rand.NewPCG(1, 2))
		intN := func(n int) int {
			mu.Lock()
			defer mu.Unlock()
			return rng.IntN(n)
		}
		// Held as Ingest holds: for a while, up to a floor since the
		// watcher's last update.
		h.HoldWith(func(ctx context.Context, last time.Time) error {
			if intN(3) == 0 {
				if d := 40*time.Millisecond - time.Since(last); d > 0 {
					time.Sleep(d)
				}
			}
			return nil
		})
		ids := make([]string, boards)
		for i := range boards {
			ids[i] = fmt.Sprintf("b%d", i)
			h.Publish("R", hubState(ids[i], 0, 0), 0)
		}
		// The publishes, drawn first: board[i] changes at seq i, to
		// version i. versionAt is a board's version as of a seq.
		board := make([]int, publishes+1)
		versions := make([][]int64, boards)
		for i := 1; i <= publishes; i++ {
			board[i] = intN(boards)
			versions[board[i]] = append(versions[board[i]], int64(i))
		}
		versionAt := func(b int, seq uint64) int64 {
			vs := versions[b]
			n, _ := slices.BinarySearch(vs, int64(seq)+1)
			if n == 0 {
				return 0
			}
			return vs[n-1]
		}
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		var wg sync.WaitGroup
		var kinds struct {
			sync.Mutex
			snapshots, updates int
		}
		for w := range watchers {
			sub := h.Subscribe(fanout.Scope{}, 0, 5*time.Millisecond)
			wg.Go(func() {
				defer sub.Close()
				held := map[string]int64{}
				for {
					u, err := sub.Next(ctx)
					if err != nil {
						t.Errorf("watcher %d: %v", w, err)
						return
					}
					kinds.Lock()
					kinds.updates++
					if u.GetSnapshot() {
						kinds.snapshots++
						clear(held)
					}
					kinds.Unlock()
					for _, b := range u.GetBoards() {
						if v := b.GetAtMs(); v < held[b.GetBoardId()] {
							t.Errorf("watcher %d: board %s went back from version %d to %d", w, b.GetBoardId(), held[b.GetBoardId()], v)
						}
						held[b.GetBoardId()] = b.GetAtMs()
					}
					// Every update brings the watcher to the hall's
					// state as of its seq: every board as it was then.
					for i := range boards {
						if id, want := ids[i], versionAt(i, u.GetSeq()); held[id] != want {
							t.Errorf("watcher %d, after the update to seq %d: holds %s at version %d, want %d", w, u.GetSeq(), id, held[id], want)
							return // (FailNow belongs to the test's goroutine)
						}
					}
					if u.GetSeq() == publishes {
						return
					}
					// Watchers 0–3 read on at once; the others now and
					// then stop for longer than the feed keeps updates.
					if w >= watchers/2 && intN(10) == 0 {
						time.Sleep(time.Duration(100+intN(100)) * time.Millisecond)
					}
				}
			})
		}
		for i := 1; i <= publishes; i++ {
			h.Publish("R", hubState(ids[board[i]], uint64(i), int64(i)), uint64(i))
			if i%10 == 0 {
				time.Sleep(time.Millisecond) // 10,000 changes a second
			}
		}
		wg.Wait()
		if kinds.snapshots > watchers*3 {
			t.Errorf("%d snapshots in %d updates: the slow watchers should catch up with what changed, not a snapshot each time", kinds.snapshots, kinds.updates)
		}
		t.Logf("%d updates, %d snapshots", kinds.updates, kinds.snapshots)
	})
}
