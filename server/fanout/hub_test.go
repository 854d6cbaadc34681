package fanout_test

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"google.golang.org/protobuf/proto"
	"pgregory.net/rapid"

	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/server/fanout"
	"github.com/chesshall/hallclock/server/hallerr"
)

// hubState is a board state for the hub tests: version (carried in AtMs)
// grows with every publish, so that an older state is recognisable.
func hubState(boardID string, boardSeq uint64, version int64) *pb.BoardState {
	return &pb.BoardState{BoardId: boardID, BoardSeq: boardSeq, AtMs: version}
}

// poll returns what the watcher has now, or nil if nothing is pending: a
// cancelled context makes Next return instead of waiting.
func poll(t interface {
	Helper()
	Fatalf(string, ...any)
}, sub *fanout.Sub) *pb.WatchUpdate {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	u, err := sub.Next(ctx)
	if errors.Is(err, context.Canceled) {
		return nil
	}
	if err != nil {
		t.Fatalf("Next: %v", err)
	}
	return u
}

func updateBoardIDs(u *pb.WatchUpdate) []string {
	var ids []string
	for _, b := range u.GetBoards() {
		ids = append(ids, b.GetBoardId())
	}
	return ids
}

// The first update of a watcher starting from 0 is a snapshot holding every
// board of its scope, and only those.
func TestHubSnapshotScopes(t *testing.T) {
	t.Parallel()
	h := fanout.NewHub(0)
	h.Publish("R1", hubState("a1", 1, 1), 1)
	h.Publish("R1", hubState("a2", 1, 2), 2)
	h.Publish("R2", hubState("b1", 1, 3), 3)
	h.Seed("R2", hubState("b2", 4, 0), 0) // a board loaded at start-up, never changed
	for _, tc := range []struct {
		scope fanout.Scope
		want  []string
	}{
		{fanout.Scope{}, []string{"a1", "a2", "b1", "b2"}},
		{fanout.Scope{RoundID: "R1"}, []string{"a1", "a2"}},
		{fanout.Scope{RoundID: "R2"}, []string{"b1", "b2"}},
		{fanout.Scope{BoardID: "a2"}, []string{"a2"}},
		{fanout.Scope{BoardID: "a2", RoundID: "R2"}, []string{"a2"}}, // the board decides
		{fanout.Scope{RoundID: "R9"}, nil},
		{fanout.Scope{BoardID: "zz"}, nil},
	} {
		u := poll(t, h.Subscribe(tc.scope, 0, 0))
		if u == nil {
			t.Errorf("scope %+v: no first update, want a snapshot", tc.scope)
			continue
		}
		if !u.GetSnapshot() {
			t.Errorf("scope %+v: snapshot = false, want true", tc.scope)
		}
		if got := updateBoardIDs(u); !slices.Equal(got, tc.want) {
			t.Errorf("scope %+v: snapshot boards %v, want %v", tc.scope, got, tc.want)
		}
		if u.GetSeq() != 3 {
			t.Errorf("scope %+v: snapshot seq %d, want 3", tc.scope, u.GetSeq())
		}
	}
}

// Many publishes between two reads make one update with the latest state
// of each changed board and the highest seq.
func TestHubCoalesces(t *testing.T) {
	t.Parallel()
	h := fanout.NewHub(0)
	sub := h.Subscribe(fanout.Scope{RoundID: "R"}, 0, 0)
	if u := poll(t, sub); !u.GetSnapshot() || len(u.GetBoards()) != 0 {
		t.Fatalf("first update %v, want an empty snapshot", u)
	}
	var seq uint64
	latest := map[string]int64{}
	for i := range 300 {
		id := fmt.Sprintf("b%d", i%3)
		seq++
		h.Publish("R", hubState(id, uint64(i/3+1), int64(i)), seq)
		latest[id] = int64(i)
		seq++
		h.Publish("other", hubState("x", 1, int64(i)), seq) // out of scope
	}
	u := poll(t, sub)
	if u == nil {
		t.Fatal("no update after 600 publishes")
	}
	if u.GetSnapshot() {
		t.Errorf("update snapshot = true, want false")
	}
	if u.GetSeq() != seq {
		t.Errorf("update seq %d, want %d (the highest)", u.GetSeq(), seq)
	}
	if got := updateBoardIDs(u); !slices.Equal(got, []string{"b0", "b1", "b2"}) {
		t.Errorf("update boards %v, want [b0 b1 b2]", got)
	}
	for _, b := range u.GetBoards() {
		if b.GetAtMs() != latest[b.GetBoardId()] {
			t.Errorf("board %s version %d, want the latest %d", b.GetBoardId(), b.GetAtMs(), latest[b.GetBoardId()])
		}
	}
	if u := poll(t, sub); u != nil {
		t.Errorf("second read %v, want nothing (everything was coalesced)", u)
	}
}

