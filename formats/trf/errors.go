package trf

import (
	"fmt"
	"strings"

	"github.com/chesshall/hallclock/rules"
)

// Error is what is wrong with a file, and where: a line (from 1) and a
// column (from 1; 0 when the whole line is meant).
type Error struct {
	Line, Column int
	Msg          string
	// Pairings: the line is the pairing output's, not the TRF's (an
	// import reads both).
	Pairings bool
}

func (e *Error) Error() string {
	file := ""
	if e.Pairings {
		file = "pairings "
	}
	switch {
	case e.Line > 0 && e.Column > 0:
		return fmt.Sprintf("%sline %d, column %d: %s", file, e.Line, e.Column, e.Msg)
	case e.Line > 0:
		return fmt.Sprintf("%sline %d: %s", file, e.Line, e.Msg)
	}
	if file != "" {
		return "pairings: " + e.Msg
	}
	return e.Msg
}

// Is makes errors.Is(err, rules.ErrInvalid) true: a bad file is invalid
// input, whatever reads it.
func (e *Error) Is(target error) bool { return target == rules.ErrInvalid }

func errorf(line, col int, format string, args ...any) *Error {
	return &Error{Line: line, Column: col, Msg: fmt.Sprintf(format, args...)}
}

// pairingsErrorf is an error at a place in the pairing output.
func pairingsErrorf(line, col int, format string, args ...any) *Error {
	e := errorf(line, col, format, args...)
	e.Pairings = true
	return e
}

// Source is a place in one of the two files of an import: the pairing
// program's output, or the TRF it paired.
type Source struct {
	Line, Column int
	Text         string // what is written there, e.g. "12 0" or "0000 - H"
}

// Conflict is a player whom the pairing output and the TRF's own columns
// (or its XXZ and 240 lines) place differently in the round: both
// sources are named.
type Conflict struct {
	Player   int
	Pairings Source // where the pairing output places him (Line 0: it does not)
	TRF      Source
	Msg      string
}

func (c Conflict) String() string {
	s := fmt.Sprintf("player %d: %s", c.Player, c.Msg)
	if c.Pairings.Line > 0 {
		s += fmt.Sprintf(" [pairings line %d: %q]", c.Pairings.Line, c.Pairings.Text)
	}
	if c.TRF.Line > 0 {
		s += fmt.Sprintf(" [TRF line %d, column %d: %q]", c.TRF.Line, c.TRF.Column, c.TRF.Text)
	}
	return s
}

// Absentee is a player whom neither the pairing output nor the TRF
// places in the round: not paired, no bye.
type Absentee struct {
	Player int
	Name   string
	Line   int // the player's line in the TRF
}

// maxListed is how many absent players a message names.
const maxListed = 20

// MismatchError says that a pairing output and the TRF it was made from
// do not agree on a round: every conflict, and the players left out
// (refused unless the import allows absent players).
type MismatchError struct {
	Round     int
	Conflicts []Conflict
	Absent    []Absentee
}

func (e *MismatchError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "round %d: the pairings and the TRF do not agree", e.Round)
	for i, c := range e.Conflicts {
		if i == maxListed {
			fmt.Fprintf(&b, "; and %d more conflicts", len(e.Conflicts)-maxListed)
			break
		}
		b.WriteString("; ")
		b.WriteString(c.String())
	}
	if len(e.Absent) > 0 {
		var names []string
		for i, a := range e.Absent {
			if i == maxListed {
				names = append(names, fmt.Sprintf("and %d more", len(e.Absent)-maxListed))
				break
			}
			names = append(names, fmt.Sprintf("%d %s (TRF line %d)", a.Player, a.Name, a.Line))
		}
		fmt.Fprintf(&b, "; %d left out, neither paired nor given a bye: %s — pair them, give them a bye in the TRF (0000 - Z, or XXZ), or allow absent players",
			len(e.Absent), strings.Join(names, ", "))
	}
	return b.String()
}

// Is makes errors.Is(err, rules.ErrInvalid) true.
func (e *MismatchError) Is(target error) bool { return target == rules.ErrInvalid }
