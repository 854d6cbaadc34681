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
	"math/bits"
	"strconv"
	"strings"

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
	if _, err := chess.FEN(strings.TrimSpace(fen)); err != nil {
		return mtFENError(fen, err.Error())
	}
	return nil
}

// ---------------------------------------------------------------------------
// Board representation: a mailbox of 64 squares (a1 = 0, h1 = 7, a8 = 56).

const (
	mtPawn     = 1
	mtKnight   = 2
	mtBishop   = 3
	mtRook     = 4
	mtQueen    = 5
	mtKing     = 6
	mtBlackBit = 8 // colour bit of a piece code; piece = type | colour

	mtWhite uint8 = 0
	mtBlack uint8 = 1

	mtCastleWK = 1
	mtCastleWQ = 2
	mtCastleBK = 4
	mtCastleBQ = 8
)

// matePos is a position: pieces, side to move, castling rights, en passant
// square (only when an en passant capture is pseudo-legal, so that equal
// positions hash equally) and the Zobrist hash of all of it.
type matePos struct {
	sq     [64]uint8
	turn   uint8
	castle uint8
	ep     int8
	king   [2]int8
	occ    uint64 // occupied squares
	hash   uint64
}

// A move: from | to<<6 | promotion piece type<<12, plus flags computed by
// the generator for move ordering.
type mateMove uint32

const (
	mtCheck   mateMove = 1 << 15 // the move gives check
	mtCapture mateMove = 1 << 16 // the move takes a piece (en passant included)
)

func mtNewMove(from, to int, promo uint8) mateMove {
	return mateMove(from) | mateMove(to)<<6 | mateMove(promo)<<12
}
func (m mateMove) from() int           { return int(m & 63) }
func (m mateMove) to() int             { return int(m >> 6 & 63) }
func (m mateMove) promo() uint8        { return uint8(m >> 12 & 7) }
func (m mateMove) has(f mateMove) bool { return m&f != 0 }

func mtFile(s int) int { return s & 7 }
func mtRank(s int) int { return s >> 3 }

func mtDist(a, b int) int {
	df := mtFile(a) - mtFile(b)
	if df < 0 {
		df = -df
	}
	dr := mtRank(a) - mtRank(b)
	if dr < 0 {
		dr = -dr
	}
	return max(df, dr)
}

// mtLight reports whether square s is a light square (a1 is dark).
func mtLight(s int) bool { return (mtFile(s)+mtRank(s))&1 == 1 }

// Direction deltas (file, rank): 0-3 orthogonal, 4-7 diagonal.
var mtDirDF = [8]int{0, 0, 1, -1, 1, 1, -1, -1}
var mtDirDR = [8]int{1, -1, 0, 0, 1, -1, 1, -1}

type mateGeometry struct {
	knight     [64]uint64
	king       [64]uint64
	pawnAtt    [2][64]uint64 // squares a pawn of that colour on s attacks
	pawnFrom   [2][64]uint64 // squares from which a pawn of that colour attacks s
	ray        [64][8][7]int8
	rayLen     [64][8]uint8
	rayMask    [64][8]uint64 // the squares of ray[s][d]
	knightDist [64][64]int8  // knight moves from one square to another
	zPiece     [16][64]uint64
	zCastle    [16]uint64
	zEp        [8]uint64
	zTurn      uint64
}

var mtGeo = mtBuildGeometry()

