package roundcsv

import (
	"fmt"

	"github.com/chesshall/hallclock/formats/internal/text"

	"github.com/chesshall/hallclock/rules"
)

// Player is a player as the CSV gives them.
type Player struct {
	Name       string
	Number     int    // the pairing (starting) number, 0 if not given
	Title      string // "GM", "WIM", ...
	Federation string
	Rating     int // 0 if none
	FideID     string
}

// Game is one board of the round.
type Game struct {
	Section      string
	Board        int
	White, Black Player
	// Result is the game's result: "*" when the file gives none.
	Result rules.Result
	// Counts is the result that counts when the board's draw odds make it
	// differ from Result (a drawn Armageddon: Result "1/2-1/2", Counts
	// "0-1"); empty otherwise. Written in a Counts column, present only
	// when some game has one.
	Counts      rules.Result
	Termination string
	// Points each side scored (results files only; 0 otherwise).
	WhitePoints, BlackPoints float64
	// Blind is the board's play under the rules for visually disabled
	// players, from a Blind column in the short notation ("W+A:de",
	// rules.ParseBlindPlay), checked for its notation only; nil when the
	// file has no such column or the cell is empty (the round's setting).
	Blind *rules.BlindPlay
	Line  int // where it was read
}

// ByeKind is which round without a game a player has: the letters of the
// TRF.
type ByeKind byte

// Byes.
const (
	HalfPointBye ByeKind = 'H'
	FullPointBye ByeKind = 'F'
	PairingBye   ByeKind = 'U' // pairing-allocated
	ZeroPointBye ByeKind = 'Z'
)

func (k ByeKind) String() string { return string(rune(k)) }

// Bye is a player's round without a game.
type Bye struct {
	Section string
	Player  Player
	Kind    ByeKind
	Points  float64 // results files only
	Line    int
}

// Round is a round's games and byes.
type Round struct {
	Number int // from a Round column, 0 if none
	Games  []Game
	Byes   []Bye
	// Encoding is the encoding the file was read in ("utf-8",
	// "windows-1250", ...); EncodingAssumed says it is not UTF-8 and no
	// encoding was named, so it was read as windows-1252. Write ignores
	// both: WriteOptions say what to write.
	Encoding        string
	EncodingAssumed bool
}

// Error is what is wrong with a file, and where: the line (from 1) and
// the column (the field, from 1; 0 when the whole line is meant).
type Error struct {
	Line, Column int
	Header       string // the column's header, if known
	Msg          string
}

func (e *Error) Error() string {
	s := ""
	if e.Line > 0 {
		s = fmt.Sprintf("line %d", e.Line)
		if e.Column > 0 {
			s += fmt.Sprintf(", column %d", e.Column)
			if e.Header != "" {
				s += fmt.Sprintf(" (%s)", text.Cut(e.Header, 40))
			}
		}
		s += ": "
	}
	return s + e.Msg
}

// Is makes errors.Is(err, rules.ErrInvalid) true: a bad file is invalid input.
func (e *Error) Is(target error) bool { return target == rules.ErrInvalid }
