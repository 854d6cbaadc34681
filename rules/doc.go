// Package rules is the chess clock and the clock laws of the FIDE Laws of
// Chess, in four editions, as a pure and deterministic state machine. The
// hall server, the clock devices, replay and the conformance runner all
// use it, so they cannot disagree.
//
// It imports only the standard library and a chess library (for
// positions); it has no goroutines, reads no clock and does no I/O.
//
// # The model
//
// A board's clock is a [State]. It starts from [NewState] (status waiting,
// both clocks showing the first period's time) and changes only by
// [Apply] with an [Event]: start, arrive, press, pause, resume, adjourn,
// flag claim, illegal move, rejected draw claim, quickplay-finish request
// or claim, arbiter's time addition or clock setting, position, result.
// Apply either returns the new state or a typed *[Refusal] naming the
// article that forbids the action (errors.Is(err, [ErrRefused])); a
// malformed input is an *[InputError] (errors.Is(err, [ErrInvalid])).
// A board's state is the fold of its events ([Fold]):
//
//	tc, err := rules.ParseTimeControl("90m+30s")
//	st, err := rules.NewState(rules.Config{Ruleset: rules.FIDE2023, TimeControl: tc})
//	st, err = rules.Apply(st, rules.Event{Kind: rules.KindStart, T: 0})
//	st, err = rules.Apply(st, rules.Event{Kind: rules.KindPress, Side: rules.White, T: 12_000})
//	now := st.Project(60_000) // Black has used 48 s of the 90 minutes
//	fmt.Println(now.P[rules.Black].MainMs, now.P[rules.White].MainMs) // 5352000 5418000
//
// A clock reports a flag with a [KindFlag] event at the instant it fell; the
// rules accept it only if they agree, so no clock can end a game blindly.
//
// Between events, time passes: [State.Project] returns the state at any
// later instant, with the running clock run forward and whatever happens by
// itself (a flag falls, the next period is added at the flag, an absent
// player forfeits) done in order. [State.NextDeadline] says when the next
// such change is due, so a server can set one timer per board.
//
// # Units and time
//
// Every time is an integer number of milliseconds. Instants (Event.T,
// State.At) are on the board's own monotonic time line: the clock device's
// oscillator, never wall-clock time; any origin will do, usually the start.
// Events of a board must come in non-decreasing T, at most 2^53; a time
// given, taken or set at once (penalty, default time, arbiter's change)
// is at most 1e6 s. Remaining times never go below zero. A flag falls at
// the instant the main time, after any delay window, reaches zero: a press
// at that very instant is too late.
//
// # Time controls
//
// A [TimeControl] is one or more [Period]s — a base time, a number of moves
// (except the last), and per period an increment, a simple delay or a
// Bronstein delay — or an hourglass. [ParseTimeControl] reads the PGN
// TimeControl tag in seconds ("40/5400+30:1800+30", "300d5", "*60") and
// the everyday forms arbiters type ("90+30", "40/90+30, 30+30", "G/60;d5");
// String writes the canonical PGN form. [GameType] gives the game type
// (blitz, rapid, standard) of Appendix A.1 / B.1 for a ruleset.
//
// # Configuring an event
//
// A board is configured by a [Config]: a [Ruleset], a time control and the
// event's [Regulations]. The ruleset gives the defaults; every field of the
// regulations that is set overrides them. The zero value of Regulations is
// "the ruleset's defaults"; the optional amounts (default time, penalties)
// are pointers, set with [Ms], so that an explicit 0 can be said:
//
//	cfg := rules.Config{
//		Ruleset:     rules.FIDE2023,
//		TimeControl: tc, // rules.ParseTimeControl("90m+30s")
//		Regulations: rules.Regulations{
//			Supervision:     rules.Insufficient,  // rapid/blitz without one arbiter per game(s)
//			QuickplayFinish: true,                // Guidelines III announced
//			DefaultTimeMs:   rules.Ms(30 * 60_000), // players may be 30 minutes late
//			PeriodChange:    rules.AtFlag,        // the clock adds the next period at the flag
//			Scoring:         rules.Scoring{Win: 3, Draw: 1, Loss: 0},
//		},
//	}
//
// # What each ruleset changes
//
//	                          fide-2023          fide-2018          fide-2009          fide-2005
//	blitz / rapid / standard  ≤10 / <60 / ≥60    as 2023            <15 / <60 / ≥60    <15 / ≤60 / >60
//	  (minutes for 60 moves, Appendix A.1 / B.1)
//	illegal-move penalty      2 min standard,    2 min standard     2 min              2 min
//	                          1 min rapid,       and rapid,
//	                          blitz 1 min (B.3)  1 min blitz
//	                          or 2 min (B.2)
//	illegal moves that lose   the 2nd            the 2nd            the 3rd            the 3rd
//	incorrect draw claim      as illegal move    2 min, blitz 1     3 min              3 min
//	quickplay finish          III.4 and III.5    as 2023            10.2 always,       as 2009
//	                          if announced,                         not blitz,
//	                          standard/rapid                        no III.4
//	                          without increment
//	default time              0                  0                  0                  1 hour
//
// Under insufficient supervision of rapid and blitz (Regulations.Supervision):
//
//	                         fide-2023 / fide-2018           fide-2009 / fide-2005
//	flag fall                recorded; counts on a claim     recorded; counts on a claim
//	                         (flag_claim) or the arbiter's   with the claimant's own flag
//	                         result; if both fell, the       up; both flags fallen: drawn
//	                         first decides
//	illegal move             ruled only before the           rapid: as 2023; blitz: the
//	                         opponent's next move            opponent wins at once
//	clock setting locked     after 10 moves each             after 3 moves each
//
// With adequate supervision, and always in standard games, a flag is
// observed at once and the game ends at that instant: lost, or drawn if
// the opponent cannot checkmate by any possible series of legal moves
// ([CanCheckmate], from the last known position; with none, the opponent
// can). The same test turns losses by illegal moves and time-win claims
// into draws.
//
// # Periods
//
// By default (PeriodChange ByMoves) the next period's base time is added
// when the player completes the last move of a period; the move earns the
// increment of the period it belongs to. With AtFlag it is added when the
// period's time runs out, if the moves of the period were completed (6.4);
// otherwise the flag has fallen. Time saved carries over. No increment is
// earned and no period is added after the player's own flag fell.
//
// # Illegal moves
//
// An illegal move can be ruled against the side that completed the last
// move, before the opponent completes one. The offender's move counter goes
// back by one, the offender is to move again (its clock runs if the clock
// was running), the times stand, and then the penalty applies or the game
// is lost.
package rules
