package trf

import (
	"fmt"
	"strconv"
	"strings"
)

// Code is a round's result code in a player line.
type Code byte

// The result codes of TRF-16.
const (
	NoCode      Code = ' ' // blank: not known yet (a scheduled game), or a zero-point bye
	Win         Code = '1'
	Draw        Code = '='
	Loss        Code = '0'
	ForfeitWin  Code = '+' // the game was not played
	ForfeitLoss Code = '-'
	QuickWin    Code = 'W' // the game lasted less than one move (not rated)
	QuickDraw   Code = 'D'
	QuickLoss   Code = 'L'
	HalfBye     Code = 'H'
	FullBye     Code = 'F'
	PairingBye  Code = 'U' // the pairing-allocated bye, at most one a round
	ZeroBye     Code = 'Z' // a known absence
)

// IsBye reports whether the code is one of a round without an opponent.
func (c Code) IsBye() bool {
	return c == HalfBye || c == FullBye || c == PairingBye || c == ZeroBye
}

func (c Code) String() string { return string(rune(c)) }

func parseCode(r rune) (Code, bool) {
	switch c := Code(r); c {
	case NoCode, Win, Draw, Loss, ForfeitWin, ForfeitLoss:
		return c, true
	}
	switch c := Code(strings.ToUpper(string(r))[0]); c {
	case QuickWin, QuickDraw, QuickLoss, HalfBye, FullBye, PairingBye, ZeroBye:
		if r < 128 {
			return c, true
		}
	}
	return 0, false
}

// Colour is the colour a player had (or was scheduled to have) in a round.
type Colour byte

// Colours of a round entry.
const (
	NoColour Colour = '-' // a bye, or not paired
	White    Colour = 'w'
	Black    Colour = 'b'
)

// Game is one round of one player: the opponent's starting rank (0 for
// none), the colour and the result code.
type Game struct {
	Opponent int
	Colour   Colour
	Result   Code
}

// Player is a 001 line.
type Player struct {
	StartRank  int    // 1..9999: the pairing number
	Sex        string // "m", "w" or ""
	Title      string // GM, IM, WGM, FM, WIM, CM, WFM, WCM, or ""
	Name       string // "Lastname, Firstname"
	Rating     int    // FIDE rating, 0 if none
	Federation string // e.g. "NOR"
	FideID     string // digits, "" if none
	BirthDate  string // YYYY/MM/DD (or as written), "" if none
	Points     float64
	Rank       int
	Rounds     []Game // round r at Rounds[r-1]; may be shorter than the tournament
	Line       int    // the line it was read from (0 if not read)
}

// Round returns the player's entry for round r, blank if the line has none.
func (p *Player) Round(r int) Game {
	if r >= 1 && r <= len(p.Rounds) {
		return p.Rounds[r-1]
	}
	return Game{Colour: NoColour, Result: NoCode}
}

// Columns of the player line (1-based, inclusive).
const (
	colRank, colRankEnd     = 5, 8
	colSex                  = 10
	colTitle, colTitleEnd   = 11, 13
	colName, colNameEnd     = 15, 47
	colRating, colRatingEnd = 49, 52
	colFed, colFedEnd       = 54, 56
	colFideID, colFideIDEnd = 58, 68
	colBirth, colBirthEnd   = 70, 79
	colPoints, colPointsEnd = 81, 84
	colPlace, colPlaceEnd   = 86, 89
	colRound1               = 92 // each round takes 10 columns from here
	nameWidth               = colNameEnd - colName + 1
	roundWidth              = 10
)

// separators are the columns between fields, which must be blank.
var separators = []struct {
	col         int
	before, aft string
}{
	{4, "the line code 001", "the starting rank (5-8)"},
	{9, "the starting rank (5-8)", "the sex (10)"},
	{14, "the title (11-13)", "the name (15-47)"},
	{48, "the name (15-47)", "the rating (49-52)"},
	{53, "the rating (49-52)", "the federation (54-56)"},
	{57, "the federation (54-56)", "the FIDE number (58-68)"},
	{69, "the FIDE number (58-68)", "the birth date (70-79)"},
	{80, "the birth date (70-79)", "the points (81-84)"},
	{85, "the points (81-84)", "the rank (86-89)"},
	{90, "the rank (86-89)", "the first round (92-99)"},
	{91, "the rank (86-89)", "the first round (92-99)"},
}

