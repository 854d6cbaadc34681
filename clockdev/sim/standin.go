package sim

import (
	"slices"

	"github.com/chesshall/hallclock/formats/trf"
)

// standInPairing names the fleet's pairing in its logs and documents.
const standInPairing = "simple Swiss stand-in (not FIDE Dutch)"

// pairStandIn pairs round r of a Swiss tournament from the results of the
// rounds before it with a simple stand-in for a pairing program, good
// enough to keep a simulated hall playing: players by score, then starting
// rank; the top half of each score group against the bottom half, no two
// players meeting twice while that can be avoided, colours alternated.
// Round 1 pairs the top half against the bottom half. An odd player out
// gets the pairing-allocated bye (0).
//
// It is NOT the FIDE Dutch system (C.04.3) that JaVaFo and bbpPairings
// implement: no floaters' rules, no colour preferences by strength, no
// absolute criteria beyond "no rematch"; bbpPairings' checker disagrees
// with its pairings. A real event pairs in its pairing program and
// imports the result (RoundSpec.TRF, or hallctl import-round).
func pairStandIn(f *trf.File, r int) []trf.Pair {
	type player struct {
		rank   int
		score  float64
		played map[int]bool
		whites int
		last   trf.Colour
		byes   int
	}
	var ps []*player
	for _, fp := range f.Players {
		p := &player{rank: fp.StartRank, played: map[int]bool{}, last: trf.NoColour}
		for k := 1; k < r; k++ {
			g := fp.Round(k)
			p.score += trf.Score(g.Result, trf.Scoring{})
			if g.Opponent > 0 {
				p.played[g.Opponent] = true
			}
			switch g.Colour {
			case trf.White:
				p.whites++
				p.last = trf.White
			case trf.Black:
				p.whites--
				p.last = trf.Black
			}
			if g.Result == trf.PairingBye {
				p.byes++
			}
		}
		ps = append(ps, p)
	}
	slices.SortStableFunc(ps, func(a, b *player) int {
		if a.score != b.score {
			if a.score > b.score {
				return -1
			}
			return 1
		}
		return a.rank - b.rank
	})
	var out []trf.Pair
	if len(ps)%2 == 1 {
		// The lowest player who has not had the bye.
		i := len(ps) - 1
		for i > 0 && ps[i].byes > 0 {
			i--
		}
		out = append(out, trf.Pair{White: ps[i].rank})
		ps = slices.Delete(ps, i, i+1)
	}
	// Depth-first over candidates, the lower half first, rematches last.
	paired := make([]bool, len(ps))
	var pairs [][2]*player
	budget := 100_000
	var dfs func(allowRematch bool) bool
	dfs = func(allowRematch bool) bool {
		i := slices.Index(paired, false)
		if i < 0 {
			return true
		}
		paired[i] = true
		var group []int
		for j := i + 1; j < len(ps); j++ {
			if !paired[j] {
				group = append(group, j)
			}
		}
		// Players of the same score come first, from the middle of them.
		same := 0
		for same < len(group) && ps[group[same]].score == ps[i].score {
			same++
		}
		order := append(append([]int(nil), group[(same+1)/2:same]...), group[:(same+1)/2]...)
		order = append(order, group[same:]...)
		for _, j := range order {
			budget--
			if budget < 0 && !allowRematch {
				break
			}
			if ps[i].played[ps[j].rank] && !allowRematch {
				continue
			}
			paired[j] = true
			pairs = append(pairs, [2]*player{ps[i], ps[j]})
			if dfs(allowRematch) {
				return true
			}
			pairs = pairs[:len(pairs)-1]
			paired[j] = false
		}
		paired[i] = false
		return false
	}
	if !dfs(false) {
		pairs, paired = nil, make([]bool, len(ps))
		dfs(true)
	}
	var games []trf.Pair
	for k, pr := range pairs {
		a, b := pr[0], pr[1]
		white := a
		switch {
		case a.whites > b.whites, a.whites == b.whites && a.last == trf.White && b.last != trf.White:
			white = b
		case a.whites == b.whites && a.last == b.last && k%2 == 1:
			white = b
		}
		black := a
		if white == a {
			black = b
		}
		games = append(games, trf.Pair{White: white.rank, Black: black.rank})
	}
	return append(games, out...) // the bye last, as the pairing programs write it
}
