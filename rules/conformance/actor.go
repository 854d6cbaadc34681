package conformance

import (
	"errors"
	"fmt"

	"github.com/chesshall/hallclock/rules"
)

// announce is the step that tells a visually disabled player the
// completed moves and the time used by both (2018 D.2.6.1, D.2.10.4): no
// clock event, only a permission to check.
const announce = "announce"

// players lists the actions the players at the board take themselves;
// the others are the arbiter's (his rulings, settings and results) or the
// clock's own reports. The hall enforces the same split at its door by
// role; a vector's actor checks it here.
var players = map[rules.Kind]bool{
	rules.KindStart: true, rules.KindArrive: true, rules.KindPress: true, rules.KindPause: true,
	rules.KindAdjourn: true, rules.KindFlagClaim: true, rules.KindResult: true,
}

// permitted checks that the step's actor may take e on the board st: the
// players their own actions, an assistant what the appendix lets him
// (rules.AssistantMay, for the player named by the step's side), the
// arbiter anything. It returns st and nil when he may; the rules then
// judge e itself.
func (s *Step) permitted(st rules.State, e rules.Event) (rules.State, error) {
	switch s.Actor {
	case "", "arbiter":
		return st, nil
	case "player":
		if !players[e.Kind] || e.Kind == rules.KindResult && e.ByArbiter {
			what := e.Kind.String()
			if e.Kind == rules.KindResult {
				what = "a result recorded by the arbiter (by: players for the players' own)"
			}
			return st, &rules.Refusal{Event: e, Code: rules.RefusedNotPermitted,
				Reason: what + " is the arbiter's; the players start and press the clock, pause it to call him, seal, claim a flag and agree a result"}
		}
		return st, nil
	case "assistant":
		side, err := s.assisted()
		if err != nil {
			return st, err
		}
		return st, rules.AssistantMay(st, side, e)
	}
	return st, fmt.Errorf("actor %q: want player, assistant or arbiter", s.Actor)
}

// announce checks the announcement step against the rules
// (rules.MayAnnounce): by the player's clock (actor player or absent) or
// by his assistant (actor assistant). It returns an error when the result
// is not the step's refused.
func (s *Step) announce(st rules.State) error {
	side, err := rules.ParseSide(s.Side)
	if err != nil {
		return fmt.Errorf("announce: side names the player told: %w", err)
	}
	var byAssistant bool
	of := side
	switch s.Actor {
	case "", "player", "arbiter":
	case "assistant":
		byAssistant = true
		if of, err = s.assisted(); err != nil {
			return err
		}
	default:
		return fmt.Errorf("actor %q: want player, assistant or arbiter", s.Actor)
	}
	if of != side {
		// The hall's door: an assistant's token names his own player.
		err = &rules.Refusal{What: "announcement", Code: rules.RefusedNotPermitted,
			Reason: fmt.Sprintf("an assistant tells his own player (%s) the moves and the time used, not %s", of, side)}
	} else {
		err = rules.MayAnnounce(st.Config, side, byAssistant)
	}
	switch {
	case s.Refused && err == nil:
		return errors.New("accepted, want refused")
	case !s.Refused && err != nil:
		return errors.New("refused, want accepted: " + err.Error())
	case s.Refused && !errors.Is(err, rules.ErrRefused):
		return errors.New("failed without a typed refusal: " + err.Error())
	}
	return nil
}

// assisted returns the player an assistant's step acts for: assists, or
// the step's side.
func (s *Step) assisted() (rules.Side, error) {
	of := s.Assists
	if of == "" {
		of = s.Side
	}
	side, err := rules.ParseSide(of)
	if err != nil {
		return side, fmt.Errorf("actor assistant: assists (or side) names the player he assists: %w", err)
	}
	return side, nil
}
