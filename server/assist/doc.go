// Package assist is the page of a visually disabled player's assistant
// (FIDE 2018 and 2023 Appendix D.2.10, 2009 Appendix E2.9), for a phone
// at the board. It holds no state and calls nothing: the page is a client
// of the hall like any other, signed in by a one-time link scoped to one
// board and one side (the role assistant), and it may do exactly what the
// hall lets that role do there, which is what the Laws let an assistant do
// (rules.AssistantMay, rules.MayAnnounce) — nothing else of the hall is
// reachable from it.
//
// The page shows the board's players, whose move it is, the moves
// completed, the time left and the time used by both (the running side's
// counting down on the page between the hall's states), and four large
// buttons:
//
//   - press the clock for the player, once his move is made: the
//     opponent's clock starts (D.2.3-D.2.4, D.2.10.3);
//   - announce the completed moves and the time used by both (D.2.10.4,
//     only when the player asks): the hall builds the words in the
//     player's language; his talking clock says them if he has one, else
//     the phone's speech synthesis does — the page never speaks unasked;
//   - claim the opponent's flag (D.2.10.5);
//   - stop the clock to call the arbiter (D.2.10.5, Art. 6.11.2), after
//     a second tap, as a stopped clock is the arbiter's to restart.
//
// Every control is named for a screen reader, the focus moves through
// them in reading order, colours keep a high contrast, and one status line
// (aria-live) says what each action did, or why the hall refused it.
//
// # What it talks to
//
//	GET  /api/session                   the assistant's board and side, the CSRF token
//	POST /api/arbiter/GetBoard          the board (players, clocks, moves, time used)
//	POST /api/arbiter/BoardAction       PRESS, FLAG_CLAIM, PAUSE for the player
//	POST /api/arbiter/Announce          the words to say
//	POST /signout                       sign out
//
// # Serving
//
// Routes registers GET /assist (the page) and GET /assist/{file} (its
// script and style), embedded in the binary under the same strict
// Content-Security-Policy as the dashboard (package webassets).
package assist