// With an interval, what happens between two updates is coalesced and the
// updates are at least an interval apart.
func TestHubInterval(t *testing.T) {
	t.Parallel()
	h := fanout.NewHub(0)
	const interval = 50 * time.Millisecond
	sub := h.Subscribe(fanout.Scope{}, 0, interval)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := sub.Next(ctx); err != nil {
		t.Fatal(err)
	}
	// The first update is built at or after this publish, the second an
	// interval after the first was built: measured from here, not from
	// when Next returned the first (a busy machine can return it late).
	sent := time.Now()
	h.Publish("R", hubState("a", 1, 1), 1)
	u1, err := sub.Next(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for i := 2; i <= 10; i++ {
		h.Publish("R", hubState("a", uint64(i), int64(i)), uint64(i))
	}
	u2, err := sub.Next(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(sent); d < interval-5*time.Millisecond {
		t.Errorf("second update %v after the first publish, want at least %v", d, interval)
	}
	if u1.GetSeq() != 1 || u2.GetSeq() != 10 || len(u2.GetBoards()) != 1 || u2.GetBoards()[0].GetAtMs() != 10 {
		t.Errorf("updates %v then %v, want seq 1 then seq 10 with version 10", u1, u2)
	}
}

// A watcher that resumes from its last seq gets exactly the boards changed
// since; when nothing changed it gets nothing.
func TestHubResume(t *testing.T) {
	t.Parallel()
	h := fanout.NewHub(0)
	for i := range 5 {
		h.Publish("R", hubState(fmt.Sprintf("b%d", i), 1, int64(i)), uint64(i+1))
	}
	sub := h.Subscribe(fanout.Scope{}, 0, 0)
	u := poll(t, sub)
	last := u.GetSeq()
	if last != 5 {
		t.Fatalf("snapshot seq %d, want 5", last)
	}
	if u := poll(t, h.Subscribe(fanout.Scope{}, last, 0)); u != nil {
		t.Errorf("resume with nothing changed: %v, want nothing", u)
	}
	h.Publish("R", hubState("b3", 2, 10), 6)
	h.Publish("R", hubState("b1", 2, 11), 7)
	u = poll(t, h.Subscribe(fanout.Scope{}, last, 0))
	if got := updateBoardIDs(u); u.GetSnapshot() || u.GetSeq() != 7 || !slices.Equal(got, []string{"b1", "b3"}) {
		t.Errorf("resume from %d: snapshot %v, seq %d, boards %v; want false, 7, [b1 b3]", last, u.GetSnapshot(), u.GetSeq(), got)
	}
	u = poll(t, h.Subscribe(fanout.Scope{BoardID: "b1"}, 6, 0))
	if got := updateBoardIDs(u); !slices.Equal(got, []string{"b1"}) {
		t.Errorf("resume of b1 from 6: boards %v, want [b1]", got)
	}
}

// A board added and a live change (device offline) while a watcher is away
// reach it when it resumes: neither has a seq of its own, and both are
// changes of boards in its scope (WatchUpdate: "no gaps").
func TestHubResumeSeesChangesWithoutSeq(t *testing.T) {
	t.Parallel()
	h := fanout.NewHub(0)
	h.Publish("R", hubState("a", 1, 1), 1)
	h.Publish("R", hubState("b", 1, 2), 2)
	last := poll(t, h.Subscribe(fanout.Scope{RoundID: "R"}, 0, 0)).GetSeq()

	h.Publish("R", hubState("c", 0, 3), 0)                                // AddBoard: no event yet
	h.Publish("R", &pb.BoardState{BoardId: "a", BoardSeq: 1, AtMs: 4}, 0) // device of a went offline
	u := poll(t, h.Subscribe(fanout.Scope{RoundID: "R"}, last, 0))
	if got := updateBoardIDs(u); !slices.Equal(got, []string{"a", "c"}) {
		t.Errorf("resume from %d after an added board and a live change: boards %v, want [a c]", last, got)
	}
	// Having seen those, a watcher that resumes after the next committed
	// change gets only that change.
	h.Publish("R", hubState("b", 2, 5), 3)
	u = poll(t, h.Subscribe(fanout.Scope{RoundID: "R"}, 3, 0))
	if u != nil {
		t.Errorf("resume from 3 with nothing changed since: %v, want nothing", u)
	}
}

// A live publish (seq 0: a change of live fields only) keeps the board's seq
// and is delivered to current watchers under the current seq.
func TestHubLivePublishKeepsSeq(t *testing.T) {
	t.Parallel()
	h := fanout.NewHub(0)
	h.Publish("R", hubState("a", 3, 1), 7)
	h.Publish("R", hubState("b", 1, 2), 9)
	sub := h.Subscribe(fanout.Scope{BoardID: "a"}, 0, 0)
	poll(t, sub)
	h.Publish("R", &pb.BoardState{BoardId: "a", BoardSeq: 3, AtMs: 3, DeviceOnline: true}, 0)
	st, seq, ok := h.State("a")
	if !ok || seq != 7 || !st.GetDeviceOnline() {
		t.Errorf("State(a) = %v, %d, %v; want the live state, 7, true", st, seq, ok)
	}
	if got := h.LastSeq(); got != 9 {
		t.Errorf("LastSeq() = %d, want 9", got)
	}
	u := poll(t, sub)
	if u == nil || u.GetSeq() != 9 || len(u.GetBoards()) != 1 || !u.GetBoards()[0].GetDeviceOnline() {
		t.Errorf("update after a live publish = %v, want board a online under seq 9", u)
	}
	// A board published live before any event has seq 0.
	h.Publish("R", hubState("new", 0, 4), 0)
	if _, seq, ok := h.State("new"); !ok || seq != 0 {
		t.Errorf("State(new) seq = %d, %v; want 0, true", seq, ok)
	}
}

// A watcher more than the ring's length behind gets a fresh snapshot
// instead of the backlog; exactly the ring's length behind is still an update.
func TestHubFallsBehindRing(t *testing.T) {
	t.Parallel()
	const ring = 4
	h := fanout.NewHub(ring)
	h.Publish("R", hubState("a", 1, 1), 1)
	h.Publish("S", hubState("z", 1, 2), 2)
	sub := h.Subscribe(fanout.Scope{RoundID: "R"}, 0, 0)
	poll(t, sub)
	seq := uint64(2)
	for i := range ring {
		seq++
		h.Publish("R", hubState("b", uint64(i+1), int64(seq)), seq)
	}
	if u := poll(t, sub); u.GetSnapshot() || !slices.Equal(updateBoardIDs(u), []string{"b"}) {
		t.Errorf("%d changes behind: snapshot %v, boards %v; want an update of [b]", ring, u.GetSnapshot(), updateBoardIDs(u))
	}
	for i := range ring + 1 {
		seq++
		h.Publish("R", hubState("b", uint64(i+10), int64(seq)), seq)
	}
	u := poll(t, sub)
	if !u.GetSnapshot() || u.GetSeq() != seq || !slices.Equal(updateBoardIDs(u), []string{"a", "b"}) {
		t.Errorf("%d changes behind: snapshot %v, seq %d, boards %v; want a snapshot at %d of [a b]", ring+1, u.GetSnapshot(), u.GetSeq(), updateBoardIDs(u), seq)
	}
}

// Publish never waits for a watcher: a hundred thousand publishes complete
// while one watcher never reads again and another never started.
func TestHubPublishNeverBlocks(t *testing.T) {
	t.Parallel()
	h := fanout.NewHub(1024)
	stalled := h.Subscribe(fanout.Scope{}, 0, 0)
	poll(t, stalled)
	_ = h.Subscribe(fanout.Scope{RoundID: "R"}, 0, time.Hour)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := 1; i <= 100_000; i++ {
			h.Publish("R", hubState(fmt.Sprintf("b%d", i%50), uint64(i), int64(i)), uint64(i))
		}
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("100000 publishes with a stalled watcher did not finish in 30 s")
	}
	// The stalled watcher, far behind, catches up with a snapshot.
	if u := poll(t, stalled); !u.GetSnapshot() || len(u.GetBoards()) != 50 || u.GetSeq() != 100_000 {
		t.Errorf("stalled watcher: snapshot %v, %d boards, seq %d; want true, 50, 100000", u.GetSnapshot(), len(u.GetBoards()), u.GetSeq())
	}
}

// Close wakes every waiting watcher with hallerr.ErrHubClosed; later reads get it
// too, and a commit that lands after Close does not panic.
func TestHubCloseWakesWatchers(t *testing.T) {
	t.Parallel()
	synctest.Test(t, testHubCloseWakesWatchers)
}

func testHubCloseWakesWatchers(t *testing.T) {
	h := fanout.NewHub(0)
	h.Publish("R", hubState("a", 1, 1), 1)
	errs := make(chan error, 3)
	for range 3 {
		sub := h.Subscribe(fanout.Scope{}, 0, 0)
		poll(t, sub)
		go func() {
			_, err := sub.Next(context.Background())
			errs <- err
		}()
	}
	synctest.Wait() // the three watchers wait in Next
	if len(errs) != 0 {
		t.Fatalf("a watcher's Next returned with nothing published: %v", <-errs)
	}
	h.Close()
	synctest.Wait()
	if len(errs) != 3 {
		t.Fatalf("%d of 3 watchers woken by Close", len(errs))
	}
	for range 3 {
		if err := <-errs; !errors.Is(err, hallerr.ErrHubClosed) {
			t.Errorf("Next after Close = %v, want %v", err, hallerr.ErrHubClosed)
		}
	}
	sub := h.Subscribe(fanout.Scope{}, 0, 0)
	poll(t, sub)
	if _, err := sub.Next(context.Background()); !errors.Is(err, hallerr.ErrHubClosed) {
		t.Errorf("Next on a closed hub = %v, want %v", err, hallerr.ErrHubClosed)
	}
	h.Close() // twice is fine
	func() {
		defer func() {
			if p := recover(); p != nil {
				t.Errorf("Publish after Close panicked: %v", p)
			}
		}()
		h.Publish("R", hubState("a", 2, 2), 2) // a commit racing with Shutdown
		h.Publish("R", hubState("a", 2, 3), 0)
	}()
}

// Resuming is exact, as a property: over random publishes (committed and
// live) on random boards of random rounds, watchers of one random scope
// (sharing the scope's feed) that read at their own random points, and
// disconnect and resume from the last seq they received, each always hold
// exactly the hub's latest states after a read, never receive a state older
// than one they had, see seq never go down, and receive a state they
// already had only in a snapshot or when resuming across a live change.
func TestHubResumeProperty(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		nBoards := rapid.IntRange(1, 6).Draw(t, "boards")
		round := make([]string, nBoards)
		for i := range round {
			round[i] = fmt.Sprintf("R%d", rapid.IntRange(0, 2).Draw(t, fmt.Sprintf("round%d", i)))
		}
		board := func(i int) string { return fmt.Sprintf("b%d", i) }
		var scope fanout.Scope
		switch rapid.IntRange(0, 2).Draw(t, "scope") {
		case 1:
			scope.RoundID = fmt.Sprintf("R%d", rapid.IntRange(0, 2).Draw(t, "scopeRound"))
		case 2:
			scope.BoardID = board(rapid.IntRange(0, nBoards-1).Draw(t, "scopeBoard"))
		}
		inScope := func(i int) bool {
			switch {
			case scope.BoardID != "":
				return scope.BoardID == board(i)
			case scope.RoundID != "":
				return scope.RoundID == round[i]
			}
			return true
		}
		h := fanout.NewHub(rapid.IntRange(1, 16).Draw(t, "ring"))

		// The model: the latest version of each board, whether its last
		// publish was live, and the hall-wide seq.
		latest := map[string]int64{}
		lastLive := map[string]bool{}
		var seq uint64
		var version int64

		// The watchers: what each holds, the last seq it received.
		type watcher struct {
			sub     *fanout.Sub
			held    map[string]int64
			lastSeq uint64
			resumed bool
		}
		ws := make([]*watcher, rapid.IntRange(1, 3).Draw(t, "watchers"))
		for i := range ws {
			ws[i] = &watcher{sub: h.Subscribe(scope, 0, 0), held: map[string]int64{}}
		}
		defer func() {
			for _, w := range ws {
				w.sub.Close()
			}
		}()

		read := func(w *watcher) {
			u := poll(t, w.sub)
			if u != nil {
				if u.GetSeq() < w.lastSeq {
					t.Fatalf("update seq %d after %d", u.GetSeq(), w.lastSeq)
				}
				if u.GetSeq() != seq {
					t.Fatalf("update seq %d, want the highest published %d", u.GetSeq(), seq)
				}
				prev := maps.Clone(w.held)
				if u.GetSnapshot() {
					clear(w.held)
				}
				for _, b := range u.GetBoards() {
					id, v := b.GetBoardId(), b.GetAtMs()
					var i int
					fmt.Sscanf(id, "b%d", &i)
					if !inScope(i) {
						t.Fatalf("board %s (round %s) outside scope %+v", id, round[i], scope)
					}
					if had, ok := prev[id]; ok {
						if v < had {
							t.Fatalf("board %s: received version %d after %d", id, v, had)
						}
						if v == had && !u.GetSnapshot() && !(w.resumed && lastLive[id]) {
							t.Fatalf("board %s: version %d received twice", id, v)
						}
					}
					w.held[id] = v
				}
				w.lastSeq = u.GetSeq()
			}
			w.resumed = false
			for i := range nBoards {
				id := board(i)
				want, published := latest[id]
				if !inScope(i) || !published {
					continue
				}
				if w.held[id] != want {
					t.Fatalf("after a read the watcher holds %s at version %d, want %d", id, w.held[id], want)
				}
			}
		}

		steps := rapid.IntRange(0, 120).Draw(t, "steps")
		for range steps {
			switch op := rapid.IntRange(0, 9).Draw(t, "op"); {
			case op <= 4: // a committed event
				i := rapid.IntRange(0, nBoards-1).Draw(t, "board")
				seq++
				version++
				h.Publish(round[i], hubState(board(i), seq, version), seq)
				latest[board(i)], lastLive[board(i)] = version, false
			case op == 5: // a live change, or a board added
				i := rapid.IntRange(0, nBoards-1).Draw(t, "board")
				version++
				h.Publish(round[i], hubState(board(i), 0, version), 0)
				latest[board(i)], lastLive[board(i)] = version, true
			case op <= 7:
				read(ws[rapid.IntRange(0, len(ws)-1).Draw(t, "reader")])
			default: // disconnect and resume from the last seq received
				w := ws[rapid.IntRange(0, len(ws)-1).Draw(t, "resumer")]
				w.sub.Close()
				w.sub = h.Subscribe(scope, w.lastSeq, 0)
				w.resumed = w.lastSeq > 0
			}
		}
		for _, w := range ws {
			read(w)
		}
	})
}