func mtBuildGeometry() *mateGeometry {
	g := &mateGeometry{}
	on := func(f, r int) bool { return f >= 0 && f < 8 && r >= 0 && r < 8 }
	for s := 0; s < 64; s++ {
		f, r := mtFile(s), mtRank(s)
		for _, d := range [8][2]int{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}} {
			if on(f+d[0], r+d[1]) {
				g.knight[s] |= 1 << uint((r+d[1])*8+f+d[0])
			}
		}
		for d := 0; d < 8; d++ {
			if on(f+mtDirDF[d], r+mtDirDR[d]) {
				g.king[s] |= 1 << uint((r+mtDirDR[d])*8+f+mtDirDF[d])
			}
			n := 0
			for k := 1; on(f+k*mtDirDF[d], r+k*mtDirDR[d]); k++ {
				g.ray[s][d][n] = int8((r+k*mtDirDR[d])*8 + f + k*mtDirDF[d])
				g.rayMask[s][d] |= 1 << uint((r+k*mtDirDR[d])*8+f+k*mtDirDF[d])
				n++
			}
			g.rayLen[s][d] = uint8(n)
		}
		for c, dr := range [2]int{1, -1} {
			for _, df := range [2]int{-1, 1} {
				if on(f+df, r+dr) {
					g.pawnAtt[c][s] |= 1 << uint((r+dr)*8+f+df)
				}
				if on(f+df, r-dr) {
					g.pawnFrom[c][s] |= 1 << uint((r-dr)*8+f+df)
				}
			}
		}
	}
	for a := 0; a < 64; a++ {
		for b := range g.knightDist[a] {
			g.knightDist[a][b] = -1
		}
		g.knightDist[a][a] = 0
		queue := []int{a}
		for len(queue) > 0 {
			x := queue[0]
			queue = queue[1:]
			for bb := g.knight[x]; bb != 0; bb &= bb - 1 {
				y := bits.TrailingZeros64(bb)
				if g.knightDist[a][y] < 0 {
					g.knightDist[a][y] = g.knightDist[a][x] + 1
					queue = append(queue, y)
				}
			}
		}
	}
	// Zobrist keys from a fixed seed (splitmix64): deterministic.
	x := uint64(0x9E3779B97F4A7C15)
	next := func() uint64 {
		x += 0x9E3779B97F4A7C15
		z := x
		z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
		z = (z ^ z>>27) * 0x94D049BB133111EB
		return z ^ z>>31
	}
	for p := range g.zPiece {
		for s := range g.zPiece[p] {
			g.zPiece[p][s] = next()
		}
	}
	for i := range g.zCastle {
		g.zCastle[i] = next()
	}
	for i := range g.zEp {
		g.zEp[i] = next()
	}
	g.zTurn = next()
	return g
}

// ---------------------------------------------------------------------------
// FEN parsing and validation.

func mtFENError(fen, problem string) error {
	v := fen
	if len(v) > 120 {
		v = v[:120] + "..."
	}
	return &InputError{What: "FEN", Value: v, Problem: problem, Allowed: mateFENAllowed}
}

func mtPieceOf(c byte) uint8 {
	switch c {
	case 'P':
		return mtPawn
	case 'N':
		return mtKnight
	case 'B':
		return mtBishop
	case 'R':
		return mtRook
	case 'Q':
		return mtQueen
	case 'K':
		return mtKing
	case 'p':
		return mtPawn | mtBlackBit
	case 'n':
		return mtKnight | mtBlackBit
	case 'b':
		return mtBishop | mtBlackBit
	case 'r':
		return mtRook | mtBlackBit
	case 'q':
		return mtQueen | mtBlackBit
	case 'k':
		return mtKing | mtBlackBit
	}
	return 0
}

func mtSqName(s int) string { return string([]byte{byte('a' + mtFile(s)), byte('1' + mtRank(s))}) }

var mtColourName = [2]string{"white", "black"}

