package sim

import (
	"hash/fnv"
	"math"
	"math/rand/v2"
	"time"

	"github.com/corentings/chess/v2"

	hallv1 "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
)

// This file holds the players: every decision of a game (think times,
// moves, claims, illegal moves, endings) drawn from one generator seeded
// by the fleet's seed and the game's place in the hall (tournament, round,
// board), so a game's decisions do not depend on the other games.

// view is what the players and the arbiter see on a board's clock.
type view struct {
	Status       rules.Status
	ToMove       rules.Side
	Left         [2]int64 // usable time: main time plus the delay left on the move, ms
	Moves        [2]int
	Period       [2]int // 0-based
	Illegal      [2]int
	Flagged      [2]bool // the side's flag has fallen
	HasFlag      bool
	HasLastMover bool
	LastMover    rules.Side
	FEN          string
	Result       rules.Result
	Termination  rules.Termination
}

func viewOf(st rules.State) view {
	v := view{Status: st.Status, ToMove: st.ToMove, HasFlag: st.HasFlag, HasLastMover: st.HasLastMover,
		LastMover: st.LastMover, FEN: st.FEN, Result: st.Result, Termination: st.Termination}
	for s := range st.P {
		p := st.P[s]
		v.Left[s] = p.MainMs
		if rules.Side(s) == st.ToMove {
			v.Left[s] += p.DelayLeftMs
		}
		v.Moves[s], v.Period[s], v.Illegal[s] = p.Moves, p.Period, p.Illegal
		v.Flagged[s] = p.FlagAt != rules.NoFlag
	}
	return v
}

func viewOfWire(b *hallv1.BoardState) view {
	v := view{Status: rules.Status(b.GetStatus()), ToMove: rules.White, HasFlag: b.GetFirstFlag() != hallv1.Side_SIDE_UNSPECIFIED,
		FEN: b.GetFen(), Result: rules.Result(b.GetResult()), Termination: rules.Termination(b.GetTermination())}
	if b.GetToMove() == hallv1.Side_SIDE_BLACK {
		v.ToMove = rules.Black
	}
	for s, p := range []*hallv1.PlayerClock{b.GetWhite(), b.GetBlack()} {
		v.Left[s] = p.GetRemainingMs()
		if rules.Side(s) == v.ToMove {
			v.Left[s] += p.GetDelayLeftMs()
		}
		v.Moves[s], v.Period[s], v.Illegal[s] = int(p.GetMoves()), max(int(p.GetPeriod())-1, 0), int(p.GetIllegalMoves())
		v.Flagged[s] = p.FlagAtMs != nil
	}
	return v
}

// trait is how a player uses the clock.
type trait struct {
	pace   float64 // multiplies think times
	nerves float64 // chance, per move in time trouble, of thinking past the flag
}

// game is one game's players and their decisions.
type game struct {
	spec  *checked
	rng   *rand.Rand
	p     [2]trait
	blind rules.BlindPlay // the board's play under the rules for visually disabled players

	// A clock-only game (no e-board) ends when White has made endAt moves,
	// with endResult (a resignation or an agreed draw).
	endAt     int
	endResult rules.Result
	endTerm   rules.Termination

	eb      *eboard     // e-board mode
	sealed  *chess.Move // e-board: the move sealed at an adjournment
	claimed [2]bool
	qpBonus int64 // III.4: five seconds a move, once granted
	// adjourned is set once the game was adjourned (one adjournment a game).
	adjourned bool
}

// gameSeed derives a game's generator from the fleet's seed and the game's
// place in the hall.
func gameSeed(seed int64, tournament string, round, board int) (uint64, uint64) {
	h := fnv.New64a()
	h.Write([]byte(tournament))
	return uint64(seed), h.Sum64() ^ uint64(round)<<32 ^ uint64(board)
}