// BenchmarkPublish measures Publish with idle watchers parked in Next on a
// board that never changes (each publish wakes them; they find nothing).
func BenchmarkPublish(b *testing.B) {
	for _, n := range []int{0, 100, 1000} {
		b.Run(fmt.Sprintf("subscribers=%d", n), func(b *testing.B) {
			h := fanout.NewHub(0)
			ctx, cancel := context.WithCancel(context.Background())
			var wg sync.WaitGroup
			for range n {
				sub := h.Subscribe(fanout.Scope{BoardID: "quiet"}, 0, 0)
				poll(b, sub)
				wg.Add(1)
				go func() {
					defer wg.Done()
					for {
						if _, err := sub.Next(ctx); err != nil {
							return
						}
					}
				}()
			}
			st := hubState("busy", 1, 1)
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				h.Publish("R", st, uint64(i+1))
			}
			b.StopTimer()
			cancel()
			h.Close()
			wg.Wait()
		})
	}
}

// Watchers of one scope share each update, encoded once: the same bytes
// go to all of them.
func TestHubSharesUpdates(t *testing.T) {
	h := fanout.NewHub(0)
	h.Publish("R", hubState("a", 1, 1), 1)
	subs := make([]*fanout.Sub, 3)
	for i := range subs {
		subs[i] = h.Subscribe(fanout.Scope{RoundID: "R"}, 0, 0)
		defer subs[i].Close()
		poll(t, subs[i])
	}
	h.Publish("R", hubState("a", 2, 2), 2)
	h.Publish("R", hubState("b", 1, 3), 3)
	var first *fanout.Update
	for i, s := range subs {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		u, err := s.NextUpdate(ctx)
		if err != nil {
			t.Fatalf("watcher %d: %v", i, err)
		}
		if first == nil {
			first = u
		}
		if u != first {
			t.Errorf("watcher %d got an update of its own, want the one shared by the scope", i)
		}
	}
	b, err := first.Proto()
	if err != nil {
		t.Fatal(err)
	}
	var back pb.WatchUpdate
	if err := proto.Unmarshal(b, &back); err != nil || !proto.Equal(&back, first.Msg()) || back.GetSeq() != 3 || len(back.GetBoards()) != 2 {
		t.Errorf("Proto() = %v (%v), want the update %v", &back, err, first.Msg())
	}
	sse, err := first.SSE()
	if err != nil || !strings.HasPrefix(string(sse), "id: 3\ndata: {") || !strings.HasSuffix(string(sse), "}\n\n") {
		t.Errorf("SSE() = %q, %v; want id 3 and the update as data", sse, err)
	}
}

