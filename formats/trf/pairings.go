package trf

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Pair is one line of a pairing program's output: White's and Black's
// starting ranks (Black 0: White gets the pairing-allocated bye), with
// where it was read.
type Pair struct {
	White, Black       int
	Line               int
	WhiteCol, BlackCol int
}

// ReadPairings reads the pairing output of JaVaFo or bbpPairings: the
// number of pairs on the first line, then that many lines "white black".
// Blank lines are skipped. An error is an *Error with the line and column.
func ReadPairings(r io.Reader) ([]Pair, error) {
	sc := bufio.NewScanner(r)
	want, announced := -1, 0
	var out []Pair
	n := 0
	for sc.Scan() {
		n++
		s := strings.TrimRight(sc.Text(), "\r")
		if n == 1 {
			s = strings.TrimPrefix(s, "\ufeff")
		}
		if strings.TrimSpace(s) == "" {
			continue
		}
		fields := fieldsAt(s)
		if want < 0 {
			if len(fields) != 1 {
				return nil, errorf(n, 1, "the first line of a pairing file holds the number of pairs; found %q", s)
			}
			v, err := strconv.Atoi(fields[0].text)
			if err != nil || v < 0 {
				return nil, errorf(n, fields[0].col, "number of pairs %q: want a number", fields[0].text)
			}
			want, announced = v, n
			continue
		}
		if len(fields) != 2 {
			return nil, errorf(n, 1, "a pair is two starting ranks, White's then Black's (0 for a bye); found %q", s)
		}
		var p Pair
		p.Line, p.WhiteCol, p.BlackCol = n, fields[0].col, fields[1].col
		var err error
		if p.White, err = strconv.Atoi(fields[0].text); err != nil || p.White < 1 {
			return nil, errorf(n, fields[0].col, "White's starting rank %q: want a number from 1", fields[0].text)
		}
		if p.Black, err = strconv.Atoi(fields[1].text); err != nil || p.Black < 0 {
			return nil, errorf(n, fields[1].col, "Black's starting rank %q: want a number (0 for a bye)", fields[1].text)
		}
		if len(out) == want {
			return nil, errorf(n, 1, "more pairs than the %d line %d announces", want, announced)
		}
		out = append(out, p)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("trf: pairings: %w", err)
	}
	if want < 0 {
		return nil, errorf(0, 0, "the pairing file is empty")
	}
	if len(out) != want {
		return nil, errorf(n, 0, "line %d announces %d pairs, but %d follow", announced, want, len(out))
	}
	return out, nil
}

type word struct {
	text string
	col  int
}

// fieldsAt splits a line at blanks, keeping each word's column.
func fieldsAt(s string) []word {
	var out []word
	start := -1
	for i, r := range s + " " {
		if r == ' ' || r == '\t' {
			if start >= 0 {
				out = append(out, word{s[start:i], start + 1})
				start = -1
			}
		} else if start < 0 {
			start = i
		}
	}
	return out
}

// WritePairings writes pairs in the pairing programs' format.
func WritePairings(w io.Writer, pairs []Pair) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%d\n", len(pairs))
	for _, p := range pairs {
		fmt.Fprintf(&b, "%d %d\n", p.White, p.Black)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
