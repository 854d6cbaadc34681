package rules

import "fmt"

// Assist is something an assistant may do for a player at a board played
// under the rules for visually disabled players (2018 D.2.10, 2009 E2.9).
// Append only.
type Assist int8

const (
	AssistNone                Assist = iota
	AssistMoveOnOpponentBoard        // D.2.10.1: makes either player's move on the opponent's board
	AssistAnnounceMoves              // D.2.10.2: announces the moves of both players
	AssistKeepScore                  // D.2.10.3: keeps the visually disabled player's scoresheet
	AssistStartClock                 // D.2.10.3: starts the opponent's clock once the player's move is made (D.2.3-D.2.4)
	AssistAnnounceTime               // D.2.10.4: only at the player's request, the completed moves and the time used by both
	AssistClaimFlag                  // D.2.10.5: claims the game when the opponent has exceeded the time limit
	AssistReportTouch                // D.2.10.5: tells the arbiter the sighted player touched one of his pieces
	AssistCallArbiter                // D.2.10.5 with 6.11.2: stops the clock to call the arbiter
	AssistAdjourn                    // D.2.10.6: the formalities of an adjournment (seals the player's move)
)

var assistNames = [...]string{"", "move_on_opponent_board", "announce_moves", "keep_score", "start_clock",
	"announce_time", "claim_flag", "report_touch", "call_arbiter", "adjourn"}

func (a Assist) String() string {
	if a > 0 && int(a) < len(assistNames) {
		return assistNames[a]
	}
	return fmt.Sprintf("Assist(%d)", int8(a))
}

// Duty is one thing an assistant may do, the article that lets him, and
// the clock event it is, if any.
type Duty struct {
	Assist  Assist
	Article string // e.g. "FIDE 2018 Appendix D.2.10.3"
	// Clock is the event the duty is on the clock: KindPress (start the
	// opponent's clock), KindFlagClaim, KindPause (call the arbiter),
	// KindAdjourn (seal); KindInvalid for a duty off the clock.
	Clock Kind
	// OnRequest: only when the player asks for it (D.2.10.4).
	OnRequest bool
}

// duties is the visually disabled player's assistant's list (D.2.10), in
// the text's order.
var duties = []Duty{
	{Assist: AssistMoveOnOpponentBoard},
	{Assist: AssistAnnounceMoves},
	{Assist: AssistKeepScore},
	{Assist: AssistStartClock, Clock: KindPress},
	{Assist: AssistAnnounceTime, OnRequest: true},
	{Assist: AssistClaimFlag, Clock: KindFlagClaim},
	{Assist: AssistReportTouch},
	{Assist: AssistCallArbiter, Clock: KindPause},
	{Assist: AssistAdjourn, Clock: KindAdjourn},
}

// AssistantDuties lists what the assistant of side may do on a board
// configured by cfg, with the articles of its ruleset: everything of
// D.2.10 for a visually disabled player's assistant; making the moves on
// the opponent's board and announcing them (D.2.10.1, D.2.10.2) for a
// sighted player's, who may have one only when the visually disabled
// player has none (D.2.11). Nil when side has no assistant, or the board
// is not played under the appendix.
func AssistantDuties(cfg Config, side Side) []Duty {
	t, err := BlindTextOf(cfg.Ruleset)
	b := cfg.Blind
	if err != nil || !side.Valid() || !b.Applies() || !b.Players[side].Assistant {
		return nil
	}
	var out []Duty
	for _, d := range duties {
		if !b.Players[side].VisuallyDisabled {
			// D.2.11: a sighted player's assistant does D.2.10.1 and D.2.10.2.
			if d.Assist != AssistMoveOnOpponentBoard && d.Assist != AssistAnnounceMoves {
				continue
			}
			d.Article = t.SightedAssistant + ", " + t.Duties[d.Assist]
		} else {
			d.Article = t.Duties[d.Assist]
		}
		out = append(out, d)
	}
	return out
}

