package roundcsv

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/chesshall/hallclock/formats/internal/text"
	"github.com/chesshall/hallclock/rules"
)

// ReadOptions change how Read reads a file.
type ReadOptions struct {
	// Encoding is the code page of a file that is not valid UTF-8:
	// "windows-1250", "cp1252", "iso-8859-2", ... Empty means
	// windows-1252. A file that is valid UTF-8 is read as UTF-8; "utf-8"
	// refuses one that is not.
	Encoding string
}

// Read reads a round's pairings (or results) from CSV. See the package
// documentation for the columns it knows; an error is an *Error.
func Read(r io.Reader) (*Round, error) { return ReadWith(r, ReadOptions{}) }

// ReadWith reads a round's pairings (or results) from CSV with options.
func ReadWith(r io.Reader, opt ReadOptions) (*Round, error) {
	cs, err := text.Lookup(opt.Encoding)
	if err != nil {
		return nil, fmt.Errorf("roundcsv: %w", err)
	}
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("roundcsv: %w", err)
	}
	src, err := text.Read(data, cs)
	if err != nil {
		var te *text.Error
		if errors.As(err, &te) {
			return nil, &Error{Line: te.Line, Column: te.Column, Msg: te.Msg}
		}
		return nil, err
	}
	// encoding/csv knows LF and CR LF; a lone CR (old Mac, some Windows
	// exports) ends a line as well. The lines are given to it with LF,
	// so its line numbers are the file's.
	var b strings.Builder
	for _, l := range src.Lines {
		b.WriteString(l.Text)
		b.WriteByte('\n')
	}
	content := b.String()
	cr := csv.NewReader(strings.NewReader(content))
	cr.Comma = delimiter(content)
	cr.FieldsPerRecord = -1
	cr.TrimLeadingSpace = true
	header, err := cr.Read()
	if err != nil {
		return nil, csvError(err)
	}
	rd := &reader{cr: cr, header: header, cols: make([]column, len(header)), at: map[[2]int]int{}}
	if err := rd.readHeader(); err != nil {
		return nil, err
	}
	out, err := rd.readRows()
	if err != nil {
		return nil, err
	}
	out.Encoding, out.EncodingAssumed = src.Charset.Name, src.Assumed
	return out, nil
}

// q quotes a cell for an error message, cut short if long.
func q(s string) string { return text.Quote(s, 40) }

// delimiter returns the separator the header line uses most: comma,
// semicolon or tab.
func delimiter(s string) rune {
	first, _, _ := strings.Cut(s, "\n")
	best, n := ',', strings.Count(first, ",")
	for _, d := range []rune{';', '\t'} {
		if c := strings.Count(first, string(d)); c > n {
			best, n = d, c
		}
	}
	return best
}

func csvError(err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return &Error{Line: pe.Line, Msg: pe.Err.Error()}
	}
	if errors.Is(err, io.EOF) {
		return &Error{Msg: "the file is empty: want a header row and a row per board"}
	}
	return fmt.Errorf("roundcsv: %w", err)
}

type reader struct {
	cr     *csv.Reader
	header []string
	cols   []column
	at     map[[2]int]int // (role, side+1) → field index
}

func (rd *reader) readHeader() error {
	seen := [2]map[role]bool{{}, {}}
	for i, h := range rd.header {
		c := classify(h)
		if c.role == roleNone {
			continue
		}
		if c.role.player() && c.side < 0 {
			// Without a side: the first is White's, the second Black's.
			switch {
			case !seen[0][c.role]:
				c.side = 0
			case !seen[1][c.role]:
				c.side = 1
			default:
				return &Error{Line: 1, Column: i + 1, Header: h, Msg: fmt.Sprintf("a third %s column without a side: say White's or Black's", roleNames[c.role])}
			}
		}
		key := [2]int{int(c.role), c.side + 1}
		if j, dup := rd.at[key]; dup {
			return &Error{Line: 1, Column: i + 1, Header: h, Msg: fmt.Sprintf("the same column as column %d (%s)", j+1, text.Cut(rd.header[j], 40))}
		}
		if c.side >= 0 {
			seen[c.side][c.role] = true
		}
		rd.at[key] = i
		rd.cols[i] = c
	}
	for s, name := range []string{"White", "Black"} {
		if _, ok := rd.at[[2]int{int(roleName), s + 1}]; !ok {
			found := rd.header
			if len(found) > 12 {
				found = found[:12]
			}
			var names []string
			for _, h := range found {
				names = append(names, text.Cut(h, 40))
			}
			if len(found) < len(rd.header) {
				names = append(names, fmt.Sprintf("and %d more", len(rd.header)-len(found)))
			}
			return &Error{Line: 1, Msg: fmt.Sprintf("no column names %s's player (want a header such as %q; found %s)", name, name, strings.Join(names, ", "))}
		}
	}
	return nil
}

