package standings

import (
	"strconv"
	"strings"

	"github.com/chesshall/hallclock/formats/trf"
)

// FromTeamTRF returns the team event a TRF records: its teams (TRF-16's
// 013 lines, TRF-2026's 310), each round's match as its players' lines
// make it — the opposing team is the team of the board's opponents, the
// game points the sum of what the boards scored under the file's point
// system, the result the game points against the opponent's (a match
// with no board played over the board is a forfeit) — the match scoring
// of a 362 line (TW, TD, TL; else 2-1-0) and a team's pairing-allocated
// bye as a 320 line scores it (match points, game points). A round no
// board of a team has an opponent in is a bye: pairing-allocated if its
// players have U, full-point F, half-point H, else zero-point. The
// number of boards is the most games a match had. The event ranks by
// match points, or by game points when its 192 line says so
// (FIDE_TEAM_GP_MP).
func FromTeamTRF(f *trf.File, roundRobin bool) (TeamTournament, error) {
	ind, err := FromTRF(f, roundRobin)
	if err != nil {
		return TeamTournament{}, err
	}
	teams, err := f.Teams()
	if err != nil {
		return TeamTournament{}, &InputError{Msg: err.Error()}
	}
	if len(teams) == 0 {
		return TeamTournament{}, inputErr("no team lines: a team event lists its teams in 013 (TRF-16) or 310 (TRF-2026) lines")
	}
	tt := TeamTournament{GameScoring: ind.Scoring, RoundRobin: roundRobin, Rounds: ind.Rounds}
	// TRF-2026's 192 names the scores in rank order: FIDE_TEAM_GP_MP
	// ranks by game points, then match points.
	if typ := strings.ToUpper(f.Tag("192")); strings.Contains(typ, "_GP_MP") {
		tt.Primary = "GP"
	}
	if tt.MatchScoring, err = matchScoring(f.Tag("362")); err != nil {
		return TeamTournament{}, err
	}
	pab, hasPAB, err := teamPAB(f.Tag("320"))
	if err != nil {
		return TeamTournament{}, err
	}
	if hasPAB {
		tt.MatchScoring.PairingBye = pab[0]
	}
	player := map[int]*Player{}
	for i := range ind.Players {
		player[ind.Players[i].Start] = &ind.Players[i]
	}
	teamOf := map[int]int{} // start number → team number
	rounds := 0
	for _, t := range teams {
		for _, m := range t.Members {
			teamOf[m] = t.Number
			rounds = max(rounds, len(player[m].Rounds))
		}
	}
	for _, t := range teams {
		team := Team{Start: t.Number, Name: t.Name}
		for r := 1; r <= rounds; r++ {
			m, games, err := teamRound(t, r, player, teamOf, ind.Scoring)
			if err != nil {
				return TeamTournament{}, err
			}
			if m.Result == PairingBye && hasPAB {
				m.GamePoints = pab[1]
			}
			tt.Boards = max(tt.Boards, games)
			team.Rounds = append(team.Rounds, m)
		}
		tt.Teams = append(tt.Teams, team)
	}
	// A match's result: its game points against the opponent's.
	gp := map[[2]int]Points{}
	for _, t := range tt.Teams {
		for r, m := range t.Rounds {
			gp[[2]int{t.Start, r}] = m.GamePoints
		}
	}
	for _, t := range tt.Teams {
		for r := range t.Rounds {
			m := &t.Rounds[r]
			if m.Opponent == 0 || m.Result == Pending {
				continue
			}
			mine, theirs := m.GamePoints, gp[[2]int{m.Opponent, r}]
			played := m.Result == Win // set by teamRound: a board played
			switch {
			case mine > theirs && played:
				m.Result = Win
			case mine < theirs && played:
				m.Result = Loss
			case played:
				m.Result = Draw
			case mine > theirs:
				m.Result = ForfeitWin
			default:
				m.Result = ForfeitLoss
			}
		}
	}
	tt.Boards = max(tt.Boards, 1)
	return tt, nil
}

// teamRound is a team's match in round r before its result is known:
// the opposing team, the colour of its first board with a game, the game
// points, and Result Win if a board was played over the board (the
// caller decides), Pending if a game is not finished, a bye's kind when
// no board had an opponent. games is the number of boards with one.
func teamRound(t trf.Team, r int, player map[int]*Player, teamOf map[int]int, sc Scoring) (m Match, games int, err error) {
	played, pending := false, false
	var bye Result = ZeroBye
	for _, start := range t.Members {
		rd := player[start].Round(r)
		m.GamePoints += sc.Score(rd.Result)
		if rd.Opponent == 0 {
			switch {
			case rd.Result == PairingBye:
				bye = PairingBye
			case rd.Result == FullBye && bye != PairingBye:
				bye = FullBye
			case rd.Result == HalfBye && bye == ZeroBye:
				bye = HalfBye
			}
			continue
		}
		opp, ok := teamOf[rd.Opponent]
		if !ok {
			return m, 0, &InputError{Player: start, Round: r, Msg: "the opponent " + strconv.Itoa(rd.Opponent) + " is in no team: every player of a team event is in a team line"}
		}
		if m.Opponent != 0 && m.Opponent != opp {
			return m, 0, &InputError{Player: start, Round: r, Msg: "team " + strconv.Itoa(t.Number) + " meets teams " + strconv.Itoa(m.Opponent) + " and " + strconv.Itoa(opp) + ": a team's boards play one team in a round"}
		}
		if m.Opponent == 0 {
			m.Colour = rd.Colour
		}
		m.Opponent = opp
		games++
		played = played || rd.Result.Played()
		pending = pending || rd.Result == Pending
	}
	switch {
	case m.Opponent == 0:
		m.Result = bye
	case pending:
		m.Result, m.GamePoints = Pending, 0
	case played:
		m.Result = Win
	default:
		m.Result = ForfeitLoss
	}
	return m, games, nil
}

// matchScoring reads a 362 line: "TW 2.0   TD 1.0   TL 0.0" (a team's
// win, draw and loss); empty: 2-1-0.
func matchScoring(s string) (Scoring, error) {
	if strings.TrimSpace(s) == "" {
		return MatchPoints210, nil
	}
	v := map[string]Points{}
	f := strings.Fields(s)
	for k := 0; k+1 < len(f); k += 2 {
		x, err := strconv.ParseFloat(f[k+1], 64)
		if err != nil {
			return Scoring{}, inputErr("362 %q: %s is no number: want TW, TD, TL each with its match points", s, f[k+1])
		}
		p, err := PointsOf(x)
		if err != nil {
			return Scoring{}, err
		}
		v[strings.ToUpper(f[k])] = p
	}
	w, okW := v["TW"]
	d, okD := v["TD"]
	l := v["TL"]
	if !okW || !okD {
		return Scoring{}, inputErr("362 %q: want TW and TD (a team's win and draw), TL if a loss scores", s)
	}
	sc := ScoringOf(w, d, l)
	sc.ZeroBye, sc.ForfeitLoss = l, l
	return sc, nil
}

// teamPAB reads a 320 line's match and game points for a team's
// pairing-allocated bye (columns 5-8 and 10-13).
func teamPAB(s string) (pts [2]Points, ok bool, err error) {
	f := strings.Fields(s)
	if len(f) < 2 {
		return pts, false, nil
	}
	for k := range 2 {
		x, err := strconv.ParseFloat(f[k], 64)
		if err != nil {
			return pts, false, inputErr("320 %q: want the match and game points of a team's pairing-allocated bye", s)
		}
		if pts[k], err = PointsOf(x); err != nil {
			return pts, false, err
		}
	}
	return pts, true, nil
}
