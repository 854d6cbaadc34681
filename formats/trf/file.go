package trf

import (
	"bytes"
	"errors"
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
	// their line ends; blank lines are not in it. A file that was read
	// writes them where they were (a line changed in place, lines
	// appended after the last); a File built by hand writes them before
	// the players.
	Header  []string
	Players []Player

	headerLine []int // the line each Header line was read from

	// What was read, for Write to give back what nobody changed.
	src        *text.Source // nil for a File built by hand
	lines      []lineRef    // one per line of src
	origHeader []string
	orig       []Player

	index  map[int]int // starting rank → index in Players
	points PointSystem
	stated bool // a line states the points
}

// lineRef says what a line of the source is.
type lineRef struct {
	kind byte // 'b' blank, 'h' Header[i], 'p' Players[i]
	i    int
}

// ReadOptions change how Read reads a file.
type ReadOptions struct {
	// Encoding is the code page of a file that is not valid UTF-8:
	// "windows-1250", "cp1252", "iso-8859-2", ... (see Encodings). Empty
	// means windows-1252. A file that is valid UTF-8 is read as UTF-8;
	// "utf-8" refuses one that is not.
	Encoding string
}

// Encodings returns the names ReadOptions.Encoding and
// WriteOptions.Encoding know (other spellings too: "cp1250", "latin2").
func Encodings() []string { return text.Names() }

// Read reads a TRF-16 file (or TRF-2026, TRF(x), TRF(bx)) with the
// default options. It checks every player line against the fixed
// columns, refuses a line cut short, a starting rank used twice and a
// malformed scoring line; an error is an *Error naming the line and the
// column. It does not check the rounds against each other: Round,
// Paired and Import do, for the rounds they read.
func Read(r io.Reader) (*File, error) { return ReadWith(r, ReadOptions{}) }

// ReadWith reads a TRF file with options.
func ReadWith(r io.Reader, opt ReadOptions) (*File, error) {
	cs, err := text.Lookup(opt.Encoding)
	if err != nil {
		return nil, fmt.Errorf("trf: %w", err)
	}
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("trf: %w", err)
	}
	src, err := text.Read(data, cs)
	if err != nil {
		var te *text.Error
		if errors.As(err, &te) {
			return nil, errorf(te.Line, te.Column, "%s", te.Msg)
		}
		return nil, err
	}
	f := &File{src: src, index: map[int]int{}}
	var scoring []scoringLine
	for _, l := range src.Lines {
		s := l.Text
		switch {
		case strings.TrimSpace(s) == "":
			f.lines = append(f.lines, lineRef{kind: 'b'})
		case strings.HasPrefix(s, "001"):
			p, err := parsePlayer(line{n: l.N, chars: []rune(s)})
			if err != nil {
				return nil, err
			}
			if first, dup := f.index[p.StartRank]; dup {
				return nil, errorf(l.N, colRank, "starting rank %d is already player %q on line %d", p.StartRank, f.Players[first].Name, f.Players[first].Line)
			}
			f.index[p.StartRank] = len(f.Players)
			f.lines = append(f.lines, lineRef{kind: 'p', i: len(f.Players)})
			f.Players = append(f.Players, p)
		default:
			if t := strings.TrimLeft(s, " \t\f\v"); t != s && strings.HasPrefix(t, "001") {
				return nil, errorf(l.N, 1, "the player line begins with %d blanks: a TRF's line begins with its code (001) in column 1, its fields in fixed columns from there (is the file indented?)", len(s)-len(t))
			}
			if len(s) > 3 && isDigits(s[:3]) && s[3] != ' ' {
				return nil, errorf(l.N, 4, "a blank must follow the line code %q", s[:3])
			}
			if isScoringLine(s) {
				scoring = append(scoring, scoringLine{line: l.N, text: s})
			}
			f.lines = append(f.lines, lineRef{kind: 'h', i: len(f.Header)})
			f.Header = append(f.Header, s)
			f.headerLine = append(f.headerLine, l.N)
		}
	}
	if len(f.Players) == 0 {
		return nil, errorf(0, 0, "no player lines (001): is this a TRF-16 file?")
	}
	if f.points, f.stated, err = readPoints(scoring); err != nil {
		return nil, err
	}
	f.origHeader = slices.Clone(f.Header)
	f.orig = make([]Player, len(f.Players))
	for i, p := range f.Players {
		p.Rounds = slices.Clone(p.Rounds)
		f.orig[i] = p
	}
	return f, nil
}