// AssistantMay checks a clock event that the assistant of side asks for
// at instant e.T, on the board whose state is s. It returns nil when the
// appendix lets the assistant do it; the event must then still pass
// Apply, which judges it as the player's own (a flag claim with no flag
// fallen is refused there). Otherwise it returns a *Refusal citing the
// article:
//
//   - the board is not played under the appendix, or side has no
//     assistant (RefusedNotApplicable, RefusedNotPermitted);
//   - a sighted player's assistant does nothing on the clock (D.2.11);
//   - a press is the visually disabled player's own, completing his move:
//     the assistant starts the opponent's clock only once the player's
//     move is made (D.2.3-D.2.4, D.2.10.3), never the player's own clock,
//     which the sighted opponent starts himself (D.2.5);
//   - a flag claim is for the player (D.2.10.5);
//   - a pause stops a running clock to call the arbiter (D.2.10.5,
//     6.11.2); only the arbiter restarts it;
//   - an adjournment seals the player's own move (D.2.10.6);
//   - anything else is the arbiter's or the players' (RefusedNotPermitted).
func AssistantMay(s State, side Side, e Event) error {
	t, err := BlindTextOf(s.Config.Ruleset)
	if err != nil {
		return err
	}
	refuse := func(code RefusalCode, rule, reason string) error {
		return &Refusal{Event: e, Code: code, Rule: rule, Reason: reason}
	}
	b := s.Config.Blind
	switch {
	case !side.Valid():
		return refuse(RefusedInvalid, "", fmt.Sprintf("side %d is neither white nor black", side))
	case !b.Applies():
		return refuse(RefusedNotApplicable, t.Adapt, "the board is not played under the rules for visually disabled players")
	case !b.Players[side].Assistant:
		return refuse(RefusedNotPermitted, t.Assistant, side.String()+" has no assistant on this board")
	case !b.Players[side].VisuallyDisabled:
		return refuse(RefusedNotPermitted, t.SightedAssistant,
			"a sighted player's assistant makes and announces the moves; the clock is the players' own")
	}
	now := s
	if e.T >= s.At {
		now = s.Project(e.T)
	}
	if now.Status == Finished || now.Status == Referred {
		return refuse(RefusedGameOver, t.Assistant, "the game has ended")
	}
	switch e.Kind {
	case KindPress:
		switch {
		case e.Side != side:
			return refuse(RefusedNotPermitted, t.SightedRules,
				"the assistant starts the opponent's clock for "+side.String()+" only; "+side.Other().String()+" presses his own clock")
		case now.Status != Running:
			return refuse(RefusedNotRunning, t.StopClock, "the clock is stopped; only the arbiter restarts it")
		case now.ToMove != side:
			return refuse(RefusedNotToMove, t.MoveMade,
				"it is "+now.ToMove.String()+"'s move; the assistant starts the opponent's clock only once "+side.String()+"'s move is made")
		}
		return nil
	case KindFlagClaim:
		if e.Side != side {
			return refuse(RefusedNotPermitted, t.Duties[AssistClaimFlag], "the assistant claims for "+side.String()+" only")
		}
		return nil
	case KindPause:
		if now.Status != Running {
			return refuse(RefusedNotRunning, t.StopClock, "the clock is not running")
		}
		return nil
	case KindAdjourn:
		if now.Status != Running || now.ToMove != side {
			return refuse(RefusedNotToMove, t.Duties[AssistAdjourn],
				"the assistant seals "+side.String()+"'s own move, when he has the move and the arbiter adjourns")
		}
		return nil
	}
	return refuse(RefusedNotPermitted, t.Assistant, fmt.Sprintf(
		"an assistant may start the opponent's clock once the player's move is made, claim a flag, stop the clock to call the arbiter, or seal a move at an adjournment; %s is not among them", e.Kind))
}

// MayAnnounce checks an announcement of the completed moves and the time
// used by both players to side's player on a board configured by cfg
// (2018 D.2.6.1: the clock made for the visually disabled player announces
// them to him; D.2.10.4: his assistant tells them, only when he asks). It
// returns nil, or a *Refusal naming the article: the player is not visually
// disabled (RefusedNotApplicable); asked through an assistant
// (byAssistant), the player has no assistant (RefusedNotPermitted). Who
// asks for whom (an assistant for his own player only) is the caller's to
// check.
func MayAnnounce(cfg Config, side Side, byAssistant bool) error {
	t, err := BlindTextOf(cfg.Ruleset)
	if err != nil {
		return err
	}
	refuse := func(code RefusalCode, rule, reason string) error {
		return &Refusal{What: "announcement", Code: code, Rule: rule, Reason: reason}
	}
	if !side.Valid() {
		return refuse(RefusedInvalid, "", fmt.Sprintf("side %d is neither white nor black", side))
	}
	if !cfg.Blind.Players[side].VisuallyDisabled {
		return refuse(RefusedNotApplicable, t.Clock, side.String()+" is not marked visually disabled; the clock announces to a visually disabled player")
	}
	if !byAssistant {
		return nil
	}
	for _, d := range AssistantDuties(cfg, side) {
		if d.Assist == AssistAnnounceTime {
			return nil
		}
	}
	return refuse(RefusedNotPermitted, t.Duties[AssistAnnounceTime], side.String()+" has no assistant on this board to tell him the moves and the time used")
}
