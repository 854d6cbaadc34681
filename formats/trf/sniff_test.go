package trf

import (
	"errors"
	"strings"
	"testing"
)

// A TRF is told from a CSV however its lines are spaced: blank lines
// anywhere (of nothing, of blanks, a page break), lines begun with blanks,
// a file of its header alone. One read as a CSV was refused for "no
// column names"; read as a TRF, an indented one is refused saying so.
func TestIsTRFWithBlankLinesAndIndentation(t *testing.T) {
	lf := strings.ReplaceAll(readText(t, javafoIn), "\r\n", "\n")
	trfs := map[string]string{
		"blank lines":             strings.ReplaceAll(lf, "\n", "\n\n"),
		"blank lines, CR LF":      strings.ReplaceAll(lf, "\n", "\r\n\r\n"),
		"blank lines first":       "\n\n\n" + lf,
		"lines of blanks":         strings.ReplaceAll(lf, "\n", "\n  \t \n"),
		"page breaks":             strings.ReplaceAll(lf, "\n", "\n\f\n"),
		"indented":                "  " + strings.ReplaceAll(lf, "\n", "\n  "),
		"indented, blank lines":   "\n\t" + strings.ReplaceAll(lf, "\n", "\n\n\t"),
		"the header alone":        "\n\n012 Nordic Open\n\n022 Bergen\n",
		"a header line indented ": "   012 Nordic Open\n",
	}
	for name, in := range trfs {
		if !IsTRF([]byte(in)) {
			t.Errorf("%s: IsTRF is false", name)
		}
	}
	for _, name := range []string{"blank lines", "blank lines, CR LF", "blank lines first", "lines of blanks", "page breaks"} {
		if f, err := Read(strings.NewReader(trfs[name])); err != nil || len(f.Players) != 21 {
			t.Errorf("%s: Read = %v", name, err)
		}
	}
	_, err := Read(strings.NewReader(trfs["indented"]))
	var e *Error
	if !errors.As(err, &e) || e.Line != 16 || !strings.Contains(e.Msg, "begins with 2 blanks") || !strings.Contains(e.Msg, "column 1") {
		t.Errorf("an indented TRF: Read = %v; want its first player line (16) refused, saying it is indented", err)
	}
	for name, in := range map[string]string{
		"a CSV":                   "Bo.;White;Black\r1;A;B\r",
		"a CSV after blank lines": "\n\n  \nBoard,White,Black\n1,Anna,Bert\n",
		"a CSV without a header":  "1,Anna,Bert\n",
		"empty":                   "",
		"blank lines only":        "\n \n\t\n",
		"a number then a name":    "12 Anna Bert\n",
	} {
		if IsTRF([]byte(in)) {
			t.Errorf("%s: IsTRF is true", name)
		}
	}
}
