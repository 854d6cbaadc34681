package trf

import (
	"fmt"

	"github.com/chesshall/hallclock/formats/internal/text"
	"github.com/chesshall/hallclock/rules"
)

// EncodingError is an encoding name that ReadOptions and WriteOptions do
// not know.
type EncodingError struct{ Msg string }

func (e *EncodingError) Error() string { return e.Msg }

// Is makes errors.Is(err, rules.ErrInvalid) true: a name nobody knows is
// invalid input.
func (e *EncodingError) Is(target error) bool { return target == rules.ErrInvalid }

// LookupEncoding returns the canonical name of an encoding ("cp1250" and
// "Windows-1250" are "windows-1250"; "" stays ""): a name to check before
// reading, and to keep beside a file. An unknown name is an
// *EncodingError listing the known ones.
func LookupEncoding(name string) (string, error) {
	cs, err := text.Lookup(name)
	if err != nil {
		return "", &EncodingError{Msg: fmt.Sprintf("encoding: %v", err)}
	}
	return cs.Name, nil
}