func isDigits(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}

// Encoding returns the encoding the file was read in ("utf-8",
// "windows-1250", ...), and whether it was assumed: the file is not
// UTF-8 and no encoding was named, so it was read as windows-1252,
// which a file from Central or Eastern Europe is not. A File built by
// hand is UTF-8.
func (f *File) Encoding() (name string, assumed bool) {
	if f.src == nil {
		return text.UTF8.Name, false
	}
	return f.src.Charset.Name, f.src.Assumed
}

// PointSystem returns what each result scores in this file, and whether
// a line of it says so (XXS, BBW..., 162); if none does, Classic.
func (f *File) PointSystem() (ps PointSystem, stated bool) {
	if f.src == nil && !f.stated {
		return Classic, false
	}
	return f.points, f.stated
}

// WriteOptions change how Write writes a file.
type WriteOptions struct {
	// Encoding to write the file in; empty: the encoding it was read in.
	Encoding string
}

// Write writes the file in the encoding it was read in. A file that was
// read comes back as it was read, byte for byte — line ends, blank
// lines, alignment, comments — except the fields of player lines that
// changed (a round's columns, the points), which are written in their
// columns; header lines that changed are rewritten in place, players and
// header lines that were added follow the last of their kind. A File
// built by hand is written with its header lines, then its players by
// starting rank, each line ended by CR LF.
func (f *File) Write(w io.Writer) error { return f.WriteWith(w, WriteOptions{}) }

// WriteWith writes the file with options.
func (f *File) WriteWith(w io.Writer, opt WriteOptions) error {
	to, err := text.Lookup(opt.Encoding)
	if err != nil {
		return fmt.Errorf("trf: %w", err)
	}
	var buf bytes.Buffer
	if f.src == nil {
		err = f.writeBuilt(&buf, to)
	} else {
		err = f.writeRead(&buf, to)
	}
	if err != nil {
		return err
	}
	_, err = w.Write(buf.Bytes())
	return err
}

func (f *File) writeBuilt(buf *bytes.Buffer, to text.Charset) error {
	if to.Name == "" {
		to = text.UTF8
	}
	put := func(s string, what string) error {
		b, err := to.Encode(s)
		if err != nil {
			return fmt.Errorf("trf: %s: %w", what, err)
		}
		buf.Write(b)
		buf.WriteString("\r\n")
		return nil
	}
	for i, h := range f.Header {
		if err := put(h, fmt.Sprintf("header line %d", i+1)); err != nil {
			return err
		}
	}
	return writeByRank(f.Players, put)
}

// writeByRank formats players as 001 lines, by starting rank, and puts
// each line.
func writeByRank(players []Player, put func(line, what string) error) error {
	ps := slices.Clone(players)
	slices.SortStableFunc(ps, func(a, b Player) int { return a.StartRank - b.StartRank })
	for i := range ps {
		s, err := ps[i].format()
		if err != nil {
			return err
		}
		if err := put(s, fmt.Sprintf("player %d", ps[i].StartRank)); err != nil {
			return err
		}
	}
	return nil
}

