package mate

// Layer 1: material that can never mate.

// mtDeadMaterial reports whether side can never checkmate, whatever the
// placement, because of the material on the board alone:
//
//   - side has a lone king: only a piece or pawn can give check, and the
//     side can never get one.
//   - no pawns at all, side has K+N, the opponent K and queens only. Proof:
//     say the knight checks from k+(1,2) (the other seven jumps are
//     symmetric). The flight squares k+(0,1) and k+(1,1) are next to the
//     knight, so a queen there could take it; both must be guarded by the
//     side's king, which (not touching k) can only do so from k+(0,2). Then
//     k+(1,0) is neither guarded by that king nor by the knight, and a queen
//     on it would take the knight through the empty k+(1,1): no mate.
//   - no pawns at all, side has K and bishops all on squares of one colour c,
//     the opponent K and queens, rooks, and bishops on colour c only. Proof:
//     a bishop checks along a diagonal whose first square next to k is
//     k+(a,b); the orthogonal flight squares k+(a,0) and k+(0,b) are of the
//     other colour, so no bishop guards them and no bishop of the opponent
//     can block them; the only other square next to both is k+(a,b), on the
//     checking line, so the side's king cannot guard both; a rook or queen
//     of the opponent on either could take the checker or step between
//     (it is next to k+(a,b) and cannot be pinned by a bishop); and no
//     double check is possible with bishops alone (a bishop can never step
//     from one diagonal through k onto another). So no mate.
func mtDeadMaterial(p *matePos, side uint8) bool {
	var n [16]int
	var bishopLight, bishopDark [2]int
	for s, pc := range p.sq {
		if pc == 0 {
			continue
		}
		n[pc]++
		if pc&7 == mtBishop {
			if mtLight(s) {
				bishopLight[pc>>3]++
			} else {
				bishopDark[pc>>3]++
			}
		}
	}
	us, them := side<<3, (side^1)<<3
	cnt := func(c uint8, t uint8) int { return n[t|c] }
	usPieces := cnt(us, mtPawn) + cnt(us, mtKnight) + cnt(us, mtBishop) + cnt(us, mtRook) + cnt(us, mtQueen)
	if usPieces == 0 {
		return true
	}
	if cnt(us, mtPawn)+cnt(them, mtPawn) != 0 {
		return false
	}
	if cnt(us, mtKnight) == 1 && usPieces == 1 {
		return cnt(them, mtKnight)+cnt(them, mtBishop)+cnt(them, mtRook) == 0
	}
	if cnt(us, mtBishop) == usPieces && cnt(them, mtKnight) == 0 {
		s, o := side, side^1
		if bishopDark[s] == 0 && bishopDark[o] == 0 {
			return true // all bishops light
		}
		if bishopLight[s] == 0 && bishopLight[o] == 0 {
			return true // all bishops dark
		}
	}
	return false
}
