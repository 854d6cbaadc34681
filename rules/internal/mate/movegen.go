package mate

import (
	"math/bits"
)

// Move generation.

// attacked reports whether square s is attacked by a piece of colour by.
func (p *matePos) attacked(s int, by uint8) bool {
	cb := by << 3
	for b := mtGeo.pawnFrom[by][s]; b != 0; b &= b - 1 {
		if p.sq[bits.TrailingZeros64(b)] == mtPawn|cb {
			return true
		}
	}
	for b := mtGeo.knight[s]; b != 0; b &= b - 1 {
		if p.sq[bits.TrailingZeros64(b)] == mtKnight|cb {
			return true
		}
	}
	for b := mtGeo.king[s]; b != 0; b &= b - 1 {
		if p.sq[bits.TrailingZeros64(b)] == mtKing|cb {
			return true
		}
	}
	for d := 0; d < 8; d++ {
		x := p.firstOn(s, d)
		if x < 0 {
			continue
		}
		if pc := p.sq[x]; pc>>3 == by {
			t := pc & 7
			if t == mtQueen || (d < 4 && t == mtRook) || (d >= 4 && t == mtBishop) {
				return true
			}
		}
	}
	return false
}

// mtSlides reports whether piece pc moves along direction d (0-3 lines,
// 4-7 diagonals).
func mtSlides(pc uint8, d int) bool {
	t := pc & 7
	return t == mtQueen || (d < 4 && t == mtRook) || (d >= 4 && t == mtBishop)
}

// firstOn returns the first occupied square from s in direction d, or -1.
// Directions 0 (north), 2 (east), 4 (north-east) and 6 (north-west) go up
// the square numbers; the others down.
func (p *matePos) firstOn(s, d int) int {
	b := p.occ & mtGeo.rayMask[s][d]
	if b == 0 {
		return -1
	}
	if d&1 == 0 {
		return bits.TrailingZeros64(b)
	}
	return 63 - bits.LeadingZeros64(b)
}

func (p *matePos) inCheck() bool { return p.attacked(int(p.king[p.turn]), p.turn^1) }

// play returns the position after move m (assumed pseudo-legal).
func (p *matePos) play(m mateMove) matePos {
	c := *p
	from, to := m.from(), m.to()
	pc := c.sq[from]
	us := c.turn
	h := c.hash ^ mtGeo.zTurn ^ mtGeo.zCastle[c.castle]
	if c.ep >= 0 {
		h ^= mtGeo.zEp[mtFile(int(c.ep))]
	}
	if cap := c.sq[to]; cap != 0 {
		h ^= mtGeo.zPiece[cap][to]
	}
	h ^= mtGeo.zPiece[pc][from]
	c.sq[from] = 0
	c.occ = c.occ&^(1<<uint(from)) | 1<<uint(to)
	placed := pc
	if pr := m.promo(); pr != 0 {
		placed = pr | us<<3
	}
	c.sq[to] = placed
	h ^= mtGeo.zPiece[placed][to]
	oldEp := c.ep
	c.ep = -1
	switch pc & 7 {
	case mtPawn:
		if int(oldEp) == to {
			victim := to - 8
			if us == mtBlack {
				victim = to + 8
			}
			h ^= mtGeo.zPiece[c.sq[victim]][victim]
			c.sq[victim] = 0
			c.occ &^= 1 << uint(victim)
		}
		if d := to - from; d == 16 || d == -16 {
			e := (from + to) / 2
			// Only record the square when a pawn of the opponent can
			// take there, so that equal positions hash equally.
			for b := mtGeo.pawnFrom[us^1][e]; b != 0; b &= b - 1 {
				if c.sq[bits.TrailingZeros64(b)] == mtPawn|(us^1)<<3 {
					c.ep = int8(e)
					h ^= mtGeo.zEp[mtFile(e)]
					break
				}
			}
		}
	case mtKing:
		c.king[us] = int8(to)
		if d := to - from; d == 2 || d == -2 {
			rf, rt := from+3, from+1
			if d < 0 {
				rf, rt = from-4, from-1
			}
			r := c.sq[rf]
			h ^= mtGeo.zPiece[r][rf] ^ mtGeo.zPiece[r][rt]
			c.sq[rf], c.sq[rt] = 0, r
			c.occ = c.occ&^(1<<uint(rf)) | 1<<uint(rt)
		}
	}
	for _, s := range [2]int{from, to} {
		switch s {
		case 0:
			c.castle &^= mtCastleWQ
		case 4:
			c.castle &^= mtCastleWK | mtCastleWQ
		case 7:
			c.castle &^= mtCastleWK
		case 56:
			c.castle &^= mtCastleBQ
		case 60:
			c.castle &^= mtCastleBK | mtCastleBQ
		case 63:
			c.castle &^= mtCastleBK
		}
	}
	h ^= mtGeo.zCastle[c.castle]
	c.turn = us ^ 1
	c.hash = h
	return c
}

