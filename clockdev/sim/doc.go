// Package sim is the fleet simulator: a hall's worth of clock devices
// (package clockdev) and the players and arbiters around them, playing
// whole rounds against a hall server — for the end-to-end tests, the
// benchmarks and the demonstration hall.
//
// Each clock is a real clockdev.Device with its own gRPC connection (its
// own dialer, so faults can be injected on it), its own outbox and its own
// board. Its two players play every game to its end: think times drawn
// for the time control, flags, claims, illegal moves, resignations,
// agreed draws, and on electronic boards legal moves, checkmates and dead
// positions. The fleet plays the chief arbiter: it creates the
// tournaments and device tokens, puts its clocks in the hall plan of its
// venue (named by DevicePrefix), sets each round up as a chief arbiter
// with a pairing program does — the tournament's players (drawn once,
// no name twice) or the hall's TRF-16 export of the round before, paired
// by a simple Swiss stand-in (top half against bottom half, nobody met
// twice while that can be avoided, colours alternated — not the FIDE Dutch
// system of JaVaFo and bbpPairings), imported with Arbiter.ImportRound
// as a TRF with the pairing output, the plan giving each board its clock
// — starts every clock of a round at once (Arbiter.StartRound), and
// rules what needs a ruling. RoundSpec.TRF imports a pairing program's
// own files instead.
//
// # Usage
//
//	f, err := sim.New(sim.Config{
//		Target:     "localhost:7070",
//		ChiefToken: chief,
//		Rounds:     []sim.RoundSpec{{TimeControl: "3m+2s", Boards: 40}},
//		Speed:      20, // the server must run on mono.Scaled(mono.Real(), 20) too
//		Seed:       7,
//		Chaos:      sim.AllChaos(),
//		Progress:   os.Stdout,
//	})
//	sum, err := f.Run(ctx) // every game to its end (or until ctx is done)
//	fmt.Print(sum)
//
// A living hall that survives restarts (the demo): Loop plays round after
// round, and StateDir keeps what the fleet created, so that the same
// hall (same server database) and the same StateDir continue where they
// stopped.
//
//	f, err := sim.New(sim.Config{
//		Target: grpcAddr, ChiefToken: chief,
//		Rounds: sim.DemoRounds(8), Loop: true,
//		StateDir: filepath.Join(dataDir, "fleet"),
//		Speed: speed, Seed: 1, Progress: os.Stdout, ProgressEvery: 5 * time.Second,
//		HallStats: func() sim.HallStats {
//			s := srv.Stats()
//			return sim.HallStats{Connects: s.Connects, Applied: s.EventsApplied, Rejected: s.Rejected,
//				Duplicates: s.Duplicates, Gaps: s.Gaps, Commands: s.Commands}
//		},
//	})
//
// Rehearse plays one game of a RoundSpec without a server, in simulated
// time: the same players with the same seed make the same decisions.
//
// # Time
//
// The devices' clocks run Speed times faster than real time (mono.Scaled);
// the hall server must be given a clock with the same factor
// (server.Options.Clock, halltest.WithSpeed), so that a device's board
// time and the server's estimate of it advance together. Think times,
// adjournments, cuts and reboots are game time; network latency and the
// progress interval are real time. The fleet waits for the hall's answers
// in real time.
//
// # The players
//
// A player's think time is a budget — the time left over the moves
// expected before the next time control (or, in a sudden death, before
// the end), plus most of the increment — shaped by the phase of the game
// (quick opening, slow middlegame), the player's pace and a lognormal
// spread. In time trouble players hurry, and a nervous one now and then
// thinks past the flag: the device reports the flag at its exact
// deadline. Games without an e-board end by resignation or agreed draw at
// a length drawn when they start; under insufficient supervision a fallen
// flag is claimed by the opponent. Where the regulations announce a
// quickplay finish (no increment, not blitz), a player with less than two
// minutes may stop the clock and claim; the arbiter grants five seconds a
// move (III.4), a draw, or rejects the claim, and restarts the clock.
// With RoundSpec.IllegalMoves a player now and then completes an illegal
// move; the arbiter rules it (BoardAction ILLEGAL_MOVE) before the
// opponent moves, and the player then plays a legal one. With
// RoundSpec.AdjournAfter the arbiter adjourns games still going at that
// move (the side to move seals a move) and resumes them after AdjournFor.
//
// # Visually disabled players
//
// With RoundSpec.BlindPlay a round is played under the rules for visually
// disabled players (FIDE 2018 Appendix D). The players it marks visually
// disabled now and then ask their clock, as their turn ends, for the
// completed moves and the time used by both (D.2.10.4: only at their
// request; RoundSpec.Announcements, per move): they press the announce
// button of the clock (clockdev.Device.RequestAnnouncement). With
// Config.TalkingClocks every clock is a talking clock whose voice speaks
// every language of formats/announce; it says nothing unasked, and what
// it would say is logged ("clock says", with the device, board, player,
// language and words) and counted (Summary.Announcements). Rehearse keeps
// what a talking clock would have said in Rehearsal.Said.
//
// # E-boards
//
// With RoundSpec.EBoard each press carries the move in SAN and the FEN
// after it, chosen among the legal moves of the position
// (github.com/corentings/chess/v2): mates in one are taken, captures and
// checks preferred. A game ends on the board (checkmate, stalemate, dead
// position, fivefold repetition, 75 moves: the device records the result
// with termination "normal"), by resignation when far behind in material,
// by agreement, or on time. An illegal move is a press without a move; a
// sealed move is reported as a POSITION after the resumption. The
// simulator never decodes a FEN with the chess library, whose FEN parser
// is not safe for concurrent use: a game picked up after a restart
// replays its moves from the device's history.
//
// # Chaos
//
// Every mode is switched on by its rate in Chaos (ParseChaos reads
// "cut,latency,dup,reorder,reboot,drift,die"), and draws its decisions
// from the seed, per device:
//
//   - Cut: after a press, the device's network is cut — its connections
//     closed, new ones refused for CutFor — and restored; the clock keeps
//     running and recording, and the device reconnects with backoff and
//     resends its outbox.
//   - Latency, Jitter: every write on a device's connection arrives
//     Latency plus up to Jitter later (real time), in order, without
//     limiting throughput.
//   - Duplicate: an event the device sends is sent twice (a client stream
//     interceptor on the device's connection); the hall drops the second
//     and acknowledges it again.
//   - Reorder: an event is held back and sent after the next one; the hall
//     sees a sequence gap and ends the stream with OUT_OF_RANGE, and the
//     device reconnects and resends in order. A held event with no
//     follower is sent after 250 ms.
//   - Reboot: the power fails as a player presses: the link goes down, the
//     press is recorded in the device's file outbox (OutboxDir) but not
//     sent, the device is switched off and, after RebootFor, started again
//     from the outbox (clockdev.OpenFileOutbox), recovering its board and
//     delivering what it had not sent. The time it was off does not count
//     on its clock.
//   - DriftPPM: each device's oscillator runs fast or slow by up to
//     DriftPPM parts per million (clockdev.Config.DriftPPM); its board
//     time, and its flags, follow its own oscillator.
//   - Die: in a game, at some move, the clock dies for good; the arbiter
//     notices after DieNotice and moves the board to a server-hosted
//     virtual clock (Arbiter.UseVirtualClock); the players finish the game
//     through the arbiter's console (BoardAction PRESS and the rest). A
//     new clock with empty storage replaces the dead one for the next
//     round.
//
// The Summary counts what was injected (cuts, duplicated and reordered
// sends, reboots and the unsent events they recovered and delivered,
// deaths); HallStats, when given, adds what the hall saw (duplicates
// dropped, sequence gaps).
//
// # Resuming
//
// With StateDir the fleet keeps fleet.json (the ids of the tournaments,
// rounds and boards it created, the device tokens; mode 0600) and each
// device's file outbox. Started again on the same StateDir and the same
// hall, it finds its tournaments, issues no new tokens, reopens every
// device on its outbox (which holds the board, its history and the events
// not yet acknowledged), finishes the unfinished round — the players
// pick up each game from what the clock shows: whose move, the time left,
// the e-board's position — starts any board not started, and goes on with
// the next rounds.
//
// # Repeatability
//
// Each game's decisions come from a generator seeded by the fleet's Seed
// and the game's place in the hall (tournament, round, board number), and
// each device's faults from one seeded by the Seed and the device. A
// decision depends on what the clock shows when it is made, so a live run
// repeats its decisions as far as the timing of the machine repeats what
// the clocks show; Rehearse, where the clock shows exactly what the
// decisions made it show, repeats exactly.
//
// # Concurrency
//
// A Fleet is used by one caller: New, then Run once; Summary may be called
// from any goroutine while it runs. Run starts one goroutine per table
// (device and players) — which owns its device, its game and its chaos
// decisions — plus, per device, the device's link (clockdev.Device.Run:
// a receive and a send loop) and gRPC's own connection goroutines, and,
// when Latency is on, a writer per connection; one goroutine per
// tournament creates and watches its rounds; one prints the progress. A
// table blocks only on its own device, its own arbiter calls and its own
// timers, so a slow board never holds up another. OnAck and HallStats are
// called from the devices' receive loops and the progress goroutine: keep
// them quick. Run returns after every goroutine it started has ended.
package sim
