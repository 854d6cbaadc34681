package trf

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/chesshall/hallclock/formats/internal/text"
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
// Lines may end in LF, CR LF or CR; blank lines are skipped. An error is
// an *Error with the line and column.
func ReadPairings(r io.Reader) ([]Pair, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("trf: pairings: %w", err)
	}
	src, err := text.Read(data, text.Charset{})
	if err != nil {
		var te *text.Error
		if errors.As(err, &te) {
			return nil, pairingsErrorf(te.Line, te.Column, "%s", te.Msg)
		}
		return nil, err
	}
	want, announced := -1, 0
	var out []Pair
	n := 0
	for _, l := range src.Lines {
		n = l.N
		s := l.Text
		if strings.TrimSpace(s) == "" {
			continue
		}
		fields := fieldsAt(s)
		if want < 0 {
			if len(fields) != 1 {
				return nil, pairingsErrorf(n, 1, "the first line of a pairing file holds the number of pairs; found %s", text.Quote(s, 40))
			}
			v, err := strconv.Atoi(fields[0].text)
			if err != nil || v < 0 {
				return nil, pairingsErrorf(n, fields[0].col, "number of pairs %s: want a number", text.Quote(fields[0].text, 20))
			}
			want, announced = v, n
			continue
		}
		if len(fields) != 2 {
			return nil, pairingsErrorf(n, 1, "a pair is two starting ranks, White's then Black's (0 for a bye); found %s", text.Quote(s, 40))
		}
		var p Pair
		p.Line, p.WhiteCol, p.BlackCol = n, fields[0].col, fields[1].col
		if p.White, err = strconv.Atoi(fields[0].text); err != nil || p.White < 1 {
			return nil, pairingsErrorf(n, fields[0].col, "White's starting rank %s: want a number from 1", text.Quote(fields[0].text, 20))
		}
		if p.Black, err = strconv.Atoi(fields[1].text); err != nil || p.Black < 0 {
			return nil, pairingsErrorf(n, fields[1].col, "Black's starting rank %s: want a number (0 for a bye)", text.Quote(fields[1].text, 20))
		}
		if len(out) == want {
			return nil, pairingsErrorf(n, 1, "more pairs than the %d line %d announces", want, announced)
		}
		out = append(out, p)
	}
	if want < 0 {
		return nil, pairingsErrorf(0, 0, "the pairing file is empty")
	}
	if len(out) != want {
		return nil, pairingsErrorf(n, 0, "line %d announces %d pairs, but %d follow", announced, want, len(out))
	}
	return out, nil
}

type word struct {
	text string
	col  int
}

