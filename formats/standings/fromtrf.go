package standings

import (
	"github.com/chesshall/hallclock/formats/trf"
)

// FromTRF returns the tournament a TRF-16 file records: its players, the
// rounds of their lines, and the point system the file states (XXS, BB*,
// 162; else 1-½-0). A game whose result is not known yet (a blank or Z
// with an opponent) is Pending; a blank round without opponent, and a
// forfeit loss against nobody ("0000 - -", lichess's absence), is a
// zero-point bye; a forfeit win against nobody is a forfeit win. Games of
// less than one move (W, D, L) are games played. roundRobin says the
// pairings were pre-determined.
func FromTRF(f *trf.File, roundRobin bool) (Tournament, error) {
	ps, _ := f.PointSystem()
	var sc Scoring
	for _, v := range []struct {
		to *Points
		f  float64
	}{
		{&sc.Win, ps.WinWhite}, {&sc.Draw, ps.DrawWhite}, {&sc.Loss, ps.LossWhite},
		{&sc.ForfeitWin, ps.ForfeitWin}, {&sc.ForfeitLoss, ps.ForfeitLoss},
		{&sc.FullBye, ps.FullBye}, {&sc.HalfBye, ps.HalfBye}, {&sc.ZeroBye, ps.ZeroBye}, {&sc.PairingBye, ps.PairingBye},
	} {
		p, err := PointsOf(v.f)
		if err != nil {
			return Tournament{}, err
		}
		*v.to = p
	}
	if ps.WinBlack != ps.WinWhite || ps.DrawBlack != ps.DrawWhite || ps.LossBlack != ps.LossWhite {
		return Tournament{}, inputErr("the file scores White's and Black's results differently (%s): want one value for each result, whichever colour", ps)
	}
	t := Tournament{Scoring: sc, RoundRobin: roundRobin, Rounds: f.Rounds()}
	for _, p := range f.Players {
		pl := Player{Start: p.StartRank, Name: p.Name, Title: p.Title, Federation: p.Federation, Rating: p.Rating}
		for _, g := range p.Rounds {
			pl.Rounds = append(pl.Rounds, roundOf(g))
		}
		t.Players = append(t.Players, pl)
	}
	return t, nil
}

func roundOf(g trf.Game) Round {
	rd := Round{Opponent: g.Opponent}
	switch g.Colour {
	case trf.White:
		rd.Colour = White
	case trf.Black:
		rd.Colour = Black
	}
	switch g.Result {
	case trf.Win, trf.QuickWin:
		rd.Result = Win
	case trf.Draw, trf.QuickDraw:
		rd.Result = Draw
	case trf.Loss, trf.QuickLoss:
		rd.Result = Loss
	case trf.ForfeitWin:
		rd.Result = ForfeitWin
	case trf.ForfeitLoss:
		rd.Result = ForfeitLoss
		if g.Opponent == 0 {
			rd.Result = ZeroBye
		}
	case trf.FullBye:
		rd.Result = FullBye
	case trf.HalfBye:
		rd.Result = HalfBye
	case trf.PairingBye:
		rd.Result = PairingBye
	case trf.ZeroBye:
		rd.Result = ZeroBye
	default: // blank
		rd.Result = ZeroBye
		if g.Opponent != 0 {
			rd.Result = Pending
		}
	}
	if rd.Opponent == 0 {
		rd.Colour = NoColour
	}
	return rd
}
