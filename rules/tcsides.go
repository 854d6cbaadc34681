package rules

import (
	"errors"
	"strings"
)

// Time odds: a control per side. "white 5m | black 4m", "white
// 60/5m:0+2s | black 60/4m:0+2s" (an Armageddon game: 5 and 4 minutes,
// 2 s a move from move 61). Each side's control is written as any other
// control, after the side's name and optional ':' or '='; the two parts
// are separated by '|', in either order, each side once.

// tcParseSides reads a control per side; in contains '|'.
func tcParseSides(in string) (TimeControl, error) {
	parts := strings.Split(in, "|")
	if len(parts) != 2 {
		return TimeControl{}, tcError(in, `a control per side has two parts separated by one '|', as in "white 5m | black 4m"`)
	}
	var got [2]*TimeControl
	for _, part := range parts {
		t := strings.TrimSpace(part)
		low := strings.ToLower(t)
		var side Side
		switch {
		case strings.HasPrefix(low, "white"):
			side = White
		case strings.HasPrefix(low, "black"):
			side = Black
		default:
			return TimeControl{}, tcError(in, `each side's control starts with "white" or "black", as in "white 5m | black 4m"`)
		}
		if got[side] != nil {
			return TimeControl{}, tcError(in, side.String()+"'s control is given twice")
		}
		rest := strings.TrimSpace(t[len("white"):])
		if r, ok := strings.CutPrefix(rest, ":"); ok {
			rest = strings.TrimSpace(r)
		} else if r, ok := strings.CutPrefix(rest, "="); ok {
			rest = strings.TrimSpace(r)
		}
		if rest == "" {
			return TimeControl{}, tcError(in, "no control given for "+side.String())
		}
		tc, err := ParseTimeControl(rest)
		if err != nil {
			var ie *InputError
			if errors.As(err, &ie) {
				c := *ie
				c.Problem = side.String() + "'s control: " + c.Problem
				return TimeControl{}, &c
			}
			return TimeControl{}, err
		}
		if tc.Hourglass {
			return TimeControl{}, tcError(in, "an hourglass is one time shared by both players; it cannot differ per side")
		}
		got[side] = &tc
	}
	return withBlack(*got[White], *got[Black]), nil
}

// sidesString writes a control per side with each side's part in form.
func (tc TimeControl) sidesString(form func(TimeControl) string) string {
	return "white " + form(tc.For(White)) + " | black " + form(tc.For(Black))
}

// validateSides checks what a control per side adds to each control's own
// checks: no Black inside Black, no hourglass.
func (tc TimeControl) validateSides() error {
	switch {
	case tc.Black.Black != nil:
		return tcError(tc.String(), "Black's control has a control per side of its own")
	case tc.Hourglass || tc.Black.Hourglass:
		return tcError(tc.String(), "an hourglass is one time shared by both players; it cannot differ per side")
	}
	return tc.For(Black).Validate()
}