// fieldsAt splits a line at blanks, keeping each word's column (from 1,
// in characters).
func fieldsAt(s string) []word {
	var out []word
	start, col, startCol := -1, 0, 0
	for i, r := range s + " " {
		col++
		if r == ' ' || r == '\t' {
			if start >= 0 {
				out = append(out, word{s[start:i], startCol})
				start = -1
			}
		} else if start < 0 {
			start, startCol = i, col
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

// Paired reads round r from a pairing program's output, as Import does
// with AllowAbsent false.
func (f *File) Paired(r int, pairs []Pair) (*Round, error) { return f.paired(r, pairs, false) }

// paired reads round r from a pairing program's output: boards in the
// order of the pairs, a pair with 0 the pairing-allocated bye. The pairs
// must agree with what the TRF itself says of round r — its round-r
// columns (the round's pairing, or a bye requested: "0000 - H"), its XXZ
// line (absent) and its 240 lines (TRF-2026 requested byes): a player
// paired whom the TRF gives a bye, given the bye of the pairing where
// the TRF asks for a half point, or paired otherwise than the columns
// say, is a Conflict naming both sources. Players not paired get the bye
// the TRF gives them (XXZ: a zero-point bye); one given nothing is
// absent: listed in the error, or in Round.Absent if allowAbsent. A pair
// that names no player, a player twice or against himself is an *Error
// naming the pairing line.
func (f *File) paired(r int, pairs []Pair, allowAbsent bool) (*Round, error) {
	if r < 1 {
		return nil, errorf(0, 0, "round %d: rounds are numbered from 1", r)
	}
	absent, err := f.absent()
	if err != nil {
		return nil, err
	}
	requested, err := f.requested(r)
	if err != nil {
		return nil, err
	}
	out := &Round{Number: r}
	mis := &MismatchError{Round: r}
	seen := map[int]int{}
	check := func(n, line, col int) error {
		if f.Player(n) == nil {
			return pairingsErrorf(line, col, "%d is no player of the TRF (its starting ranks run from %d to %d)", n, f.minRank(), f.maxRank())
		}
		if l, dup := seen[n]; dup {
			return pairingsErrorf(line, col, "player %d is paired twice (also on line %d)", n, l)
		}
		seen[n] = line
		return nil
	}
	// trfSays returns what the TRF says of a player in round r, if
	// anything: his columns, a 240 bye, XXZ.
	trfSays := func(p *Player) (Game, Source, string, bool) {
		g := p.Round(r)
		if g != (Game{Colour: NoColour, Result: NoCode}) {
			return g, Source{Line: p.Line, Column: roundCol(r), Text: f.entryText(p, r)}, says(g), true
		}
		if b, ok := requested[p.StartRank]; ok {
			g := Game{Colour: NoColour, Result: b.code}
			return g, b.at, says(g) + " (240)", true
		}
		if at, ok := absent[p.StartRank]; ok {
			return Game{Colour: NoColour, Result: ZeroBye}, at, fmt.Sprintf("says he does not play round %d (XXZ)", r), true
		}
		return g, Source{}, "", false
	}
	for _, pr := range pairs {
		at := Source{Line: pr.Line, Column: pr.WhiteCol, Text: fmt.Sprintf("%d %d", pr.White, pr.Black)}
		if err := check(pr.White, pr.Line, pr.WhiteCol); err != nil {
			return nil, err
		}
		if pr.Black == 0 {
			p := f.Player(pr.White)
			if g, src, what, ok := trfSays(p); ok && g.Result != PairingBye {
				mis.Conflicts = append(mis.Conflicts, Conflict{Player: p.StartRank, Pairings: at, TRF: src,
					Msg: "the pairings give him the pairing-allocated bye, the TRF " + what})
			}
			out.Byes = append(out.Byes, Bye{Player: pr.White, Code: PairingBye, Line: pr.Line})
			continue
		}
		if pr.Black == pr.White {
			return nil, pairingsErrorf(pr.Line, pr.BlackCol, "player %d is paired against himself", pr.White)
		}
		if err := check(pr.Black, pr.Line, pr.BlackCol); err != nil {
			return nil, err
		}
		for _, s := range []struct {
			me, opp int
			col     Colour
		}{{pr.White, pr.Black, White}, {pr.Black, pr.White, Black}} {
			p := f.Player(s.me)
			g, src, what, ok := trfSays(p)
			if ok && (g.Opponent != s.opp || g.Colour != s.col) {
				mis.Conflicts = append(mis.Conflicts, Conflict{Player: s.me, Pairings: at, TRF: src,
					Msg: fmt.Sprintf("the pairings pair him against %d with %s, the TRF %s", s.opp, colourName(s.col), what)})
			}
		}
		out.Boards = append(out.Boards, Board{Number: len(out.Boards) + 1, White: pr.White, Black: pr.Black, WhiteResult: NoCode, BlackResult: NoCode, Line: pr.Line})
	}
	for i := range f.Players {
		p := &f.Players[i]
		if _, paired := seen[p.StartRank]; paired {
			continue
		}
		g, src, what, ok := trfSays(p)
		switch {
		case !ok:
			out.Absent = append(out.Absent, Absentee{Player: p.StartRank, Name: p.Name, Line: p.Line})
		case g.Opponent > 0 || g.Result == PairingBye:
			mis.Conflicts = append(mis.Conflicts, Conflict{Player: p.StartRank, TRF: src,
				Msg: "the TRF " + what + ", the pairings do not pair him"})
		default:
			if bye := byeOf(p, g); bye != nil {
				bye.Line = src.Line
				out.Byes = append(out.Byes, *bye)
			} else {
				out.Absent = append(out.Absent, Absentee{Player: p.StartRank, Name: p.Name, Line: p.Line})
			}
		}
	}
	if !allowAbsent {
		mis.Absent = out.Absent
	}
	if len(mis.Conflicts) > 0 || len(mis.Absent) > 0 {
		return nil, mis
	}
	return out, nil
}

// says describes a round entry for a conflict: "gives him a half-point
// bye", "pairs him against 12 with White".
func says(g Game) string {
	if g.Opponent > 0 {
		return fmt.Sprintf("pairs him against %d with %s", g.Opponent, colourName(g.Colour))
	}
	switch g.Result {
	case HalfBye:
		return "gives him a half-point bye"
	case FullBye, ForfeitWin:
		return "gives him a full-point bye"
	case PairingBye:
		return "gives him the pairing-allocated bye"
	}
	return "says he does not play (zero-point bye)"
}

// entryText returns round r's entry as written on the player's line.
func (f *File) entryText(p *Player, r int) string {
	if f.src != nil && p.Line >= 1 && p.Line <= len(f.src.Lines) {
		chars := []rune(f.src.Lines[p.Line-1].Text)
		if c := roundCol(r); c-1 < len(chars) {
			return strings.TrimSpace(string(chars[c-1 : min(len(chars), c+roundWidth-3)]))
		}
	}
	return strings.TrimSpace(entry(p.Round(r)))
}

func colourName(c Colour) string {
	switch c {
	case White:
		return "White"
	case Black:
		return "Black"
	}
	return "no colour"
}

func (f *File) minRank() int {
	m := 0
	for _, p := range f.Players {
		if m == 0 || p.StartRank < m {
			m = p.StartRank
		}
	}
	return m
}

func (f *File) maxRank() int {
	m := 0
	for _, p := range f.Players {
		m = max(m, p.StartRank)
	}
	return m
}
