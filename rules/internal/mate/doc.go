// Package mate decides whether a side can still checkmate: FIDE 2023
// Art. 6.9 (flag fall), 7.5.5 (a game lost by illegal moves) and 5.2.2 / 9.6 (dead position) all turn on
// the same question — can that side checkmate the opponent "by any possible
// series of legal moves"? Both players are assumed to cooperate (a helpmate),
// so the question is pure reachability: is a position in which the side has
// checkmated the opponent reachable from the given one by legal moves?
//
// The decision is made in layers, cheapest first. Every answer "cannot" is a
// proof; every answer "can" is either a concrete mating line that was found
// or a search that ran out of its node budget (when unknown, the opponent is
// taken to be able to checkmate, the rules package, rules.md §5):
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
//
// # Usage
//
// The rules package asks it (rules.CanCheckmate, rules.ValidateFEN):
//
//	p, err := mate.Parse(fen)           // *FENError if the FEN is not one the rules can use
//	can := mate.CanMate(&p, mate.Black) // whether Black can still checkmate White
//
// # Concurrency
//
// Pure and deterministic: no state between calls, safe for concurrent use.
// The chess library is asked only by Validate, through internal/chesslib,
// which holds the library's one lock.
package mate
