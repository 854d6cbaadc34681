package rules_test

import (
	"errors"
	"testing"

	"github.com/chesshall/hallclock/rules"
)

// FuzzValidateFEN: any text, as an e-board or an arbiter's console might
// send it. ValidateFEN never panics; what it refuses is an *InputError
// about the FEN; what it accepts, the can-checkmate analysis (7.5.5, 6.9)
// reads for either side without an error.
func FuzzValidateFEN(f *testing.F) {
	for _, s := range []string{
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
		"4k3/8/8/8/8/8/8/3QK3 w - - 0 1",
		"7k/8/8/8/8/5n2/P7/K7 w - - 0 1",
		"8/8/8/4k3/8/8/8/4K3 b - - 99 150",
		"8/8/8/8/8/8/8/8 w - - 0 1",
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1",
		"k7/8/8/8/8/8/8/7K w - - 0 1 extra",
		"", " ", "////////", "9/8/8/8/8/8/8/8 w - - 0 1",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, fen string) {
		err := rules.ValidateFEN(fen)
		if err != nil {
			var ie *rules.InputError
			if !errors.As(err, &ie) {
				t.Fatalf("ValidateFEN(%q) = %v, want an *InputError", fen, err)
			}
			return
		}
		for _, side := range []rules.Side{rules.White, rules.Black} {
			if _, err := rules.CanCheckmate(fen, side); err != nil {
				t.Fatalf("ValidateFEN(%q) accepted it, but CanCheckmate(%s) = %v", fen, side, err)
			}
		}
	})
}
