// Package pgn writes games in PGN, the Portable Game Notation (Steven J.
// Edwards, 1994: "Standard: Portable Game Notation Specification and
// Implementation Guide", export format), from what the hall keeps of a
// board: its players and the log of its clock's events (rules.Event),
// with the moves an electronic board sent (SAN and FEN). It is pure: no
// I/O beyond the writer it is handed, no clock.
//
// # Usage
//
//	g := pgn.Game{Event: "Nordic Autumn Open 2025", Site: "Bergen NOR", Date: day,
//		Round: 5, Board: 12, White: white, Black: black, Config: cfg, Log: log}
//	err := pgn.Write(w, []pgn.Game{g}, pgn.Options{})
//
// A game still going is written with the result "*" (a live broadcast
// writes the log as far as its delay allows); Options.Round
// chooses the Round tag's form: "5", or "5.12" as lichess broadcasts want
// round and game, where 12 is the game's place in the round across its
// sections (Game.Place: section A's boards, then section B's...), so that
// board 1 of two sections never share a tag; the Board tag keeps the
// board's number in its section, and Event names the section.
//
// # Tags
//
// The Seven Tag Roster (Event, Site, Date, Round, White, Black, Result),
// then Board, WhiteElo, BlackElo, WhiteTitle, BlackTitle, WhiteFideId,
// BlackFideId (the tags of lichess broadcasts), TimeControl in the PGN
// form (seconds: "40/5400+30:1800+30"), Termination (spec 9.8.1) and, for
// a game whose moves the hall does not have but whose position it does,
// SetUp "1" and FEN.
//
// # Moves and clocks
//
// Each move an e-board sent is checked against the position with the
// chess library and written in SAN, followed by a comment with
// [%clk h:mm:ss], the time left to the next control as the clock showed
// right after the move (its increment included), and [%emt h:mm:ss], the
// time the move took on the clock (pauses not counted) — the clock
// commands of lichess and ChessBase. Times are cut to whole seconds. A
// sealed move, reported as the position after it when the game resumes,
// is found among the legal moves. If a move does not fit the position,
// the moves stop there with a comment saying so.
//
// A game played without an e-board has no move the hall knows, and PGN's
// movetext holds legal moves only; each press is then a comment with the
// move's number and the same two clock commands, "{White, move 12: [%clk
// 1:29:56] [%emt 0:00:04]}", one after the other before the result (a
// reader shows the game without moves; the clocks are there for whoever
// reads the comments).
//
// # Rulings
//
// What the arbiter did becomes a comment where it happened: time added or
// taken, an illegal move and the time it gave the opponent (7.5.5), an
// incorrect draw claim (9.5.3), quickplay claims (III.4, III.5), a clock
// set, a pause and the restart, an adjournment, an absent player's
// arrival, a result the arbiter recorded — each with the reason given,
// unless Options.NoReasons (the public's feeds) leaves the reasons out.
//
// # Results
//
// PGN knows "1-0", "0-1", "1/2-1/2" and "*", and the Result tag holds
// one of them. Forfeits are written as the win they score ("+-" as 1-0,
// "-+" as 0-1) with Termination "abandoned" and a comment saying so. The
// results PGN has no notation for — "0-0", "--" (both lose, a double
// forfeit), "1/2-0" and "0-1/2" (one side scores a half, the other
// nothing) — are "*", the only result that claims no outcome, in the tag
// and as the game termination marker, after a comment giving each
// side's score, with the Termination tag saying how the game ended (a
// double forfeit: "abandoned"). Options.LichessResults puts lichess's
// forms in the Result tag instead ("0-0", "1/2-0", "0-1/2": lila's
// broadcast results, scalachess Outcome.pointsFromResult), for a
// broadcast that lichess is to score; the marker stays "*", so strict
// PGN readers (pgn-extract) still read the file. Termination follows the
// hall's:
//
//	normal, agreement  normal
//	time               time forfeit
//	illegal_move       rules infraction
//	default            abandoned
//	quickplay_claim    adjudication
//	arbiter            adjudication (rules infraction when one side scores nothing for it)
package pgn
