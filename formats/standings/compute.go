package standings

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
)

// Table is the standings after a round: players in rank order, each with
// the tie-breaks of the list in its order.
type Table struct {
	After     int // the last round counted
	TieBreaks []TieBreak
	Rows      []Row
}

// Row is one player's line of the standings and of the crosstable.
type Row struct {
	Rank       int // shared only when points and every tie-break are equal
	Start      int
	Name       string
	Title      string
	Federation string
	Rating     int
	Points     Points
	Values     []Value // Values[i] is TieBreaks[i]
	Rounds     []Cell  // rounds 1..After
}

// Cell is one round of a player in the crosstable.
type Cell struct {
	Opponent     int // start number, 0 for none
	OpponentRank int // the opponent's rank in this table, 0 for none
	Colour       Colour
	Result       Result
	Points       Points
}

// Value returns the row's value of the tie-break written as in Parse
// ("BH-C1"); PTS is the points.
func (t *Table) Value(row int, name string) (Value, bool) {
	if name == "PTS" {
		return t.Rows[row].Points.Value(), true
	}
	for i, tb := range t.TieBreaks {
		if tb.String() == name {
			return t.Rows[row].Values[i], true
		}
	}
	return 0, false
}

// state is what every tie-break is computed from: per player (by index),
// the points of each round and their sum, after rounds 1..n.
type state struct {
	t     *Tournament
	sc    Scoring
	n     int
	last  int         // the tournament's last round (FB's, art. 8.3)
	idx   map[int]int // start number → index
	round [][]Round   // [player][r-1]
	pts   [][]Points  // [player][r-1]
	total []Points
	adj   []Points // the score opponents' Buchholz counts (art. 16.3)
	// sb, in a team event, is the other score of each round (game points
	// for a table on match points): SB multiplies the opponent's score by
	// it. nil: the round's own points.
	sb [][]Points
}

// Compute returns the standings after round `after` (0: every round a
// player has) with the tie-breaks tbs in order. Ranks follow points, then
// each tie-break in turn (higher first; DE by its rank within the tie);
// players equal in all share a rank and are listed by start number.
func Compute(t Tournament, after int, tbs []TieBreak) (*Table, error) {
	for i, tb := range tbs {
		if tb.TeamOnly() {
			return nil, &ParseError{Item: i + 1, Entry: tb.String(), Msg: "a tie-break of team events (match and game points): this tournament is of individuals, want one of individuals (no :MP or :GP, not MPTS, GPTS or the extended SB)"}
		}
	}
	s, err := newState(&t, after)
	if err != nil {
		return nil, err
	}
	return s.table(tbs, func(TieBreak) *state { return s }), nil
}

// table ranks the players of s (by s's points) with the tie-breaks, each
// computed on the state of its point type (of), and makes the table.
func (s *state) table(tbs []TieBreak, of func(TieBreak) *state) *Table {
	t := s.t
	np := len(t.Players)
	vals := make([][]Value, np)
	for i := range vals {
		vals[i] = make([]Value, len(tbs))
	}
	// order holds player indices; each tie-break refines the ranking.
	order := make([]int, np)
	for i := range order {
		order[i] = i
	}
	key := make([][]Value, np) // the values ranked so far
	for i := range key {
		key[i] = []Value{s.total[i].Value()}
	}
	sortBy := func() {
		slices.SortStableFunc(order, func(a, b int) int {
			if c := slices.Compare(key[b], key[a]); c != 0 {
				return c
			}
			return cmp.Compare(t.Players[a].Start, t.Players[b].Start)
		})
	}
	sortBy()
	for k, tb := range tbs {
		var v []Value
		ts := of(tb)
		if tb.Name == "DE" {
			v = ts.directEncounter(order, key)
			for i := range np {
				key[i] = append(key[i], -v[i]) // a rank: lower is better
			}
		} else {
			v = ts.compute(tb, vals, k)
		}
		for i := range np {
			vals[i][k] = v[i]
			if tb.Name != "DE" {
				key[i] = append(key[i], v[i])
			}
		}
		sortBy()
	}
	tab := &Table{After: s.n, TieBreaks: slices.Clone(tbs)}
	rankOf := make([]int, np)
	for pos, i := range order {
		rank := pos + 1
		if pos > 0 && slices.Equal(key[i], key[order[pos-1]]) {
			rank = rankOf[order[pos-1]]
		}
		rankOf[i] = rank
	}
	for _, i := range order {
		p := &t.Players[i]
		row := Row{Rank: rankOf[i], Start: p.Start, Name: p.Name, Title: p.Title, Federation: p.Federation,
			Rating: p.Rating, Points: s.total[i], Values: vals[i]}
		for r := 1; r <= s.n; r++ {
			rd := s.round[i][r-1]
			c := Cell{Opponent: rd.Opponent, Colour: rd.Colour, Result: rd.Result, Points: s.pts[i][r-1]}
			if j, ok := s.idx[rd.Opponent]; ok {
				c.OpponentRank = rankOf[j]
			}
			row.Rounds = append(row.Rounds, c)
		}
		tab.Rows = append(tab.Rows, row)
	}
	return tab
}

