package rules

import (
	"fmt"
	"strings"
)

// Kind is what an Event does. Append only: do not reorder (kinds are stored).
type Kind int8

const (
	KindInvalid            Kind = iota
	KindStart                   // the scheduled start: White's clock starts (6.6 2023)
	KindArrive                  // an absent player arrives at the board (6.7)
	KindPress                   // a player presses the clock, completing a move (6.2.1)
	KindPause                   // the clock is paused (6.11.1; a player claiming may pause)
	KindResume                  // the clock is restarted; after an adjournment, the sealed move completes
	KindAdjourn                 // the side to move seals a move and the clock stops (Guidelines I)
	KindFlagClaim               // Side claims that the opponent's flag has fallen (6.8)
	KindIllegalMove             // Side completed an illegal move, seen by the arbiter or validly claimed (7.5)
	KindDrawClaimRejected       // Side's claim under Art. 9 (repetition, 50 moves) was incorrect (9.5.3)
	KindQuickplayIncrement      // III.4: Side's request for 5 s a move was refused by the opponent and the arbiter agreed
	KindQuickplayClaim          // III.5 / 10.2: Side claims a draw with under two minutes; Decision says what the arbiter decided
	KindAddTime                 // the arbiter changes Side's remaining time by Ms (12.9, 6.10.1, external disturbance)
	KindSetClock                // the arbiter installs a correct setting (6.10.2); only while the clock is stopped
	KindPosition                // the current position becomes known (FEN, from an e-board or the arbiter)
	KindResult                  // the game ends with Result (agreement, checkmate, arbiter's decision, ...)
	KindFlag                    // the clock shows a flag fallen by T; refused unless the rules agree (never taken blindly)
	KindIllegalMoveFound        // 7.5.1: Side's earlier move Move is found illegal (e-board history); the position before it is reinstated and the arbiter sets the times
	KindFlagsUnordered          // the clock shows both flags fallen without their order (a defective clock, 6.10.1; III.3, 2009 6.11, 2005 6.11)
	KindDeclareLost             // the arbiter declares the game lost by Side (12.9; a sounding phone, 11.3 / 12.2(b)); Result, if given, is the score he decides
	KindArbiterFlag             // the arbiter calls Side's fallen flag (A.5.5); refused where he must refrain and only a claim counts (2009 A4(d), 2005 B7)
	KindSealedMoveEnds          // the sealed move, made at the resumption, ended the game (checkmate, stalemate, dead position): Result applies even to a late player (I.10)
	KindEnvelopeLost            // the envelope of an adjourned game is lost: play resumes from the adjourned position, the sealer to move (I.12)
)

var kindNames = [...]string{
	KindInvalid:            "invalid",
	KindStart:              "start",
	KindArrive:             "arrive",
	KindPress:              "press",
	KindPause:              "pause",
	KindResume:             "resume",
	KindAdjourn:            "adjourn",
	KindFlagClaim:          "flag_claim",
	KindIllegalMove:        "illegal_move",
	KindDrawClaimRejected:  "draw_claim_rejected",
	KindQuickplayIncrement: "quickplay_increment",
	KindQuickplayClaim:     "quickplay_claim",
	KindAddTime:            "add_time",
	KindSetClock:           "set_clock",
	KindPosition:           "position",
	KindResult:             "result",
	KindFlag:               "flag",
	KindIllegalMoveFound:   "illegal_move_found",
	KindFlagsUnordered:     "flags_unordered",
	KindDeclareLost:        "declare_lost",
	KindArbiterFlag:        "arbiter_flag",
	KindSealedMoveEnds:     "sealed_move_ends",
	KindEnvelopeLost:       "envelope_lost",
}

// Valid reports whether k is a kind of event (not KindInvalid, not unknown).
func (k Kind) Valid() bool { return k > KindInvalid && int(k) < len(kindNames) }

// String returns the name used by the conformance vectors ("press", "flag_claim", ...).
func (k Kind) String() string {
	if k >= 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", int8(k))
}

// ParseKind reads a kind name as String writes it.
func ParseKind(s string) (Kind, error) {
	for k, n := range kindNames {
		if n == s && k != int(KindInvalid) {
			return Kind(k), nil
		}
	}
	return KindInvalid, &InputError{What: "action", Value: s,
		Allowed: strings.Join(kindNames[1:], ", ")}
}

// Decision is the arbiter's decision on a quickplay-finish claim (III.5, 10.2).
type Decision int8

const (
	DecisionNone     Decision = iota
	DecisionDraw              // the claim is upheld: the game is drawn
	DecisionPostpone          // decided later; the opponent gets two minutes unless NoExtraTime
	DecisionReject            // the claim is rejected; the opponent gets two minutes
	DecisionRefer             // no arbiter is present: the claim ends the game and is referred to the arbiter (III.6, 2009 Appendix D)
)

var decisionNames = [...]string{"", "draw", "postpone", "reject", "refer"}

func (d Decision) String() string {
	if d >= 0 && int(d) < len(decisionNames) {
		return decisionNames[d]
	}
	return fmt.Sprintf("Decision(%d)", int8(d))
}

// ParseDecision reads "draw", "postpone", "reject" or "refer".
func ParseDecision(s string) (Decision, error) {
	for d, n := range decisionNames {
		if n == s && d != 0 {
			return Decision(d), nil
		}
	}
	return DecisionNone, &InputError{What: "quickplay decision", Value: s, Allowed: "draw, postpone, reject or refer"}
}

