package rules

import (
	"errors"
	"fmt"
)

// InputError says that a value given to the rules (a time control, a FEN, a
// side, a ruleset, a result) could not be read, what was wrong with it and
// what is allowed. Servers map it to "invalid argument".
type InputError struct {
	What    string // what was being read: "time control", "FEN", "side", ...
	Value   string // the offending input, or the offending part of it
	Problem string // what is wrong, e.g. "move count without a time"
	Allowed string // what would be accepted, e.g. "white or black"
}

func (e *InputError) Error() string {
	msg := fmt.Sprintf("invalid %s %q", e.What, e.Value)
	if e.Problem != "" {
		msg += ": " + e.Problem
	}
	if e.Allowed != "" {
		msg += " (allowed: " + e.Allowed + ")"
	}
	return msg
}

// Is makes errors.Is(err, ErrInvalid) true for every *InputError.
func (e *InputError) Is(target error) bool { return target == ErrInvalid }

// ErrInvalid matches every *InputError with errors.Is.
var ErrInvalid = errors.New("invalid input")
