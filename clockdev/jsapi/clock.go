package jsapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/chesshall/hallclock/clockdev"
	"github.com/chesshall/hallclock/rules"
	"github.com/chesshall/hallclock/rules/conformance"
)

// Setup is a board's configuration as a vector gives it (spec/conformance.md):
// time control, ruleset, regulations and play with visually disabled players.
type Setup struct {
	TimeControl string                   `json:"time_control"`
	Ruleset     string                   `json:"ruleset"`
	Regulations *conformance.Regulations `json:"regulations,omitempty"`
	BlindPlay   *conformance.BlindPlay   `json:"blind_play,omitempty"`
}

// Clock is one board's local clock: its state and the actions it recorded.
type Clock struct {
	st   rules.State
	hist []Recorded
}

// Recorded is an action the clock recorded (what the device would send).
type Recorded struct {
	T    int64  `json:"t"`
	Do   string `json:"do"`
	Side string `json:"side,omitempty"`
}

// View is what a face shows: the state projected to an instant.
type View struct {
	At          int64      `json:"at"`
	WhiteMs     int64      `json:"white_ms"`
	BlackMs     int64      `json:"black_ms"`
	Running     string     `json:"running"` // white, black or none
	ToMove      string     `json:"to_move"`
	Status      string     `json:"status"`
	Flag        string     `json:"flag"` // the first flag fallen, or none
	Result      string     `json:"result,omitempty"`
	Termination string     `json:"termination,omitempty"`
	WhiteMoves  int        `json:"white_moves"`
	BlackMoves  int        `json:"black_moves"`
	WhitePeriod int        `json:"white_period"` // from 1
	BlackPeriod int        `json:"black_period"`
	Deadline    *int64     `json:"next_deadline,omitempty"` // board time of the next flag or period change
	History     int        `json:"history"`                 // actions recorded so far
	Recorded    []Recorded `json:"recorded,omitempty"`      // recorded by this call, in order
}

// NewClock starts a board from its setup in JSON.
func NewClock(setup string) (*Clock, error) {
	var s Setup
	dec := json.NewDecoder(bytes.NewReader([]byte(setup)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return nil, fmt.Errorf("clock setup: %w (want time_control, ruleset, regulations, blind_play)", err)
	}
	v := conformance.Vector{TimeControl: s.TimeControl, Ruleset: s.Ruleset, Regulations: s.Regulations, BlindPlay: s.BlindPlay}
	cfg, err := v.Config()
	if err != nil {
		return nil, err
	}
	st, err := rules.NewState(cfg)
	if err != nil {
		return nil, err
	}
	return &Clock{st: st}, nil
}

// Press is a player's press of side's button at board time t.
func (c *Clock) Press(side string, t int64) (View, error) {
	s, err := rules.ParseSide(side)
	if err != nil {
		return c.View(t), err
	}
	return c.apply(rules.Event{Kind: rules.KindPress, Side: s, T: t})
}

// Do applies an action given as a vector's step ({"t": 1000, "do":
// "pause"}); without "by": "players", a result is the arbiter's, as an
// arbiter command reaching the clock is.
func (c *Clock) Do(step string) (View, error) {
	var s conformance.Step
	dec := json.NewDecoder(bytes.NewReader([]byte(step)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return c.View(c.st.At), fmt.Errorf("action: %w", err)
	}
	e, err := s.Event()
	if err != nil {
		return c.View(s.T), err
	}
	return c.apply(e)
}

// View projects the state to board time t (at least the last action's).
func (c *Clock) View(t int64) View {
	return viewOf(c.st.Project(max(t, c.st.At)), c.st, len(c.hist))
}

// viewOf is the display of st, the state of the last action projected;
// its next deadline is last's.
func viewOf(st, last rules.State, history int) View {
	w, b := &st.P[rules.White], &st.P[rules.Black]
	v := View{At: st.At, WhiteMs: w.MainMs, BlackMs: b.MainMs, Running: "none", ToMove: st.ToMove.String(),
		Status: st.Status.String(), Flag: "none", Result: string(st.Result), Termination: string(st.Termination),
		WhiteMoves: w.Moves, BlackMoves: b.Moves, WhitePeriod: w.Period + 1, BlackPeriod: b.Period + 1, History: history}
	if side, ok := st.Running(); ok {
		v.Running = side.String()
	}
	if st.HasFlag {
		v.Flag = st.FirstFlag.String()
	}
	if dl, ok := last.NextDeadline(); ok {
		v.Deadline = &dl
	}
	return v
}

// apply records the deadlines due by e's instant, then e.
func (c *Clock) apply(e rules.Event) (View, error) {
	if e.T < c.st.At {
		return c.View(c.st.At), fmt.Errorf("action at %d ms: the board's time line is at %d ms and never goes back", e.T, c.st.At)
	}
	n0 := len(c.hist)
	c.catchUp(e.T)
	before := c.st.Project(e.T)
	next, err := rules.Apply(c.st, e)
	if err == nil && !(e.Kind == rules.KindPress && before.Status == rules.Running && before.ToMove != e.Side) {
		c.st = next
		c.record(e)
	}
	v := c.View(e.T)
	v.Recorded = append([]Recorded(nil), c.hist[n0:]...)
	return v, err
}

// catchUp records every deadline due by t as the device library does
// (clockdev.CatchUp).
func (c *Clock) catchUp(t int64) {
	c.st = clockdev.CatchUp(c.st, t, func(e rules.Event, _ rules.State) bool {
		c.record(e)
		return true
	})
}

func (c *Clock) record(e rules.Event) {
	r := Recorded{T: e.T, Do: e.Kind.String()}
	if e.Kind == rules.KindPress || e.Kind == rules.KindFlag {
		r.Side = e.Side.String()
	}
	c.hist = append(c.hist, r)
}

// Answer is the JSON a binding returns for a call: the view, or the error
// and whether the rules refused the action (a typed refusal, not a fault).
func Answer(v View, err error) string {
	out := struct {
		View    *View  `json:"view,omitempty"`
		Error   string `json:"error,omitempty"`
		Refused bool   `json:"refused,omitempty"`
	}{View: &v}
	if err != nil {
		out.Error = err.Error()
		out.Refused = errors.Is(err, rules.ErrRefused) || errors.Is(err, rules.ErrInvalid)
	}
	b, _ := json.Marshal(out)
	return string(b)
}
