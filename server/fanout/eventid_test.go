package fanout_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/chesshall/hallclock/server/fanout"
)

// sseID returns the event id of an update's server-sent event.
func sseID(t *testing.T, u *fanout.Update) string {
	t.Helper()
	b, err := u.SSE()
	if err != nil {
		t.Fatal(err)
	}
	line, _, _ := bytes.Cut(b, []byte("\n"))
	id, ok := bytes.CutPrefix(line, []byte("id: "))
	if !ok {
		t.Fatalf("event %q has no id line first", b)
	}
	return string(id)
}

// resumeFrom subscribes as a browser's EventSource does when it reconnects:
// from the id of the last event it received (Last-Event-ID).
func resumeFrom(t *testing.T, h *fanout.Hub, lastID string, interval time.Duration) *fanout.Sub {
	t.Helper()
	from, err := fanout.ParseEventID(lastID)
	if err != nil {
		t.Fatalf("Last-Event-ID %q: %v", lastID, err)
	}
	if err := fanout.CheckResumeAt(h, from); err != nil {
		t.Fatalf("resume from %q: %v", lastID, err)
	}
	return h.SubscribeAt(fanout.Scope{}, from, interval)
}

// An event id names one state of the hall, and so one update: under a load
// that makes the hub merge, catch up and snapshot (watchers held back
// while ingest is behind, watchers that stop reading, a small ring, changes
// of live fields that have no seq of their own), in simulated time, every
// update a watcher receives brings its view to a state the hall had, later
// than the one it held (no gap, nothing older), its ids never repeat, the
// same id always names the same state (for every watcher), and a watcher
// resuming from the id of its last event (Last-Event-ID) goes on from there
// exactly. (In 60 s of a busy hall's /api/watch, ids 683 and 721 came twice
// — 721 with two different boards — and 722 never; the repeat carried a
// state seconds older than the message before.)
func TestHubEventIDsNameOneState(t *testing.T) {
	for seed := range uint64(24) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) { eventIDsRun(t, seed) })
		})
	}
}

func eventIDsRun(t *testing.T, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, 30))
	const interval = 50 * time.Millisecond
	boards := []int{6, 24}[seed%2] // with 24, a catch-up is most often a merge
	h := fanout.NewHub(32)
	var behind atomic.Bool
	h.HoldWith(fanout.NewIngest(behind.Load).Hold)

	// history[k] is the hall's view after its k-th change: each board's
	// version (a change carries a version of its own, never repeated).
	latest := map[string]int64{}
	history := []map[string]int64{{}}
	var seq uint64
	var version int64
	publish := func(live bool, i int) {
		b := fmt.Sprintf("b%d", i)
		version++
		if live {
			h.Publish("R", hubState(b, 0, version), 0)
		} else {
			seq++
			h.Publish("R", hubState(b, seq, version), seq)
		}
		latest[b] = version
		history = append(history, maps.Clone(latest))
	}
	at := func(view map[string]int64, from int) int {
		for k := from; k < len(history); k++ {
			if maps.Equal(history[k], view) {
				return k
			}
		}
		return -1
	}

	type watcher struct {
		sub    *fanout.Sub
		view   map[string]int64
		k      int    // the view is history[k] (-1 before its first event)
		lastID string // the id of its last event
		// resumed from the hall's first state ("0", before any change):
		// that is a snapshot of it again, under the same id.
		resumedAtZero bool
	}
	named := map[string]int{} // event id → the history state it named
	ws := make([]*watcher, 3)
	for i := range ws {
		ws[i] = &watcher{sub: h.Subscribe(fanout.Scope{}, 0, interval), view: map[string]int64{}, k: -1}
	}
	defer func() {
		for _, w := range ws {
			w.sub.Close()
		}
	}()
	read := func(i int) {
		w := ws[i]
		ctx, cancel := context.WithCancel(context.Background())
		cancel() // take what there is now; wait for nothing
		u, err := w.sub.NextUpdate(ctx)
		if errors.Is(err, context.Canceled) {
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		m := u.Msg()
		id := sseID(t, u)
		if m.GetSnapshot() {
			clear(w.view)
		}
		for _, b := range m.GetBoards() {
			w.view[b.GetBoardId()] = b.GetAtMs()
		}
		k := at(w.view, w.k+1)
		if k < 0 && w.resumedAtZero && id == w.lastID && w.k >= 0 && maps.Equal(w.view, history[w.k]) {
			k = w.k
		}
		w.resumedAtZero = false
		if k < 0 {
			t.Fatalf("watcher %d: event %s (after %s, snapshot %v) leaves it at %v, which is no state of the hall after the one it had, %d (a gap, or older state)",
				i, id, w.lastID, m.GetSnapshot(), w.view, w.k)
		}
		if was, ok := named[id]; ok && was != k {
			t.Fatalf("watcher %d: event id %s names hall state %d (%v), but named state %d (%v) before",
				i, id, k, history[k], was, history[was])
		}
		named[id] = k
		w.k, w.lastID = k, id
	}

	for i := range boards {
		publish(false, i)
	}
	board := func() int {
		if rng.IntN(20) > 0 {
			return rng.IntN(4) // four boards busier than the rest
		}
		return rng.IntN(boards)
	}
	for range 1000 {
		switch op := rng.IntN(20); {
		case op < 5:
			publish(false, board())
		case op < 7:
			publish(true, board()) // a device came or went: no seq of its own
		case op < 8:
			behind.Store(!behind.Load())
		case op < 11:
			time.Sleep(time.Duration(rng.IntN(150)) * time.Millisecond)
			synctest.Wait()
		case op < 19:
			// Watcher 0 reads often, 2 seldom (it falls behind its feed).
			switch r := rng.IntN(60); {
			case r < 20:
				read(0)
			case r < 59:
				read(1)
			default:
				read(2)
			}
		default:
			i := rng.IntN(2) // not the slow one: it keeps falling behind
			if w := ws[i]; w.lastID != "" {
				w.sub.Close()
				w.sub = resumeFrom(t, h, w.lastID, interval)
				w.resumedAtZero = w.lastID == "0"
			}
		}
	}
	// Ingest catches up: each watcher, reading on, comes to the present.
	behind.Store(false)
	time.Sleep(time.Second)
	synctest.Wait()
	for i, w := range ws {
		read(i)
		if !maps.Equal(w.view, latest) {
			t.Errorf("watcher %d ends at %v, want the hall's %v", i, w.view, latest)
		}
	}
}