// parseMateFEN reads and validates a FEN (see ValidateFEN). Its grammar is
// the chess library's, only stricter (castling rights "-" or distinct
// letters of KQkq), so whatever it accepts the library reads too.
func parseMateFEN(fen string) (matePos, error) {
	var p matePos
	p.ep = -1
	s := strings.TrimSpace(fen)
	if s == "" {
		return p, mtFENError(fen, "empty")
	}
	fields := strings.Split(s, " ")
	if len(fields) != 6 {
		return p, mtFENError(fen, "has "+strconv.Itoa(len(fields))+" space-separated fields, want 6 (placement, side to move, castling, en passant, halfmove clock, move number)")
	}
	ranks := strings.Split(fields[0], "/")
	if len(ranks) != 8 {
		return p, mtFENError(fen, "placement has "+strconv.Itoa(len(ranks))+" ranks, want 8 separated by '/'")
	}
	var kings [2]int
	for i, rk := range ranks {
		r := 7 - i
		f := 0
		for j := 0; j < len(rk); j++ {
			c := rk[j]
			if c >= '1' && c <= '8' {
				f += int(c - '0')
				if f > 8 {
					break
				}
				continue
			}
			pc := mtPieceOf(c)
			if pc == 0 {
				return p, mtFENError(fen, "rank "+strconv.Itoa(r+1)+" has "+strconv.Quote(string(rk[j:j+1]))+", which is neither a piece letter (KQRBNP, kqrbnp) nor a digit 1-8")
			}
			if f > 7 {
				f++
				break
			}
			sq := r*8 + f
			if pc&7 == mtPawn && (r == 0 || r == 7) {
				return p, mtFENError(fen, mtColourName[pc>>3]+" pawn on "+mtSqName(sq)+": pawns cannot stand on rank 1 or 8")
			}
			if pc&7 == mtKing {
				kings[pc>>3]++
				p.king[pc>>3] = int8(sq)
			}
			p.sq[sq] = pc
			f++
		}
		if f != 8 {
			return p, mtFENError(fen, "rank "+strconv.Itoa(r+1)+" ("+strconv.Quote(rk)+") does not have 8 squares")
		}
	}
	for c := 0; c < 2; c++ {
		if kings[c] != 1 {
			return p, mtFENError(fen, mtColourName[c]+" has "+strconv.Itoa(kings[c])+" kings, want exactly 1")
		}
	}
	switch fields[1] {
	case "w":
		p.turn = mtWhite
	case "b":
		p.turn = mtBlack
	default:
		return p, mtFENError(fen, "side to move "+strconv.Quote(fields[1])+" is neither w nor b")
	}
	cs := fields[2]
	if cs != "-" {
		if len(cs) == 0 || len(cs) > 4 {
			return p, mtFENError(fen, "castling rights "+strconv.Quote(cs)+" are neither - nor letters from KQkq")
		}
		for j := 0; j < len(cs); j++ {
			var bit uint8
			switch cs[j] {
			case 'K':
				bit = mtCastleWK
			case 'Q':
				bit = mtCastleWQ
			case 'k':
				bit = mtCastleBK
			case 'q':
				bit = mtCastleBQ
			default:
				return p, mtFENError(fen, "castling rights "+strconv.Quote(cs)+" are neither - nor letters from KQkq")
			}
			if p.castle&bit != 0 {
				return p, mtFENError(fen, "castling rights "+strconv.Quote(cs)+" repeat a letter")
			}
			p.castle |= bit
		}
	}
	if e := fields[3]; e != "-" {
		if len(e) != 2 || e[0] < 'a' || e[0] > 'h' || (e[1] != '3' && e[1] != '6') {
			return p, mtFENError(fen, "en passant square "+strconv.Quote(e)+" is neither - nor a square on rank 3 or 6")
		}
		p.ep = int8(int(e[1]-'1')*8 + int(e[0]-'a'))
	}
	if n, err := strconv.Atoi(fields[4]); err != nil || n < 0 {
		return p, mtFENError(fen, "halfmove clock "+strconv.Quote(fields[4])+" is not a whole number of 0 or more")
	}
	if n, err := strconv.Atoi(fields[5]); err != nil || n < 1 {
		return p, mtFENError(fen, "move number "+strconv.Quote(fields[5])+" is not a whole number of 1 or more")
	}
	p.normalize()
	return p, nil
}

