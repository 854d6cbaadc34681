package standings

import (
	"fmt"
	"slices"
)

// Team is a team of a team event, with its matches from round 1.
type Team struct {
	Start  int
	Name   string
	Rounds []Match
}

// Match is one round of a team: the opposing team (0 for a bye), the
// colour of its first board, the game points its boards scored, and the
// result — Win, Draw or Loss as the game points decide (checked against
// the opponent's), a forfeit, a bye, or Pending.
type Match struct {
	Opponent   int
	Colour     Colour
	GamePoints Points
	Result     Result
}

// TeamTournament is a team event: its teams, the number of boards, and
// how matches and games score.
type TeamTournament struct {
	Teams  []Team
	Boards int
	// MatchScoring scores matches in match points; zero: 2-1-0.
	MatchScoring Scoring
	// GameScoring scores one board's game; zero: 1-½-0. A match drawn
	// scores Boards times its draw in game points (for the rounds a
	// withdrawn team's opponents count as drawn, art. 16.3.2).
	GameScoring Scoring
	// Primary is the score the standings rank by: "MP" (the default) or
	// "GP".
	Primary    string
	RoundRobin bool
	// Rounds is the number of rounds of the event (FB's last round, art.
	// 8.3); 0: the longest team's rounds.
	Rounds int
}

// MatchPoints210 is the usual match scoring of team events: 2, 1, 0.
var MatchPoints210 = ScoringOf(200, 100, 0)

// ComputeTeams returns a team event's standings after round `after` (0:
// every round). Points are the primary score (match points unless
// Primary is "GP"); each tie-break is computed on the score it names
// ("BH:GP") or the primary one; MPTS and GPTS are the match and game
// points as tie-breaks (the secondary score); SB multiplies each
// opponent's score by the same kind of score made against him, as
// TieBreakServer does, and the extended SB names both: EMGSB the
// opponents' match points by the game points made against them (the
// Olympiads'), EGMSB the other way, EMMSB and EGGSB as SB:MP and SB:GP.
// Matches won (WIN, WON, BPG, BWG, GE) count on match points.
func ComputeTeams(tt TeamTournament, after int, tbs []TieBreak) (*Table, error) {
	ms, gs := tt.MatchScoring, tt.GameScoring
	if ms == (Scoring{}) {
		ms = MatchPoints210
	}
	if gs == (Scoring{}) {
		gs = Classic
	}
	if tt.Boards < 1 {
		return nil, inputErr("a team event needs its number of boards: got %d, want 1 or more", tt.Boards)
	}
	b := Points(tt.Boards)
	gpSc := Scoring{Win: gs.Win * b, Draw: gs.Draw * b, Loss: gs.Loss * b, ForfeitWin: gs.ForfeitWin * b, ForfeitLoss: gs.ForfeitLoss * b,
		FullBye: gs.FullBye * b, HalfBye: gs.HalfBye * b, ZeroBye: gs.ZeroBye * b, PairingBye: gs.PairingBye * b}
	mt := Tournament{Scoring: ms, RoundRobin: tt.RoundRobin, Rounds: tt.Rounds}
	gt := Tournament{Scoring: gpSc, RoundRobin: tt.RoundRobin, Rounds: tt.Rounds}
	gpOf := map[int][]Points{}
	for _, team := range tt.Teams {
		p := Player{Start: team.Start, Name: team.Name}
		for _, m := range team.Rounds {
			p.Rounds = append(p.Rounds, Round{Opponent: m.Opponent, Colour: m.Colour, Result: m.Result})
			gpOf[team.Start] = append(gpOf[team.Start], m.GamePoints)
		}
		mt.Players = append(mt.Players, p)
		gt.Players = append(gt.Players, p)
	}
	ms1, err := newState(&mt, after)
	if err != nil {
		return nil, err
	}
	gs1, err := newState(&gt, after)
	if err != nil {
		return nil, err
	}
	// The game points are what the boards scored, not what the match
	// result would score.
	for i, team := range tt.Teams {
		gs1.total[i], gs1.adj[i] = 0, 0
		for r := 1; r <= gs1.n; r++ {
			var g Points
			if r <= len(gpOf[team.Start]) {
				g = gpOf[team.Start][r-1]
			}
			rd := gs1.round[i][r-1]
			if rd.Result.Played() {
				j := gs1.idx[rd.Opponent]
				var og Points
				if r <= len(tt.Teams[j].Rounds) {
					og = tt.Teams[j].Rounds[r-1].GamePoints
				}
				want := Draw
				if g > og {
					want = Win
				} else if g < og {
					want = Loss
				}
				if rd.Result != want {
					return nil, &InputError{Player: team.Start, Round: r, Msg: fmt.Sprintf("a %s with %s game points against %s", rd.Result, g, og)}
				}
			}
			if rd.Result == Pending {
				g = 0
			}
			gs1.pts[i][r-1] = g
			gs1.total[i] += g
		}
	}
	gs1.adjust()
	primary := ms1
	if tt.Primary == "GP" {
		primary = gs1
	} else if tt.Primary != "" && tt.Primary != "MP" {
		return nil, inputErr("primary score %q: want MP (match points) or GP (game points)", tt.Primary)
	}
	// The extended SB multiplies one score's opponents by the other
	// score's results: the state of the first, with the second's points.
	ext := func(opp, res *state) *state {
		x := *opp
		x.sb = res.pts
		return &x
	}
	of := func(tb TieBreak) *state {
		switch {
		case tb.Name == "EMMSB":
			return ms1
		case tb.Name == "EGGSB":
			return gs1
		case tb.Name == "EMGSB":
			return ext(ms1, gs1)
		case tb.Name == "EGMSB":
			return ext(gs1, ms1)
		case tb.Name == "MPTS" || tb.Points == "MP":
			return ms1
		case tb.Name == "GPTS" || tb.Points == "GP":
			return gs1
		case tb.Points == "" && slices.Contains([]string{"WIN", "WON", "BPG", "BWG", "GE"}, tb.Name):
			// matches won (art. 7) are won on match points, whatever
			// the event ranks by
			return ms1
		}
		return primary
	}
	return primary.table(tbs, of), nil
}
