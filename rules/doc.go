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
// flag claim, illegal move (at once, or found later), rejected draw claim,
// quickplay-finish request or claim (with the arbiter's decision, or
// referred to him when none is present), both flags down without their
// order, arbiter's time addition or clock setting, game declared lost,
// the arbiter calling a flag, a sealed move that ended the game, a lost
// envelope, position, result. Apply either returns the new state or a typed
// *[Refusal] naming the article that forbids the action
// (errors.Is(err, [ErrRefused])); a malformed input is an *[InputError]
// (errors.Is(err, [ErrInvalid])). A board's state is the fold of its
// events ([Fold]):
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
// player forfeits, a player comes into time trouble) done in order.
// [State.NextDeadline] says when the next flag fall or forfeit is due, so
// a server can set one timer per board.
//
// Where a game stands is its [Status]: waiting, running, paused, adjourned,
// finished (with a [Result]), or referred: a claim made with no arbiter
// present ended it (Guidelines III.6; 2009 Appendix D) and only the
// arbiter's result decides it. Each player's [Player.TimeTrouble] says that
// he has had less than five minutes in the period without an increment of
// 30 s or more (8.4), for the dashboard.
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
// Bronstein delay — or an hourglass. [ParseTimeControl] never guesses a
// unit. It accepts:
//
//	PGN TimeControl tag, every number seconds    "180+2", "5400", "40/5400+30:1800+30",
//	                                             "40/7200:20/3600:900+30", "300d5", "300b3", "*60"
//	times with units (m, min, h, s, sec)         "3m+2s", "90m+30s", "1h30+30s", "40/90m+30s:30m+30s",
//	                                             "5400s", "45s", "*3m", "40/2h, 20/1h, 15m+30s"
//	G/ and SD/, minutes by convention            "G/15", "G/60;d5", "G/90+30", "40/120m, SD/30;d5"
//	one per side (time odds, Armageddon)         "white 5m | black 4m", "white 60/5m:0+2s | black 60/4m:0+2s"
//
// An increment ("+N") or delay ("dN" simple, "bN" Bronstein) is seconds,
// with or without "s", on any period. Periods are separated by ':' or ','.
// It refuses, with both readings in the message, a number without unit
// that would make a period shorter than a minute ("3+2": "3 s + 2 s per
// move? write 3m+2s for 3 minutes, or 3s+2s for seconds"), and a number
// without unit beside units or in a list with ',' ("40/90m:1800",
// "40/120, 30"). A bare "90+30" is 90 seconds and 30 s a move: the PGN tag.
//
// [TimeControl.String] writes the canonical PGN form (in seconds with units
// when a period is under a minute), [TimeControl.WithUnits] the form with
// units ("40/90m+30s:30m+30s"), and both parse back to the same control.
// [TimeControl.Words] and [TimeControl.Describe] say it for people: "90 min
// for 40 moves, then 30 min, +30 s per move from move 1; standard".
// [GameType] gives the game type (blitz, rapid, standard) of Appendix
// A.1 / B.1 for a ruleset; with a control per side ([TimeControl.For]) a
// game is rapid or blitz when each player's control is, else standard.
//
// # Configuring an event
//
// A board is configured by a [Config]: a [Ruleset], a time control and the
// event's [Regulations]. The ruleset gives the defaults; every field of the
// regulations that is set overrides them. The zero value of Regulations is
// "the ruleset's defaults"; the optional amounts (default times, penalties)
// are pointers, set with [Ms], so that an explicit 0 can be said:
//
//	cfg := rules.Config{
//		Ruleset:     rules.FIDE2023,
//		TimeControl: tc, // rules.ParseTimeControl("90m+30s")
//		Regulations: rules.Regulations{
//			Supervision:     rules.Insufficient,    // rapid/blitz without one arbiter per game(s)
//			QuickplayFinish: true,                  // Guidelines III announced
//			DefaultTimeMs:   rules.Ms(30 * 60_000), // players may be 30 minutes late
//			PeriodChange:    rules.AtFlag,          // the clock adds the next period at the flag
//			Scoring:         rules.Scoring{Win: 3, Draw: 1, Loss: 0},
//		},
//	}
//
// # Rulesets are profiles
//
// Each ruleset is one [Profile] — data, not code: the game-type thresholds,
// the penalty times by game type and supervision, whether the regulations'
// word on supervision decides anything, how rapid and blitz go where the
// appendices govern them, the quickplay finish, what happens when both
// flags fell in an unknown order, the opponent's score when a game is
// declared lost, the default times, and the article each message cites.
// The engine reads only profiles; adding an edition (or a national
// ruleset) is one entry in the table of profiles.go and its conformance
// vectors in testdata/. [ProfileOf] refuses an unknown ruleset by name.
// The table says:
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
//	supervision decides       yes                yes                yes                no: appendices B, C
//	                                                                                   govern every rapid
//	                                                                                   and blitz game
//	quickplay finish          III.4 and III.5    as 2023            10.2 always; blitz 10.2 always,
//	                          if announced,                         only adequately    never blitz (C2)
//	                          standard/rapid                        supervised (B2)
//	                          without increment
//	  increment or delay      in any period      as 2023            in the last        as 2009
//	  that excludes it        (III.2.2)                             period (10.1)
//	claim with no arbiter     III.6: referred    as 2023            Appendix D:        no rule: refused
//	                                                                referred
//	flags down, order unknown III.3 where the    as 2023            6.11: continue,    6.11: continue
//	                          guidelines apply:                     drawn in the last  (rapid/blitz: B8
//	                          continue, drawn                       period             drawn)
//	                          in the last period
//	game declared lost        opponent wins      as 2023            opponent wins, or  the arbiter says
//	                                                                ½ if he cannot win the opponent's score
//	default time              0                  0                  0                  1 hour
//	late for the resumption   the default time   as 2023            1 hour             1 hour (A10)
//
// Where the appendices govern rapid and blitz (insufficient supervision;
// in fide-2005 always):
//
//	                         fide-2023 / fide-2018           fide-2009 / fide-2005
//	flag fall                recorded; counts on a claim     recorded; counts on a claim
//	                         (flag_claim), when the arbiter  with the claimant's own flag
//	                         calls it (arbiter_flag, A.5.5)  up; the arbiter refrains from
//	                         or on his result; if both       calling it (A4(d), B7); both
//	                         fell, the first decides         flags fallen: drawn
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
// increment of the period it belongs to (6.3.1: "after each completed
// move of that period"). So does a move that replaces an illegal one: the
// replacement of the last move of period 1 earns period 1's increment
// (or has its delay), although period 2's time was added already — once. With AtFlag it is added when the
// period's time runs out, if the moves of the period were completed (6.4);
// otherwise the flag has fallen. Time saved carries over. No increment is
// earned and no period is added after the player's own flag fell.
//
// # Illegal moves
//
// An illegal move can be ruled against the side that completed the last
// move, before the opponent completes one ([KindIllegalMove]). The texts
// let the opponent claim until he has *made* his next move (2023 A.5.2,
// 2018 A.4.2, 2009 A4(c) and B3(c), 2005 B6 and C3); a clock sees only
// when a move is *completed*, at the press, so in every edition the claim
// is heard until the opponent's press, even if an e-board already shows
// his move made (an arbiter at the board refuses a claim that came late). The
// offender's move counter goes back by one, the offender is to move again
// (its clock runs if the clock was running), the times stand, and then the
// penalty applies or the game is lost. In a game the Competition Rules
// govern, an illegal move found later, from an e-board's history, is ruled
// with the clock paused ([KindIllegalMoveFound], 7.5.1): the position
// before it is reinstated, the move counters and periods go back to it,
// the arbiter sets the times (6.10.2), and the penalty follows.
//
// # Adjournment
//
// [KindAdjourn] seals the move of the side to move and stops the clock;
// before the session's nominal end (Event.SessionEndMs) the time to it is
// charged to the sealer (Guidelines I.1.2). At the resumption
// ([KindResume]) the sealed move completes and the clock of the player who
// must answer it runs, present or not; players marked absent lose once the
// default time of the resumption has passed (I.9, I.10; 2005 A9, A10).
// Until it is answered ([State.Sealed]), the sealed move can be ruled
// illegal with [KindIllegalMove] naming the sealer: he loses the game, in
// every edition (I.8.3, 2009 guideline 8(c), 2005 A8(c)) — drawn if the
// opponent cannot checkmate, I.8 excepting Art. 6.9's cases. A sealed move
// that ended the game (checkmate, stalemate, a dead position) is recorded
// with [KindSealedMoveEnds]; its result applies even over a default or a
// flag since the resumption (I.10, 2005 A10). When the envelope is lost
// ([KindEnvelopeLost], I.12, 2005 A11), play resumes from the adjourned
// position with the recorded times (or those the arbiter sets first), the
// sealer to move.
//
// # Play with visually disabled players
//
// A board may be played under the rules for play with blind and visually
// disabled players (2018 and 2023 Appendix D, 2009 Appendix E): its
// Config.Blind ([BlindPlay]) marks the visually disabled players, who has
// an assistant, and the language the clock announces in. Each player's
// [Player.UsedMs] is the time his clock has run, what a talking clock
// announces with the completed moves (D.2.6.1, D.2.10.4).
// [AssistantDuties] lists what an assistant may do, with the articles of
// the ruleset ([BlindTextOf]); [AssistantMay] checks an assistant's clock
// action before Apply judges it as the player's own, and [MayAnnounce]
// who may be told the moves and the time used. [ParseBlindPlay] and
// [BlindPlay.String] read and write the short notation ("W+A:de").
//
// # Results
//
// [Result] is one of "1-0", "0-1", "1/2-1/2", the forfeits "+-", "-+",
// "--", and the arbiter's scores "0-0", "1/2-0", "0-1/2" (12.9: a score
// reduced or the opponent's raised; 2009 12.2(b): a draw for an opponent
// who cannot win), or "*" while the game goes on. [Result.Score] gives the
// points under the event's [Scoring].
package rules
