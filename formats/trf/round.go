package trf

import (
	"fmt"
	"slices"
)

// Board is one game of a round.
type Board struct {
	Number       int // from 1, in the order the pairings are published
	White, Black int // starting ranks
	// The result codes in the file (NoCode for a game not played yet).
	WhiteResult, BlackResult Code
	Line                     int // where the pairing was read: the pairing line, or White's player line
}

// Bye is a player's round without a game: a half-point, full-point,
// pairing-allocated or zero-point bye.
type Bye struct {
	Player int  // starting rank
	Code   Code // HalfBye, FullBye, PairingBye or ZeroBye
	Line   int  // where it was read
}

// Round is one round's games and byes.
type Round struct {
	Number int
	Boards []Board
	Byes   []Bye
}

func roundCol(r int) int { return colRound1 + roundWidth*(r-1) }

// Round reads round r from the players' round columns. Each game is
// recorded on both players' lines; both must name each other, with
// opposite colours and results that go together. A player whose entry has
// no opponent has a bye if the code says so (H, F, U, Z; a "+" without an
// opponent is read as a full-point bye, a "-" as a zero-point bye) and is
// otherwise not paired. Boards are numbered in the order FIDE's Swiss
// rules publish pairings: by the higher score of the pair before the
// round, then the sum of both scores, then the better starting rank.
func (f *File) Round(r int) (*Round, error) {
	if r < 1 {
		return nil, errorf(0, 0, "round %d: rounds are numbered from 1", r)
	}
	col := roundCol(r)
	out := &Round{Number: r}
	done := map[int]bool{}
	for i := range f.Players {
		p := &f.Players[i]
		g := p.Round(r)
		if g.Opponent == 0 {
			bye, err := byeOf(p, g, r)
			if err != nil {
				return nil, err
			}
			if bye != nil {
				out.Byes = append(out.Byes, *bye)
			}
			continue
		}
		if g.Opponent == p.StartRank {
			return nil, errorf(p.Line, col, "round %d: player %d is paired against himself", r, p.StartRank)
		}
		o := f.Player(g.Opponent)
		if o == nil {
			return nil, errorf(p.Line, col, "round %d: opponent %d is no player of this file", r, g.Opponent)
		}
		og := o.Round(r)
		if og.Opponent != p.StartRank {
			return nil, errorf(p.Line, col, "round %d: player %d plays %d, but %d's line (line %d) gives opponent %d", r, p.StartRank, g.Opponent, o.StartRank, o.Line, og.Opponent)
		}
		if done[p.StartRank] {
			continue
		}
		later := o
		if o.Line < p.Line {
			later = p
		}
		if g.Colour == NoColour || og.Colour == NoColour || g.Colour == og.Colour {
			return nil, errorf(later.Line, col+5, "round %d: players %d and %d are given colours %q and %q: one must have w, the other b", r, p.StartRank, o.StartRank, g.Colour, og.Colour)
		}
		w, b, wg, bg := p, o, g, og
		if g.Colour == Black {
			w, b, wg, bg = o, p, og, g
		}
		if _, err := ResultOf(wg.Result, bg.Result); err != nil {
			return nil, errorf(later.Line, col+7, "round %d, %d against %d: %v", r, w.StartRank, b.StartRank, err)
		}
		out.Boards = append(out.Boards, Board{White: w.StartRank, Black: b.StartRank, WhiteResult: wg.Result, BlackResult: bg.Result, Line: w.Line})
		done[p.StartRank], done[o.StartRank] = true, true
	}
	f.order(out.Boards, r)
	return out, nil
}

// byeOf reads an entry without an opponent.
func byeOf(p *Player, g Game, r int) (*Bye, error) {
	col := roundCol(r)
	code := g.Result
	switch code {
	case ForfeitWin:
		code = FullBye
	case ForfeitLoss:
		code = ZeroBye
	case NoCode:
		if g.Colour != NoColour {
			return nil, errorf(p.Line, col+5, "round %d: player %d has colour %q but no opponent", r, p.StartRank, g.Colour)
		}
		return nil, nil // not paired
	}
	if !code.IsBye() {
		return nil, errorf(p.Line, col+7, "round %d: player %d has result %q but no opponent: a round without a game is H, F, U or Z", r, p.StartRank, g.Result)
	}
	return &Bye{Player: p.StartRank, Code: code, Line: p.Line}, nil
}

// order numbers the boards of round r as FIDE publishes pairings (C.04.1
// F.1): the higher score of the pair before the round, then the sum of
// both, then the better starting rank of the two.
func (f *File) order(bs []Board, r int) {
	score := map[int]float64{}
	for i := range f.Players {
		p := &f.Players[i]
		for k := 1; k < r; k++ {
			score[p.StartRank] += Score(p.Round(k).Result, Scoring{})
		}
	}
	slices.SortStableFunc(bs, func(a, b Board) int {
		ha, hb := max(score[a.White], score[a.Black]), max(score[b.White], score[b.Black])
		sa, sb := score[a.White]+score[a.Black], score[b.White]+score[b.Black]
		switch {
		case ha != hb:
			return cmpDesc(ha, hb)
		case sa != sb:
			return cmpDesc(sa, sb)
		}
		return min(a.White, a.Black) - min(b.White, b.Black)
	})
	for i := range bs {
		bs[i].Number = i + 1
	}
}

func cmpDesc(a, b float64) int {
	if a > b {
		return -1
	}
	return 1
}

