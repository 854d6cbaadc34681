package mate

import (
	"math/bits"
)

// Layer 3: frozen pawn structures.

// mtFrozenDead reports whether no pawn can ever take, be taken or promote
// and, with that, side can never checkmate. It answers false when it cannot
// prove it.
//
// A pawn is fixed when the square in front of it holds an opposing pawn or
// a fixed pawn of its own; the others may still walk up their file until
// they meet a fixed pawn or an opposing pawn. If no pawn can reach the last
// rank, no pawn can ever stand where an opposing pawn may attack, and no
// piece or king can ever reach a square from which it takes a pawn or where
// a pawn takes it, then the pawns only ever walk those files: the fixed
// pawns are walls for good, and every piece and king is confined to the
// squares it can reach around them. The opposing king can then only be
// mated on a square of its region where a piece or pawn of the side may
// check it and every neighbouring square may be denied to it: by a fixed
// pawn, by an attack of the side, by the side's king standing near (not
// touching the mated king), or by one of its own pieces or moving pawns
// blocking it, a different piece on each square.
//
// Every estimate errs towards "a mate might be possible": pieces other
// than fixed pawns never block anything, a moving pawn may be on any square
// of its walk and attack from each, a king may pass squares a moving pawn
// sometimes attacks, and all squares of a region count as reachable at once.
func mtFrozenDead(p *matePos, side uint8) bool {
	if p.ep >= 0 {
		return false
	}
	var fixedSq, occ, attAny, attFixed [2]uint64
	var units [48]mateUnit
	nu := 0
	hasPawn := false
	for f := 0; f < 8; f++ {
		// Fixed pawns: white from the top down, black from the bottom up.
		var fixedW, fixedB [8]bool
		for r := 6; r >= 1; r-- {
			if p.sq[r*8+f] == mtPawn {
				up := p.sq[(r+1)*8+f]
				fixedW[r] = up == mtPawn|mtBlackBit || (up == mtPawn && fixedW[r+1])
			}
		}
		for r := 1; r <= 6; r++ {
			if p.sq[r*8+f] == mtPawn|mtBlackBit {
				down := p.sq[(r-1)*8+f]
				fixedB[r] = down == mtPawn || (down == mtPawn|mtBlackBit && fixedB[r-1])
			}
		}
		for r := 1; r <= 6; r++ {
			s := r*8 + f
			pc := p.sq[s]
			if pc&7 != mtPawn {
				continue
			}
			hasPawn = true
			c := pc >> 3
			if (c == mtWhite && fixedW[r]) || (c == mtBlack && fixedB[r]) {
				fixedSq[c] |= 1 << uint(s)
				occ[c] |= 1 << uint(s)
				attAny[c] |= mtGeo.pawnAtt[c][s]
				attFixed[c] |= mtGeo.pawnAtt[c][s]
				continue
			}
			// Its walk: up to the first opposing or fixed pawn, which must
			// come before the last rank.
			walk := uint64(1) << uint(s)
			dr := 1
			if c == mtBlack {
				dr = -1
			}
			stopped := false
			for rr := r + dr; rr >= 1 && rr <= 6; rr += dr {
				t := rr*8 + f
				q := p.sq[t]
				if q&7 == mtPawn && (q>>3 != c || (c == mtWhite && fixedW[rr]) || (c == mtBlack && fixedB[rr])) {
					stopped = true
					break
				}
				walk |= 1 << uint(t)
			}
			if !stopped {
				return false // it may promote
			}
			occ[c] |= walk
			for b := walk; b != 0; b &= b - 1 {
				attAny[c] |= mtGeo.pawnAtt[c][bits.TrailingZeros64(b)]
			}
			units[nu] = mateUnit{colour: c, kind: mtPawn, region: walk}
			nu++
		}
	}
	if !hasPawn {
		return false
	}
	// No pawn may ever stand where an opposing pawn may attack.
	if attAny[0]&occ[1] != 0 || attAny[1]&occ[0] != 0 {
		return false
	}
	walls := fixedSq[0] | fixedSq[1]
	// Regions: the squares each piece and king can ever stand on.
	var kingRegion [2]uint64
	for s, pc := range p.sq {
		if pc == 0 || pc&7 == mtPawn {
			continue
		}
		c := pc >> 3
		t := pc & 7
		region := uint64(1) << uint(s)
		if t == mtKing {
			// It may never take an opposing pawn: every square where one
			// may stand next to its region must be guarded by a fixed pawn
			// (and is then a wall for it, as are those guarded squares).
			blocked := fixedSq[c] | attFixed[c^1] | occ[c^1]
			todo := region
			for todo != 0 {
				x := bits.TrailingZeros64(todo)
				todo &= todo - 1
				nb := mtGeo.king[x]
				if nb&occ[c^1]&^attFixed[c^1] != 0 {
					return false
				}
				reach := nb &^ blocked &^ region
				todo |= reach
				region |= reach
			}
			kingRegion[c] = region
			continue
		}
		// A piece may never stop where an opposing pawn may attack it, nor
		// attack a square where an opposing pawn may stand.
		danger := attAny[c^1] | occ[c^1]
		if danger&region != 0 {
			return false
		}
		todo := region
		for todo != 0 {
			x := bits.TrailingZeros64(todo)
			todo &= todo - 1
			reach := mtPieceAttacks(t, x, walls)
			if reach&danger != 0 {
				return false
			}
			reach &^= fixedSq[c] | region
			todo |= reach
			region |= reach
		}
		units[nu] = mateUnit{colour: c, kind: t, region: region}
		nu++
	}
	// Squares the side may ever attack: with its pieces from anywhere in
	// their regions (lines stopped by fixed pawns only), and with its pawns.
	attack := attAny[side]
	for i := 0; i < nu; i++ {
		u := units[i]
		if u.colour != side || u.kind == mtPawn {
			continue
		}
		for r := u.region; r != 0; r &= r - 1 {
			attack |= mtPieceAttacks(u.kind, bits.TrailingZeros64(r), walls)
		}
	}
	opp := side ^ 1
	sideKing := kingRegion[side]
	for kr := kingRegion[opp]; kr != 0; kr &= kr - 1 {
		k := bits.TrailingZeros64(kr)
		if attack&(1<<uint(k)) == 0 {
			continue // never in check there
		}
		zone := mtGeo.king[k] | 1<<uint(k)
		var needed [8]int
		nn := 0
		for b := mtGeo.king[k]; b != 0; b &= b - 1 {
			n := bits.TrailingZeros64(b)
			nb := uint64(1) << uint(n)
			switch {
			case walls&nb != 0: // a fixed pawn (one of the side's is guarded by
				// a fixed pawn, or the king could have taken it)
			case attack&nb != 0:
			case mtGeo.king[n]&sideKing&^zone != 0:
			default:
				needed[nn] = n
				nn++
			}
		}
		if nn == 0 || mtBlockersSuffice(needed[:nn], units[:nu], opp) {
			return false
		}
	}
	return true
}