// cell is one field of a row.
type cell struct {
	text      string
	line, col int
	header    string
}

func (c cell) err(format string, args ...any) *Error {
	return &Error{Line: c.line, Column: c.col, Header: c.header, Msg: fmt.Sprintf(format, args...)}
}

// get returns a row's cell of a role (side -1 for none).
func (rd *reader) get(rec []string, line int, r role, side int) (cell, bool) {
	i, ok := rd.at[[2]int{int(r), side + 1}]
	if !ok {
		return cell{line: line}, false
	}
	c := cell{line: line, col: i + 1, header: rd.header[i]}
	if i < len(rec) {
		c.text = strings.TrimSpace(rec[i])
	}
	return c, true
}

func (rd *reader) readRows() (*Round, error) {
	out := &Round{}
	boards := map[string]map[int]int{} // section → board → line
	next := map[string]int{}
	players := map[string]map[string]int{} // section → player key → line
	round := cell{}
	for {
		rec, err := rd.cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, csvError(err)
		}
		line, _ := rd.cr.FieldPos(0)
		if blank(rec) {
			continue
		}
		if c, ok := rd.get(rec, line, roleRound, -1); ok && c.text != "" {
			n, err := strconv.Atoi(c.text)
			if err != nil || n < 1 {
				return nil, c.err("round %s: want a number from 1", q(c.text))
			}
			if out.Number != 0 && n != out.Number {
				return nil, c.err("round %d, but line %d is round %d: import one round at a time", n, round.line, out.Number)
			}
			out.Number, round = n, c
		}
		section := ""
		if c, ok := rd.get(rec, line, roleSection, -1); ok {
			section = c.text
		}
		white, err := rd.player(rec, line, 0)
		if err != nil {
			return nil, err
		}
		bc, _ := rd.get(rec, line, roleName, 1)
		res, _ := rd.get(rec, line, roleResult, -1)
		if players[section] == nil {
			players[section] = map[string]int{}
		}
		if isBye(bc.text) {
			kind, err := byeKind(res)
			if err != nil {
				return nil, err
			}
			if err := seen(players[section], white, line); err != nil {
				return nil, err
			}
			b := Bye{Section: section, Player: white, Kind: kind, Line: line}
			if pc, ok := rd.get(rec, line, rolePoints, 0); ok && pc.text != "" {
				if b.Points, err = points(pc); err != nil {
					return nil, err
				}
			}
			out.Byes = append(out.Byes, b)
			continue
		}
		black, err := rd.player(rec, line, 1)
		if err != nil {
			return nil, err
		}
		g := Game{Section: section, White: white, Black: black, Result: rules.NoResult, Line: line}
		if key(white) == key(black) {
			return nil, bc.err("%s is paired against himself", black.Name)
		}
		for _, p := range []Player{white, black} {
			if err := seen(players[section], p, line); err != nil {
				return nil, err
			}
		}
		if bd, ok := rd.get(rec, line, roleBoard, -1); ok {
			n, err := strconv.Atoi(bd.text)
			if err != nil || n < 1 {
				return nil, bd.err("board %s: want a number from 1", q(bd.text))
			}
			g.Board = n
		} else {
			next[section]++
			g.Board = next[section]
		}
		if boards[section] == nil {
			boards[section] = map[int]int{}
		}
		if l, dup := boards[section][g.Board]; dup {
			c, _ := rd.get(rec, line, roleBoard, -1)
			return nil, c.err("board %d%s is also on line %d", g.Board, inSection(section), l)
		}
		boards[section][g.Board] = line
		if ok := res.text != ""; ok {
			if g.Result, err = parseResult(res); err != nil {
				return nil, err
			}
		}
		if c, ok := rd.get(rec, line, roleTermination, -1); ok {
			g.Termination = c.text
		}
		if c, ok := rd.get(rec, line, roleCounts, -1); ok && c.text != "" {
			if g.Counts, err = parseResult(c); err != nil {
				return nil, err
			}
		}
		if c, ok := rd.get(rec, line, roleBlind, -1); ok && c.text != "" {
			b, err := rules.ParseBlindPlay(c.text)
			if err != nil {
				return nil, c.err("%v", err)
			}
			g.Blind = &b
		}
		for side, p := range []*float64{&g.WhitePoints, &g.BlackPoints} {
			if c, ok := rd.get(rec, line, rolePoints, side); ok && c.text != "" {
				if *p, err = points(c); err != nil {
					return nil, err
				}
			}
		}
		out.Games = append(out.Games, g)
	}
	if len(out.Games) == 0 && len(out.Byes) == 0 {
		return nil, &Error{Msg: "no boards: the file has a header row but no pairings"}
	}
	return out, nil
}

func blank(rec []string) bool {
	for _, f := range rec {
		if strings.TrimSpace(f) != "" {
			return false
		}
	}
	return true
}

