package rules_test

import (
	"errors"
	"math"
	"testing"

	"github.com/chesshall/hallclock/rules"
)

// FuzzParseResult: any result and termination text. Parsing never
// panics; a refusal is an *InputError; an accepted result reads back as
// itself from its canonical spelling and scores finite points under any
// finite scoring.
func FuzzParseResult(f *testing.F) {
	for _, s := range []string{"1-0", "0-1", "1/2-1/2", "½-½", "0.5-0.5", "+-", "-+", "--", "0-0", "*", "", "1-1", "1/2", "draw"} {
		f.Add(s, "normal", 1.0, 0.5, 0.0)
	}
	f.Add("1-0", "time", 3.0, 1.0, 0.0)
	f.Add("0-0", "arbiter", math.NaN(), math.Inf(1), -1.0)
	f.Fuzz(func(t *testing.T, s, term string, win, draw, loss float64) {
		r, err := rules.ParseResult(s)
		if err != nil {
			var ie *rules.InputError
			if !errors.As(err, &ie) {
				t.Fatalf("ParseResult(%q) = %v, want an *InputError", s, err)
			}
		} else {
			again, err := rules.ParseResult(string(r))
			if err != nil || again != r {
				t.Fatalf("ParseResult(%q) = %q, which reads back as %q, %v", s, r, again, err)
			}
			sc := rules.Scoring{Win: win, Draw: draw, Loss: loss}
			if finite(win, draw, loss) {
				w, b := r.Score(sc)
				if !finite(w, b) {
					t.Fatalf("%q scores %v, %v under %+v", r, w, b, sc)
				}
			}
		}
		if tm, err := rules.ParseTermination(term); err == nil {
			if again, err := rules.ParseTermination(string(tm)); err != nil || again != tm {
				t.Fatalf("ParseTermination(%q) = %q, which reads back as %q, %v", term, tm, again, err)
			}
		} else {
			var ie *rules.InputError
			if !errors.As(err, &ie) {
				t.Fatalf("ParseTermination(%q) = %v, want an *InputError", term, err)
			}
		}
	})
}

func finite(vs ...float64) bool {
	for _, v := range vs {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}