// line is a line of the file as characters, with its number.
type line struct {
	n     int
	chars []rune
}

// field returns columns from..to (1-based, inclusive), trimmed.
func (l line) field(from, to int) string {
	if from > len(l.chars) {
		return ""
	}
	return strings.TrimSpace(string(l.chars[from-1 : min(to, len(l.chars))]))
}

func (l line) at(col int) rune {
	if col > len(l.chars) {
		return ' '
	}
	return l.chars[col-1]
}

// number reads an unsigned decimal field; blank is 0.
func (l line) number(from, to int, what string) (int, error) {
	s := l.field(from, to)
	if s == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return 0, errorf(l.n, from+strings.Index(l.raw(from, to), s), "%s %q (columns %d-%d): want digits", what, s, from, to)
	}
	return n, nil
}

func (l line) raw(from, to int) string {
	if from > len(l.chars) {
		return ""
	}
	return string(l.chars[from-1 : min(to, len(l.chars))])
}

// fields name the fields of a player line by their last column, for a
// line that ends inside one.
var fields = []struct {
	end  int
	name string
}{
	{3, "the line code 001"}, {colRankEnd, "the starting rank (5-8)"}, {colSex, "the sex (10)"}, {colTitleEnd, "the title (11-13)"},
	{colNameEnd, "the name (15-47)"}, {colRatingEnd, "the rating (49-52)"}, {colFedEnd, "the federation (54-56)"},
	{colFideIDEnd, "the FIDE number (58-68)"}, {colBirthEnd, "the birth date (70-79)"}, {colPointsEnd, "the points (81-84)"},
}

// parsePlayer reads a 001 line. A line that ends before the points is
// cut short (a file truncated, a field deleted): it is refused where it
// ends, whatever the rest of the file says.
func parsePlayer(l line) (Player, error) {
	p := Player{Line: l.n}
	if n := len(l.chars); n < colPointsEnd {
		where := ""
		for i, f := range fields {
			if n <= f.end {
				switch {
				case n == f.end:
					where = "after " + f.name
				case i > 0 && n == fields[i-1].end+1:
					where = "in the blank after " + fields[i-1].name
				default:
					where = "in " + f.name
				}
				break
			}
		}
		return p, errorf(l.n, n+1, "the player line ends at column %d, %s: a player line reaches at least the points (columns 81-84) — is it cut short?", n, where)
	}
	for _, s := range separators {
		if c := l.at(s.col); c != ' ' {
			return p, errorf(l.n, s.col, "%q where a blank must separate %s from %s: the fields are not in their TRF-16 columns", c, s.before, s.aft)
		}
	}
	var err error
	if p.StartRank, err = l.number(colRank, colRankEnd, "starting rank"); err != nil {
		return p, err
	}
	if p.StartRank < 1 {
		return p, errorf(l.n, colRank, "no starting rank in columns 5-8 (want 1 to 9999)")
	}
	switch sex := l.field(colSex, colSex); strings.ToLower(sex) {
	case "", "m", "w", "f":
		p.Sex = strings.ToLower(sex)
		if p.Sex == "f" {
			p.Sex = "w"
		}
	default:
		return p, errorf(l.n, colSex, "sex %q (column 10): want m, w or blank", sex)
	}
	p.Title = l.field(colTitle, colTitleEnd)
	p.Name = l.field(colName, colNameEnd)
	if p.Name == "" {
		return p, errorf(l.n, colName, "player %d has no name (columns 15-47)", p.StartRank)
	}
	if p.Rating, err = l.number(colRating, colRatingEnd, "rating"); err != nil {
		return p, err
	}
	p.Federation = l.field(colFed, colFedEnd)
	p.FideID = l.field(colFideID, colFideIDEnd)
	if _, err := l.number(colFideID, colFideIDEnd, "FIDE number"); err != nil {
		return p, err
	}
	p.BirthDate = l.field(colBirth, colBirthEnd)
	if s := l.field(colPoints, colPointsEnd); s != "" {
		if p.Points, err = strconv.ParseFloat(s, 64); err != nil || p.Points < 0 {
			return p, errorf(l.n, colPoints, "points %q (columns 81-84): want a number like 4.5", s)
		}
	}
	if p.Rank, err = l.number(colPlace, colPlaceEnd, "rank"); err != nil {
		return p, err
	}
	for r := 1; colRound1+roundWidth*(r-1) <= len(l.chars); r++ {
		g, err := parseGame(l, colRound1+roundWidth*(r-1), r)
		if err != nil {
			return p, err
		}
		p.Rounds = append(p.Rounds, g)
	}
	// Blank rounds at the end say nothing.
	for len(p.Rounds) > 0 && p.Rounds[len(p.Rounds)-1] == (Game{Colour: NoColour, Result: NoCode}) {
		p.Rounds = p.Rounds[:len(p.Rounds)-1]
	}
	if len(p.Rounds) == 0 {
		p.Rounds = nil // as a line without round columns reads
	}
	return p, nil
}