// newGame draws the players of a game. In e-board mode the board starts
// from the initial position, or the position the clock's history reached
// (a game picked up after a restart).
func newGame(spec *checked, seed int64, round, board int, history []*hallv1.ClockAction) (*game, error) {
	s1, s2 := gameSeed(seed, spec.Tournament, round, board)
	g := &game{spec: spec, rng: rand.New(rand.NewPCG(s1, s2)), blind: spec.boardBlind(board)}
	for i := range g.p {
		g.p[i] = trait{
			pace:   math.Exp(0.3 * g.rng.NormFloat64()),
			nerves: 0.002 + 0.03*g.rng.Float64()*g.rng.Float64(),
		}
	}
	// The length of a game (moves by White) and how it ends, for games
	// without an e-board: resignations and agreed draws, as in a real round.
	g.endAt = 18 + int(math.Exp(math.Log(24)+0.45*g.rng.NormFloat64()))
	drawShare := 0.34
	switch spec.category {
	case rules.Blitz:
		drawShare = 0.22
	case rules.Rapid:
		drawShare = 0.28
	}
	switch u := g.rng.Float64(); {
	case u < drawShare:
		g.endResult, g.endTerm = rules.Draw, rules.TermAgreement
	case u < drawShare+(1-drawShare)*0.55:
		g.endResult, g.endTerm = rules.WhiteWins, rules.TermNormal
	default:
		g.endResult, g.endTerm = rules.BlackWins, rules.TermNormal
	}
	if spec.EBoard {
		g.eb = newEBoard()
		if len(history) > 0 {
			eb, err := replayEBoard(history)
			if err != nil {
				g.eb = nil
				return g, err // play on without the e-board
			}
			g.eb = eb
		}
	}
	return g, nil
}

// Thresholds of the players' decisions.
const (
	minThinkMs      = 400     // a move takes a hand at least this long
	quickplayLimit  = 120_000 // III.4, III.5, 10.2: "less than two minutes"
	resignDeficit   = 10      // e-board: material (pawns) down at which a player may resign
	resignChance    = 0.15    // per move, when that far down, after move 20
	agreementChance = 0.012   // e-board: per move after move 20 in a balanced position
)

// turnPlan is what the side to move will do, decided when its turn begins.
type turnPlan struct {
	think   time.Duration // game time until the press (or the claim)
	claim   bool          // claim under III.4/III.5 (10.2) instead of moving
	ask     bool          // a visually disabled player asks his clock for the moves and the time used first
	illegal bool          // complete an illegal move
	move    *chess.Move   // e-board: the move, with its SAN and the FEN after it
	san     string
	fen     string
}

// plan decides the turn of the side to move in v.
func (g *game) plan(v view) turnPlan {
	s := v.ToMove
	p := turnPlan{think: g.think(v)}
	if g.blind.Players[s].VisuallyDisabled && g.spec.Announcements > 0 {
		p.ask = g.rng.Float64() < g.spec.Announcements
	}
	left := v.Left[s] - p.think.Milliseconds()
	if g.mayClaim(v) && left > 0 && left < quickplayLimit && !g.claimed[s] {
		p.claim = g.rng.Float64() < g.spec.QuickplayClaims
		if p.claim {
			return p
		}
	}
	if g.spec.IllegalMoves > 0 && v.Illegal[s] < g.spec.prof.IllegalMovesToLose && g.rng.Float64() < g.spec.IllegalMoves {
		p.illegal = true
		return p
	}
	if g.eb != nil {
		p.move, p.san, p.fen = g.eb.pick(g.rng)
	}
	return p
}

// think draws how long the side to move takes: a budget of the time left
// over the moves expected before the next control (or the end of a sudden
// death), plus most of the increment; quick in the opening, slow in the
// middlegame, lognormal around that; hurried in time trouble, where a
// nervous player sometimes thinks past the flag.
func (g *game) think(v view) time.Duration {
	s := v.ToMove
	tc := g.spec.cfg.TimeControl.For(s) // time odds: the side's own control
	pi := min(max(v.Period[s], 0), len(tc.Periods)-1)
	per := tc.Periods[pi]
	left := float64(v.Left[s])
	inc := float64(g.qpBonus)
	if per.Bonus != rules.NoBonus {
		inc += float64(per.BonusMs)
	}
	moves := v.Moves[s]
	togo := 0
	if per.Moves > 0 && !tc.Hourglass {
		togo = max(tc.MovesBefore(pi)+per.Moves-moves, 1)
	} else {
		togo = max(12, 45-moves*3/5)
	}
	budget := left/float64(togo) + 0.85*inc
	phase := 1.0
	switch {
	case moves < 6:
		phase = 0.15 // the opening is prepared
	case moves < 12:
		phase = 0.55
	case moves < 35:
		phase = 1.3 // the middlegame takes time
	}
	const sigma = 0.7
	x := budget * phase * g.p[s].pace * math.Exp(sigma*g.rng.NormFloat64()-sigma*sigma/2)
	trouble := left < math.Max(20_000, 0.1*float64(tc.Periods[0].BaseMs))+5*inc
	if trouble {
		x = math.Min(x, left/float64(togo+5)+0.6*inc)
		nerves := g.p[s].nerves
		if inc > 0 {
			nerves /= 4 // an increment forgives
		}
		if g.rng.Float64() < nerves {
			x = left + 200 + 2000*g.rng.Float64() // oversteps
		}
	} else {
		x = math.Min(x, 0.4*left+0.8*inc)
	}
	x = math.Max(x, minThinkMs)
	return time.Duration(x * float64(time.Millisecond))
}