func (f *File) writeRead(buf *bytes.Buffer, to text.Charset) error {
	from := f.src.Charset
	if to.Name == "" {
		to = from
	}
	// out writes a line given in the source's encoding.
	out := func(raw []byte, n int, end string) error {
		if to != from {
			s, err := from.Decode(raw)
			if err == nil {
				raw, err = to.Encode(s)
			}
			if err != nil {
				return fmt.Errorf("trf: line %d: %w", n, err)
			}
		}
		buf.Write(raw)
		buf.WriteString(end)
		return nil
	}
	// newLine writes a line the file did not have, after the line before
	// it has its line end.
	newLine := func(s string, what string) error {
		b, err := from.Encode(s)
		if err != nil {
			return fmt.Errorf("trf: %s: %w", what, err)
		}
		if last := buf.Bytes(); len(last) > 0 && last[len(last)-1] != '\n' && last[len(last)-1] != '\r' {
			buf.WriteString(f.lineEnd())
		}
		return out(b, 0, f.lineEnd())
	}
	if f.src.BOM && to.IsUTF8() {
		buf.WriteString("\ufeff")
	}
	lastHeader, lastPlayer := -1, -1
	for k, ref := range f.lines {
		switch ref.kind {
		case 'h':
			lastHeader = k
		case 'p':
			lastPlayer = k
		}
	}
	addHeaders := func() error {
		for i := len(f.origHeader); i < len(f.Header); i++ {
			if err := newLine(f.Header[i], fmt.Sprintf("header line %q", f.Header[i])); err != nil {
				return err
			}
		}
		return nil
	}
	if lastHeader < 0 { // header lines added to a file of players alone go first
		if err := addHeaders(); err != nil {
			return err
		}
	}
	written := map[int]bool{} // starting ranks written
	for k, l := range f.src.Lines {
		ref := f.lines[k]
		raw := l.Raw
		switch ref.kind {
		case 'h':
			if ref.i < len(f.Header) && f.Header[ref.i] != f.origHeader[ref.i] {
				b, err := from.Encode(f.Header[ref.i])
				if err != nil {
					return fmt.Errorf("trf: header line %d: %w", l.N, err)
				}
				raw = b
			}
		case 'p':
			orig := &f.orig[ref.i]
			p := f.current(ref.i)
			if p == nil {
				continue // the player was taken out
			}
			written[p.StartRank] = true
			var err error
			if raw, err = patchLine(raw, from, orig, p); err != nil {
				return fmt.Errorf("trf: line %d (player %d): %w", l.N, p.StartRank, err)
			}
		}
		if err := out(raw, l.N, l.End); err != nil {
			return err
		}
		if k == lastHeader {
			if err := addHeaders(); err != nil {
				return err
			}
		}
		if k == lastPlayer {
			var added []Player
			for _, p := range f.Players {
				if !written[p.StartRank] && !f.wasRead(p.StartRank) {
					added = append(added, p)
				}
			}
			if err := writeByRank(added, newLine); err != nil {
				return err
			}
		}
	}
	return nil
}

// lineEnd returns the line end of the file's first line: the one new
// lines get (CR LF for a file of one line without one).
func (f *File) lineEnd() string {
	if f.src != nil && len(f.src.Lines) > 0 && f.src.Lines[0].End != "" {
		return f.src.Lines[0].End
	}
	return "\r\n"
}

// current returns the player now in the place of the i-th player read:
// the same index while nobody reordered Players, else found by starting
// rank; nil if no longer there.
func (f *File) current(i int) *Player {
	rank := f.orig[i].StartRank
	if i < len(f.Players) && f.Players[i].StartRank == rank {
		return &f.Players[i]
	}
	return f.Player(rank)
}

func (f *File) wasRead(rank int) bool {
	for i := range f.orig {
		if f.orig[i].StartRank == rank {
			return true
		}
	}
	return false
}

