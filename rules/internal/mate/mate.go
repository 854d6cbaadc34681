package mate

import "github.com/chesshall/hallclock/internal/chesslib"

// Colour is a side: White or Black (the rules' Side values).
type Colour = uint8

// The sides, as the rules number them.
const (
	White Colour = mtWhite
	Black Colour = mtBlack
)

// Position is a position read from a FEN, ready for CanMate.
type Position struct{ p matePos }

// Parse reads and checks a FEN: six space-separated fields, eight ranks of
// eight squares, exactly one king of each colour, no pawn on rank 1 or 8.
// What it refuses is a *FENError. Castling rights whose king or rook is not
// on its original square, and an en passant square no pawn could have
// passed, are accepted and dropped.
func Parse(fen string) (Position, error) {
	p, err := parseMateFEN(fen)
	return Position{p}, err
}

// CanMate reports whether side (White or Black) can checkmate its opponent
// by any series of legal moves from p (see the package comment for how
// "can" and "cannot" are decided).
func CanMate(p *Position, side Colour) bool { return mtCanMate(&p.p, side) }

// Validate is Parse, and then the chess library reads the FEN too: whoever
// decodes it later with the library must be able to. Either refusal is a
// *FENError.
func Validate(fen string) error {
	if _, err := parseMateFEN(fen); err != nil {
		return err
	}
	if err := chesslib.CheckFEN(fen); err != nil {
		return mtFENError(fen, err.Error())
	}
	return nil
}
