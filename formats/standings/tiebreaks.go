package standings

import (
	"cmp"
	"slices"
)

// compute returns tie-break tb of every player (by index); AOB and APRO
// need BH and TPR of the opponents, computed here too.
func (s *state) compute(tb TieBreak, _ [][]Value, _ int) []Value {
	np := len(s.t.Players)
	out := make([]Value, np)
	switch tb.Name {
	case "PTS", "MPTS", "GPTS": // the team's tables pick the state of MPTS and GPTS
		for i := range out {
			out[i] = s.total[i].Value()
		}
	case "WIN", "WON", "BPG", "BWG", "GE":
		for i := range out {
			out[i] = Int(s.count(tb.Name, i))
		}
	case "PS":
		for i := range out {
			out[i] = s.progressive(i, tb.Cut)
		}
	case "KS":
		for i := range out {
			out[i] = s.koya(i)
		}
	case "BH", "FB", "SB", "EMMSB", "EMGSB", "EGMSB", "EGGSB":
		for i := range out {
			out[i] = s.buchholz(i, tb)
		}
	case "AOB":
		bh := make([]Value, np)
		for i := range bh {
			bh[i] = s.buchholz(i, TieBreak{Name: "BH"})
		}
		for i := range out {
			out[i] = s.average(i, bh, Unit/100)
		}
	case "ARO", "TPR", "PTP":
		for i := range out {
			out[i] = s.rating(i, tb)
		}
	case "APRO", "APPO":
		// art. 10.4: the opponents' TPR; art. 10.5: their PTP
		of := TieBreak{Name: "TPR"}
		if tb.Name == "APPO" {
			of.Name = "PTP"
		}
		perf := make([]Value, np)
		for i := range perf {
			perf[i] = s.rating(i, of)
		}
		for i := range out {
			out[i] = s.average(i, perf, Unit)
		}
	}
	return out
}

// count returns WIN, WON, BPG, BWG or GE (art. 7.1-7.4, 7.6): a "win" is a
// round that scored what a game won scores, played or not.
func (s *state) count(name string, i int) int {
	n := 0
	for r := 1; r <= s.n; r++ {
		rd := s.round[i][r-1]
		win := s.pts[i][r-1] == s.sc.Win
		played := rd.Result.Played()
		black := rd.Colour == Black
		switch name {
		case "WIN":
			// art. 7.1: rounds won, with or without playing
			if win && rd.Result != Pending {
				n++
			}
		case "WON":
			// art. 7.2: games won over the board
			if win && played {
				n++
			}
		case "BPG":
			// art. 7.3: games played with Black (unplayed rounds are not)
			if black && played {
				n++
			}
		case "BWG":
			// art. 7.4: games won with Black over the board
			if black && played && win {
				n++
			}
		case "GE":
			// art. 7.6: rounds one elected to play: games played and the
			// rounds won without playing (forfeit win, full-point bye, PAB)
			if played || win && rd.Result != Pending {
				n++
			}
		}
	}
	return n
}

// progressive is PS (art. 7.5): the sum of the running scores after each
// round; Cut-n leaves out the first n rounds.
func (s *state) progressive(i, cut int) Value {
	var run, sum Points
	for r := 1; r <= s.n; r++ {
		run += s.pts[i][r-1]
		if r > cut {
			sum += run
		}
	}
	return sum.Value()
}

// koya is KS (art. 9.2): points scored against the opponents who reached
// half the maximum score (a win's points times the rounds).
func (s *state) koya(i int) Value {
	rounds := s.n
	limit := s.sc.Win * Points(rounds) // compared doubled: total*2 >= limit
	var sum Points
	for r := 1; r <= s.n; r++ {
		j, ok := s.idx[s.round[i][r-1].Opponent]
		if !ok || s.round[i][r-1].Opponent == 0 {
			continue
		}
		if 2*s.total[j] >= limit {
			sum += s.pts[i][r-1]
		}
	}
	return sum.Value()
}

// contrib is one round's contribution to BH or SB.
type contrib struct {
	round int
	vur   bool  // a voluntarily unplayed round, cut first (art. 14.6)
	score Value // the opponent's (or dummy's) score
	value Value // what the round adds: score for BH, score × points for SB
}

// contributions returns the rounds of player i as BH, FB or SB counts
// them (name). FIDE Tie-Break Regulations 2023, art. 16.4: in a Swiss, an
// unplayed round (bye, forfeit, absence) is counted as if played against
// a "dummy opponent" whose score is the participant's own; with
// pre-determined pairings (a round robin, art. 15) a forfeit counts
// against the scheduled opponent, and a round without one counts nothing.
// FB (art. 8.3) counts the tournament's last round as a game drawn
// against the scheduled opponent, played or not, and every score as
// such a draw leaves it.
func (s *state) contributions(i int, name string) []contrib {
	adj, own := s.adj, s.total
	fore := name == "FB" && s.n == s.last
	if fore {
		adj, own = s.fore()
	}
	var out []contrib
	for r := 1; r <= s.n; r++ {
		rd := s.round[i][r-1]
		lastGame := fore && r == s.n && rd.Opponent != 0
		if rd.Result == Pending && !lastGame {
			continue
		}
		c := contrib{round: r}
		if j, ok := s.played(i, r); ok {
			c.score = adj[j].Value()
		} else if lastGame {
			c.score = adj[s.idx[rd.Opponent]].Value()
		} else if s.t.RoundRobin {
			continue
		} else {
			c.score = own[i].Value()
			c.vur = s.vur(i, r)
		}
		c.value = c.score
		if sonneborn(name) {
			f := s.pts[i][r-1]
			if s.sb != nil {
				f = s.sb[i][r-1]
			}
			c.value = c.score * Value(f) / 100
		}
		out = append(out, c)
	}
	return out
}

