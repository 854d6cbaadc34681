package faults

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/chesshall/hallclock/clockdev"
	"github.com/chesshall/hallclock/internal/testkit/halltest"
	"github.com/chesshall/hallclock/internal/wire"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
	"github.com/chesshall/hallclock/storage"
)

// ackBook is every event the clocks saw acknowledged (and not refused).
type ackBook struct {
	mu    sync.Mutex
	acked map[devSeq]*pb.DeviceEvent
	// refused are the events acknowledged refused, with why (an event
	// acknowledged applied and refused when resent after a restore is in
	// both).
	refused map[devSeq]*pb.Rejection
	// lost are the events the hall's audit log says a restore lost: check
	// counts them apart, as on record.
	lost map[devSeq]bool
}

type devSeq struct {
	dev string
	seq uint64
}

func newAckBook() *ackBook {
	return &ackBook{acked: map[devSeq]*pb.DeviceEvent{}, refused: map[devSeq]*pb.Rejection{}, lost: map[devSeq]bool{}}
}

func (b *ackBook) onAck(dev string, a clockdev.Acked) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if a.Rejection != nil {
		b.refused[devSeq{dev, a.Event.GetSeq()}] = a.Rejection
		return
	}
	b.acked[devSeq{dev, a.Event.GetSeq()}] = a.Event
}

func (b *ackBook) count() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.acked)
}

// verdict is what checking the store found.
type verdict struct {
	acked, lost, duplicated, boards, replayed int
	audited                                   int // lost in a restore, on record in the audit log
}

func (v verdict) String() string {
	return fmt.Sprintf("%d events acknowledged, %d lost, %d duplicated, %d lost in a restore on record; %d boards, %d replayed to the watchers' last state",
		v.acked, v.lost, v.duplicated, v.audited, v.boards, v.replayed)
}

// check opens the hall's database (the server stopped) and checks it
// against the acknowledgements and the watcher: every acknowledged event
// stored exactly once, as sent; no event stored twice (the same action of
// the same clock at the same board time); every board's log applies and
// replays to the watcher's last state. Right after a kill -9 (final
// false) the watcher may not have seen the last commits: each board's log
// must then hold what the watcher saw and replay, up to there, to it.
func check(t *testing.T, dbPath string, book *ackBook, w *halltest.Watcher, final bool) verdict {
	t.Helper()
	ctx := context.Background()
	st, err := storage.Open(ctx, dbPath, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	boards, err := st.Boards(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	var v verdict
	v.boards = len(boards)
	stored := map[devSeq]storage.EventRecord{}
	type sameAction struct {
		board, dev string
		kind       rules.Kind
		t          int64
		side       rules.Side
	}
	for _, b := range boards {
		evs, err := st.Events(ctx, b.ID, 0)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[sameAction]bool{}
		for _, e := range evs {
			if e.DeviceID != "" {
				k := devSeq{e.DeviceID, e.DeviceSeq}
				if _, dup := stored[k]; dup {
					v.duplicated++
					t.Errorf("device %s seq %d stored twice", k.dev, k.seq)
				}
				stored[k] = e
				a := sameAction{b.ID, e.DeviceID, e.Event.Kind, e.Event.T, e.Event.Side}
				if seen[a] && e.Event.Kind != rules.KindFlag {
					v.duplicated++
					t.Errorf("board %s: %s by %s at %d ms stored twice", b.ID, e.Event.Kind, e.DeviceID, e.Event.T)
				}
				seen[a] = true
			}
		}
		got := w.Last(b.ID)
		if got == nil {
			if !final || len(evs) == 0 {
				v.replayed++ // never seen changing
				continue
			}
			t.Errorf("board %s (%d events): the watcher never saw it", b.ID, len(evs))
			continue
		}
		upTo := uint64(len(evs))
		if !final {
			if got.GetBoardSeq() > upTo {
				t.Errorf("board %s: the watcher saw event %d, the log after the kill ends at %d", b.ID, got.GetBoardSeq(), upTo)
				continue
			}
			upTo = got.GetBoardSeq()
		}
		rs, err := replay(b, evs[:upTo])
		if err != nil {
			t.Errorf("board %s does not replay: %v", b.ID, err)
			continue
		}
		want := wire.State(rs)
		want.BoardSeq = upTo
		g, wnt := halltest.Ruled(got), halltest.Ruled(want)
		g.BoardId, wnt.BoardId = "", ""
		if !proto.Equal(g, wnt) {
			t.Errorf("board %s: the watcher's last state differs from the log replayed to event %d:\n got %v\nwant %v", b.ID, upTo, g, wnt)
			continue
		}
		v.replayed++
	}
	book.mu.Lock()
	defer book.mu.Unlock()
	v.acked = len(book.acked)
	for k, ev := range book.acked {
		e, ok := stored[k]
		if !ok && book.lost[k] {
			v.audited++
			continue
		}
		if !ok {
			v.lost++
			t.Errorf("device %s seq %d (%v on %s) was acknowledged and is not in the store", k.dev, k.seq, ev.GetAction().GetKind(), ev.GetBoardId())
			continue
		}
		if e.BoardID != ev.GetBoardId() || wire.Action(e.Event).GetKind() != ev.GetAction().GetKind() || e.Event.T != ev.GetAction().GetTMs() {
			t.Errorf("device %s seq %d: stored %s at %d on %s, acknowledged %v at %d on %s", k.dev, k.seq,
				e.Event.Kind, e.Event.T, e.BoardID, ev.GetAction().GetKind(), ev.GetAction().GetTMs(), ev.GetBoardId())
		}
	}
	return v
}

// replay folds a board's events from scratch, with the rules alone.
func replay(b storage.BoardRecord, evs []storage.EventRecord) (rules.State, error) {
	st, err := rules.NewState(b.Config)
	if err != nil {
		return st, err
	}
	for i, e := range evs {
		if e.BoardSeq != uint64(i+1) {
			return st, fmt.Errorf("the log jumps from event %d to %d", i, e.BoardSeq)
		}
		if st, err = rules.Apply(st, e.Event); err != nil {
			return st, fmt.Errorf("event %d: %w", i+1, err)
		}
	}
	return st, nil
}

// caughtUp waits until the store has been quiet for a quarter of a second
// and the watcher has seen all of it. The fleet's last presses, sent but
// not yet acknowledged when it stopped (after a thaw, a backlog of them),
// may still be committing when its stop returns: the store's end read
// once, at once, could leave the watcher one event short of the log on
// every board the check then compares.
func caughtUp(t *testing.T, dbPath string, w *halltest.Watcher) {
	t.Helper()
	var last uint64
	quiet := time.Now()
	halltest.Eventually(t, 20*time.Second, func() error {
		sum, err := storage.Inspect(context.Background(), dbPath)
		if err != nil {
			return err
		}
		if sum.LastSeq != last {
			last, quiet = sum.LastSeq, time.Now()
		}
		if s := w.Seq(); s < last {
			return fmt.Errorf("the watcher is at #%d, the store at #%d", s, last)
		}
		if since := time.Since(quiet); since < 250*time.Millisecond {
			return fmt.Errorf("the store committed #%d %s ago: not yet quiet", last, since.Round(time.Millisecond))
		}
		return nil
	})
}
