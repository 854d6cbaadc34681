package sim

import (
	"context"
	"fmt"
	"time"

	"github.com/chesshall/hallclock/clockdev"
	"github.com/chesshall/hallclock/formats/announce"
	"github.com/chesshall/hallclock/internal/wire"
	hallv1 "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
)

// Turn is one decision of a rehearsed game.
type Turn struct {
	Side    rules.Side
	Think   time.Duration // game time the player took
	Kind    rules.Kind    // what the player did: press, pause (to claim), flag_claim, result
	SAN     string        // e-board: the move pressed
	Illegal bool          // an illegal move was completed (and ruled)
	At      int64         // board time of the action, ms
}

// Rehearsal is a game played by Rehearse.
type Rehearsal struct {
	Turns []Turn
	Final rules.State // the board's final state
	// Said is what a talking clock would have said when a visually
	// disabled player asked (RoundSpec.BlindPlay), in order.
	Said []clockdev.Speech
}

// maxPlies bounds a rehearsal (a game that would not end).
const maxPlies = 2000

// Rehearse plays game number board of round number round of spec, with
// the fleet's seed, in simulated time: no server, no device, no clock —
// the same players making the same decisions as in a live run, where the
// clock shows exactly what the decisions made it show. The same arguments
// always give the same game; it shows what a seed does, and how a time
// control plays (think times, flags, claims, endings).
func Rehearse(spec RoundSpec, seed int64, round, board int) (Rehearsal, error) {
	c, err := spec.check()
	if err != nil {
		return Rehearsal{}, err
	}
	g, err := newGame(&c, seed, round, board, nil)
	if err != nil {
		return Rehearsal{}, err
	}
	cfg := c.cfg
	cfg.Blind = c.boardBlind(board)
	st, err := rules.NewState(cfg)
	if err != nil {
		return Rehearsal{}, err
	}
	if st, err = rules.Apply(st, rules.Event{Kind: rules.KindStart}); err != nil {
		return Rehearsal{}, err
	}
	m := &memFace{st: st}
	ctx := context.Background()
	var (
		key  turnKey
		plan turnPlan
		due  int64
	)
	for plies := 0; plies < maxPlies && !m.st.Over(); plies++ {
		v := viewOf(m.st)
		switch v.Status {
		case rules.Paused:
			g.resume(ctx, m)
			continue
		case rules.Adjourned:
			g.adjournment(ctx, m)
			continue
		}
		if v.HasFlag {
			g.claimFlag(ctx, m, v, m)
			if !m.st.Over() {
				return Rehearsal{Turns: m.turns, Final: m.st, Said: m.said}, fmt.Errorf("sim: rehearsal: a flag fell and the claim was refused at %d ms", m.now)
			}
			continue
		}
		if k := keyOf(v); k != key {
			key, plan = k, g.plan(v)
			due = m.now + plan.think.Milliseconds()
		}
		// The clock's own deadlines come first: a flag falls (the clock
		// reports it), or the next period is added at the flag.
		if dl, ok := m.st.NextDeadline(); ok && dl <= due {
			m.now = dl
			if n, err := rules.Apply(m.st, rules.Event{Kind: rules.KindFlag, Side: m.st.ToMove, T: dl}); err == nil {
				m.st = n
			} else {
				m.st = m.st.Project(dl)
			}
			continue
		}
		m.now, m.think = due, plan.think
		g.turn(ctx, m, v, plan, m)
		key = turnKey{}
	}
	return Rehearsal{Turns: m.turns, Final: m.st, Said: m.said}, nil
}

// memFace is a clock made of the rules alone, in simulated time.
type memFace struct {
	st    rules.State
	now   int64
	think time.Duration
	turns []Turn
	said  []clockdev.Speech
}

func (m *memFace) state(context.Context) (view, error) { return viewOf(m.st.Project(m.now)), nil }

func (m *memFace) apply(e rules.Event) error {
	e.T = m.now
	n, err := rules.Apply(m.st, e)
	if err != nil {
		return err
	}
	m.st = n
	return nil
}

func (m *memFace) press(_ context.Context, side rules.Side, san, fen string) error {
	if err := m.apply(rules.Event{Kind: rules.KindPress, Side: side, SAN: san, FEN: fen}); err != nil {
		return err
	}
	m.turns = append(m.turns, Turn{Side: side, Think: m.think, Kind: rules.KindPress, SAN: san, At: m.now})
	m.think = 0
	return nil
}

func (m *memFace) local(_ context.Context, e rules.Event) error {
	side := m.st.ToMove
	if err := m.apply(e); err != nil {
		return err
	}
	if e.Kind != rules.KindPosition {
		m.turns = append(m.turns, Turn{Side: side, Think: m.think, Kind: e.Kind, At: m.now})
		m.think = 0
	}
	return nil
}

func (m *memFace) arbiter(_ context.Context, a *hallv1.ClockAction, _ string) bool {
	e, err := wire.Event(a, true)
	if err != nil {
		return false
	}
	if err := m.apply(e); err != nil {
		return false
	}
	if e.Kind == rules.KindIllegalMove && len(m.turns) > 0 {
		m.turns[len(m.turns)-1].Illegal = true
	}
	return true
}

func (m *memFace) pause(_ context.Context, d time.Duration) {
	m.now += d.Milliseconds()
	m.st = m.st.Project(m.now)
}

func (m *memFace) counted(string) {}

// announce says what a talking clock, whose voice speaks every language
// of formats/announce, would say to side now.
func (m *memFace) announce(_ context.Context, side rules.Side) error {
	st := m.st.Project(m.now)
	f := announce.FromState(st)
	a := announce.Say(announce.Choose(st.Config.Blind.Players[side].Language, announce.Languages), f)
	m.said = append(m.said, clockdev.Speech{To: side, Language: a.Language, Text: a.Text, Facts: f, AskedBy: clockdev.AskedByPlayer})
	return nil
}
