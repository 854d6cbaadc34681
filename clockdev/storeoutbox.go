package clockdev

import (
	"fmt"
)

// JournalStore keeps the text of an outbox journal (the file outbox's
// JSON lines) where there is no file system: a browser's localStorage,
// say. Each call must be durable when it returns, as a file's fsync is;
// Replace must replace the whole text at once.
type JournalStore interface {
	// Load returns the journal's text, empty if there is none.
	Load() ([]byte, error)
	// Append adds one line (ending in a newline) to the text.
	Append(line []byte) error
	// Replace replaces the whole text with a compacted journal.
	Replace(text []byte) error
}

// storeCompactAfter is how many lines a store's journal may hold before
// it is compacted (at least; a compaction also waits for four times the
// live content). Smaller than a file's: a store may rewrite the whole
// text on every Append (localStorage does).
const storeCompactAfter = 256

// storeRetained is how many acknowledged events a store outbox keeps for
// Resend: fewer than a file's RetainedEvents, since a browser's
// localStorage holds a few megabytes in all; a day of a tablet's games.
const storeRetained = 512

// OpenStoreOutbox opens the Outbox journaled in s: what OpenFileOutbox is
// for a file, for a store of the same JSON lines. A device reopened on
// the same store resends the same pending events with the same numbers
// and recovers its board with that board's history. It keeps the last
// 512 acknowledged events for Resend (a file, RetainedEvents).
func OpenStoreOutbox(s JournalStore) (Outbox, error) {
	data, err := s.Load()
	if err != nil {
		return nil, fmt.Errorf("clockdev: read outbox: %w", err)
	}
	l := newLedger()
	l.keep = storeRetained
	good, lines, err := loadJournal(data, &l)
	if err != nil {
		return nil, fmt.Errorf("clockdev: outbox %w", err)
	}
	if good < int64(len(data)) {
		if err := s.Replace(data[:good]); err != nil { // drops a damaged last line
			return nil, fmt.Errorf("clockdev: repair outbox: %w", err)
		}
	}
	j := &storeJournal{s: s, lines: lines, compact: storeCompactAfter}
	j.records.put = j.write
	return &lockedOutbox{l: l, j: j}, nil
}

// storeJournal is the journal of a store outbox.
type storeJournal struct {
	records
	s       JournalStore
	lines   int
	compact int
	retryAt int
}

func (j *storeJournal) write(rec fileRecord) error {
	b, err := encodeRecord(rec)
	if err != nil {
		return err
	}
	if err := j.s.Append(b); err != nil {
		return fmt.Errorf("clockdev: write outbox: %w", err)
	}
	j.lines++
	return nil
}

func (j *storeJournal) close() error { return nil }

// recorded compacts the journal when it has grown well past its live
// content; a failed compaction leaves the old text, tried again after
// twice as many lines.
func (j *storeJournal) recorded(l *ledger) {
	live := len(l.pending) + len(l.retained) + len(l.left) + 2
	if j.lines <= j.compact || j.lines <= 4*live || j.lines < j.retryAt {
		return
	}
	text, lines, err := compacted(l)
	if err == nil {
		err = j.s.Replace(text)
	}
	if err != nil {
		j.retryAt = 2 * j.lines
		return
	}
	j.lines, j.retryAt = lines, 0
}