// normalize drops castling rights whose king or rook has left its original
// square and an en passant square that no pawn could have passed or that no
// pawn can take on, then computes the hash.
func (p *matePos) normalize() {
	if p.sq[4] != mtKing || p.sq[7] != mtRook {
		p.castle &^= mtCastleWK
	}
	if p.sq[4] != mtKing || p.sq[0] != mtRook {
		p.castle &^= mtCastleWQ
	}
	if p.sq[60] != mtKing|mtBlackBit || p.sq[63] != mtRook|mtBlackBit {
		p.castle &^= mtCastleBK
	}
	if p.sq[60] != mtKing|mtBlackBit || p.sq[56] != mtRook|mtBlackBit {
		p.castle &^= mtCastleBQ
	}
	if p.ep >= 0 {
		e := int(p.ep)
		ok := false
		// White to move: ep on rank 6, black pawn on rank 5 below it,
		// its origin on rank 7 empty. Mirror for black.
		if p.turn == mtWhite && mtRank(e) == 5 {
			ok = p.sq[e] == 0 && p.sq[e+8] == 0 && p.sq[e-8] == mtPawn|mtBlackBit
		} else if p.turn == mtBlack && mtRank(e) == 2 {
			ok = p.sq[e] == 0 && p.sq[e-8] == 0 && p.sq[e+8] == mtPawn
		}
		if ok && !p.pawnCanTakeOn(e) {
			ok = false
		}
		if !ok {
			p.ep = -1
		}
	}
	p.occ = 0
	for s, pc := range p.sq {
		if pc != 0 {
			p.occ |= 1 << uint(s)
		}
	}
	p.hash = p.computeHash()
}

// pawnCanTakeOn reports whether a pawn of the side to move attacks square e.
func (p *matePos) pawnCanTakeOn(e int) bool {
	us := p.turn
	for b := mtGeo.pawnFrom[us][e]; b != 0; b &= b - 1 {
		if p.sq[bits.TrailingZeros64(b)] == mtPawn|us<<3 {
			return true
		}
	}
	return false
}

func (p *matePos) computeHash() uint64 {
	var h uint64
	for s, pc := range p.sq {
		if pc != 0 {
			h ^= mtGeo.zPiece[pc][s]
		}
	}
	h ^= mtGeo.zCastle[p.castle]
	if p.ep >= 0 {
		h ^= mtGeo.zEp[mtFile(int(p.ep))]
	}
	if p.turn == mtBlack {
		h ^= mtGeo.zTurn
	}
	return h
}

// ---------------------------------------------------------------------------
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

// ---------------------------------------------------------------------------
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

// ---------------------------------------------------------------------------
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

// ---------------------------------------------------------------------------
// Layer 4: the search.

// mtCanMate decides whether side can checkmate from p (see the file comment).
func mtCanMate(root *matePos, side uint8) bool {
	v, _ := mtDecide(root, side)
	return v != mateNo
}

// mateVerdict says how an answer was reached.
type mateVerdict uint8

const (
	mateNo      mateVerdict = iota // proven: no mate is reachable
	mateYes                        // proven: a mate was found (or is on the board)
	mateUnknown                    // the node budget ran out, or the position is not one of a game
)

// mtDecide is mtCanMate with the kind of answer and the number of positions
// expanded by the search.
func mtDecide(root *matePos, side uint8) (mateVerdict, int) {
	if mtDeadMaterial(root, side) {
		return mateNo, 0
	}
	// The side not to move in check: not a position of a game; unknown.
	if root.attacked(int(root.king[root.turn^1]), root.turn) {
		return mateUnknown, 0
	}
	if !root.hasLegalMove() {
		if root.turn != side && root.inCheck() {
			return mateYes, 0
		}
		return mateNo, 0
	}
	if mtFrozenDead(root, side) {
		return mateNo, 0
	}
	s := newMateSearch(root, side)
	v := s.run(root)
	return v, s.nodes
}

type mateSearch struct {
	side   uint8
	corner int // the corner the opposing king is driven to
	block  int // the square next to it, where an opposing piece blocks
	post   int // the square for the side's king, two from the corner
	// needPromotion: the side's pieces cannot mate without an opposing
	// blocker that only a promotion can give (it has a lone knight, or
	// only bishops on one colour, and the opponent no piece that blocks).
	needPromotion bool
	nodes         int
	seen          mateHashSet
	moves         []mateMove
	scores        []int32
}