// fore returns, for FB (art. 8.3), each player's score as opponents count
// it and his own score (his dummy's, art. 16.4) with the last round, if
// he was paired in it, a draw: whatever it gave, or gives once finished.
func (s *state) fore() (adj, own []Points) {
	adj, own = slices.Clone(s.adj), slices.Clone(s.total)
	for i := range adj {
		if s.round[i][s.n-1].Opponent == 0 {
			continue
		}
		var before Points
		for r := 1; r < s.n; r++ {
			before += s.pts[i][r-1]
		}
		adj[i] = before + s.sc.Draw
		own[i] = s.total[i] - s.pts[i][s.n-1] + s.sc.Draw
	}
	return adj, own
}

// buchholz is BH (art. 8.1) or SB (art. 9.1) with tb's cut or median
// (art. 14.1): the least significant values cut are the voluntarily
// unplayed rounds first (art. 14.6), unless a round counts less; the most
// significant are the highest.
func (s *state) buchholz(i int, tb TieBreak) Value {
	cs := s.contributions(i, tb.Name)
	low, high := tb.Cut, 0
	if tb.Median > 0 {
		low, high = tb.Median, tb.Median
	}
	low = min(low, s.n)
	high = min(high, s.n-low)
	for ; low > 0 && len(cs) > 0; low-- {
		all := slices.Clone(cs)
		slices.SortStableFunc(all, func(a, b contrib) int {
			return cmp.Or(cmp.Compare(a.score, b.score), cmp.Compare(a.value, b.value))
		})
		exp := slices.Clone(cs)
		slices.SortStableFunc(exp, func(a, b contrib) int {
			if a.vur != b.vur {
				if a.vur {
					return -1
				}
				return 1
			}
			return cmp.Or(cmp.Compare(a.score, b.score), cmp.Compare(a.value, b.value))
		})
		if all[0].value > exp[0].value {
			cs = all[1:]
		} else {
			cs = exp[1:]
		}
	}
	for ; high > 0 && len(cs) > 0; high-- {
		slices.SortStableFunc(cs, func(a, b contrib) int {
			return cmp.Or(cmp.Compare(b.score, a.score), cmp.Compare(b.value, a.value))
		})
		cs = cs[1:]
	}
	var sum Value
	for _, c := range cs {
		sum += c.value
	}
	return sum
}

// average returns the mean of the opponents' values v over the games
// played (AOB, art. 8.2; APRO, art. 10.4; APPO, art. 10.5), leaving out a zero value (an unrated
// opponent's performance), rounded half up to a multiple of step.
func (s *state) average(i int, v []Value, step Value) Value {
	var sum, n Value
	for r := 1; r <= s.n; r++ {
		rd := s.round[i][r-1]
		if !rd.Result.Played() {
			continue
		}
		j := s.idx[rd.Opponent]
		if v[j] > 0 {
			sum += v[j]
			n++
		}
	}
	if n == 0 {
		return 0
	}
	return divRound(sum, n, step)
}

// rating is ARO (art. 10.1), TPR (10.2) or PTP (10.3) over the games
// played against rated opponents. ARO's Cut-n drops the n lowest rated
// opponents, only when every game played was against a rated one.
func (s *state) rating(i int, tb TieBreak) Value {
	type game struct {
		rating int
		score  int64 // hundredths of a point, 1-½-0
	}
	var gs []game
	played := 0
	for r := 1; r <= s.n; r++ {
		rd := s.round[i][r-1]
		if !rd.Result.Played() {
			continue
		}
		played++
		if o := s.t.Players[s.idx[rd.Opponent]].Rating; o > 0 {
			gs = append(gs, game{o, int64(Classic.Score(rd.Result))})
		}
	}
	for cut := tb.Cut; cut > 0; cut-- {
		if played == len(gs) && len(gs) > 0 {
			slices.SortStableFunc(gs, func(a, b game) int { return cmp.Compare(a.rating, b.rating) })
			gs = gs[1:]
		}
		played--
	}
	ratings := make([]int, len(gs))
	var score int64
	for k, g := range gs {
		ratings[k] = g.rating
		score += g.score
	}
	switch tb.Name {
	case "TPR":
		return Int(tpr(score, ratings))
	case "PTP":
		return Int(ptp(score, ratings))
	}
	return Int(aro(ratings))
}

// sonneborn reports SB and the team events' extended SB (EMGSB...): a
// round counts its opponent's score times the points made against him.
func sonneborn(name string) bool {
	return name == "SB" || len(name) == 5 && name[0] == 'E' && name[3:] == "SB"
}
