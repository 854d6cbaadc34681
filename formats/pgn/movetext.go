package pgn

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/corentings/chess/v2"

	"github.com/chesshall/hallclock/internal/chesslib"
	"github.com/chesshall/hallclock/rules"
)

// item is a move or a comment of the movetext.
type item struct {
	san     string // a move, or "" for a comment
	white   bool   // the move is White's
	number  int    // its move number
	comment string
}

// movetext collects a game's moves and comments as the log is folded.
type movetext struct {
	items []item
	// pos is the position after the moves so far, when the game started
	// from the initial position and every move fitted it; nil otherwise.
	pos    *chess.Position
	moves  int  // moves written
	number int  // the move number of the next move
	white  bool // White moves next
	broken bool // a move did not fit: no more moves are written
	// fen is the starting position of a game that did not start from the
	// initial one, or (no moves at all) the last position known.
	fen string
}

func newMovetext() *movetext {
	return &movetext{pos: StartPosition(), number: 1, white: true}
}

func (m *movetext) comment(format string, args ...any) {
	c := fmt.Sprintf(format, args...)
	// A comment cannot hold its closing brace.
	c = strings.NewReplacer("{", "(", "}", ")").Replace(c)
	m.items = append(m.items, item{comment: c})
}

// move records side's move given in SAN, with the clock after it and the
// time it took (-1: unknown).
func (m *movetext) move(side rules.Side, san string, clk, emt int64, clocks bool) {
	if m.broken {
		return
	}
	if (side == rules.White) != m.white {
		m.stop("the e-board reports %s's move %s when %s is to move", side, san, sideName(m.white))
		return
	}
	if m.pos != nil {
		mv, err := chesslib.DecodeSAN(m.pos, san)
		if err != nil {
			m.stop("the e-board's move %s does not fit the position", san)
			return
		}
		san = chess.AlgebraicNotation{}.Encode(m.pos, mv)
		m.pos = m.pos.Update(mv)
		san = fixCheck(san, mv, m.pos)
	}
	m.items = append(m.items, item{san: san, white: m.white, number: m.number})
	m.moves++
	if !m.white {
		m.number++
	}
	m.white = !m.white
	if clocks {
		c := "[%clk " + clockTime(clk) + "]"
		if emt >= 0 {
			c += " [%emt " + clockTime(emt) + "]"
		}
		m.items = append(m.items, item{comment: c})
	}
}

// press records a press of a game whose moves are unknown (no e-board):
// PGN's movetext holds only legal moves, so the press is a comment with
// the move's number, the clock after it and the time it took, in the
// commands clock readers know ("White, move 12: [%clk 1:29:56] [%emt
// 0:00:04]"). The comments follow each other before the result.
func (m *movetext) press(side rules.Side, number int, clk, emt int64) {
	m.comment("%s, move %d: [%%clk %s] [%%emt %s]", titleSide(side), number, clockTime(clk), clockTime(emt))
}

// position records a position the e-board (or the arbiter) reported: a
// move (a sealed one, reported when the game resumes), the position
// already known, or — before any move — the starting position.
func (m *movetext) position(fen string, clk int64, clocks bool) {
	if m.broken {
		return
	}
	if m.pos != nil {
		if sameFEN(m.pos.String(), fen) {
			return
		}
		for _, mv := range m.pos.ValidMoves() {
			if sameFEN(m.pos.Update(&mv).String(), fen) {
				side := rules.Black
				if m.white {
					side = rules.White
				}
				m.move(side, chess.AlgebraicNotation{}.Encode(m.pos, &mv), clk, -1, clocks)
				return
			}
		}
	}
	if m.moves > 0 {
		if m.pos == nil {
			return // moves from a set-up position are written as the e-board sent them
		}
		m.stop("the board shows a position no legal move reaches: %s", fen)
		return
	}
	// No move yet: this is where the game starts (or, if no moves follow,
	// the last position known).
	m.pos, m.fen = nil, fen
	f := strings.Fields(fen)
	m.white = len(f) < 2 || f[1] != "b"
	m.number = 1
	if len(f) >= 6 {
		if n, err := strconv.Atoi(f[5]); err == nil && n > 0 {
			m.number = n
		}
	}
}

func (m *movetext) stop(format string, args ...any) {
	m.comment(format+"; the moves stop here", args...)
	m.broken = true
}

// sameFEN compares two positions by their placement and, when both give
// it, the side to move: e-boards do not always know castling rights and
// move counters.
func sameFEN(a, b string) bool {
	fa, fb := strings.Fields(a), strings.Fields(b)
	if len(fa) == 0 || len(fb) == 0 || fa[0] != fb[0] {
		return false
	}
	return len(fa) < 2 || len(fb) < 2 || fa[1] == fb[1]
}

func sideName(white bool) string {
	if white {
		return "White"
	}
	return "Black"
}

// clockTime writes milliseconds as h:mm:ss, cut to whole seconds.
func clockTime(ms int64) string {
	sign := ""
	if ms < 0 {
		sign, ms = "-", -ms
	}
	s := ms / 1000
	return fmt.Sprintf("%s%d:%02d:%02d", sign, s/3600, s/60%60, s%60)
}

// signed writes a change of time: "+1:00", "-0:30", "+1:00:00".
func signed(ms int64) string {
	sign := "+"
	if ms < 0 {
		sign, ms = "-", -ms
	}
	s := ms / 1000
	if s >= 3600 {
		return fmt.Sprintf("%s%d:%02d:%02d", sign, s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%s%d:%02d", sign, s/60, s%60)
}

// tokens returns the movetext as words, numbers in place: "1." before
// White's move, "1..." before Black's after a comment or at the start.
func (m *movetext) tokens() []string {
	var out []string
	afterComment := true
	for _, it := range m.items {
		if it.san == "" {
			words := commandWords(strings.Fields(it.comment))
			if len(words) == 0 {
				continue
			}
			words[0] = "{" + words[0]
			words[len(words)-1] += "}"
			out = append(out, words...)
			afterComment = true
			continue
		}
		switch {
		case it.white:
			out = append(out, strconv.Itoa(it.number)+".")
		case afterComment:
			out = append(out, strconv.Itoa(it.number)+"...")
		}
		out = append(out, it.san)
		afterComment = false
	}
	return out
}

// commandWords keeps each clock command ("[%clk 0:02:57]") one word, so
// that a line is never broken inside it.
func commandWords(words []string) []string {
	var out []string
	for i := 0; i < len(words); i++ {
		w := words[i]
		for strings.HasPrefix(w, "[%") && !strings.Contains(w, "]") && i+1 < len(words) {
			i++
			w += " " + words[i]
		}
		out = append(out, w)
	}
	return out
}
