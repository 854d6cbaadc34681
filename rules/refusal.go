package rules

import (
	"errors"
	"fmt"
)

// RefusalCode classifies why the rules refused an action. Append only.
type RefusalCode int8

const (
	RefusedOther         RefusalCode = iota
	RefusedGameOver                  // the game has ended; only the arbiter may change the result
	RefusedNotStarted                // the clock has not been started
	RefusedStarted                   // the clock was started already
	RefusedNotRunning                // the clock is not running (paused, adjourned)
	RefusedRunning                   // the clock must be stopped first (6.10.2)
	RefusedNotPaused                 // resume of a clock that is not paused or adjourned
	RefusedNotToMove                 // the player does not have the move
	RefusedAbsent                    // the player is not at the board
	RefusedPresent                   // the player is already at the board
	RefusedNoFlag                    // the opponent's flag has not fallen
	RefusedOwnFlag                   // the claimant's own flag has fallen too (2009 A4, 2005 B)
	RefusedMoveStands                // the illegal move can no longer be ruled: the opponent has moved since
	RefusedNotApplicable             // the rule does not apply to this game (ruleset, game type, time control, regulations)
	RefusedTimeLimit                 // too much time left for the claim (two minutes, III.4/III.5/10.2)
	RefusedTimeBackwards             // the event's time is before the board's last event
	RefusedNegativeTime              // the change would leave a negative remaining time
	RefusedSettingLocked             // the clock setting can no longer be changed (A.5.1.1 / A4(a))
	RefusedInvalid                   // the event itself is malformed (bad side, bad FEN, ...)
	RefusedNotPermitted              // the Laws do not let this person do it (an assistant beyond 2018 D.2.10, D.2.11)
)

// ErrRefused matches every *Refusal with errors.Is.
var ErrRefused = errors.New("refused by the rules")

// Refusal is the typed answer of Apply when the Laws (or the state of the
// board) forbid an action. It names the article that forbids it. A refused
// action changes nothing.
type Refusal struct {
	Event  Event       // the refused event
	Code   RefusalCode // why, for programs
	Rule   string      // the article, e.g. "FIDE 2023 Art. 6.10.2"
	Reason string      // why, for people: what was wrong and what is allowed
	// What names what was refused when it is no clock event (Event is
	// then zero): "announcement".
	What string
}

func (r *Refusal) Error() string {
	what := r.Event.Kind.String()
	if r.What != "" {
		what = r.What
	}
	msg := fmt.Sprintf("%s refused: %s", what, r.Reason)
	if r.Rule != "" {
		msg += " (" + r.Rule + ")"
	}
	return msg
}

// Is makes errors.Is(err, ErrRefused) true.
func (r *Refusal) Is(target error) bool { return target == ErrRefused }

// RefusalOf returns the *Refusal in err's chain, or nil.
func RefusalOf(err error) *Refusal {
	var r *Refusal
	if errors.As(err, &r) {
		return r
	}
	return nil
}
