package sim

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/corentings/chess/v2"

	"github.com/chesshall/hallclock/formats/pgn"
	"github.com/chesshall/hallclock/internal/chesslib"
	hallv1 "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
)

// eboard is the electronic board of an e-board game: the position, and
// the legal moves the players choose from.
//
// It works on chess.Position values only and never decodes a FEN: the
// chess library's FEN parser (chess.FEN, chess.NewGame, StartingPosition)
// keeps its ranks in a package-level buffer and is not safe for concurrent
// use (corentings/chess v2.3.2, fen.go), while thousands of boards play at
// once. A board starts from pgn.StartPosition (the library's binary
// encoding), and a board picked up after a restart replays its moves.
type eboard struct {
	pos  *chess.Position
	seen map[string]int // positions (FEN without the clocks) → times reached
}

// newEBoard sets up the initial position.
func newEBoard() *eboard {
	b := &eboard{pos: pgn.StartPosition(), seen: map[string]int{}}
	b.seen[b.key()]++
	return b
}

// replayEBoard rebuilds a board from a clock's history: the moves pressed
// (SAN) and the positions reported (a sealed move, or an illegal move that
// stood).
func replayEBoard(history []*hallv1.ClockAction) (*eboard, error) {
	b := newEBoard()
	for i, a := range history {
		switch {
		case a.GetKind() == hallv1.ActionKind_ACTION_KIND_PRESS && a.GetSan() != "":
			m, err := chesslib.DecodeSAN(b.pos, a.GetSan())
			if err != nil {
				return nil, fmt.Errorf("sim: e-board history action %d: %w", i, err)
			}
			b.play(m)
		case a.GetKind() == hallv1.ActionKind_ACTION_KIND_POSITION:
			if !b.reach(a.GetFen()) {
				return nil, fmt.Errorf("sim: e-board history action %d: %s is not one move from %s", i, a.GetFen(), b.fen())
			}
		}
	}
	return b, nil
}

// key is the position without its clocks, for repetitions.
func (b *eboard) key() string {
	f := strings.Fields(b.pos.String())
	return strings.Join(f[:min(4, len(f))], " ")
}

// fen returns the current position.
func (b *eboard) fen() string { return b.pos.String() }

// turn returns the side to move on the board.
func (b *eboard) turn() rules.Side {
	if b.pos.Turn() == chess.Black {
		return rules.Black
	}
	return rules.White
}

// pick chooses a legal move, with its SAN and the FEN after it: a mate in
// one when there is one, captures and checks more often than quiet moves,
// so that random games end on the board in a realistic number of moves.
// It returns a nil move when there is none (the game is over).
func (b *eboard) pick(rng *rand.Rand) (*chess.Move, string, string) {
	pos := b.pos
	moves := pos.ValidMoves()
	if len(moves) == 0 {
		return nil, "", ""
	}
	weights := make([]float64, len(moves))
	var total float64
	for i := range moves {
		m := &moves[i]
		w := 1.0
		if m.HasTag(chess.Check) {
			if pos.Update(m).Status() == chess.Checkmate {
				return b.describe(m)
			}
			w += 1.5
		}
		if m.HasTag(chess.Capture) || m.HasTag(chess.EnPassant) {
			w += 3 + float64(pieceValue(pos.Board().Piece(m.S2()).Type()))
		}
		if m.Promo() != chess.NoPieceType {
			w += 5
		}
		weights[i] = w
		total += w
	}
	x := rng.Float64() * total
	i := 0
	for ; i < len(moves)-1; i++ {
		x -= weights[i]
		if x < 0 {
			break
		}
	}
	return b.describe(&moves[i])
}

func (b *eboard) describe(m *chess.Move) (*chess.Move, string, string) {
	mv := *m
	return &mv, chess.AlgebraicNotation{}.Encode(b.pos, &mv), b.pos.Update(&mv).String()
}

// play makes the move m, legal in the current position (pick's choice).
func (b *eboard) play(m *chess.Move) {
	b.pos = b.pos.Update(m)
	b.seen[b.key()]++
}

// reach plays the legal move that leads to fen, if there is one.
func (b *eboard) reach(fen string) bool {
	for _, m := range b.pos.ValidMoves() {
		if b.pos.Update(&m).String() == fen {
			b.play(&m)
			return true
		}
	}
	return false
}

// outcome returns the result the position decides: checkmate, stalemate,
// a dead position (insufficient material), fivefold repetition or the 75
// moves rule (9.6).
func (b *eboard) outcome() (rules.Result, bool) {
	switch b.pos.Status() {
	case chess.Checkmate:
		if b.turn() == rules.White {
			return rules.BlackWins, true
		}
		return rules.WhiteWins, true
	case chess.Stalemate:
		return rules.Draw, true
	}
	if b.deadPosition() || b.seen[b.key()] >= 5 || b.pos.HalfMoveClock() >= 150 {
		return rules.Draw, true
	}
	return "", false
}

// deadPosition reports the material no series of legal moves can mate
// with: king against king, a single minor piece, or bishops all on
// squares of one colour.
func (b *eboard) deadPosition() bool {
	var minors, knights int
	colours := map[int]bool{}
	for sq, p := range b.pos.Board().SquareMap() {
		switch p.Type() {
		case chess.King:
		case chess.Bishop:
			minors++
			colours[(int(sq.File())+int(sq.Rank()))%2] = true
		case chess.Knight:
			minors++
			knights++
		default:
			return false // a queen, rook or pawn
		}
	}
	return minors <= 1 || knights == 0 && len(colours) == 1
}

// material returns side's material in pawns (queen 9, rook 5, bishop and
// knight 3, pawn 1).
func (b *eboard) material(side rules.Side) int {
	c := chess.White
	if side == rules.Black {
		c = chess.Black
	}
	n := 0
	for _, p := range b.pos.Board().SquareMap() {
		if p.Color() == c {
			n += pieceValue(p.Type())
		}
	}
	return n
}

func pieceValue(t chess.PieceType) int {
	switch t {
	case chess.Queen:
		return 9
	case chess.Rook:
		return 5
	case chess.Bishop, chess.Knight:
		return 3
	case chess.Pawn:
		return 1
	}
	return 0
}
