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

// Round is one round's games and byes, and the players in neither.
type Round struct {
	Number int
	Boards []Board
	Byes   []Bye
	// Absent are the players the round leaves out: neither paired nor
	// given a bye (a blank round in their columns, which TRF-16 scores
	// as a zero-point bye).
	Absent []Absentee
}

func roundCol(r int) int { return colRound1 + roundWidth*(r-1) }

// Round reads round r from the players' round columns. Each game is
// recorded on both players' lines; both must name each other, with
// opposite colours and results that go together. A player whose entry has
// no opponent has a bye if the code says so (H, F, U, Z; a "+" without an
// opponent is read as a full-point bye, a "-" as a zero-point bye) and is
// otherwise absent. Boards are numbered in the order FIDE's Swiss rules
// publish pairings: by the higher score of the pair before the round,
// then the sum of both scores, then the better starting rank — scores
// counted with the file's point system.
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
			if bye := byeOf(p, g); bye != nil {
				out.Byes = append(out.Byes, *bye)
			} else {
				out.Absent = append(out.Absent, Absentee{Player: p.StartRank, Name: p.Name, Line: p.Line})
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
		if g.Colour == og.Colour {
			return nil, errorf(later.Line, col+5, "round %d: players %d (line %d) and %d (line %d) are both given colour %q: one must have w, the other b",
				r, p.StartRank, p.Line, o.StartRank, o.Line, g.Colour)
		}
		w, b, wg, bg := p, o, g, og
		if g.Colour == Black {
			w, b, wg, bg = o, p, og, g
		}
		if _, err := ResultOf(wg.Result, bg.Result); err != nil {
			return nil, errorf(later.Line, col+7, "round %d, %d (line %d) against %d (line %d): %v", r, w.StartRank, w.Line, b.StartRank, b.Line, err)
		}
		out.Boards = append(out.Boards, Board{White: w.StartRank, Black: b.StartRank, WhiteResult: wg.Result, BlackResult: bg.Result, Line: w.Line})
		done[p.StartRank], done[o.StartRank] = true, true
	}
	f.order(out.Boards, r)
	return out, nil
}

// byeOf reads an entry without an opponent: a bye, or nil for a player
// not in the round.
func byeOf(p *Player, g Game) *Bye {
	code := g.Result
	switch code {
	case ForfeitWin:
		code = FullBye
	case ForfeitLoss:
		code = ZeroBye
	case NoCode:
		return nil
	}
	return &Bye{Player: p.StartRank, Code: code, Line: p.Line}
}

