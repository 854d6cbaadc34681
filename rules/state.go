package rules

import "fmt"

// Status is where a board's game stands.
type Status int8

const (
	Waiting   Status = iota // not started
	Running                 // one clock runs
	Paused                  // stopped by the arbiter or a claiming player
	Adjourned               // a move is sealed; the clocks show the recorded times
	Finished                // the game has a result
	Referred                // a claim with no arbiter present ended the game; the arbiter decides the result (III.6, 2009 D)
)

var statusNames = [...]string{"waiting", "running", "paused", "adjourned", "finished", "referred"}

func (s Status) String() string {
	if s >= 0 && int(s) < len(statusNames) {
		return statusNames[s]
	}
	return fmt.Sprintf("Status(%d)", int8(s))
}

// NoFlag is the value of Player.FlagAt while the flag is up.
const NoFlag int64 = -1

// Player is one side's clock and record.
type Player struct {
	MainMs  int64 // remaining main time, never below 0 (delay windows not included)
	Moves   int   // completed moves
	Period  int   // period in force, 0-based (the vectors count from 1)
	Illegal int   // completed illegal moves established against this player
	Absent  bool  // not yet at the board (6.7), or not at the resumption (Guidelines I.9)
	FlagAt  int64 // board time at which this player's flag fell, or NoFlag

	// TimeTrouble (8.4): at some stage of the period in force the player
	// had less than five minutes and no increment of 30 s or more a move;
	// for the rest of the period he need not record the moves.
	TimeTrouble bool

	// The move in progress (meaningful for the side to move).
	DelayLeftMs int64 // simple delay not yet used on this move
	MoveUsedMs  int64 // time this move has taken so far (Bronstein gives back up to the delay)

	// UsedMs is the time the player's clock has run in the game (delay
	// windows included; times given, taken or set by the arbiter not
	// counted): the "time used" a visually disabled player is told at his
	// request (2018 D.2.10.4).
	UsedMs int64
}

// State is one board's clock at one instant, At. It is a value: Apply and
// Project return new states and never modify their receiver, and a State
// may be copied freely. Build the first one with NewState.
type State struct {
	Config   Config
	Category Category // game type (Appendix A.1 / B.1), fixed by the time control

	Status    Status
	At        int64 // the instant (board time line, ms) this state describes
	StartedAt int64 // when the clock was started (valid once Status != Waiting)
	ToMove    Side  // the side having the move; its clock runs while Status is Running
	P         [2]Player

	// HasFlag and FirstFlag: whose flag fell first, if any has.
	HasFlag   bool
	FirstFlag Side

	// LastMover is the side that completed the last move, while an illegal
	// move may still be ruled against it; HasLastMover is false after a
	// ruling, or before the first move.
	HasLastMover bool
	LastMover    Side

	// QuickplayBonusMs is the extra time per move of Guidelines III.4, once
	// introduced (5 000 ms for both players).
	QuickplayBonusMs int64
	// QuickplayPostponed: a III.5 / 10.2 claim by QuickplayClaimant awaits the
	// arbiter's final decision (declare it with a Result event).
	QuickplayPostponed bool
	QuickplayClaimant  Side

	// ReferredBy: the claimant whose claim with no arbiter present ended
	// the game (Status Referred, III.6 / 2009 Appendix D).
	ReferredBy Side

	// Sealed: Sealer's sealed move is in its envelope (Status Adjourned),
	// or was made at the resumption and his opponent has not completed a
	// move since: it can still be found illegal (Guidelines I.8) or be
	// the move that ended the game (I.10), even after a player's default
	// at the resumption.
	Sealed bool
	Sealer Side

	// DefaultFrom is when absent players started to be late: the start, or
	// the resumption of an adjourned game (AtResumption), which has its
	// own default time (Guidelines I.10, 2005 A10).
	DefaultFrom  int64
	AtResumption bool

	FEN string // the last known position, "" if none

	Result      Result
	Termination Termination
	EndedAt     int64 // when the game ended (valid when Status is Finished)
}

// Limits of what the rules accept, far beyond any game, so that no sum of
// an instant and a remaining time can overflow (a flag would then "fall"
// at a negative instant): instants up to 2^53 ms (some 285,000 years of a
// board's time line); any one time given, taken or set — a penalty, a
// default time, an arbiter's change or setting — up to the limit of a
// time control's base time, 1e6 s; move counters up to a million.
const (
	maxInstantMs  = 1 << 53
	maxDurationMs = tcMaxTotalBaseMs
	maxMoves      = 1_000_000
)

