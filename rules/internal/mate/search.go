package mate

// Layer 4: the search.

// mateNodeBudget bounds the search of layer 4: the number of positions whose
// moves are generated. At about 1 µs each (0.5-2 µs, more with many
// pieces), it keeps the worst case to a few milliseconds; positions that
// would need more are answered "can". Real game-end positions are decided in
// well under a millisecond: the dead ones by layers 1-3 or a few hundred
// positions, the others by a mating line found in tens of positions.
const mateNodeBudget = 5000

// mtCanMate decides whether side can checkmate from p (see the package comment).
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
