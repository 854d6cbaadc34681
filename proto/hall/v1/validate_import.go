package hallv1

// The checks of what an import reads from a file (a TRF's or a CSV's
// players, boards, sections): the same as the fields of a request that
// carry them, so a name refused in AddBoard is refused in a file too.

// ValidatePlayer checks a player read from a file; field names it
// ("board 3 (line 7): white").
func ValidatePlayer(field string, p *Player) error { return p.validate(field) }

// ValidateNumber checks a round's, a board's or a table's number (what:
// "round", "board", "table") read from a file: 1 to 10,000.
func ValidateNumber(field, what string, v int) error {
	if v < 1 || v > maxNumber {
		return bad(field, "%s number %d is out of range: 1–%d", what, v, maxNumber)
	}
	return nil
}

// ValidateSection checks a section's name read from a file.
func ValidateSection(field, v string) error { return id(field, v, false) }

// First returns the first error that is not nil.
func First(errs ...error) error { return first(errs...) }