// newMateSearch picks the mating picture the move ordering aims at: the
// opposing king in a corner (of the colour of the side's bishops; else the
// colour that lets an opposing bishop block next to it; else the nearest),
// an opposing piece blocking next to it and the side's king two squares
// away, the side's pieces coming to the corner.
func newMateSearch(root *matePos, side uint8) *mateSearch {
	s := &mateSearch{side: side}
	var light, dark, oppLight, oppDark int
	for sq, pc := range root.sq {
		if pc&7 != mtBishop {
			continue
		}
		switch {
		case pc>>3 == side && mtLight(sq):
			light++
		case pc>>3 == side:
			dark++
		case mtLight(sq):
			oppLight++
		default:
			oppDark++
		}
	}
	var n [16]int
	for _, pc := range root.sq {
		n[pc]++
	}
	us, them := side<<3, (side^1)<<3
	own := n[us|mtPawn] + n[us|mtKnight] + n[us|mtBishop] + n[us|mtRook] + n[us|mtQueen]
	switch {
	case own == 1 && n[us|mtKnight] == 1:
		s.needPromotion = n[them|mtKnight]+n[them|mtBishop]+n[them|mtRook] == 0
	case own == light+dark && (light == 0 || dark == 0):
		s.needPromotion = n[them|mtKnight] == 0 && ((light > 0 && oppDark == 0) || (dark > 0 && oppLight == 0))
	}
	wantDark, wantLight := dark > 0 && light == 0, light > 0 && dark == 0
	if light == 0 && dark == 0 {
		wantDark, wantLight = oppLight > 0 && oppDark == 0, oppDark > 0 && oppLight == 0
	}
	k := int(root.king[side^1])
	best := -1
	for _, c := range [4]int{0, 7, 56, 63} {
		if (wantDark && mtLight(c)) || (wantLight && !mtLight(c)) {
			continue
		}
		if best < 0 || mtDist(k, c) < mtDist(k, best) {
			best = c
		}
	}
	s.corner = best
	s.block = best + 1
	if mtFile(best) == 7 {
		s.block = best - 1
	}
	s.post = best + 16
	if mtRank(best) == 7 {
		s.post = best - 16
	}
	s.seen.init(1 << 12)
	return s
}

type mateFrame struct {
	pos        matePos
	start, end int // its moves are s.moves[start:end]
	next       int
}

// run searches depth first from root, which has legal moves.
func (s *mateSearch) run(root *matePos) mateVerdict {
	stack := make([]mateFrame, 0, 64)
	s.seen.add(root.hash)
	if found, _ := s.expand(root, &stack); found {
		return mateYes
	}
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		if f.next == f.end {
			s.moves = s.moves[:f.start]
			s.scores = s.scores[:f.start]
			stack = stack[:len(stack)-1]
			continue
		}
		m := s.moves[f.next]
		f.next++
		c := f.pos.play(m)
		if !s.seen.add(c.hash) {
			continue
		}
		moved := f.pos.sq[m.from()]
		if m.has(mtCapture) || m.promo() != 0 {
			if mtDeadMaterial(&c, s.side) {
				continue
			}
		}
		if m.has(mtCapture) || moved&7 == mtPawn {
			if mtFrozenDead(&c, s.side) {
				continue
			}
		}
		if s.nodes >= mateNodeBudget {
			return mateUnknown
		}
		if found, _ := s.expand(&c, &stack); found {
			return mateYes
		}
	}
	return mateNo
}

// expand generates and orders the moves of p and pushes them as a frame.
// found: p is mate by the side, or one of the side's checks from p mates.
// ok: p has moves (a frame was pushed).
func (s *mateSearch) expand(p *matePos, stack *[]mateFrame) (found, ok bool) {
	s.nodes++
	start := len(s.moves)
	s.moves = p.genLegal(s.moves, p.turn == s.side, false)
	end := len(s.moves)
	if end == start {
		return p.turn != s.side && p.inCheck(), false
	}
	ours := p.turn == s.side
	if ours {
		for _, m := range s.moves[start:end] {
			if m.has(mtCheck) {
				c := p.play(m)
				if !c.hasLegalMove() {
					return true, true
				}
			}
		}
	}
	for _, m := range s.moves[start:end] {
		s.scores = append(s.scores, s.score(p, m, ours))
	}
	// Insertion sort, best first; stable, so the order is deterministic.
	ms, sc := s.moves[start:end], s.scores[start:end]
	for i := 1; i < len(ms); i++ {
		for j := i; j > 0 && sc[j] > sc[j-1]; j-- {
			ms[j], ms[j-1] = ms[j-1], ms[j]
			sc[j], sc[j-1] = sc[j-1], sc[j]
		}
	}
	*stack = append(*stack, mateFrame{pos: *p, start: start, end: end, next: start})
	return false, true
}

