package pgn

import (
	"encoding/binary"

	"github.com/corentings/chess/v2"
)

// startBinary is the initial position in the chess library's binary
// encoding: twelve bitboards (white king, queen, rook, bishop, knight,
// pawn, then black's), the half-move clock, the move number, the en
// passant square, and the castling and side-to-move flags.
var startBinary = func() []byte {
	b := binary.BigEndian.AppendUint64(nil, 0x0800000000000000)
	for _, bb := range []uint64{0x1000000000000000, 0x8100000000000000, 0x2400000000000000, 0x4200000000000000, 0x00ff000000000000,
		0x08, 0x10, 0x81, 0x24, 0x42, 0xff00} {
		b = binary.BigEndian.AppendUint64(b, bb)
	}
	return append(b, 0x00, 0x00, 0x01, 0xff, 0x0f)
}()

// StartPosition returns the initial position. It never decodes a FEN: the
// chess library's FEN parser (chess.FEN, chess.NewGame, StartingPosition)
// keeps its ranks in a package-level buffer and is not safe for
// concurrent use (corentings/chess v2.3.2, fen.go), while a hall writes
// many games at once.
func StartPosition() *chess.Position {
	pos := &chess.Position{}
	if err := pos.UnmarshalBinary(startBinary); err != nil {
		panic("pgn: the initial position does not decode: " + err.Error())
	}
	return pos
}
