package standings

import (
	"errors"
	"fmt"
)

// The kinds of error of this package, for errors.Is: a caller maps each
// to one answer (the hall: FAILED_PRECONDITION for rounds that do not fit
// together, INVALID_ARGUMENT for a list that does not read).
var (
	// ErrInconsistent is the kind of every *InputError: rounds, players
	// or a scoring that standings cannot be computed from.
	ErrInconsistent = errors.New("standings: rounds that do not fit together")
	// ErrTieBreakList is the kind of every *ParseError: a tie-break list
	// that does not read, or does not fit the event.
	ErrTieBreakList = errors.New("standings: tie-break list refused")
)

// InputError says what is wrong with a tournament's rounds, players or
// scoring, and what is allowed. Player and Round are 0 when it is about
// the whole tournament.
type InputError struct {
	Player, Round int
	Msg           string
}

func (e *InputError) Error() string {
	switch {
	case e.Player == 0:
		return "standings: " + e.Msg
	case e.Round == 0:
		return fmt.Sprintf("standings: player %d: %s", e.Player, e.Msg)
	}
	return fmt.Sprintf("standings: player %d, round %d: %s", e.Player, e.Round, e.Msg)
}

// Is makes every InputError of kind ErrInconsistent.
func (e *InputError) Is(target error) bool { return target == ErrInconsistent }

// ParseError says which entry of a tie-break list is wrong and why.
type ParseError struct {
	Item  int    // 1-based position in the list
	Entry string // as written
	Msg   string
}

func (e *ParseError) Error() string {
	return fmt.Sprintf("standings: tie-break %d %q: %s", e.Item, e.Entry, e.Msg)
}

// Is makes every ParseError of kind ErrTieBreakList.
func (e *ParseError) Is(target error) bool { return target == ErrTieBreakList }

func inputErr(format string, a ...any) error {
	return &InputError{Msg: fmt.Sprintf(format, a...)}
}
