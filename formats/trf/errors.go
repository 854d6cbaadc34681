package trf

import (
	"fmt"

	"github.com/chesshall/hallclock/rules"
)

// Error is what is wrong with a file, and where: a line (from 1) and a
// column (from 1; 0 when the whole line is meant).
type Error struct {
	Line, Column int
	Msg          string
}

func (e *Error) Error() string {
	switch {
	case e.Line > 0 && e.Column > 0:
		return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Column, e.Msg)
	case e.Line > 0:
		return fmt.Sprintf("line %d: %s", e.Line, e.Msg)
	}
	return e.Msg
}

// Is makes errors.Is(err, rules.ErrInvalid) true: a bad file is invalid
// input, whatever reads it.
func (e *Error) Is(target error) bool { return target == rules.ErrInvalid }

func errorf(line, col int, format string, args ...any) *Error {
	return &Error{Line: line, Column: col, Msg: fmt.Sprintf(format, args...)}
}
