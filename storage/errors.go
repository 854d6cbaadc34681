package storage

import (
	"errors"
	"fmt"

	"github.com/mattn/go-sqlite3"
)

// The kinds of storage error. Every error the store returns for one of
// these reasons matches its sentinel with errors.Is; its message says what
// was wrong ("board b12: event 7 appended after 5"). A transport maps them
// in one place (not found, already exists, failed precondition, ...).
var (
	// ErrNotFound: the tournament, round, board, command, token or
	// snapshot does not exist.
	ErrNotFound = errors.New("not found")
	// ErrDuplicate: the thing is already stored: a device sequence number
	// already committed, an id or a token hash already used.
	ErrDuplicate = errors.New("duplicate")
	// ErrConflict: the write does not fit what is stored: an event whose
	// board sequence is not the next one, a snapshot past the log, a
	// command already resolved.
	ErrConflict = errors.New("conflict")
	// ErrGap: a device sequence number skips some: the numbers between
	// the last committed one and it were never received.
	ErrGap = errors.New("gap")
	// ErrClosed: the store is closed.
	ErrClosed = errors.New("storage: store closed")
)

// Error is an error of one of the kinds above, with a message saying what
// was wrong. errors.Is(err, kind) is true for its Kind.
type Error struct {
	Kind error  // ErrNotFound, ErrDuplicate, ErrConflict or ErrGap
	Msg  string // what was wrong, e.g. "board b12: event 7 appended after 5"
}

func (e *Error) Error() string { return "storage: " + e.Msg }

// Unwrap returns the kind, so errors.Is(err, ErrConflict) works.
func (e *Error) Unwrap() error { return e.Kind }

func errorf(kind error, format string, args ...any) error {
	return &Error{Kind: kind, Msg: fmt.Sprintf(format, args...)}
}

// constraint reports which constraint of SQLite err violated:
// "unique" (including primary keys), "foreign" or "".
func constraint(err error) string {
	var se sqlite3.Error
	if !errors.As(err, &se) {
		return ""
	}
	switch se.ExtendedCode {
	case sqlite3.ErrConstraintUnique, sqlite3.ErrConstraintPrimaryKey:
		return "unique"
	case sqlite3.ErrConstraintForeignKey:
		return "foreign"
	}
	return ""
}