// parseGame reads the ten columns of round r from column b. A game
// needs its colour (w or b), and a bye (H, F, U) no opponent: an entry
// that breaks either is refused on its own line, before any other line
// is blamed for disagreeing with it. A "Z" with an opponent is lichess's
// game in progress: a game whose result is not known yet.
func parseGame(l line, b, r int) (Game, error) {
	g := Game{Colour: NoColour, Result: NoCode}
	for _, c := range []int{b + 4, b + 6, b + 8, b + 9} {
		if ch := l.at(c); ch != ' ' && c <= len(l.chars) {
			return g, errorf(l.n, c, "%q in round %d's entry (columns %d-%d) where a blank belongs: want \"OOOO C R\" (opponent, colour, result)", ch, r, b, b+7)
		}
	}
	var err error
	if g.Opponent, err = l.number(b, b+3, fmt.Sprintf("round %d opponent", r)); err != nil {
		return g, err
	}
	switch c := l.at(b + 5); c {
	case ' ', '-':
	case 'w', 'W':
		g.Colour = White
	case 'b', 'B':
		g.Colour = Black
	default:
		return g, errorf(l.n, b+5, "round %d colour %q: want w, b or -", r, c)
	}
	code, ok := parseCode(l.at(b + 7))
	if !ok {
		return g, errorf(l.n, b+7, "round %d result %q: want one of 1 = 0 + - W D L H F U Z", r, l.at(b+7))
	}
	g.Result = code
	switch {
	case g.Opponent > 0 && g.Colour == NoColour:
		if len(l.chars) < b+5 {
			return g, errorf(l.n, len(l.chars)+1, "round %d: opponent %d, and the line ends before the colour (column %d) — is it cut short?", r, g.Opponent, b+5)
		}
		return g, errorf(l.n, b+5, "round %d: opponent %d but colour %q: a game needs w or b", r, g.Opponent, l.at(b+5))
	case g.Opponent > 0 && g.Result == ZeroBye:
		g.Result = NoCode
	case g.Opponent > 0 && g.Result.IsBye():
		return g, errorf(l.n, b+7, "round %d: result %q is a bye, but the entry names opponent %d", r, g.Result, g.Opponent)
	case g.Opponent == 0 && g.Colour != NoColour && g.Result != ForfeitWin && g.Result != ForfeitLoss:
		// A forfeit against nobody may keep the colour it was drawn.
		return g, errorf(l.n, b+5, "round %d: colour %q but no opponent (columns %d-%d)", r, g.Colour, b, b+3)
	}
	return g, nil
}