// Paired reads round r from a pairing program's output: boards in the
// order of the pairs, a pair with 0 a pairing-allocated bye. Players not
// paired have the bye their round-r columns give (H, F, Z: a JaVaFo input
// marks them so) or are on an XXZ line (a zero-point bye); others are not
// in the round. A player paired twice, a number that is no player, a
// player paired against himself, or a paired player whose columns give a
// bye or another pairing is an error naming the pairing line.
func (f *File) Paired(r int, pairs []Pair) (*Round, error) {
	if r < 1 {
		return nil, errorf(0, 0, "round %d: rounds are numbered from 1", r)
	}
	absent, err := f.absent()
	if err != nil {
		return nil, err
	}
	out := &Round{Number: r}
	seen := map[int]int{}
	check := func(n, line, col int) error {
		p := f.Player(n)
		if p == nil {
			return errorf(line, col, "%d is no player of the TRF (its starting ranks run from %d to %d)", n, f.minRank(), f.maxRank())
		}
		if l, dup := seen[n]; dup {
			return errorf(line, col, "player %d is paired twice (also on line %d)", n, l)
		}
		if al, ok := absent[n]; ok {
			return errorf(line, col, "player %d is paired, but the TRF's XXZ line (line %d) says he does not play round %d", n, al, r)
		}
		seen[n] = line
		return nil
	}
	for _, pr := range pairs {
		if err := check(pr.White, pr.Line, pr.WhiteCol); err != nil {
			return nil, err
		}
		if pr.Black == 0 {
			out.Byes = append(out.Byes, Bye{Player: pr.White, Code: PairingBye, Line: pr.Line})
			continue
		}
		if pr.Black == pr.White {
			return nil, errorf(pr.Line, pr.BlackCol, "player %d is paired against himself", pr.White)
		}
		if err := check(pr.Black, pr.Line, pr.BlackCol); err != nil {
			return nil, err
		}
		for _, s := range []struct {
			me, opp int
			col     Colour
		}{{pr.White, pr.Black, White}, {pr.Black, pr.White, Black}} {
			p := f.Player(s.me)
			g := p.Round(r)
			if g.Opponent == 0 && g.Result == NoCode && g.Colour == NoColour {
				continue // the columns say nothing of round r
			}
			if g.Opponent != s.opp || g.Colour != s.col {
				return nil, errorf(pr.Line, 1, "round %d: the pairing puts %d against %d with %s, but %d's line (line %d) gives %q",
					r, s.me, s.opp, colourName(s.col), s.me, p.Line, fmt.Sprintf("%04d %c %c", g.Opponent, g.Colour, g.Result))
			}
		}
		out.Boards = append(out.Boards, Board{Number: len(out.Boards) + 1, White: pr.White, Black: pr.Black, WhiteResult: NoCode, BlackResult: NoCode, Line: pr.Line})
	}
	for i := range f.Players {
		p := &f.Players[i]
		if _, paired := seen[p.StartRank]; paired {
			continue
		}
		g := p.Round(r)
		if g.Opponent != 0 {
			return nil, errorf(p.Line, roundCol(r), "round %d: player %d's line gives opponent %d, but the pairings do not pair him", r, p.StartRank, g.Opponent)
		}
		bye, err := byeOf(p, g, r)
		if err != nil {
			return nil, err
		}
		if bye == nil {
			if l, ok := absent[p.StartRank]; ok {
				bye = &Bye{Player: p.StartRank, Code: ZeroBye, Line: l}
			}
		}
		if bye != nil {
			out.Byes = append(out.Byes, *bye)
		}
	}
	return out, nil
}

func colourName(c Colour) string {
	if c == White {
		return "White"
	}
	return "Black"
}

func (f *File) minRank() int {
	m := 0
	for _, p := range f.Players {
		if m == 0 || p.StartRank < m {
			m = p.StartRank
		}
	}
	return m
}

func (f *File) maxRank() int {
	m := 0
	for _, p := range f.Players {
		m = max(m, p.StartRank)
	}
	return m
}

// SetRound writes round r's games and byes into the players' round
// columns (a longer line for a round past the last one), and moves each
// player's points by what round r scores under sc instead of what the
// file gave for it. Players of neither keep their round-r columns. A
// starting rank that is no player is an error.
func (f *File) SetRound(r int, boards []Board, byes []Bye, sc Scoring) error {
	if r < 1 {
		return fmt.Errorf("trf: round %d: rounds are numbered from 1", r)
	}
	set := func(rank int, g Game) error {
		p := f.Player(rank)
		if p == nil {
			return fmt.Errorf("trf: round %d: %d is no player of the file", r, rank)
		}
		old := p.Round(r)
		for len(p.Rounds) < r {
			p.Rounds = append(p.Rounds, Game{Colour: NoColour, Result: NoCode})
		}
		p.Rounds[r-1] = g
		p.Points += Score(g.Result, sc) - Score(old.Result, sc)
		if p.Points < 0 {
			p.Points = 0
		}
		return nil
	}
	for _, b := range boards {
		if err := set(b.White, Game{Opponent: b.Black, Colour: White, Result: b.WhiteResult}); err != nil {
			return err
		}
		if err := set(b.Black, Game{Opponent: b.White, Colour: Black, Result: b.BlackResult}); err != nil {
			return err
		}
	}
	for _, b := range byes {
		if err := set(b.Player, Game{Colour: NoColour, Result: b.Code}); err != nil {
			return err
		}
	}
	return nil
}