// NewState returns the state of a board that has not started: both clocks
// show the first period's base time. It refuses an invalid configuration.
func NewState(cfg Config) (State, error) {
	prof, err := ProfileOf(cfg.Ruleset)
	if err != nil {
		return State{}, err
	}
	cfg.Ruleset = prof.Ruleset
	if err := cfg.TimeControl.Validate(); err != nil {
		return State{}, err
	}
	if err := cfg.Blind.validate(prof); err != nil {
		return State{}, err
	}
	allowed := fmt.Sprintf("0 to %d milliseconds", int64(maxDurationMs))
	if d := cfg.Regulations.DefaultTimeMs; d != nil && (*d < 0 || *d > maxDurationMs) {
		return State{}, &InputError{What: "default time", Value: fmt.Sprint(*d), Problem: "out of range", Allowed: allowed}
	}
	if d := cfg.Regulations.ResumptionDefaultMs; d != nil && (*d < 0 || *d > maxDurationMs) {
		return State{}, &InputError{What: "default time at the resumption", Value: fmt.Sprint(*d), Problem: "out of range", Allowed: allowed}
	}
	for _, p := range []struct {
		what string
		ms   *int64
	}{{"illegal-move penalty time", cfg.Regulations.IllegalMovePenaltyMs}, {"draw-claim penalty time", cfg.Regulations.DrawClaimPenaltyMs}} {
		if p.ms != nil && (*p.ms < 0 || *p.ms > maxDurationMs) {
			return State{}, &InputError{What: p.what, Value: fmt.Sprint(*p.ms), Problem: "out of range", Allowed: allowed}
		}
	}
	switch cfg.Regulations.DrawOdds {
	case NoDrawOdds, DrawOddsWhite, DrawOddsBlack:
	default:
		return State{}, &InputError{What: "draw odds", Value: string(cfg.Regulations.DrawOdds), Problem: "not a side",
			Allowed: `"white" or "black" (a draw counts as that side's win), or "" for none`}
	}
	s := State{Config: cfg, Result: NoResult}
	s.Category = prof.GameType(cfg.TimeControl)
	for i := range s.P {
		s.P[i] = Player{MainMs: cfg.TimeControl.For(Side(i)).Periods[0].BaseMs, FlagAt: NoFlag}
	}
	s.noteTimeTrouble()
	return s, nil
}

// Running returns the side whose clock runs, and false if none does.
func (s *State) Running() (Side, bool) {
	if s.Status == Running {
		return s.ToMove, true
	}
	return White, false
}

// Over reports whether the game has ended with a result. A game whose
// claim was referred to the arbiter (Status Referred) has ended too, but
// has no result until the arbiter's decision.
func (s *State) Over() bool { return s.Status == Finished }

// Score returns the points of each side for the result that counts
// (CountingResult: a draw under draw odds is the favoured side's win) under
// the event's scoring (zero while the game goes on).
func (s *State) Score() (white, black float64) {
	return s.CountingResult().Score(s.Config.Regulations.Scoring)
}

// control returns the time control side plays under (time odds give the
// players different ones).
func (s *State) control(side Side) TimeControl {
	return s.Config.TimeControl.For(side)
}

// period returns side's period in force.
func (s *State) period(side Side) Period {
	return s.control(side).Periods[s.P[side].Period]
}

// FlagDeadline returns the board time at which the running side's flag will
// fall if nothing happens first, and false if no clock runs toward a flag.
// A hall server sets its flag timer with it.
func (s *State) FlagDeadline() (int64, bool) {
	side, ok := s.Running()
	if !ok || s.P[side].FlagAt != NoFlag {
		return 0, false
	}
	p := &s.P[side]
	at := s.At + p.MainMs
	if s.movePeriod(side).Bonus == SimpleDelay {
		at += p.DelayLeftMs
	}
	return at, true
}

// defaultDeadline returns when absent players forfeit (they do at any
// instant strictly after it), and false if nobody is absent.
func (s *State) defaultDeadline() (int64, bool) {
	if s.Status == Waiting || s.Status == Finished || s.Status == Referred || !(s.P[White].Absent || s.P[Black].Absent) {
		return 0, false
	}
	p := s.profile()
	if p == nil {
		return 0, false
	}
	if s.AtResumption {
		return s.DefaultFrom + p.ResumptionDefault(s.Config.Regulations), true
	}
	return s.DefaultFrom + p.DefaultTime(s.Config.Regulations), true
}

// NextDeadline returns the earliest board time at which the state changes
// by itself (a flag falls, a period is added at the flag, an absent player
// forfeits), and false if none is pending. Project to any instant at or
// after it to see the change.
func (s *State) NextDeadline() (int64, bool) {
	f, okf := s.FlagDeadline()
	d, okd := s.defaultDeadline()
	if okd {
		d++ // forfeit happens once the default time has passed
	}
	switch {
	case okf && okd:
		return min(f, d), true
	case okf:
		return f, true
	case okd:
		return d, true
	}
	return 0, false
}