// mtPieceAttacks returns the squares a piece of kind t (knight, bishop, rook
// or queen) on x attacks, its lines stopped by walls (included).
func mtPieceAttacks(t uint8, x int, walls uint64) uint64 {
	if t == mtKnight {
		return mtGeo.knight[x]
	}
	d0, d1 := 0, 8
	if t == mtRook {
		d1 = 4
	} else if t == mtBishop {
		d0 = 4
	}
	var a uint64
	for d := d0; d < d1; d++ {
		for i := 0; i < int(mtGeo.rayLen[x][d]); i++ {
			y := int(mtGeo.ray[x][d][i])
			a |= 1 << uint(y)
			if walls&(1<<uint(y)) != 0 {
				break
			}
		}
	}
	return a
}

// mateUnit is a piece (not a pawn, not a king) and the squares it can ever
// stand on while the pawn structure stays.
type mateUnit struct {
	colour uint8
	kind   uint8
	region uint64
}

// mtBlockersSuffice reports whether distinct pieces of colour c (not kings,
// not pawns) can stand on all the squares sqs at once as far as regions
// allow (a bipartite matching).
func mtBlockersSuffice(sqs []int, units []mateUnit, c uint8) bool {
	match := make([]int, len(units)) // unit -> square index+1
	var try func(i int, seen []bool) bool
	try = func(i int, seen []bool) bool {
		for u := range units {
			if units[u].colour != c || seen[u] || units[u].region&(1<<uint(sqs[i])) == 0 {
				continue
			}
			seen[u] = true
			if match[u] == 0 || try(match[u]-1, seen) {
				match[u] = i + 1
				return true
			}
		}
		return false
	}
	for i := range sqs {
		if !try(i, make([]bool, len(units))) {
			return false
		}
	}
	return true
}
