package storage

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/chesshall/hallclock/internal/ident"
	"github.com/chesshall/hallclock/rules"
)

// kinds lists the kind and ref of each entry, "event:b1/3" for events.
func kinds(es []OutboxEntry) []string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.Kind + ":" + e.Ref
		if e.Event != nil {
			out[i] += fmt.Sprintf("/%d", e.Event.BoardSeq)
		}
	}
	return out
}

func mustOutbox(tb testing.TB, s *Store, after uint64) []OutboxEntry {
	tb.Helper()
	es, err := s.OutboxAfter(context.Background(), after, 0)
	if err != nil {
		tb.Fatalf("OutboxAfter(%d) = %v", after, err)
	}
	return es
}

// Every change a follower needs adds one outbox row in its own
// transaction, in commit order; a Write that rolls back adds none.
func TestOutboxRowsInCommitOrder(t *testing.T) {
	t.Parallel()
	s := MustOpen(t)
	ctx := context.Background()
	start := mustOutbox(t, s, 0)
	if got := kinds(start); len(got) != 1 || got[0] != "hall:" {
		t.Fatalf("a new hall's outbox = %v, want [hall:]", got)
	}
	after := start[0].ID
	ids := mustBoards(t, s, 2)
	mustWrite(t, s, func(tx *Tx) error {
		return tx.AppendEvent(&EventRecord{BoardID: ids[0], BoardSeq: 1, Event: rules.Event{Kind: rules.KindStart}, Actor: "arb"})
	})
	// Rolled back: the event and its row are gone together.
	boom := errors.New("boom")
	if err := s.Write(ctx, func(tx *Tx) error {
		if err := tx.AppendEvent(&EventRecord{BoardID: ids[1], BoardSeq: 1, Event: rules.Event{Kind: rules.KindStart}}); err != nil {
			return err
		}
		return boom
	}); !errors.Is(err, boom) {
		t.Fatalf("Write = %v, want %v", err, boom)
	}
	mustWrite(t, s, func(tx *Tx) error {
		if err := tx.AppendEvent(&EventRecord{BoardID: ids[0], BoardSeq: 2, Event: press(rules.White, 1000)}); err != nil {
			return err
		}
		if err := tx.PutRoundBroadcast(&RoundBroadcast{RoundID: "r1", Public: true, RelayURL: "https://relay.example/push", RelayToken: "secret"}); err != nil {
			return err
		}
		if err := tx.SetBoardSource(ids[1], SourceVirtual); err != nil {
			return err
		}
		if err := tx.PutToken(&TokenRecord{ID: "tok-b", Hash: ident.HashSecret("b"), Role: "broadcast"}); err != nil {
			return err
		}
		return tx.PutToken(&TokenRecord{ID: "tok-a", Hash: ident.HashSecret("a"), Role: "arbiter"}) // not for followers
	})
	mustWrite(t, s, func(tx *Tx) error { return tx.RevokeToken("tok-b", time.Time{}) })
	mustWrite(t, s, func(tx *Tx) error { return tx.RevokeToken("tok-a", time.Time{}) })

	es := mustOutbox(t, s, after)
	want := []string{"tournament:t1", "round:r1", "board:b1", "board:b2", "event:b1/1", "event:b1/2", "round:r1", "board:b2", "token:tok-b", "token:tok-b"}
	if got := kinds(es); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("outbox = %v\nwant     %v", got, want)
	}
	for i := 1; i < len(es); i++ {
		if es[i].ID <= es[i-1].ID {
			t.Errorf("outbox ids not increasing: %d after %d", es[i].ID, es[i-1].ID)
		}
	}
	if e := es[5]; e.Event.Seq == 0 || e.Event.Event.Kind != rules.KindPress || e.Event.Event.T != 1000 {
		t.Errorf("event row = %+v, want the press at 1000 with its hall seq", e.Event)
	}
	if e := es[6]; e.Round == nil || !e.RoundPublic {
		t.Errorf("round row = %+v public %v, want round r1 public", e.Round, e.RoundPublic)
	}
	if e := es[7]; e.Board == nil || e.Board.Source != SourceVirtual || e.Board.White.Name != "White b2" {
		t.Errorf("board row = %+v, want b2 on a virtual clock with its players", e.Board)
	}
	if e := es[9]; e.Token == nil || e.Token.Active() || e.Token.Hash != ident.HashSecret("b") {
		t.Errorf("token row = %+v, want tok-b revoked with its hash", e.Token)
	}
	st, err := s.OutboxState(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.Published != 0 || st.Last != es[len(es)-1].ID || st.Backlog() != st.Last || st.Oldest.IsZero() {
		t.Errorf("OutboxState = %+v, want nothing published, backlog up to %d", st, es[len(es)-1].ID)
	}
}

