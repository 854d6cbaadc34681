package rules

// Whether a side can still checkmate (FIDE 2023 Art. 6.9, 7.5.5, 5.2.2 /
// 9.6): the search and its proofs are package rules/internal/mate; here
// are the rules' words for it.

import (
	"errors"

	"github.com/chesshall/hallclock/rules/internal/mate"
)

// mateFENAllowed is the Allowed text of FEN input errors.
const mateFENAllowed = `a FEN with 6 fields, e.g. "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", with one king of each colour and no pawn on rank 1 or 8`

// CanCheckmate reports whether side can checkmate its opponent by any
// possible series of legal moves from the position fen (FIDE 2023 Art. 6.9,
// 7.5.5; 5.2.2): whether a helpmate exists, both players cooperating. The
// FEN must pass [ValidateFEN]; otherwise the error is an *[InputError] with
// What "FEN". It is pure and deterministic, and safe for concurrent use.
//
// "Cannot" is only answered with a proof: material that can never mate, a
// pawn structure that can never change and keeps the kings from a mate, or
// a search that visited every reachable position. "Can" is answered when a
// mating line was found, and also when the bounded search could not decide
// (the law takes the opponent to be able to checkmate while it is unknown).
// So a dead position may be answered "can" when none of the static rules
// covers it and its reachable positions are too many to visit within the
// budget: for example fortresses behind locked pawns where a piece could
// still take a pawn that is of no use, or pieces walled in by their own
// pawns with many squares to shuffle on, or pawnless endings dead only
// through a long forced sequence. A position where a mate exists is never
// answered "cannot", save for a hash collision.
//
// A position that cannot arise in a game because the side not to move is in
// check (an e-board reading, an illegal move) is answered "can" unless the
// side's material can never mate.
func CanCheckmate(fen string, side Side) (bool, error) {
	p, err := mate.Parse(fen)
	if err != nil {
		return false, fenInputError(err)
	}
	if !side.Valid() {
		return false, &InputError{What: "side", Value: side.String(), Allowed: "white or black"}
	}
	return mate.CanMate(&p, mate.Colour(side)), nil
}

// ValidateFEN checks that fen is a FEN the rules can use: six
// space-separated fields (placement, side to move, castling rights, en
// passant square, halfmove clock, move number), eight ranks of eight
// squares, exactly one king of each colour, and no pawn on rank 1 or 8. The
// error is an *[InputError] with What "FEN" saying what is wrong. Castling
// rights whose king or rook is not on its original square, and an en
// passant square no pawn could have passed, are accepted and ignored.
func ValidateFEN(fen string) error {
	return fenInputError(mate.Validate(fen))
}

// fenInputError is the rules' *InputError for the search's *mate.FENError
// (nil for nil).
func fenInputError(err error) error {
	var fe *mate.FENError
	if !errors.As(err, &fe) {
		return err
	}
	return &InputError{What: "FEN", Value: fe.Value, Problem: fe.Problem, Allowed: mateFENAllowed}
}
