package trf

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/chesshall/hallclock/formats/internal/text"
)

// span is a field of a player line: its columns (1-based, inclusive) and
// its text, as wide as the field.
type span struct {
	from, to int
	text     string
}

// spans returns the fields of the player line before the rounds, each
// written as FIDE's columns want it: numbers to the right, text to the
// left, a rating or a rank of 0 blank.
func (p *Player) spans() ([]span, error) {
	if p.StartRank < 1 || p.StartRank > 9999 {
		return nil, fmt.Errorf("trf: player %q: starting rank %d (want 1 to 9999)", p.Name, p.StartRank)
	}
	pts, err := formatPoints(p.Points)
	if err != nil {
		return nil, fmt.Errorf("trf: player %d: %w", p.StartRank, err)
	}
	blankZero := func(n int) string {
		if n == 0 {
			return ""
		}
		return strconv.Itoa(n)
	}
	return []span{
		{colRank, colRankEnd, right(strconv.Itoa(p.StartRank), 4)},
		{colSex, colSex, left(p.Sex, 1)},
		{colTitle, colTitleEnd, left(p.Title, 3)},
		{colName, colNameEnd, left(p.Name, nameWidth)},
		{colRating, colRatingEnd, right(blankZero(p.Rating), 4)},
		{colFed, colFedEnd, left(p.Federation, 3)},
		{colFideID, colFideIDEnd, right(p.FideID, 11)},
		{colBirth, colBirthEnd, left(p.BirthDate, 10)},
		{colPoints, colPointsEnd, right(pts, 4)},
		{colPlace, colPlaceEnd, right(blankZero(p.Rank), 4)},
	}, nil
}

// formatPoints writes points for columns 81-84: "4.5", "10.0", "100".
func formatPoints(v float64) (string, error) {
	s := strconv.FormatFloat(v, 'f', 1, 64)
	if len(s) > 4 && v == math.Trunc(v) {
		s = strconv.FormatFloat(v, 'f', 0, 64)
	}
	if len(s) > 4 || v < 0 || math.Abs(v*10-math.Round(v*10)) > 1e-9 {
		return "", fmt.Errorf("points %v do not fit columns 81-84 (want 0 to 9999, in tenths)", v)
	}
	return s, nil
}

// entry writes a round's ten columns but the last two: "  12 w 1",
// "0000 - H", blanks for a round the player has nothing in.
func entry(g Game) string {
	if g.Opponent == 0 && (g.Colour == NoColour || g.Colour == 0) && (g.Result == NoCode || g.Result == 0) {
		return strings.Repeat(" ", roundWidth-2)
	}
	opp := "0000"
	if g.Opponent > 0 {
		opp = right(strconv.Itoa(g.Opponent), 4)
	}
	col, code := g.Colour, g.Result
	if col == 0 {
		col = NoColour
	}
	if code == 0 {
		code = NoCode
	}
	return fmt.Sprintf("%s %c %c", opp, rune(col), rune(code))
}

func left(s string, n int) string {
	r := []rune(s)
	if len(r) > n {
		r = r[:n]
	}
	return string(r) + strings.Repeat(" ", n-len(r))
}

func right(s string, n int) string {
	r := []rune(s)
	if len(r) > n {
		r = r[len(r)-n:]
	}
	return strings.Repeat(" ", n-len(r)) + string(r)
}

// format writes the player as a 001 line (without the line end). A name
// longer than the 33 columns of the format is cut.
func (p *Player) format() (string, error) {
	sp, err := p.spans()
	if err != nil {
		return "", err
	}
	b := []rune("001" + strings.Repeat(" ", colPlaceEnd-3))
	for _, s := range sp {
		copy(b[s.from-1:], []rune(s.text))
	}
	for _, g := range p.Rounds {
		b = append(b, []rune("  "+entry(g))...)
	}
	return strings.TrimRight(string(b), " "), nil
}

// patchLine returns a player line as read (raw, in cs) with the fields in
// which p differs from orig, the player as read, written in their
// columns; every other byte stays as it was. A line shorter than a field
// to write is first filled with blanks.
func patchLine(raw []byte, cs text.Charset, orig, p *Player) ([]byte, error) {
	o, q := *orig, *p
	if o.Points == q.Points {
		o.Points, q.Points = 0, 0 // unchanged: as written, however written
	}
	was, err := o.spans()
	if err != nil {
		return nil, err
	}
	now, err := q.spans()
	if err != nil {
		return nil, err
	}
	out := slices.Clone(raw)
	set := func(from, to int, s string) error {
		enc, err := cs.Encode(s)
		if err != nil {
			return fmt.Errorf("columns %d-%d: %w", from, to, err)
		}
		if n := chars(out, cs); n < to {
			out = append(out, []byte(strings.Repeat(" ", to-n))...)
		}
		a, b := cs.ByteOffset(out, from), cs.ByteOffset(out, to+1)
		out = slices.Concat(out[:a], enc, out[b:])
		return nil
	}
	for i := range now {
		if now[i].text != was[i].text {
			if err := set(now[i].from, now[i].to, now[i].text); err != nil {
				return nil, err
			}
		}
	}
	for r := 1; r <= max(len(p.Rounds), len(orig.Rounds)); r++ {
		if g := p.Round(r); g != orig.Round(r) {
			c := roundCol(r)
			if err := set(c, c+roundWidth-3, entry(g)); err != nil {
				return nil, err
			}
		}
	}
	// Blanks this wrote past the end of the line as read say nothing.
	for len(out) > len(raw) && out[len(out)-1] == ' ' {
		out = out[:len(out)-1]
	}
	return out, nil
}

// chars returns the number of characters of a line in cs.
func chars(raw []byte, cs text.Charset) int {
	if !cs.IsUTF8() {
		return len(raw)
	}
	return len([]rune(string(raw)))
}
