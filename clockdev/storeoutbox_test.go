package clockdev

import (
	"bytes"
	"errors"
	"testing"
)

// memStore is a JournalStore in memory, as a browser's localStorage key
// is one string written whole: text is the journal; fail makes writes fail.
type memStore struct {
	text   []byte
	writes int
	fail   error
}

func (m *memStore) Load() ([]byte, error) { return bytes.Clone(m.text), nil }

func (m *memStore) Append(line []byte) error {
	if m.fail != nil {
		return m.fail
	}
	m.writes++
	m.text = append(m.text, line...)
	return nil
}

func (m *memStore) Replace(text []byte) error {
	if m.fail != nil {
		return m.fail
	}
	m.writes++
	m.text = bytes.Clone(text)
	return nil
}

func openStore(t *testing.T, s *memStore) Outbox {
	t.Helper()
	ob, err := OpenStoreOutbox(s)
	if err != nil {
		t.Fatalf("OpenStoreOutbox: %v", err)
	}
	return ob
}

// An outbox kept in a store (a browser's localStorage) survives a reopen
// (a reload of the page) with its pending events, numbers and board; a
// write the store refuses is not applied; a long game is compacted.
func TestStoreOutboxSurvivesReopen(t *testing.T) {
	s := &memStore{}
	ob := openStore(t, s)
	ob.SaveBoard(testAssignment("B1", "300", action(kStart, 0, white)))
	for i := uint64(1); i <= 3; i++ {
		if err := ob.Append(pressEvent(i, int64(100*i), white), true); err != nil {
			t.Fatal(err)
		}
	}
	ob.Ack(1)
	want := contentOf(ob)
	ob.Close()

	ob = openStore(t, s) // the reload
	sameContent(t, "reopened", contentOf(ob), want)

	s.fail = errors.New("QuotaExceededError")
	if err := ob.Append(pressEvent(4, 400, black), true); err == nil {
		t.Fatal("Append succeeded on a store that refused the write")
	}
	sameContent(t, "after a refused write", contentOf(ob), want)
	s.fail = nil

	// A damaged last line (a write that did not complete) is dropped.
	s.text = append(s.text, `{"op":"event","event":{"seq":"4"`...)
	ob = openStore(t, s)
	sameContent(t, "after a torn write", contentOf(ob), want)

	setRetained(ob, 8)
	for i := uint64(4); i <= 400; i++ {
		if err := ob.Append(pressEvent(i, int64(100*i), white), true); err != nil {
			t.Fatal(err)
		}
		ob.Ack(i - 1)
	}
	if n := bytes.Count(s.text, []byte("\n")); n > storeCompactAfter+8 {
		t.Errorf("journal has %d lines after 800 operations: want it compacted", n)
	}
	want = contentOf(ob)
	ob = openStore(t, s)
	setRetained(ob, 8)
	sameContent(t, "after compaction", contentOf(ob), want)
	if n := len(ob.Board().GetHistory()); n != 401 {
		t.Errorf("history has %d actions, want 401", n)
	}
}