// A watcher that missed a few updates of its scope gets them merged into
// one (the latest state of each board); one that missed more than its
// feed keeps gets what changed since its last update, merged likewise —
// a fresh snapshot if most of its scope changed — never the backlog. (A
// thousand watchers held back while ingest was behind came back each to a
// snapshot of the whole hall, 1.5 GB/s at 10,000 boards, where a few
// hundred boards had changed.)
func TestHubSlowWatcherCatchesUp(t *testing.T) {
	h := fanout.NewHub(0)
	for i := range 5 {
		h.Publish("R", hubState(fmt.Sprintf("b%d", i), 1, int64(i)), uint64(i+1))
	}
	fast := h.Subscribe(fanout.Scope{}, 0, 0)
	slow := h.Subscribe(fanout.Scope{}, 0, 0)
	poll(t, fast)
	poll(t, slow)
	seq := uint64(5)
	publish := func(board string) {
		seq++
		h.Publish("R", hubState(board, seq, int64(seq)), seq)
		if u := poll(t, fast); u == nil || u.GetSnapshot() || len(u.GetBoards()) != 1 {
			t.Fatalf("the fast watcher got %v, want an update of %s", u, board)
		}
	}
	publish("b1")
	publish("b2")
	publish("b1")
	u := poll(t, slow)
	if u.GetSnapshot() || u.GetSeq() != seq || !slices.Equal(updateBoardIDs(u), []string{"b1", "b2"}) || u.GetBoards()[0].GetAtMs() != int64(seq) {
		t.Errorf("three updates behind: %v; want one update of b1 (latest) and b2 at seq %d", u, seq)
	}
	for range 40 {
		publish("b3")
	}
	u = poll(t, slow)
	if u.GetSnapshot() || u.GetSeq() != seq || !slices.Equal(updateBoardIDs(u), []string{"b3"}) || u.GetBoards()[0].GetAtMs() != int64(seq) {
		t.Errorf("forty updates behind, one board changed: %v; want one update of b3's latest state at seq %d", u, seq)
	}
	if u := poll(t, slow); u != nil {
		t.Errorf("after catching up the slow watcher got %v, want nothing more", u)
	}
	for i := range 40 {
		publish(fmt.Sprintf("b%d", i%3))
	}
	u = poll(t, slow)
	if !u.GetSnapshot() || u.GetSeq() != seq || len(u.GetBoards()) != 5 {
		t.Errorf("forty updates behind, three boards of five changed: snapshot %v, seq %d, %d boards; want a snapshot of 5 at seq %d", u.GetSnapshot(), u.GetSeq(), len(u.GetBoards()), seq)
	}
	if u := poll(t, slow); u != nil {
		t.Errorf("after its snapshot the slow watcher got %v, want nothing more", u)
	}
}

