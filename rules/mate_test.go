package rules

import (
	"errors"
	"strings"
	"testing"
)

// The rules' words for the search (package rules/internal/mate holds its
// own tables): its answers by side, and its refusals as *InputError.
func TestCanCheckmate(t *testing.T) {
	cases := []struct {
		name         string
		fen          string
		white, black bool
	}{
		// FIDE 2023 Art. 6.9: lone king against K+Q — Black cannot mate.
		{"K+Q v K", "4k3/8/8/8/8/8/8/3QK3 w - - 0 1", true, false},
		// FIDE 2023 Art. 6.9: two knights can helpmate a lone king.
		{"K+NN v K", "7k/8/8/8/8/5nn1/8/K7 w - - 0 1", false, true},
		// FIDE 2023 Art. 6.9: bishops all on dark squares — nobody can mate.
		{"K+B v K+B same colour", "5b1k/8/8/8/8/8/8/K1B5 w - - 0 1", false, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for side, want := range map[Side]bool{White: c.white, Black: c.black} {
				if got, err := CanCheckmate(c.fen, side); err != nil || got != want {
					t.Errorf("CanCheckmate(%q, %s) = %v, %v; want %v", c.fen, side, got, err, want)
				}
			}
		})
	}
}

func TestCanCheckmateBadSide(t *testing.T) {
	_, err := CanCheckmate("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", Side(3))
	var ie *InputError
	if !errors.As(err, &ie) || ie.What != "side" {
		t.Fatalf("got %v, want an *InputError about the side", err)
	}
}

// A FEN refused by the search, or by the chess library, is an *InputError
// about the FEN that says what is wrong and what is allowed.
func TestValidateFENRefusals(t *testing.T) {
	for _, c := range []struct{ fen, problem string }{
		{"4k3/8/8/8/8/8/8/4K3 w - -", "has 4 space-separated fields, want 6"},
		{"8/8/8/8/8/8/8/4K3 w - - 0 1", "black has 0 kings, want exactly 1"},
	} {
		for name, f := range map[string]func(string) error{
			"ValidateFEN":  ValidateFEN,
			"CanCheckmate": func(s string) error { _, err := CanCheckmate(s, White); return err },
		} {
			err := f(c.fen)
			var ie *InputError
			if !errors.As(err, &ie) || ie.What != "FEN" || !errors.Is(err, ErrInvalid) {
				t.Errorf("%s(%q) = %v, want an *InputError about the FEN", name, c.fen, err)
				continue
			}
			if !strings.Contains(ie.Problem, c.problem) || ie.Allowed == "" {
				t.Errorf("%s(%q): problem %q, allowed %q; want the problem to contain %q and what is allowed", name, c.fen, ie.Problem, ie.Allowed, c.problem)
			}
		}
	}
	if err := ValidateFEN("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"); err != nil {
		t.Errorf("ValidateFEN of the initial position = %v", err)
	}
}
