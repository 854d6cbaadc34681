package trf

import (
	"errors"
	"strings"
	"testing"

	"github.com/chesshall/hallclock/rules"
)

// An import reads two files: an error in the pairing output says so, one
// in the TRF does not, so that nobody looks for a pairing line in the TRF.
func TestErrorsNameThePairingOutput(t *testing.T) {
	f, err := Read(strings.NewReader("012 Open\n001    1      A\n001    2      B\n"))
	if err == nil {
		t.Fatalf("a TRF cut before the points read")
	}
	if strings.Contains(err.Error(), "pairings") {
		t.Errorf("a TRF error %q speaks of the pairings", err)
	}
	pad := func(s string) string { return s + strings.Repeat(" ", 80-len(s)) + " 0.0\n" }
	f, err = Read(strings.NewReader("012 Open\n" + pad("001    1      A") + pad("001    2      B")))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ pairs, want string }{
		{"1\n1 7\n", "pairings line 2, column 3: 7 is no player"},
		{"2\n1 2\n2 1\n", "pairings line 3, column 1: player 2 is paired twice"},
		{"x\n", "pairings line 1, column 1: number of pairs"},
		{"", "pairings: "},
	} {
		ps, err := ReadPairings(strings.NewReader(c.pairs))
		if err == nil {
			_, err = f.Import(ImportOptions{Pairings: ps})
		}
		var te *Error
		if !errors.As(err, &te) || !te.Pairings || !strings.Contains(err.Error(), c.want) || !errors.Is(err, rules.ErrInvalid) {
			t.Errorf("pairings %q: %v, want an *Error of the pairings saying %q", c.pairs, err, c.want)
		}
	}
	if name, err := LookupEncoding("CP1250"); err != nil || name != "windows-1250" {
		t.Errorf("LookupEncoding(CP1250) = %q, %v", name, err)
	}
	if _, err := LookupEncoding("klingon"); !errors.Is(err, rules.ErrInvalid) || !strings.Contains(err.Error(), "windows-1250") {
		t.Errorf("LookupEncoding(klingon) = %v, want an invalid name listing the known ones", err)
	}
}