// Watchers held back together (ingest behind) and coming back together
// share one catch-up: built and encoded once, holding only what changed.
func TestHubHeldWatchersShareTheirCatchUp(t *testing.T) {
	h := fanout.NewHub(0)
	for i := range 10 {
		h.Publish("R", hubState(fmt.Sprintf("b%d", i), 1, int64(i)), uint64(i+1))
	}
	fast := h.Subscribe(fanout.Scope{}, 0, 0)
	held := []*fanout.Sub{h.Subscribe(fanout.Scope{}, 0, 0), h.Subscribe(fanout.Scope{}, 0, 0), h.Subscribe(fanout.Scope{}, 0, 0)}
	poll(t, fast)
	for _, w := range held {
		poll(t, w)
	}
	seq := uint64(10)
	for i := range 30 {
		seq++
		h.Publish("R", hubState(fmt.Sprintf("b%d", i%2), seq, int64(seq)), seq)
		poll(t, fast)
	}
	var first *fanout.Update
	for i, w := range held {
		u, err := w.NextUpdate(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if m := u.Msg(); m.GetSnapshot() || m.GetSeq() != seq || !slices.Equal(updateBoardIDs(m), []string{"b0", "b1"}) {
			t.Errorf("held watcher %d: %v; want an update of b0 and b1 at seq %d", i, m, seq)
		}
		if first == nil {
			first = u
		} else if u != first {
			t.Errorf("held watcher %d got an update of its own, want the one the first got", i)
		}
	}
}

// Watchers that missed the same updates share one merge of them, built
// and encoded once: a thousand watchers falling behind together must not
// cost the hall a thousand merges. One that missed fewer gets its own
// (shared with its like), holding only what it missed.
func TestHubSlowWatchersShareTheirMerge(t *testing.T) {
	t.Parallel()
	h := fanout.NewHub(0)
	h.Publish("R", hubState("a", 1, 1), 1)
	next := func(s *fanout.Sub) *fanout.Update {
		t.Helper()
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		u, err := s.NextUpdate(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return u
	}
	slow := make([]*fanout.Sub, 4)
	for i := range slow {
		slow[i] = h.Subscribe(fanout.Scope{RoundID: "R"}, 0, 0)
		defer slow[i].Close()
		next(slow[i])
	}
	later := h.Subscribe(fanout.Scope{RoundID: "R"}, 0, 0)
	defer later.Close()
	next(later)
	h.Publish("R", hubState("a", 2, 2), 2)
	if u := next(later); u == nil || len(u.Msg().GetBoards()) != 1 {
		t.Fatalf("the watcher that kept up got %v", u)
	}
	h.Publish("R", hubState("b", 1, 3), 3)
	if u := next(later); u == nil || len(u.Msg().GetBoards()) != 1 {
		t.Fatalf("the watcher that kept up got %v", u)
	}
	h.Publish("R", hubState("c", 1, 4), 4)
	h.Publish("R", hubState("a", 3, 5), 5)

	var merged *fanout.Update
	for i, s := range slow {
		u := next(s)
		if i == 0 {
			merged = u
			if got := updateBoardIDs(u.Msg()); u.Msg().GetSeq() != 5 || !slices.Equal(got, []string{"a", "b", "c"}) || u.Msg().GetBoards()[0].GetAtMs() != 5 {
				t.Fatalf("four updates behind: %v; want a (latest), b and c at seq 5", u.Msg())
			}
		} else if u != merged {
			t.Errorf("slow watcher %d got a merge of its own, want the one shared with watcher 0", i)
		}
	}
	u := next(later)
	if got := updateBoardIDs(u.Msg()); u == merged || u.Msg().GetSeq() != 5 || !slices.Equal(got, []string{"a", "c"}) {
		t.Errorf("two updates behind: %v (shared with the slower: %v); want a and c only, at seq 5", u.Msg(), u == merged)
	}
}

// Watchers on goroutines of their own, some sharing a scope's feed, with
// and without an interval, while a publisher runs: each sees seq never go
// down, no board older than it had, and at the end holds every board of
// its scope at its latest state.
func TestHubConcurrentWatchers(t *testing.T) {
	h := fanout.NewHub(64)
	const boards, publishes = 8, 3000
	round := func(i int) string { return fmt.Sprintf("R%d", i%2) }
	for i := range boards {
		h.Publish(round(i), hubState(fmt.Sprintf("b%d", i), 0, 0), 0)
	}
	type result struct {
		scope fanout.Scope
		held  map[string]int64
		err   error
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	results := make(chan result)
	var wg sync.WaitGroup
	scopes := []fanout.Scope{{}, {}, {RoundID: "R0"}, {RoundID: "R0"}, {BoardID: "b3"}}
	inScope := func(sc fanout.Scope, i int) bool {
		id := fmt.Sprintf("b%d", i)
		return (sc.RoundID == "" || sc.RoundID == round(i)) && (sc.BoardID == "" || sc.BoardID == id)
	}
	for i, sc := range scopes {
		// The seq of the last publish in scope: the watcher is done there.
		var end uint64
		for i := 1; i <= publishes; i++ {
			if inScope(sc, i%boards) {
				end = uint64(i)
			}
		}
		for _, interval := range []time.Duration{0, time.Millisecond} {
			sub := h.Subscribe(sc, 0, interval)
			slow := i%2 == 1
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer sub.Close()
				r := result{scope: sc, held: map[string]int64{}}
				var lastSeq uint64
				for lastSeq < end {
					u, err := sub.Next(ctx)
					if err != nil {
						r.err = fmt.Errorf("Next at seq %d: %w", lastSeq, err)
						break
					}
					if u.GetSeq() < lastSeq {
						r.err = fmt.Errorf("seq %d after %d", u.GetSeq(), lastSeq)
						break
					}
					lastSeq = u.GetSeq()
					if u.GetSnapshot() {
						clear(r.held)
					}
					for _, b := range u.GetBoards() {
						if b.GetAtMs() < r.held[b.GetBoardId()] {
							r.err = fmt.Errorf("board %s: version %d after %d", b.GetBoardId(), b.GetAtMs(), r.held[b.GetBoardId()])
						}
						r.held[b.GetBoardId()] = b.GetAtMs()
					}
					if slow {
						time.Sleep(200 * time.Microsecond)
					}
				}
				results <- r
			}()
		}
	}
	latest := map[string]int64{}
	for i := 1; i <= publishes; i++ {
		id := fmt.Sprintf("b%d", i%boards)
		h.Publish(round(i%boards), hubState(id, uint64(i), int64(i)), uint64(i))
		latest[id] = int64(i)
	}
	go func() { wg.Wait(); close(results) }()
	for r := range results {
		if r.err != nil {
			t.Errorf("watcher of %+v: %v", r.scope, r.err)
			continue
		}
		for i := range boards {
			id := fmt.Sprintf("b%d", i)
			in := inScope(r.scope, i)
			if got, ok := r.held[id]; in && got != latest[id] || !in && ok {
				t.Errorf("watcher of %+v holds %s at version %d (%v), want %d (in scope: %v)", r.scope, id, got, ok, latest[id], in)
			}
		}
	}
}