// order numbers the boards of round r as FIDE publishes pairings (C.04.1
// F.1): the higher score of the pair before the round, then the sum of
// both, then the better starting rank of the two.
func (f *File) order(bs []Board, r int) {
	ps, _ := f.PointSystem()
	score := map[int]float64{}
	for i := range f.Players {
		p := &f.Players[i]
		score[p.StartRank] = ps.Total(p, r-1)
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

// PairedRounds returns how many rounds the file has paired: rounds 1 to
// n each have a game in someone's columns, round n+1 has none. What a
// file holds for later rounds are byes entered ahead ("0000 - H" for
// round 7 while round 5 is paired), which pair nobody; a game in a later
// round, after a round without any, is an error naming its line.
func (f *File) PairedRounds() (int, error) {
	last := 0 // the last round with a game
	games := map[int]*Player{}
	for i := range f.Players {
		p := &f.Players[i]
		for r, g := range p.Rounds {
			if g.Opponent > 0 {
				if games[r+1] == nil {
					games[r+1] = p
				}
				last = max(last, r+1)
			}
		}
	}
	n := 0
	for games[n+1] != nil {
		n++
	}
	if n < last {
		for r := n + 2; r <= last; r++ {
			if p := games[r]; p != nil {
				return n, errorf(p.Line, roundCol(r), "round %d pairs player %d against %d, but round %d pairs nobody: a file pairs its rounds in order", r, p.StartRank, p.Round(r).Opponent, n+1)
			}
		}
	}
	return n, nil
}

// hasResults reports whether a game of round r has a result.
func (f *File) hasResults(r int) bool {
	for i := range f.Players {
		if g := f.Players[i].Round(r); g.Opponent > 0 && g.Result != NoCode {
			return true
		}
	}
	return false
}

// CheckRounds reads rounds 1 to upTo from the columns (see Round): each
// game on both players' lines, opponents who exist, colours and results
// that go together. The first round that does not read is the error.
func (f *File) CheckRounds(upTo int) error {
	for r := 1; r <= upTo; r++ {
		if _, err := f.Round(r); err != nil {
			return err
		}
	}
	return nil
}

// ImportOptions say which round Import reads, and from what.
type ImportOptions struct {
	// Round to read; 0: the one the files are for (see Import).
	Round int
	// Pairings is the pairing program's output for the round; nil: the
	// round is read from the TRF's own columns.
	Pairings []Pair
	// AllowAbsent lets pairings leave out players the TRF gives no bye:
	// they are listed in Round.Absent instead of refusing the import.
	AllowAbsent bool
}

// Import reads the round a hall imports from a pairing program's files,
// after checking every round before it (Round). With pairings, the round
// is the first the TRF has not paired (PairedRounds+1) — or the last it
// has, if that round has no result yet: a TRF written after pairing,
// whose columns the pairings must then match — and Paired reads it. From
// the columns alone, it is the last round the TRF has paired.
func (f *File) Import(opt ImportOptions) (*Round, error) {
	paired, err := f.PairedRounds()
	if err != nil {
		return nil, err
	}
	n := opt.Round
	if opt.Pairings != nil {
		if n == 0 {
			n = paired + 1
			if paired > 0 && !f.hasResults(paired) {
				n = paired
			}
		}
		if n > paired+1 {
			return nil, errorf(0, 0, "the TRF pairs %d rounds: the pairings of round %d need rounds %d to %d first", paired, n, paired+1, n-1)
		}
		if err := f.CheckRounds(n - 1); err != nil {
			return nil, err
		}
		return f.paired(n, opt.Pairings, opt.AllowAbsent)
	}
	if n == 0 {
		n = paired
	}
	if n == 0 {
		return nil, errorf(0, 0, "the TRF pairs no round: give the pairing program's output with it")
	}
	if err := f.CheckRounds(n - 1); err != nil {
		return nil, err
	}
	r, err := f.Round(n)
	if err != nil {
		return nil, err
	}
	if len(r.Boards) == 0 {
		return nil, errorf(0, 0, "the TRF's columns for round %d pair nobody (it pairs %d rounds): give the pairing program's output, or another round", n, paired)
	}
	return r, nil
}

// SetRound writes round r's games and byes into the players' round
// columns (a longer line for a round past the last one), and moves each
// player's points by what round r scores now instead of what the file
// gave for it, with the file's point system (PointSystem). sc is the
// hall's scoring of the round (the zero value: the file's own): for a
// file that states none, or one built by hand, it is the point system;
// for one that states another, it is an error, since the points of the
// rounds before were counted otherwise. A File built by hand that scores
// other than 1, ½, 0 gets a 162 line saying how. Players of neither keep
// their round-r columns. A starting rank that is no player is an error.
func (f *File) SetRound(r int, boards []Board, byes []Bye, sc Scoring) error {
	if r < 1 {
		return fmt.Errorf("trf: round %d: rounds are numbered from 1", r)
	}
	ps, stated := f.PointSystem()
	if sc != (Scoring{}) {
		want := PointSystemOf(sc)
		switch {
		case stated && ps.Scoring() != want.Scoring():
			return fmt.Errorf("trf: the TRF scores %s, the round %s: the points of its earlier rounds were counted otherwise", ps, want)
		case !stated && f.src != nil && want != Classic:
			return fmt.Errorf("trf: the TRF states no point system (XXS, BBW, 162), so it scores 1-0.5-0, and the round %s: the points of its earlier rounds were counted otherwise", want)
		case !stated:
			ps = want
			if f.src == nil && ps != Classic {
				f.points, f.stated = ps, true
				f.Header = append(f.Header, line162(ps))
			}
		}
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
		p.Points += ps.Score(g) - ps.Score(old)
		p.Points = max(0, float64(roundTenths(p.Points))/10)
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
		if p := f.Player(b.Player); p != nil {
			// A bye written another way that means the same ("0000 - -",
			// "         -" for a zero-point bye, "+" for a full point)
			// stays as it was written.
			if old := p.Round(r); old.Opponent == 0 && old.Result != NoCode && byeOf(p, old).Code == b.Code {
				continue
			}
		}
		if err := set(b.Player, Game{Colour: NoColour, Result: b.Code}); err != nil {
			return err
		}
	}
	return nil
}

// roundTenths counts points in tenths, as the file writes them, so that
// sums of halves and tenths never drift.
func roundTenths(v float64) int64 {
	if v < 0 {
		return -int64(-v*10 + 0.5)
	}
	return int64(v*10 + 0.5)
}

// line162 writes a point system as TRF-2026's 162 line: win, draw, loss,
// absence, pairing-allocated bye.
func line162(ps PointSystem) string {
	s := "162 "
	for _, v := range []struct {
		sym byte
		pts float64
	}{{'W', ps.WinWhite}, {'D', ps.DrawWhite}, {'L', ps.LossWhite}, {'A', ps.ZeroBye}, {'P', ps.PairingBye}} {
		p, _ := formatPoints(v.pts)
		s += fmt.Sprintf(" %c%4s   ", v.sym, p)
	}
	return s[:len(s)-3]
}