// Player returns the player with the starting rank, or nil.
func (f *File) Player(startRank int) *Player {
	i, ok := f.index[startRank]
	if ok && i < len(f.Players) && f.Players[i].StartRank == startRank {
		return &f.Players[i]
	}
	if !ok && len(f.index) == len(f.Players) {
		return nil
	}
	// Players changed since the index was built (or it never was).
	f.index = make(map[int]int, len(f.Players))
	for i := range f.Players {
		if _, dup := f.index[f.Players[i].StartRank]; !dup {
			f.index[f.Players[i].StartRank] = i
		}
	}
	if i, ok := f.index[startRank]; ok {
		return &f.Players[i]
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

// Rounds returns the number of rounds the file announces (JaVaFo's XXR,
// TRF-2026's 142), or 0.
func (f *File) Rounds() int {
	for _, code := range []string{"XXR", "142"} {
		if n, err := strconv.Atoi(f.Tag(code)); err == nil && n > 0 {
			return n
		}
	}
	return 0
}

// absent returns the starting ranks listed on XXZ lines (players who
// will not be paired in the round to pair), with the line of each.
func (f *File) absent() (map[int]Source, error) {
	out := map[int]Source{}
	for i, h := range f.Header {
		if !strings.HasPrefix(h, "XXZ") {
			continue
		}
		ln := 0
		if i < len(f.headerLine) {
			ln = f.headerLine[i]
		}
		for _, w := range fieldsAt(h[3:]) {
			col := w.col + 3
			n, err := strconv.Atoi(w.text)
			if err != nil || n < 1 {
				return nil, errorf(ln, col, "XXZ lists %q: want the starting ranks of the players not to pair", w.text)
			}
			if f.Player(n) == nil {
				return nil, errorf(ln, col, "XXZ lists %d, which is no player of this file", n)
			}
			out[n] = Source{Line: ln, Column: col, Text: strings.TrimSpace(h)}
		}
	}
	return out, nil
}

// requested returns the byes TRF-2026's 240 lines give for round r ("240
// H 005  012  047": the kind in column 5, the round in 7-9, players from
// column 11 every five columns).
func (f *File) requested(r int) (map[int]requestedBye, error) {
	out := map[int]requestedBye{}
	for i, h := range f.Header {
		if !strings.HasPrefix(h, "240") {
			continue
		}
		ln := 0
		if i < len(f.headerLine) {
			ln = f.headerLine[i]
		}
		l := line{n: ln, chars: []rune(h)}
		code := Code(l.at(5))
		if code != FullBye && code != HalfBye && code != ZeroBye {
			return nil, errorf(ln, 5, "240 bye %q: want F, H or Z", l.at(5))
		}
		round, err := l.number(7, 9, "240 round")
		if err != nil {
			return nil, err
		}
		if round < 1 {
			return nil, errorf(ln, 7, "240 names no round in columns 7-9")
		}
		for col := 11; col <= len(l.chars); col += 5 {
			n, err := l.number(col, col+3, "240 player")
			if err != nil {
				return nil, err
			}
			if n == 0 {
				continue
			}
			if f.Player(n) == nil {
				return nil, errorf(ln, col, "240 gives a bye to %d, which is no player of this file", n)
			}
			if round == r {
				out[n] = requestedBye{code: code, at: Source{Line: ln, Column: col, Text: strings.TrimSpace(h)}}
			}
		}
	}
	return out, nil
}

type requestedBye struct {
	code Code
	at   Source
}

// IsTRF reports whether content looks like a TRF, whatever ends its
// lines (LF, CR LF, CR) and however many blank lines it has: its first
// line that is not blank begins with a line code (three digits, "012")
// and a blank, or one of its lines begins with a player's "001 ". Blanks
// before a line's code are passed over, so that an indented TRF is read
// as one, and refused saying what is wrong with it, rather than as a CSV.
func IsTRF(content []byte) bool {
	content = bytes.TrimPrefix(content, []byte("\ufeff"))
	first := true
	for len(content) > 0 {
		line := content
		rest := []byte(nil)
		if i := bytes.IndexAny(content, "\r\n"); i >= 0 {
			line, rest = content[:i], content[i+1:]
		}
		content = rest
		line = bytes.TrimLeft(line, " \t\f\v")
		if len(line) == 0 {
			continue
		}
		if bytes.HasPrefix(line, []byte("001 ")) || first && len(line) >= 4 && isDigits(string(line[:3])) && (line[3] == ' ' || line[3] == '\t') {
			return true
		}
		first = false
	}
	return false
}
