package pgn

import (
	"strings"

	"github.com/corentings/chess/v2"
)

// fixCheck corrects the check mark of a move's SAN from the position
// after it: the chess library (corentings/chess v2.3.2) marks an
// under-promotion as if the pawn had become a queen ("g1=N+" where the
// knight gives no check).
func fixCheck(san string, m *chess.Move, after *chess.Position) string {
	if p := m.Promo(); p == chess.NoPieceType || p == chess.Queen {
		return san
	}
	san = strings.TrimRight(san, "+#")
	if !inCheck(after) {
		return san
	}
	if len(after.ValidMoves()) == 0 {
		return san + "#"
	}
	return san + "+"
}

// inCheck reports whether the side to move's king is attacked.
func inCheck(pos *chess.Position) bool {
	b := pos.Board()
	me := pos.Turn()
	king := chess.NoSquare
	for sq, p := range b.SquareMap() {
		if p.Type() == chess.King && p.Color() == me {
			king = sq
		}
	}
	if king == chess.NoSquare {
		return false
	}
	kf, kr := int(king.File()), int(king.Rank())
	at := func(f, r int) chess.Piece {
		if f < 0 || f > 7 || r < 0 || r > 7 {
			return chess.NoPiece
		}
		return b.Piece(chess.NewSquare(chess.File(f), chess.Rank(r)))
	}
	enemy := func(p chess.Piece, types ...chess.PieceType) bool {
		if p == chess.NoPiece || p.Color() == me {
			return false
		}
		for _, t := range types {
			if p.Type() == t {
				return true
			}
		}
		return false
	}
	for _, d := range [][2]int{{1, 2}, {2, 1}, {-1, 2}, {-2, 1}, {1, -2}, {2, -1}, {-1, -2}, {-2, -1}} {
		if enemy(at(kf+d[0], kr+d[1]), chess.Knight) {
			return true
		}
	}
	dir := 1 // an enemy pawn attacks from the rank ahead of the king
	if me == chess.Black {
		dir = -1
	}
	if enemy(at(kf-1, kr+dir), chess.Pawn) || enemy(at(kf+1, kr+dir), chess.Pawn) {
		return true
	}
	for _, d := range [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}} {
		straight := d[0] == 0 || d[1] == 0
		for i := 1; i < 8; i++ {
			p := at(kf+i*d[0], kr+i*d[1])
			if i == 1 && enemy(p, chess.King) {
				return true
			}
			if p == chess.NoPiece {
				if kf+i*d[0] < 0 || kf+i*d[0] > 7 || kr+i*d[1] < 0 || kr+i*d[1] > 7 {
					break
				}
				continue
			}
			if straight && enemy(p, chess.Rook, chess.Queen) || !straight && enemy(p, chess.Bishop, chess.Queen) {
				return true
			}
			break
		}
	}
	return false
}
