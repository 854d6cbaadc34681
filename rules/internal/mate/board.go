package mate

import (
	"math/bits"
)

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