// A deleted board's rows have only its id: followers drop it.
func TestOutboxDeletedBoard(t *testing.T) {
	t.Parallel()
	s := MustOpen(t)
	ids := mustBoards(t, s, 1)
	mustWrite(t, s, func(tx *Tx) error { return tx.DeleteBoard(ids[0]) })
	es := mustOutbox(t, s, 0)
	last := es[len(es)-1]
	if last.Kind != OutboxBoard || last.Ref != ids[0] || last.Board != nil {
		t.Fatalf("last row = %+v, want board %s gone", last, ids[0])
	}
}

// Events written by many boards at once (grouped into shared commits)
// get one row each, in hall-wide seq order.
func TestOutboxConcurrentEvents(t *testing.T) {
	t.Parallel()
	s := MustOpen(t)
	ids := mustBoards(t, s, 8)
	const per = 40
	var wg sync.WaitGroup
	for _, id := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := uint64(1); n <= per; n++ {
				ev := press(rules.White, int64(n))
				if n == 1 {
					ev = rules.Event{Kind: rules.KindStart}
				}
				if err := s.Write(context.Background(), func(tx *Tx) error {
					return tx.AppendEvent(&EventRecord{BoardID: id, BoardSeq: n, Event: ev})
				}); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	var lastSeq uint64
	next := map[string]uint64{}
	n := 0
	for _, e := range mustOutbox(t, s, 0) {
		if e.Kind != OutboxEvent {
			continue
		}
		n++
		if e.Event.Seq <= lastSeq {
			t.Fatalf("event seq %d after %d: outbox not in commit order", e.Event.Seq, lastSeq)
		}
		lastSeq = e.Event.Seq
		next[e.Ref]++
		if e.Event.BoardSeq != next[e.Ref] {
			t.Fatalf("board %s: event %d where %d was due", e.Ref, e.Event.BoardSeq, next[e.Ref])
		}
	}
	if n != len(ids)*per {
		t.Fatalf("%d event rows, want %d", n, len(ids)*per)
	}
	select {
	case <-s.OutboxWake():
	default:
		t.Error("no wake signal after commits with outbox rows")
	}
}

func TestOutboxPublishedPruneRewind(t *testing.T) {
	t.Parallel()
	s := MustOpen(t)
	ctx := context.Background()
	mustBoards(t, s, 3)
	es := mustOutbox(t, s, 0)
	mid := es[2].ID
	// Kept for an hour: marked, not pruned.
	if err := s.MarkPublished(ctx, mid, time.Hour); err != nil {
		t.Fatal(err)
	}
	st, _ := s.OutboxState(ctx)
	if st.Published != mid || st.Backlog() != uint64(len(es))-mid+es[0].ID-1 {
		t.Errorf("after MarkPublished(%d): %+v", mid, st)
	}
	if got := len(mustOutbox(t, s, 0)); got != len(es) {
		t.Errorf("%d rows after marking with an hour to keep, want %d", got, len(es))
	}
	// A lower mark changes nothing; a rewind within the kept rows works.
	if err := s.MarkPublished(ctx, 1, time.Hour); err != nil {
		t.Fatal(err)
	}
	if err := s.RewindPublished(ctx, es[0].ID); err != nil {
		t.Fatal(err)
	}
	if st, _ := s.OutboxState(ctx); st.Published != es[0].ID {
		t.Errorf("after rewind: published %d, want %d", st.Published, es[0].ID)
	}
	// Nothing kept: published rows are pruned; rewinding past them is refused.
	last := es[len(es)-1].ID
	if err := s.MarkPublished(ctx, last, -time.Second); err != nil {
		t.Fatal(err)
	}
	if got := mustOutbox(t, s, 0); len(got) != 0 {
		t.Errorf("rows left after pruning everything: %v", kinds(got))
	}
	if err := s.RewindPublished(ctx, mid); !errors.Is(err, ErrConflict) {
		t.Errorf("RewindPublished past pruned rows = %v, want ErrConflict", err)
	}
	if st, _ := s.OutboxState(ctx); st.Backlog() != 0 || !st.Oldest.IsZero() {
		t.Errorf("state after publishing everything: %+v", st)
	}
}

// A new hall id reseeds the outbox with the whole hall, after every id
// used: the new stream gets everything.
func TestSetHallIDReseeds(t *testing.T) {
	t.Parallel()
	s := MustOpen(t)
	ctx := context.Background()
	id, err := s.HallID(ctx)
	if err != nil || ident.CheckHallID(id) != nil {
		t.Fatalf("HallID() = %q, %v; want a valid generated id", id, err)
	}
	ids := mustBoards(t, s, 2)
	mustWrite(t, s, func(tx *Tx) error {
		return tx.AppendEvent(&EventRecord{BoardID: ids[1], BoardSeq: 1, Event: rules.Event{Kind: rules.KindStart}})
	})
	before := mustOutbox(t, s, 0)
	if err := s.MarkPublished(ctx, before[len(before)-1].ID, -time.Second); err != nil {
		t.Fatal(err)
	}
	if err := s.SetHallID(ctx, "bergen.1"); err == nil {
		t.Error("SetHallID with a dot accepted; it would split a NATS subject")
	}
	if err := s.SetHallID(ctx, "bergen-1"); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.HallID(ctx); got != "bergen-1" {
		t.Errorf("HallID() = %q after SetHallID(bergen-1)", got)
	}
	after := mustOutbox(t, s, 0)
	want := []string{"hall:", "tournament:t1", "round:r1", "board:b1", "board:b2", "event:b2/1"}
	if got := kinds(after); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("reseeded outbox = %v, want %v", got, want)
	}
	if after[0].ID <= before[len(before)-1].ID {
		t.Errorf("reseeded ids start at %d, not after %d", after[0].ID, before[len(before)-1].ID)
	}
	st, _ := s.OutboxState(ctx)
	if st.Published != after[0].ID-1 || st.Backlog() != uint64(len(after)) {
		t.Errorf("state after reseed = %+v, want %d rows to publish", st, len(after))
	}
	// The same id again: nothing.
	if err := s.SetHallID(ctx, "bergen-1"); err != nil {
		t.Fatal(err)
	}
	if got := len(mustOutbox(t, s, 0)); got != len(after) {
		t.Errorf("SetHallID with the same id changed the outbox: %d rows, want %d", got, len(after))
	}
}

func TestSetHallInfo(t *testing.T) {
	t.Parallel()
	s := MustOpen(t)
	ctx := context.Background()
	n := len(mustOutbox(t, s, 0))
	for range 2 {
		if err := s.SetHallInfo(ctx, HallInfo{DelayMs: 900000, AllPublic: true}); err != nil {
			t.Fatal(err)
		}
	}
	es := mustOutbox(t, s, 0)
	if len(es) != n+1 {
		t.Fatalf("%d rows after setting the same info twice, want %d", len(es), n+1)
	}
	if h := es[len(es)-1].Hall; h == nil || h.DelayMs != 900000 || !h.AllPublic {
		t.Errorf("hall row = %+v", h)
	}
}
