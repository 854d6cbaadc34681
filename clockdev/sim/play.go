package sim

import (
	"context"
	"time"

	hallv1 "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
)

// clockFace is a board's clock as the players and the arbiter reach it:
// the clock device on the table, a server-hosted virtual clock (through
// the arbiter's console), or, for Rehearse, the rules alone.
type clockFace interface {
	// state returns what the clock shows now.
	state(ctx context.Context) (view, error)
	// press records side's press, with the e-board's move and position.
	press(ctx context.Context, side rules.Side, san, fen string) error
	// local records a player's own action on the clock: a pause to claim,
	// a flag claim, a result, the e-board's position.
	local(ctx context.Context, e rules.Event) error
	// arbiter carries out an arbiter's action and reports whether it was
	// applied.
	arbiter(ctx context.Context, a *hallv1.ClockAction, reason string) bool
	// pause lets d of game time pass (an adjournment).
	pause(ctx context.Context, d time.Duration)
	// announce is side's player pressing the clock's announce button: a
	// talking clock says the moves and the time used (FIDE 2018 D.2.6.1).
	announce(ctx context.Context, side rules.Side) error
}

// turnKey identifies a turn: when it changes, the side to move plans again.
type turnKey struct {
	valid   bool
	status  rules.Status
	side    rules.Side
	moves   [2]int
	illegal [2]int
	flagged [2]bool
}

func keyOf(v view) turnKey {
	return turnKey{valid: true, status: v.Status, side: v.ToMove, moves: v.Moves, illegal: v.Illegal, flagged: v.Flagged}
}

// Counts of what happened in turns, for the summary.
type turnStats interface {
	counted(what string)
}

// Names of counted events.
const (
	countPress     = "press"
	countIllegal   = "illegal"
	countClaim     = "claim"
	countAdjourn   = "adjourn"
	countFlagClaim = "flag_claim"
	countAnnounce  = "announce"
)

// side's opponent claims the flag that fell (insufficient supervision:
// a flag counts when claimed).
func (g *game) claimFlag(ctx context.Context, c clockFace, v view, st turnStats) {
	claimant := v.ToMove.Other()
	if !v.Flagged[v.ToMove] {
		claimant = v.ToMove
	}
	if c.local(ctx, rules.Event{Kind: rules.KindFlagClaim, Side: claimant}) == nil {
		st.counted(countFlagClaim)
	}
}

// turn carries out plan p of the side to move in v.
func (g *game) turn(ctx context.Context, c clockFace, v view, p turnPlan, st turnStats) {
	s := v.ToMove
	if p.ask && c.announce(ctx, s) == nil {
		// D.2.10.4: the player asks for the moves and the time used.
		st.counted(countAnnounce)
	}
	switch {
	case p.claim:
		// III.4/III.5 (10.2): the player stops the clocks and calls the
		// arbiter, who decides, then restarts them.
		g.claimed[s] = true
		if c.local(ctx, rules.Event{Kind: rules.KindPause}) != nil {
			return
		}
		st.counted(countClaim)
		r := g.decideClaim()
		a := &hallv1.ClockAction{Kind: r.kind, Side: wireSide(s), Decision: r.decision}
		if c.arbiter(ctx, a, "quickplay finish: "+s.String()+" claims with less than two minutes") &&
			r.kind == hallv1.ActionKind_ACTION_KIND_QUICKPLAY_INCREMENT {
			g.qpBonus = 5_000
		}
		if v, err := c.state(ctx); err == nil && v.Status == rules.Paused {
			c.arbiter(ctx, &hallv1.ClockAction{Kind: hallv1.ActionKind_ACTION_KIND_RESUME}, "the claim is decided")
		}
		return
	case p.illegal:
		if c.press(ctx, s, "", "") != nil {
			return
		}
		st.counted(countPress)
		a := &hallv1.ClockAction{Kind: hallv1.ActionKind_ACTION_KIND_ILLEGAL_MOVE, Side: wireSide(s)}
		if c.arbiter(ctx, a, "illegal move by "+s.String()) {
			st.counted(countIllegal)
		} else if g.eb != nil {
			// The move stands; the e-board shows the position: keep in step.
			if v, err := c.state(ctx); err == nil && v.Status != rules.Finished && g.eb.turn() == s {
				if mv, _, fen := g.eb.pick(g.rng); mv != nil {
					g.eb.play(mv)
					c.local(ctx, rules.Event{Kind: rules.KindPosition, FEN: fen})
				}
			}
		}
		return
	}
	if c.press(ctx, s, p.san, p.fen) != nil {
		return // the game ended meanwhile (a flag), or the clock is not running
	}
	st.counted(countPress)
	if g.eb != nil && p.move != nil {
		g.eb.play(p.move)
	}
	after, err := c.state(ctx)
	if err != nil || after.Status != rules.Running {
		return
	}
	if res, term, ok := g.ending(after); ok {
		c.local(ctx, rules.Event{Kind: rules.KindResult, Result: res, Termination: term})
		return
	}
	if n := g.spec.AdjournAfter; n > 0 && !g.adjourned && after.Moves[rules.White] >= n {
		g.adjourned = true
		a := &hallv1.ClockAction{Kind: hallv1.ActionKind_ACTION_KIND_ADJOURN}
		if c.arbiter(ctx, a, "end of the session") {
			st.counted(countAdjourn)
			g.adjournment(ctx, c)
		}
	}
}

// adjournment seals a move, lets the adjournment pass and resumes the
// game: the sealed move is completed (and, on an e-board, played and
// reported as the new position).
func (g *game) adjournment(ctx context.Context, c clockFace) {
	g.seal()
	c.pause(ctx, g.spec.AdjournFor)
	if ctx.Err() != nil {
		return
	}
	if !c.arbiter(ctx, &hallv1.ClockAction{Kind: hallv1.ActionKind_ACTION_KIND_RESUME}, "the adjourned game resumes") {
		return
	}
	if g.eb != nil && g.sealed != nil {
		g.eb.play(g.sealed)
		c.local(ctx, rules.Event{Kind: rules.KindPosition, FEN: g.eb.fen()})
	}
	g.sealed = nil
}

// resume restarts a clock its players stopped to claim, found paused (a
// claim cut short by a restart of the fleet): never a person's pause
// (stopped.go).
func (g *game) resume(ctx context.Context, c clockFace) {
	c.arbiter(ctx, &hallv1.ClockAction{Kind: hallv1.ActionKind_ACTION_KIND_RESUME}, "the players' claim was cut short")
}

// inStep reports whether the e-board agrees with the clock: the same
// side to move and, when the clock knows one, the same position.
func (g *game) inStep(v view) bool {
	return g.eb == nil || g.eb.turn() == v.ToMove && (v.FEN == "" || v.FEN == g.eb.fen())
}

func wireSide(s rules.Side) hallv1.Side {
	if s == rules.Black {
		return hallv1.Side_SIDE_BLACK
	}
	return hallv1.Side_SIDE_WHITE
}
