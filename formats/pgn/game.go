package pgn

import (
	"time"

	"github.com/chesshall/hallclock/rules"
)

// Player is a player as the tags show them.
type Player struct {
	Name   string // "Lastname, Firstname"
	Elo    int    // 0: unrated (no tag)
	FideID string
	Title  string // "GM", "WIM", ...
}

// Entry is one event of a board's log, with who caused it and why (for
// the arbiter's rulings).
type Entry struct {
	Event  rules.Event
	Actor  string
	Reason string
}

// Game is what Write needs to write one game: a plain value that the
// server (and a broadcast feed) builds from a board's record and its log.
type Game struct {
	Event string
	Site  string
	Date  time.Time // the day the game was played; zero: unknown
	Round int       // 0: unknown
	Board int       // 0: unknown; the board's number in its section
	// Place is the game's number in its round across the round's sections
	// (1 up: section by section, each by board number), the second part
	// of the Round tag in the RoundAndBoard form, so that board 1 of two
	// sections never share a tag. 0: Board.
	Place int
	White Player
	Black Player
	// Config is the board's clock configuration: the time control and the
	// rules the log is folded with.
	Config rules.Config
	// Log is the board's events in order, as far as they are to be
	// written (a delayed feed cuts it).
	Log []Entry
}

// RoundForm is how the Round tag is written.
type RoundForm int

const (
	// RoundNumber writes the round's number: "5".
	RoundNumber RoundForm = iota
	// RoundAndBoard writes round and game: "5.12", as lichess broadcasts
	// order a round's games: the game's Place in the round across its
	// sections (its Board when Place is 0).
	RoundAndBoard
)

// Options change how games are written. The zero value writes an archive.
type Options struct {
	Round RoundForm
	// NoClocks leaves out the [%clk] and [%emt] comments.
	NoClocks bool
	// LichessResults writes the results PGN has no notation for in the
	// Result tag as lichess broadcasts read them: "0-0" (both lose, a
	// double forfeit), "1/2-0", "0-1/2". Without it the tag holds one of
	// PGN's four results only, "*" for these.
	LichessResults bool
	// NoReasons leaves out the reasons the arbiter gave: a ruling's
	// comment says what happened ("Clock paused", "Arbiter: White +2:00")
	// without the arbiter's words, which are for the audit and the
	// arbiters. Public feeds write games so.
	NoReasons bool
}