// mayClaim reports whether the game has a quickplay finish in which the
// side to move could claim, as the ruleset's profile says: announced if it
// must be (III.2.1), no increment, not blitz unless supervised blitz
// follows the Competition Rules (2009 B2).
func (g *game) mayClaim(v view) bool {
	cfg, q := g.spec.cfg, g.spec.prof.Quickplay
	tc := cfg.TimeControl.For(v.ToMove)
	if g.spec.QuickplayClaims <= 0 || tc.HasBonus() || cfg.TimeControl.For(v.ToMove.Other()).HasBonus() || tc.Hourglass || g.qpBonus > 0 || v.HasFlag {
		return false
	}
	if g.spec.category == rules.Blitz && !(q.BlitzWhenSupervised && g.spec.supervised) {
		return false
	}
	if q.Announced && !cfg.Regulations.QuickplayFinish {
		return false
	}
	return v.Period[v.ToMove] == len(tc.Periods)-1
}

// ruling is the arbiter's answer to a quickplay-finish claim.
type ruling struct {
	kind     hallv1.ActionKind // QUICKPLAY_INCREMENT or QUICKPLAY_CLAIM
	decision hallv1.QuickplayDecision
}

// decideClaim is the arbiter's decision on a claim: where the ruleset has
// Guidelines III.4, often five seconds a move, else a draw or a rejection.
func (g *game) decideClaim() ruling {
	u := g.rng.Float64()
	switch {
	case g.spec.prof.Quickplay.FiveSecondRequest && u < 0.5:
		return ruling{kind: hallv1.ActionKind_ACTION_KIND_QUICKPLAY_INCREMENT}
	case u < 0.75:
		return ruling{kind: hallv1.ActionKind_ACTION_KIND_QUICKPLAY_CLAIM, decision: hallv1.QuickplayDecision_QUICKPLAY_DECISION_DRAW}
	}
	return ruling{kind: hallv1.ActionKind_ACTION_KIND_QUICKPLAY_CLAIM, decision: hallv1.QuickplayDecision_QUICKPLAY_DECISION_REJECT}
}

// ending says whether the game ends now, after a press that left v: on
// the e-board by checkmate, stalemate or a dead position, by resignation
// or agreement; without one, at the planned length.
func (g *game) ending(v view) (rules.Result, rules.Termination, bool) {
	if g.eb == nil {
		if v.Moves[rules.White] >= g.endAt {
			return g.endResult, g.endTerm, true
		}
		return "", "", false
	}
	if r, ok := g.eb.outcome(); ok {
		return r, rules.TermNormal, true
	}
	mover := v.ToMove.Other()
	diff := g.eb.material(mover) - g.eb.material(v.ToMove)
	if v.Moves[rules.White] >= 20 && diff >= resignDeficit && g.rng.Float64() < resignChance {
		// The opponent, to move, resigns.
		if mover == rules.White {
			return rules.WhiteWins, rules.TermNormal, true
		}
		return rules.BlackWins, rules.TermNormal, true
	}
	if v.Moves[rules.White] >= 20 && diff >= -1 && diff <= 1 && g.rng.Float64() < agreementChance {
		return rules.Draw, rules.TermAgreement, true
	}
	return "", "", false
}

// seal picks the move sealed at an adjournment (e-board).
func (g *game) seal() {
	if g.eb != nil && g.sealed == nil {
		g.sealed, _, _ = g.eb.pick(g.rng)
	}
}
