package rules

// Whether a side can still checkmate: FIDE 2023 Art. 6.9 (flag fall), 7.5.5
// (a game lost by illegal moves) and 5.2.2 / 9.6 (dead position) all turn on
// the same question — can that side checkmate the opponent "by any possible
// series of legal moves"? Both players are assumed to cooperate (a helpmate),
// so the question is pure reachability: is a position in which the side has
// checkmated the opponent reachable from the given one by legal moves?
//
// The decision is made in layers, cheapest first. Every answer "cannot" is a
// proof; every answer "can" is either a concrete mating line that was found
// or a search that ran out of its node budget (when unknown, the opponent is
// taken to be able to checkmate, rules.md §5):
//
//  1. Material that can never mate (exact): the side has a lone king; with
//     no pawns on the board, the side has a single knight and the opponent
//     only queens besides the king (this includes K+N v K); with no pawns on
//     the board, the side has only bishops all on squares of one colour and
//     the opponent only queens, rooks and bishops on that same colour (this
//     includes K+B v K and all bishops on one colour). The two last rules are
//     proven in the comment of mtDeadMaterial.
//  2. The position itself: checkmate or stalemate has ended the game (exact).
//  3. Frozen pawn structures (exact when it answers, see mtFrozenDead): when
//     no pawn can ever take, be taken or promote — pawns may still walk up
//     their files into a lock — the squares each piece and king can ever
//     reach are computed, and if the opponent's king can reach no square on
//     which it could be checked with every flight square taken away, the
//     side cannot checkmate. This decides the classic locked chains (kings
//     only, or with walled-in bishops) without a search.
//  4. A search over the positions reachable by legal moves of both sides,
//     depth first with a set of visited positions, pruning positions that
//     layers 1 and 3 prove dead. Its move ordering drives the game towards
//     a mating picture for the side (opposing king in a corner, side's king
//     and pieces coming to it), and every checking move of the side is
//     probed for mate at once. A mate found ⇒ can (exact). Every reachable
//     position visited without a mate ⇒ cannot (exact). More than
//     mateNodeBudget positions expanded ⇒ can (bounded: the answer for
//     "unknown").
//
// What the search ignores: the 75-move rule and fivefold repetition (FIDE
// 9.6.2 and 9.6.1 end the game; a helpmate that would need longer still
// counts), and the 50-move and threefold claims. Positions are told apart by
// a 64-bit Zobrist hash; a collision could in principle merge two positions
// (odds about 1 in 10^12 per search).

import (
	"strings"
	"sync"

	"github.com/corentings/chess/v2"
)

// mateNodeBudget bounds the search of layer 4: the number of positions whose
// moves are generated. At about 1 µs each (0.5-2 µs, more with many
// pieces), it keeps the worst case to a few milliseconds; positions that
// would need more are answered "can". Real game-end positions are decided in
// well under a millisecond: the dead ones by layers 1-3 or a few hundred
// positions, the others by a mating line found in tens of positions.
const mateNodeBudget = 5000

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
	p, err := parseMateFEN(fen)
	if err != nil {
		return false, err
	}
	if !side.Valid() {
		return false, &InputError{What: "side", Value: side.String(), Allowed: "white or black"}
	}
	return mtCanMate(&p, uint8(side)), nil
}

// ValidateFEN checks that fen is a FEN the rules can use: six
// space-separated fields (placement, side to move, castling rights, en
// passant square, halfmove clock, move number), eight ranks of eight
// squares, exactly one king of each colour, and no pawn on rank 1 or 8. The
// error is an *[InputError] with What "FEN" saying what is wrong. Castling
// rights whose king or rook is not on its original square, and an en
// passant square no pawn could have passed, are accepted and ignored.
func ValidateFEN(fen string) error {
	if _, err := parseMateFEN(fen); err != nil {
		return err
	}
	// Whoever decodes the FEN later with the chess library must be able to.
	chessFENMu.Lock()
	_, err := chess.FEN(strings.TrimSpace(fen))
	chessFENMu.Unlock()
	if err != nil {
		return mtFENError(fen, err.Error())
	}
	return nil
}

// chessFENMu serialises the chess library's FEN decoding: its parser keeps
// the ranks in a package-level buffer (corentings/chess v2.3.2, fen.go:
// rankBuffer), so two boards validating a FEN at once race and may read
// each other's ranks.
var chessFENMu sync.Mutex
