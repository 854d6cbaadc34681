// Package chesslib is the hall's one way into the chess library
// (corentings/chess) for what that library does not do safely from many
// goroutines at once. It owns the one lock that serialises them:
//
//   - FEN decoding (chess.FEN, chess.NewGame, chess.StartingPosition) keeps
//     the ranks in a package-level buffer (corentings/chess v2.3.2,
//     fen.go: rankBuffer), so two boards decoding a FEN at once may read
//     each other's ranks;
//   - SAN decoding (AlgebraicNotation.Decode, Game.PushNotationMove) returns
//     a slice it has already put back in a sync.Pool (notation.go:
//     generateOptions), so two decodings at once overwrite each other's
//     candidate moves.
//
// A hall decodes moves and positions for many boards at once (the rules'
// FEN checks, the PGN writer's and the simulator's move replay), so every
// such call goes through here. What the library does on a Position it
// already holds (its moves, Update, encoding a move) needs no lock.
//
// # Concurrency
//
// Every function is safe for concurrent use; each holds the lock only for
// the library's call.
package chesslib

import (
	"strings"
	"sync"

	"github.com/corentings/chess/v2"
)

// mu serialises the library's FEN and SAN decoding (see the package
// comment).
var mu sync.Mutex

// CheckFEN reports whether the library reads fen (surrounding spaces
// ignored), with the library's own error if not.
func CheckFEN(fen string) error {
	mu.Lock()
	defer mu.Unlock()
	_, err := chess.FEN(strings.TrimSpace(fen))
	return err
}

// DecodeSAN returns the move that san (standard algebraic notation) names
// in pos, or the library's error if it names none.
func DecodeSAN(pos *chess.Position, san string) (*chess.Move, error) {
	mu.Lock()
	defer mu.Unlock()
	return chess.AlgebraicNotation{}.Decode(pos, san)
}

// NewGame returns a game from the initial position (the library decodes
// its FEN).
func NewGame() *chess.Game {
	mu.Lock()
	defer mu.Unlock()
	return chess.NewGame()
}

// PushSAN plays the move san names on g.
func PushSAN(g *chess.Game, san string) error {
	mu.Lock()
	defer mu.Unlock()
	return g.PushNotationMove(san, chess.AlgebraicNotation{}, nil)
}
