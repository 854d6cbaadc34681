package trf

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/chesshall/hallclock/formats/internal/text"
)

// File is a tournament report file: its player lines, and every other
// line as it was read.
type File struct {
	// Header holds the lines that are not player lines, in the order read
	// (tournament data, team lines, comments, extension codes), without
	// their line ends. Write puts them before the players.
	Header  []string
	Players []Player

	headerLine []int // the line each Header line was read from
}

// Read reads a TRF-16 file. It checks every player line against the
// fixed columns and refuses a starting rank used twice; an error is an
// *Error naming the line and the column. It does not check the rounds
// against each other: Round and Paired do, for the round they read.
func Read(r io.Reader) (*File, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("trf: %w", err)
	}
	content := text.Decode(data)
	f := &File{}
	seen := map[int]int{}
	sc := bufio.NewScanner(strings.NewReader(content))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		s := strings.TrimRight(sc.Text(), "\r")
		if strings.TrimSpace(s) == "" {
			continue
		}
		if !strings.HasPrefix(s, "001") {
			if len(s) >= 3 && s[0] >= '0' && s[0] <= '9' && s[1] >= '0' && s[1] <= '9' && s[2] >= '0' && s[2] <= '9' && len(s) > 3 && s[3] != ' ' {
				return nil, errorf(n, 4, "a blank must follow the line code %q", s[:3])
			}
			f.Header = append(f.Header, s)
			f.headerLine = append(f.headerLine, n)
			continue
		}
		p, err := parsePlayer(line{n: n, chars: []rune(s)})
		if err != nil {
			return nil, err
		}
		if first, dup := seen[p.StartRank]; dup {
			return nil, errorf(n, colRank, "starting rank %d is already player %q on line %d", p.StartRank, f.Players[first].Name, f.Players[first].Line)
		}
		seen[p.StartRank] = len(f.Players)
		f.Players = append(f.Players, p)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("trf: %w", err)
	}
	if len(f.Players) == 0 {
		return nil, errorf(0, 0, "no player lines (001): is this a TRF-16 file?")
	}
	return f, nil
}

// Write writes the file: the header lines, then the players by starting
// rank, each line ended by CR LF.
func (f *File) Write(w io.Writer) error {
	var buf bytes.Buffer
	for _, h := range f.Header {
		buf.WriteString(h)
		buf.WriteString("\r\n")
	}
	ps := slices.Clone(f.Players)
	slices.SortStableFunc(ps, func(a, b Player) int { return a.StartRank - b.StartRank })
	for i := range ps {
		s, err := ps[i].format()
		if err != nil {
			return err
		}
		buf.WriteString(s)
		buf.WriteString("\r\n")
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// Player returns the player with the starting rank, or nil.
func (f *File) Player(startRank int) *Player {
	for i := range f.Players {
		if f.Players[i].StartRank == startRank {
			return &f.Players[i]
		}
	}
	return nil
}

// Tag returns the text of the first header line with the code (e.g.
// "012" for the tournament's name, "XXR" for the number of rounds), from
// its fifth column, trimmed; "" if there is none.
func (f *File) Tag(code string) string {
	for _, h := range f.Header {
		if strings.HasPrefix(h, code) && (len(h) == len(code) || h[len(code)] == ' ') {
			return strings.TrimSpace(h[len(code):])
		}
	}
	return ""
}

// SetTag replaces the first header line with the code, or adds one.
func (f *File) SetTag(code, text string) {
	l := code + " " + text
	for i, h := range f.Header {
		if strings.HasPrefix(h, code) && (len(h) == len(code) || h[len(code)] == ' ') {
			f.Header[i] = l
			return
		}
	}
	f.Header = append(f.Header, l)
}

// Name returns the tournament's name (line 012).
func (f *File) Name() string { return f.Tag("012") }

// Rounds returns the number of rounds the file announces (JaVaFo's XXR),
// or 0.
func (f *File) Rounds() int {
	n, _ := strconv.Atoi(f.Tag("XXR"))
	return n
}

// absent returns the starting ranks listed on XXZ lines (players who
// will not be paired in the round to pair), with the line of each.
func (f *File) absent() (map[int]int, error) {
	out := map[int]int{}
	for i, h := range f.Header {
		if !strings.HasPrefix(h, "XXZ") {
			continue
		}
		ln := 0
		if i < len(f.headerLine) {
			ln = f.headerLine[i]
		}
		for _, w := range strings.Fields(h[3:]) {
			n, err := strconv.Atoi(w)
			if err != nil || n < 1 {
				return nil, errorf(ln, strings.Index(h, w)+1, "XXZ lists %q: want the starting ranks of the players not to pair", w)
			}
			if f.Player(n) == nil {
				return nil, errorf(ln, strings.Index(h, w)+1, "XXZ lists %d, which is no player of this file", n)
			}
			out[n] = ln
		}
	}
	return out, nil
}