func inSection(s string) string {
	if s == "" {
		return ""
	}
	return " of section " + s
}

// player reads one side's player from a row.
func (rd *reader) player(rec []string, line, side int) (Player, error) {
	var p Player
	nc, _ := rd.get(rec, line, roleName, side)
	if nc.text == "" {
		return p, nc.err("no %s player", []string{"White", "Black"}[side])
	}
	p.Name = nc.text
	if c, ok := rd.get(rec, line, roleRating, side); ok && c.text != "" && c.text != "-" {
		n, err := strconv.Atoi(c.text)
		if err != nil || n < 0 || n > 3500 {
			return p, c.err("rating %s: want a number from 0 to 3500, or nothing", q(c.text))
		}
		p.Rating = n
	}
	if c, ok := rd.get(rec, line, roleFideID, side); ok && c.text != "" && c.text != "-" {
		if !digits(c.text) || len(c.text) > 11 {
			return p, c.err("FIDE id %s: want up to 11 digits, or nothing", q(c.text))
		}
		p.FideID = strings.TrimLeft(c.text, "0")
	}
	if c, ok := rd.get(rec, line, roleNumber, side); ok && c.text != "" {
		n, err := strconv.Atoi(c.text)
		if err != nil || n < 1 || n > 9999 {
			return p, c.err("number %s: want the player's pairing number, 1 to 9999", q(c.text))
		}
		p.Number = n
	}
	if c, ok := rd.get(rec, line, roleTitle, side); ok {
		p.Title = c.text
	}
	if c, ok := rd.get(rec, line, roleFederation, side); ok {
		p.Federation = c.text
	}
	return p, nil
}

func digits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

// key identifies a player within a round: the FIDE id, else the pairing
// number, else the name.
func key(p Player) string {
	switch {
	case p.FideID != "":
		return "id:" + p.FideID
	case p.Number > 0:
		return "no:" + strconv.Itoa(p.Number)
	}
	return "name:" + strings.ToLower(strings.Join(strings.Fields(p.Name), " "))
}

func seen(players map[string]int, p Player, line int) error {
	k := key(p)
	if l, dup := players[k]; dup {
		return &Error{Line: line, Msg: fmt.Sprintf("%s plays twice in the round (also on line %d)", p.Name, l)}
	}
	players[k] = line
	return nil
}

func isBye(name string) bool {
	n := strings.ToLower(strings.Trim(strings.TrimSpace(name), "()[]-"))
	switch n {
	case "bye", "spielfrei", "freilos", "pab", "free":
		return true
	}
	return false
}

// byeKind reads the result cell of a bye row.
func byeKind(c cell) (ByeKind, error) {
	switch strings.ToUpper(strings.ReplaceAll(c.text, " ", "")) {
	case "H", "½", "1/2", "0.5", "=", "1/2-0", "½-0":
		return HalfPointBye, nil
	case "F":
		return FullPointBye, nil
	case "U", "1", "+", "1-0", "+-", "":
		return PairingBye, nil
	case "Z", "0", "-", "0-0", "--":
		return ZeroPointBye, nil
	}
	return 0, c.err("bye %s: want H (half point), F (full point), U (pairing-allocated) or Z (zero point)", q(c.text))
}

// results the hall knows, and the spellings read as each.
var resultSpellings = map[string]rules.Result{
	"1-0": rules.WhiteWins, "0-1": rules.BlackWins, "1/2-1/2": rules.Draw, "=-=": rules.Draw,
	"+-": rules.BlackForfeit, "+--": rules.BlackForfeit, "+/-": rules.BlackForfeit,
	"-+": rules.WhiteForfeit, "--+": rules.WhiteForfeit, "-/+": rules.WhiteForfeit,
	"--": rules.DoubleForfeit, "---": rules.DoubleForfeit,
	"0-0": rules.BothLose, "1/2-0": "1/2-0", "0-1/2": "0-1/2", "*": rules.NoResult,
}

// parseResult reads a result cell.
func parseResult(c cell) (rules.Result, error) {
	s := strings.NewReplacer(" ", "", "½", "1/2", "0.5", "1/2", ":", "-", "–", "-").Replace(c.text)
	if r, ok := resultSpellings[s]; ok {
		return r, nil
	}
	return "", c.err("result %s: want 1-0, 0-1, 1/2-1/2, +-, -+, --, 0-0, 1/2-0, 0-1/2, or nothing while the game is to be played", q(c.text))
}

func points(c cell) (float64, error) {
	v, err := strconv.ParseFloat(strings.ReplaceAll(strings.ReplaceAll(c.text, "½", ".5"), ",", "."), 64)
	if err != nil || v < 0 {
		return 0, c.err("points %s: want a number", q(c.text))
	}
	return v, nil
}
