package storage

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/chesshall/hallclock/rules"
)

// The events just committed are handed over from memory exactly as the
// database gives them back (OutboxAfter), in id order; a row of another
// kind, a Write rolled back, and a rewritten outbox send the reader to the
// database, which the ring never contradicts.
func TestOutboxRecentIsOutboxAfter(t *testing.T) {
	t.Parallel()
	s := MustOpen(t)
	ctx := context.Background()
	ids := mustBoards(t, s, 2)
	if rows, complete := s.OutboxRecent(nil, 0, 100); len(rows) != 0 || complete {
		t.Fatalf("before any event committed in this process: %d rows, complete %v; want the database", len(rows), complete)
	}
	start := mustOutbox(t, s, 0)
	after := start[len(start)-1].ID
	two := 2
	mustWrite(t, s, func(tx *Tx) error {
		return tx.AppendEvent(&EventRecord{BoardID: ids[0], BoardSeq: 1, Event: rules.Event{Kind: rules.KindStart}, Actor: "arb", Reason: "on time"})
	})
	ev := &EventRecord{BoardID: ids[0], BoardSeq: 2, Event: rules.Event{Kind: rules.KindSetClock, T: 5, WhiteMoves: &two}, DeviceID: "clk-1", DeviceSeq: 1, CommandID: "c1", Actor: "device:clk-1"}
	mustWrite(t, s, func(tx *Tx) error { return tx.AppendEvent(ev) })
	ev.Event.Kind, two = rules.KindPress, 7 // the caller's record changes after the Write: the ring's does not
	// A Write rolled back leaves nothing in the ring either.
	boom := errors.New("boom")
	if err := s.Write(ctx, func(tx *Tx) error {
		if err := tx.AppendEvent(&EventRecord{BoardID: ids[1], BoardSeq: 1, Event: rules.Event{Kind: rules.KindStart}}); err != nil {
			return err
		}
		return boom
	}); !errors.Is(err, boom) {
		t.Fatal(err)
	}
	mustWrite(t, s, func(tx *Tx) error {
		return tx.AppendEvent(&EventRecord{BoardID: ids[0], BoardSeq: 3, Event: press(rules.White, 1000)})
	})

	same := func(from []OutboxEntry, db []OutboxEntry) {
		t.Helper()
		if len(from) != len(db) {
			t.Fatalf("from memory %v, from the database %v", kinds(from), kinds(db))
		}
		for i := range from {
			m, d := from[i], db[i]
			if m.ID != d.ID || m.Kind != d.Kind || m.Ref != d.Ref {
				t.Errorf("row %d: memory %d %s %s, database %d %s %s", i, m.ID, m.Kind, m.Ref, d.ID, d.Kind, d.Ref)
			}
			stored, _ := json.Marshal(d.Event.Event)
			if !bytes.Equal(m.EventJSON, stored) {
				t.Errorf("row %d: memory's event %s, the database's %s", m.ID, m.EventJSON, stored)
			}
			me, de := *m.Event, *d.Event
			if me.Wall.UnixMilli() != de.Wall.UnixMilli() {
				t.Errorf("row %d: wall %v in memory, %v in the database", m.ID, me.Wall, de.Wall)
			}
			me.Wall = de.Wall
			if !reflect.DeepEqual(me, de) {
				t.Errorf("row %d: memory %+v\ndatabase %+v", m.ID, me, de)
			}
		}
	}
	rows, complete := s.OutboxRecent(nil, after, 100)
	if !complete {
		t.Errorf("every event committed is in memory: want complete")
	}
	same(rows, mustOutbox(t, s, after))
	if got := kinds(rows); !reflect.DeepEqual(got, []string{"event:" + ids[0] + "/1", "event:" + ids[0] + "/2", "event:" + ids[0] + "/3"}) {
		t.Errorf("rows %v", got)
	}
	if rows, complete := s.OutboxRecent(nil, after, 2); len(rows) != 2 || complete {
		t.Errorf("limit 2: %d rows, complete %v; want 2, more to come", len(rows), complete)
	}
	last := rows[len(rows)-1].ID
	if rows, complete := s.OutboxRecent(nil, last, 100); len(rows) != 0 || !complete {
		t.Errorf("after the newest: %d rows, complete %v; want none and nothing more", len(rows), complete)
	}

	// A row of another kind between two events: the run stops before it,
	// and the reader must read on from the database.
	mustWrite(t, s, func(tx *Tx) error { return tx.SetBoardSource(ids[1], SourceVirtual) })
	mustWrite(t, s, func(tx *Tx) error {
		return tx.AppendEvent(&EventRecord{BoardID: ids[0], BoardSeq: 4, Event: press(rules.Black, 2000)})
	})
	if rows, complete := s.OutboxRecent(nil, last, 100); len(rows) != 0 || complete {
		t.Errorf("a board row next: %v, complete %v; want the database", kinds(rows), complete)
	}
	db := mustOutbox(t, s, last)
	if got := kinds(db); len(got) != 2 || got[0] != "board:"+ids[1] {
		t.Fatalf("database after %d: %v", last, got)
	}
	rows, complete = s.OutboxRecent(nil, db[0].ID, 100)
	if !complete {
		t.Error("after the board row: want complete")
	}
	same(rows, db[1:])
	if rows, complete := s.OutboxRecent(nil, after, 100); len(rows) != 3 || complete {
		t.Errorf("from the start again: %v, complete %v; want the three events before the board row, more to come", kinds(rows), complete)
	}

	// The outbox rewritten: the ring starts again, from the database.
	if err := s.SetHallID(ctx, "hall-renamed"); err != nil {
		t.Fatal(err)
	}
	st, err := s.OutboxState(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if rows, complete := s.OutboxRecent(nil, st.Published, 100); len(rows) != 0 || complete {
		t.Errorf("after a reseed: %v, complete %v; want the database", kinds(rows), complete)
	}
	for _, a := range []uint64{after, last, db[0].ID} {
		if rows, complete := s.OutboxRecent(nil, a, 100); len(rows) != 0 || complete {
			t.Errorf("after a reseed, rows after %d: %v, complete %v; want the database (they are deleted)", a, kinds(rows), complete)
		}
	}
	mustWrite(t, s, func(tx *Tx) error {
		return tx.AppendEvent(&EventRecord{BoardID: ids[0], BoardSeq: 5, Event: press(rules.White, 3000)})
	})
	all := mustOutbox(t, s, st.Published)
	newest := all[len(all)-1]
	rows, complete = s.OutboxRecent(nil, newest.ID-1, 100)
	if !complete {
		t.Error("the event after the reseed: want complete")
	}
	same(rows, all[len(all)-1:])
}

// The ring keeps the newest rows only: a reader behind by more than it
// holds reads the database.
func TestOutboxRecentRing(t *testing.T) {
	var r recentOutbox
	var ents []OutboxEntry
	for id := uint64(1); id <= recentCap+10; id++ {
		ents = append(ents, OutboxEntry{ID: id, Kind: OutboxEvent})
	}
	r.add(ents[:100], 100, false)
	r.add(ents[100:], recentCap+10, false)
	if rows, _ := r.after(nil, 5, 10); len(rows) != 0 {
		t.Errorf("row 6 fell out of the ring: got %d rows", len(rows))
	}
	rows, complete := r.after(nil, 10, 5)
	if len(rows) != 5 || rows[0].ID != 11 || rows[4].ID != 15 || complete {
		t.Errorf("after 10, 5 rows: %d from %d, complete %v", len(rows), rows[0].ID, complete)
	}
	rows, complete = r.after(nil, recentCap, 100)
	if len(rows) != 10 || rows[9].ID != recentCap+10 || !complete {
		t.Errorf("the newest: %d rows, complete %v", len(rows), complete)
	}
	r.add(nil, recentCap+11, false) // a row of another kind
	if _, complete := r.after(nil, recentCap, 100); complete {
		t.Error("a row of another kind after the newest event: want more to come")
	}
}

// The ring's copy of an event shares nothing with the caller's: every
// field of rules.Event that refers to memory is one cloneEvent copies.
func TestCloneEventCopiesEveryPointer(t *testing.T) {
	copied := map[string]bool{"WhiteMoves": true, "BlackMoves": true, "ToMove": true}
	typ := reflect.TypeOf(rules.Event{})
	for i := range typ.NumField() {
		f := typ.Field(i)
		switch f.Type.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Interface, reflect.Chan, reflect.Func:
			if !copied[f.Name] {
				t.Errorf("rules.Event.%s (%s) would be shared by the ring's copy: copy it in cloneEvent", f.Name, f.Type)
			}
		}
	}
	a, b, side := 1, 2, rules.Black
	e := rules.Event{WhiteMoves: &a, BlackMoves: &b, ToMove: &side}
	c := cloneEvent(e)
	a, b, side = 9, 9, rules.White
	if *c.WhiteMoves != 1 || *c.BlackMoves != 2 || *c.ToMove != rules.Black {
		t.Errorf("the copy changed with the original: %v %v %v", *c.WhiteMoves, *c.BlackMoves, *c.ToMove)
	}
}