// score orders moves so that a helpmate by the side comes early (see
// newMateSearch for the picture aimed at). Mating checks need no help: every
// check of the side is probed for mate when its position is expanded.
//
// The side promotes, takes, pushes its pawns, brings its king to its post,
// its knights and bishops to the corner and its rooks and queens to a few
// squares from the opposing king. The opponent walks its king into the
// corner, brings its pieces next to it, avoids taking the side's material,
// and pushes its pawns only when the side needs a blocker that
// only a promotion can give (otherwise a pawn is best left where it may
// block).
func (s *mateSearch) score(p *matePos, m mateMove, ours bool) int32 {
	from, to := m.from(), m.to()
	t := p.sq[from] & 7
	var v int32
	if ours {
		if m.has(mtCheck) {
			v += 50
		}
		switch m.promo() {
		case mtQueen:
			v += 800
		case mtKnight:
			v += 300
		case mtRook, mtBishop:
			v += 100
		}
		if m.has(mtCapture) {
			v += 200
		}
		switch t {
		case mtPawn:
			adv := mtRank(to)
			if s.side == mtBlack {
				adv = 7 - adv
			}
			v += 60 + int32(adv)*10
		case mtKing:
			v += 30 * int32(mtDist(from, s.post)-mtDist(to, s.post))
		case mtKnight:
			v += 30 * int32(mtAbs(int(mtGeo.knightDist[from][s.corner])-1)-mtAbs(int(mtGeo.knightDist[to][s.corner])-1))
		case mtBishop:
			v += 20 * int32(mtDist(from, s.corner)-mtDist(to, s.corner))
		default:
			k := int(p.king[s.side^1])
			v += 30 * int32(mtAbs(mtDist(from, k)-3)-mtAbs(mtDist(to, k)-3))
		}
		return v
	}
	if m.has(mtCapture) {
		v -= 300
	}
	switch t {
	case mtKing:
		v += 40 * int32(mtDist(from, s.corner)-mtDist(to, s.corner))
	case mtPawn:
		if s.needPromotion {
			v += 50
			if m.promo() != 0 && m.promo() != mtQueen {
				v += 50
			}
		} else {
			v -= 10
		}
	case mtKnight:
		v += 30 * int32(mtGeo.knightDist[from][s.block]-mtGeo.knightDist[to][s.block])
	default:
		v += 30 * int32(mtDist(from, s.block)-mtDist(to, s.block))
	}
	return v
}

func mtAbs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// mateHashSet is an open-addressing set of position hashes.
type mateHashSet struct {
	slots []uint64
	n     int
}

func (h *mateHashSet) init(size int) { h.slots = make([]uint64, size) }

// add inserts x and reports whether it was new.
func (h *mateHashSet) add(x uint64) bool {
	if x == 0 {
		x = 1
	}
	if 2*(h.n+1) > len(h.slots) {
		old := h.slots
		h.slots = make([]uint64, 2*len(old))
		h.n = 0
		for _, y := range old {
			if y != 0 {
				h.insert(y)
			}
		}
	}
	return h.insert(x)
}

func (h *mateHashSet) insert(x uint64) bool {
	mask := uint64(len(h.slots) - 1)
	for i := x & mask; ; i = (i + 1) & mask {
		switch h.slots[i] {
		case 0:
			h.slots[i] = x
			h.n++
			return true
		case x:
			return false
		}
	}
}
