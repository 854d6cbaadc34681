package standings

import (
	"cmp"
	"slices"
)

// directEncounter is DE (art. 6): within each group of players still tied
// (on points and every tie-break before it), the points each scored in
// the games among them. If every player of the group met every other (a
// round robin always counts so, its forfeits as games: art. 15), they are ranked by those points;
// otherwise a player is placed above the rest only while his points
// exceed what any of them could have had, a game not played among them
// counting as won (art. 6.2). Players it leaves tied, when it separated
// others, are ranked again by the games among themselves. It returns,
// for every player, his rank within the group (1 best), or 0 when DE
// does not separate the group at all — as TieBreakServer prints it.
func (s *state) directEncounter(order []int, key [][]Value) []Value {
	out := make([]Value, len(order))
	for start := 0; start < len(order); {
		end := start + 1
		for end < len(order) && slices.Equal(key[order[end]], key[order[start]]) {
			end++
		}
		group := order[start:end]
		ranks := s.encounterRanks(group)
		for k, i := range group {
			if slices.Max(ranks) > 1 {
				out[i] = Int(ranks[k])
			}
		}
		start = end
	}
	return out
}

// encounterRanks ranks a tied group by DE, again within each part it
// leaves tied as long as that separates someone.
func (s *state) encounterRanks(group []int) []int {
	ranks := s.encounterGroup(group)
	for _, r := range slices.Compact(slices.Sorted(slices.Values(ranks))) {
		var sub []int
		var at []int
		for k, rk := range ranks {
			if rk == r {
				sub, at = append(sub, group[k]), append(at, k)
			}
		}
		if len(sub) < 2 || len(sub) == len(group) {
			continue
		}
		for k, rk := range s.encounterRanks(sub) {
			ranks[at[k]] = r + rk - 1
		}
	}
	return ranks
}

// encounterGroup returns the DE rank (1 best) of each player of a group,
// in the group's order.
func (s *state) encounterGroup(group []int) []int {
	ranks := make([]int, len(group))
	if len(group) == 1 {
		ranks[0] = 1
		return ranks
	}
	in := map[int]int{}
	for k, i := range group {
		in[i] = k
	}
	type de struct {
		k        int
		val, max Points
	}
	ds := make([]de, len(group))
	metAll := true
	for k, i := range group {
		ds[k].k = k
		met := map[int]bool{}
		for r := 1; r <= s.n; r++ {
			j, ok := s.played(i, r)
			if !ok {
				continue
			}
			if _, tied := in[j]; tied {
				ds[k].val += s.pts[i][r-1]
				met[j] = true
			}
		}
		ds[k].max = ds[k].val
		if missing := len(group) - 1 - len(met); missing > 0 && !s.t.RoundRobin {
			metAll = false
			ds[k].max += Points(missing) * s.sc.Win
		}
	}
	slices.SortStableFunc(ds, func(a, b de) int {
		if metAll {
			return cmp.Compare(b.val, a.val)
		}
		return cmp.Or(cmp.Compare(b.val, a.val), cmp.Compare(b.max, a.max))
	})
	if metAll {
		for pos, d := range ds {
			rank := pos + 1
			if pos > 0 && d.val == ds[pos-1].val {
				rank = ranks[ds[pos-1].k]
			}
			ranks[d.k] = rank
		}
		return ranks
	}
	// A player is separated while his points exceed the best any player
	// below him could reach; the rest share the first rank not given.
	for pos, d := range ds {
		if pos == len(ds)-1 {
			ranks[d.k] = pos + 1
			break
		}
		best := Points(-1)
		for _, o := range ds[pos+1:] {
			best = max(best, o.max)
		}
		if d.val > best {
			ranks[d.k] = pos + 1
			continue
		}
		for _, o := range ds[pos:] {
			ranks[o.k] = pos + 1
		}
		break
	}
	return ranks
}
