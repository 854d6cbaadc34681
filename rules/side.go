package rules

import "fmt"

// Side is a player's colour: White or Black. The zero value is White.
type Side int8

const (
	White Side = 0
	Black Side = 1
)

// Other returns the opponent's side.
func (s Side) Other() Side { return 1 - s }

// String returns "white" or "black", the spelling of the conformance vectors.
func (s Side) String() string {
	switch s {
	case White:
		return "white"
	case Black:
		return "black"
	}
	return fmt.Sprintf("Side(%d)", int8(s))
}

// Valid reports whether s is White or Black.
func (s Side) Valid() bool { return s == White || s == Black }

// ParseSide reads "white"/"w" or "black"/"b" (any case).
func ParseSide(s string) (Side, error) {
	switch s {
	case "white", "White", "WHITE", "w", "W":
		return White, nil
	case "black", "Black", "BLACK", "b", "B":
		return Black, nil
	}
	return White, &InputError{What: "side", Value: s, Allowed: "white or black"}
}

// MarshalText writes "white" or "black".
func (s Side) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads what MarshalText writes.
func (s *Side) UnmarshalText(b []byte) error {
	v, err := ParseSide(string(b))
	*s = v
	return err
}