func newState(t *Tournament, after int) (*state, error) {
	s := &state{t: t, sc: t.Scoring, idx: map[int]int{}}
	if s.sc == (Scoring{}) {
		s.sc = Classic
	}
	for i, p := range t.Players {
		if p.Start < 1 {
			return nil, &InputError{Player: p.Start, Msg: "no start number: want 1 or more"}
		}
		if _, dup := s.idx[p.Start]; dup {
			return nil, &InputError{Player: p.Start, Msg: fmt.Sprintf("start number %d is given to two players: each player needs a start number of his own", p.Start)}
		}
		s.idx[p.Start] = i
		s.n = max(s.n, len(p.Rounds))
	}
	s.last = s.n
	if t.Rounds > 0 {
		s.last = t.Rounds
	}
	if after > 0 {
		s.n = after
	}
	np := len(t.Players)
	s.round = make([][]Round, np)
	s.pts = make([][]Points, np)
	s.total = make([]Points, np)
	s.adj = make([]Points, np)
	for i := range t.Players {
		p := &t.Players[i]
		s.round[i] = make([]Round, s.n)
		s.pts[i] = make([]Points, s.n)
		for r := 1; r <= s.n; r++ {
			rd := p.Round(r)
			if rd.Opponent != 0 {
				j, ok := s.idx[rd.Opponent]
				if !ok {
					return nil, &InputError{Player: p.Start, Round: r, Msg: fmt.Sprintf("opponent %d is no player of the tournament: a game's opponent is one of its players", rd.Opponent)}
				}
				if j == i {
					return nil, &InputError{Player: p.Start, Round: r, Msg: "paired with themself: a game needs another player"}
				}
				if back := t.Players[j].Round(r); back.Opponent != p.Start {
					return nil, &InputError{Player: p.Start, Round: r, Msg: fmt.Sprintf("opponent %d names %d in that round, not this player: the two players of a game name each other", rd.Opponent, back.Opponent)}
				}
			} else if rd.Result.Played() || rd.Result == Pending {
				return nil, &InputError{Player: p.Start, Round: r, Msg: fmt.Sprintf("a %s needs an opponent (only byes and forfeits have none)", rd.Result)}
			}
			s.round[i][r-1] = rd
			s.pts[i][r-1] = s.sc.Score(rd.Result)
			s.total[i] += s.pts[i][r-1]
		}
	}
	s.adjust()
	return s, nil
}

// adjust computes the scores opponents' Buchholz counts.
func (s *state) adjust() {
	t := s.t
	// FIDE Tie-Break Regulations 2023, art. 16.3.2: for the Buchholz of
	// its opponents, a participant's unplayed rounds after the last round
	// it played or was given a win without playing (withdrawn, absent to
	// the end) count as draws, in a Swiss; the rest as they scored.
	for i := range t.Players {
		last := 0
		for r := 1; r <= s.n; r++ {
			if !s.vur(i, r) {
				last = r
			}
		}
		for r := 1; r <= s.n; r++ {
			rd := s.round[i][r-1]
			switch {
			case r <= last || rd.Opponent != 0:
				s.adj[i] += s.pts[i][r-1]
			case !t.RoundRobin:
				s.adj[i] += s.sc.Draw
			}
		}
	}
}

// vur reports a voluntarily unplayed round (art. 16.2): not played, and
// not a round won without playing (forfeit win, full-point bye,
// pairing-allocated bye) — a forfeit loss, a half- or zero-point bye.
func (s *state) vur(i, r int) bool {
	switch s.round[i][r-1].Result {
	case ForfeitLoss, HalfBye, ZeroBye:
		return true
	}
	return false
}

// played reports whether round r of player i counts as a game against
// its opponent for tie-breaks: played over the board, or, in a round
// robin, forfeited (art. 15: pre-determined pairings).
func (s *state) played(i, r int) (opp int, ok bool) {
	rd := s.round[i][r-1]
	j, has := s.idx[rd.Opponent]
	if !has || rd.Opponent == 0 {
		return 0, false
	}
	if rd.Result.Played() || s.t.RoundRobin && (rd.Result == ForfeitWin || rd.Result == ForfeitLoss) {
		return j, true
	}
	return 0, false
}

// Records returns the table as rows of text, a header first: rank,
// start, name, points, then each tie-break by its acronym as listed
// ("BH-C1"); values exact ("20.5"). A CSV writer or a page lays them out.
func (t *Table) Records() [][]string {
	head := []string{"rank", "start", "name", "points"}
	for _, tb := range t.TieBreaks {
		head = append(head, tb.String())
	}
	out := [][]string{head}
	for _, r := range t.Rows {
		rec := []string{strconv.Itoa(r.Rank), strconv.Itoa(r.Start), r.Name, r.Points.String()}
		for _, v := range r.Values {
			rec = append(rec, v.String())
		}
		out = append(out, rec)
	}
	return out
}