// genLegal appends the legal moves of the side to move to out, each with
// mtCapture when it takes; with flags, also with mtCheck when it checks.
// With first, it stops at the first legal move (to test for mate and
// stalemate).
//
// Legality comes from the checking pieces and the pins against the king,
// found once; en passant, castling and promotions (and the check flag of the
// last two) are tried on a copy of the position instead.
func (p *matePos) genLegal(out []mateMove, flags, first bool) []mateMove {
	us := p.turn
	them := us ^ 1
	cu, ct := us<<3, them<<3
	ksq := int(p.king[us])
	if first {
		// Most often the king has a move: try that before anything else.
		if t := p.kingStep(); t >= 0 {
			return append(out, mtNewMove(ksq, t, 0))
		}
	}

	// Checkers and pins.
	checkers := 0
	evasion := ^uint64(0) // squares a non-king move must go to
	var pinSq [8]int
	var pinLine [8]uint64
	npin := 0
	for b := mtGeo.pawnFrom[them][ksq]; b != 0; b &= b - 1 {
		if x := bits.TrailingZeros64(b); p.sq[x] == mtPawn|ct {
			checkers++
			evasion = 1 << uint(x)
		}
	}
	for b := mtGeo.knight[ksq]; b != 0; b &= b - 1 {
		if x := bits.TrailingZeros64(b); p.sq[x] == mtKnight|ct {
			checkers++
			evasion = 1 << uint(x)
		}
	}
	for d := 0; d < 8; d++ {
		x := p.firstOn(ksq, d)
		if x < 0 {
			continue
		}
		if pc := p.sq[x]; pc>>3 == them {
			if mtSlides(pc, d) {
				checkers++
				evasion = mtGeo.rayMask[ksq][d] &^ mtGeo.rayMask[x][d]
			}
			continue
		}
		if y := p.firstOn(x, d); y >= 0 && p.sq[y]>>3 == them && mtSlides(p.sq[y], d) {
			pinSq[npin] = x
			pinLine[npin] = mtGeo.rayMask[ksq][d] &^ mtGeo.rayMask[y][d]
			npin++
		}
	}

	// Squares from which a piece would check the opposing king, and the
	// pieces whose departure would uncover a check.
	var knightChk, pawnChk, diagChk, orthChk uint64
	var discSq [8]int
	var discLine [8]uint64
	ndisc := 0
	if flags {
		eks := int(p.king[them])
		knightChk = mtGeo.knight[eks]
		pawnChk = mtGeo.pawnFrom[us][eks]
		for d := 0; d < 8; d++ {
			line := mtGeo.rayMask[eks][d]
			x := p.firstOn(eks, d)
			if x >= 0 {
				line &^= mtGeo.rayMask[x][d]
				if p.sq[x]>>3 == us {
					if y := p.firstOn(x, d); y >= 0 && p.sq[y]>>3 == us && mtSlides(p.sq[y], d) {
						discSq[ndisc] = x
						discLine[ndisc] = mtGeo.rayMask[eks][d]
						ndisc++
					}
				}
			}
			if d < 4 {
				orthChk |= line
			} else {
				diagChk |= line
			}
		}
	}

	// slow tries a move on a copy: legality and the check flag.
	slow := func(from, to int, promo uint8) bool {
		m := mtNewMove(from, to, promo)
		c := p.play(m)
		if c.attacked(int(c.king[us]), them) {
			return false
		}
		if p.sq[to] != 0 || (p.sq[from]&7 == mtPawn && mtFile(from) != mtFile(to)) {
			m |= mtCapture
		}
		if flags && c.attacked(int(c.king[them]), us) {
			m |= mtCheck
		}
		out = append(out, m)
		return first
	}
	// add records a move of a piece other than the king, ep and castling.
	add := func(from, to int, kind uint8) bool {
		tb := uint64(1) << uint(to)
		if evasion&tb == 0 {
			return false
		}
		for i := 0; i < npin; i++ {
			if pinSq[i] == from && pinLine[i]&tb == 0 {
				return false
			}
		}
		m := mtNewMove(from, to, 0)
		if p.sq[to] != 0 {
			m |= mtCapture
		}
		if flags {
			chk := false
			switch kind {
			case mtPawn:
				chk = pawnChk&tb != 0
			case mtKnight:
				chk = knightChk&tb != 0
			case mtBishop:
				chk = diagChk&tb != 0
			case mtRook:
				chk = orthChk&tb != 0
			case mtQueen:
				chk = (diagChk|orthChk)&tb != 0
			}
			for i := 0; i < ndisc && !chk; i++ {
				if discSq[i] == from && discLine[i]&tb == 0 {
					chk = true
				}
			}
			if chk {
				m |= mtCheck
			}
		}
		out = append(out, m)
		return first
	}

	// King moves: the destination must not be attacked once the king has
	// left its square (so that it cannot step back along a checking line).
	p.sq[ksq] = 0
	p.occ &^= 1 << uint(ksq)
	kb := mtGeo.king[ksq]
	if first {
		kb = 0 // tried above
	}
	for b := kb; b != 0; b &= b - 1 {
		t := bits.TrailingZeros64(b)
		if q := p.sq[t]; q != 0 && (q>>3 == us || q&7 == mtKing) {
			continue
		}
		if p.attacked(t, them) {
			continue
		}
		m := mtNewMove(ksq, t, 0)
		if p.sq[t] != 0 {
			m |= mtCapture
		}
		if flags {
			for i := 0; i < ndisc; i++ {
				if discSq[i] == ksq && discLine[i]&(1<<uint(t)) == 0 {
					m |= mtCheck
				}
			}
		}
		out = append(out, m)
	}
	p.sq[ksq] = mtKing | cu
	p.occ |= 1 << uint(ksq)
	if checkers >= 2 {
		return out
	}

	for ob := p.occ; ob != 0; ob &= ob - 1 {
		s := bits.TrailingZeros64(ob)
		pc := p.sq[s]
		if pc>>3 != us {
			continue
		}
		switch pc & 7 {
		case mtPawn:
			fwd, startRank, lastRank := 8, 1, 7
			if us == mtBlack {
				fwd, startRank, lastRank = -8, 6, 0
			}
			var targets [4]int
			n := 0
			if t := s + fwd; p.sq[t] == 0 {
				targets[n] = t
				n++
				if mtRank(s) == startRank && p.sq[t+fwd] == 0 {
					targets[n] = t + fwd
					n++
				}
			}
			for b := mtGeo.pawnAtt[us][s]; b != 0; b &= b - 1 {
				t := bits.TrailingZeros64(b)
				if q := p.sq[t]; (q != 0 && q>>3 == them && q&7 != mtKing) || int(p.ep) == t {
					targets[n] = t
					n++
				}
			}
			for _, t := range targets[:n] {
				switch {
				case mtRank(t) == lastRank:
					for _, pr := range [4]uint8{mtQueen, mtKnight, mtRook, mtBishop} {
						if slow(s, t, pr) {
							return out
						}
					}
				case int(p.ep) == t:
					if slow(s, t, 0) {
						return out
					}
				default:
					if add(s, t, mtPawn) {
						return out
					}
				}
			}
		case mtKnight:
			for b := mtGeo.knight[s]; b != 0; b &= b - 1 {
				t := bits.TrailingZeros64(b)
				if q := p.sq[t]; q != 0 && (q>>3 == us || q&7 == mtKing) {
					continue
				}
				if add(s, t, mtKnight) {
					return out
				}
			}
		case mtKing:
		default:
			kind := pc & 7
			d0, d1 := 0, 8
			switch kind {
			case mtRook:
				d1 = 4
			case mtBishop:
				d0 = 4
			}
			for d := d0; d < d1; d++ {
				ray := &mtGeo.ray[s][d]
				for i := 0; i < int(mtGeo.rayLen[s][d]); i++ {
					t := int(ray[i])
					q := p.sq[t]
					if q != 0 && (q>>3 == us || q&7 == mtKing) {
						break
					}
					if add(s, t, kind) {
						return out
					}
					if q != 0 {
						break
					}
				}
			}
		}
	}
	// Castling: king and rook on their squares (normalize and play keep the
	// rights honest), squares between empty, king not in check and not
	// passing or landing on an attacked square.
	if p.castle != 0 && checkers == 0 {
		base := 0
		kBit, qBit := uint8(mtCastleWK), uint8(mtCastleWQ)
		if us == mtBlack {
			base, kBit, qBit = 56, mtCastleBK, mtCastleBQ
		}
		if p.castle&(kBit|qBit) != 0 && ksq == base+4 {
			if p.castle&kBit != 0 && p.sq[base+7] == mtRook|cu && p.sq[base+5] == 0 && p.sq[base+6] == 0 &&
				!p.attacked(base+5, them) && slow(base+4, base+6, 0) {
				return out
			}
			if p.castle&qBit != 0 && p.sq[base] == mtRook|cu && p.sq[base+1] == 0 && p.sq[base+2] == 0 && p.sq[base+3] == 0 &&
				!p.attacked(base+3, them) && slow(base+4, base+2, 0) {
				return out
			}
		}
	}
	return out
}

// kingStep returns a square the king of the side to move can legally step
// to, or -1.
func (p *matePos) kingStep() int {
	us := p.turn
	ksq := int(p.king[us])
	p.sq[ksq] = 0
	p.occ &^= 1 << uint(ksq)
	found := -1
	for b := mtGeo.king[ksq]; b != 0; b &= b - 1 {
		t := bits.TrailingZeros64(b)
		if q := p.sq[t]; q != 0 && (q>>3 == us || q&7 == mtKing) {
			continue
		}
		if !p.attacked(t, us^1) {
			found = t
			break
		}
	}
	p.sq[ksq] = mtKing | us<<3
	p.occ |= 1 << uint(ksq)
	return found
}

func (p *matePos) hasLegalMove() bool {
	var buf [4]mateMove
	return len(p.genLegal(buf[:0], false, true)) > 0
}