// Event is one thing that happens to a board's clock, at T milliseconds on
// the board's own monotonic time line (the clock device's oscillator; 0 is
// any origin the board chooses, usually the start). A board's state is the
// fold of its events with Apply. Only the fields of the event's Kind are
// read; the others must be zero.
type Event struct {
	Kind Kind  `json:"do"`
	T    int64 `json:"t"` // milliseconds on the board's time line; never decreasing along a board's events

	// Side: the presser (press), arriving player (arrive), claimant
	// (flag_claim, draw_claim_rejected, quickplay_*), offender
	// (illegal_move, illegal_move_found, declare_lost), the side whose
	// time changes (add_time), or whose flag the arbiter calls
	// (arbiter_flag).
	Side Side `json:"side,omitempty"`

	// Start, and Resume (or EnvelopeLost) of an adjourned game: which
	// players are not at the board (6.7; Guidelines I.9).
	AbsentWhite bool `json:"absent_white,omitempty"`
	AbsentBlack bool `json:"absent_black,omitempty"`

	// IllegalMoveFound: the offender's move (counted from 1) found illegal.
	Move int `json:"move,omitempty"`

	// Adjourn: the board time of the session's nominal end, when the game is
	// adjourned before it; the time to it is charged to the sealer
	// (Guidelines I.1.2). 0 or an instant not after T charges nothing.
	SessionEndMs int64 `json:"session_end_ms,omitempty"`

	// AddTime: milliseconds added (negative: taken away) to Side's remaining time.
	Ms int64 `json:"ms,omitempty"`

	// SetClock: the new remaining main times in milliseconds, and optionally
	// the move counters (nil leaves a counter as it is). IllegalMoveFound:
	// the remaining times the arbiter sets (6.10.2), before the penalty.
	WhiteMs    int64 `json:"white_ms,omitempty"`
	BlackMs    int64 `json:"black_ms,omitempty"`
	WhiteMoves *int  `json:"white_moves,omitempty"`
	BlackMoves *int  `json:"black_moves,omitempty"`
	// SetClock: install the setting even though the moves limit of
	// insufficiently supervised rapid/blitz has passed, because the schedule
	// of the event would suffer otherwise (2023 A.5.1.1).
	ScheduleOverride bool `json:"schedule_override,omitempty"`
	// SetClock: the side to move once the clock is restarted, when the
	// arbiter retraces the game to an earlier position (2018 D.2.9: the
	// scoresheets differ, the moves are retraced to where they agree and
	// the arbiter readjusts the clocks; 2009 Appendix E2.8): his move
	// starts afresh (a new delay), no illegal move is counted and the
	// position is e.FEN, or unknown. Nil leaves the move where it is.
	ToMove *Side `json:"to_move,omitempty"`

	// QuickplayClaim: the arbiter's decision, and whether a postponement
	// gives the opponent no extra two minutes ("may be awarded").
	Decision    Decision `json:"decision,omitempty"`
	NoExtraTime bool     `json:"no_extra_time,omitempty"`

	// Position (and optionally Press, from an e-board): the position after
	// the event, as FEN. Press may also carry the move in SAN, for the record.
	// IllegalMoveFound: the position before the illegal move, reinstated.
	FEN string `json:"fen,omitempty"`
	SAN string `json:"san,omitempty"`

	// Result: the result, how the game ended, and whether the arbiter
	// records it (only the arbiter may change a finished game's result, or
	// decide a referred claim). DeclareLost: the score the arbiter decides,
	// "" for the ruleset's (Profile.DeclaredLost). SealedMoveEnds: the
	// sealer's win (checkmate) or a draw (stalemate, dead position).
	Result      Result      `json:"result,omitempty"`
	Termination Termination `json:"termination,omitempty"`
	ByArbiter   bool        `json:"by_arbiter,omitempty"`
	// Result: the arbiter marks the game unplayed — it lasted less than
	// one move, so it is not rated (TRF-16's W, D, L). It changes nothing
	// on the clock; the record keeps it for the results' files.
	Unplayed bool `json:"unplayed,omitempty"`
}

// String describes an event briefly, for logs and refusals.
func (e Event) String() string {
	s := fmt.Sprintf("%s@%d", e.Kind, e.T)
	switch e.Kind {
	case KindArrive, KindPress, KindFlagClaim, KindIllegalMove, KindDrawClaimRejected, KindQuickplayIncrement, KindFlag:
		s += " " + e.Side.String()
	case KindIllegalMoveFound:
		s += fmt.Sprintf(" %s move %d white=%dms black=%dms", e.Side, e.Move, e.WhiteMs, e.BlackMs)
	case KindDeclareLost:
		s += " " + e.Side.String()
		if e.Result != "" {
			s += " " + string(e.Result)
		}
	case KindArbiterFlag:
		s += " " + e.Side.String()
	case KindSealedMoveEnds:
		s += " " + string(e.Result)
	case KindQuickplayClaim:
		s += " " + e.Side.String() + " " + e.Decision.String()
	case KindAddTime:
		s += fmt.Sprintf(" %s %+dms", e.Side, e.Ms)
	case KindSetClock:
		s += fmt.Sprintf(" white=%dms black=%dms", e.WhiteMs, e.BlackMs)
		if e.ToMove != nil {
			s += " " + e.ToMove.String() + " to move"
		}
	case KindResult:
		s += " " + string(e.Result)
	}
	return s
}

// MarshalText writes the kind's name.
func (k Kind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// UnmarshalText reads a kind's name.
func (k *Kind) UnmarshalText(b []byte) error {
	v, err := ParseKind(string(b))
	*k = v
	return err
}

// MarshalText writes the decision's name.
func (d Decision) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// UnmarshalText reads a decision's name.
func (d *Decision) UnmarshalText(b []byte) error {
	if len(b) == 0 {
		*d = DecisionNone
		return nil
	}
	v, err := ParseDecision(string(b))
	*d = v
	return err
}
