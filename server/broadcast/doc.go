// Package broadcast serves a hall's rounds to the world: live PGN with
// clocks that lichess and every relay read, polled or pushed, and a
// display page for the hall's screens and spectators.
//
// It is written against Source, a small interface — rounds, their boards
// (players, rules) and each board's committed events with the wall time
// of their commit, and a change counter per round — which the hall server
// implements over its store, and which a stateless gateway can implement
// over the hall's event stream: the feeds hold no state of their own
// beyond caches, so any number of gateways serve the same documents.
//
// # Usage
//
//	changes := broadcast.NewChanges()        // the source tells it of each commit
//	f := broadcast.New(broadcast.Options{Source: src, Delay: 15 * time.Minute,
//		Authenticate: door, Registerer: reg})
//	f.Routes(mux)
//	f.SetRelay(roundID, &broadcast.Relay{URL: pushURL, Token: token})
//	...
//	f.Close()
//
// # Endpoints
//
//	GET /api/pgn/round/{round}            every game of the round, one PGN document
//	GET /api/pgn/board/{board}            one board's game
//	GET /display/round/{round}            the display page (?boards=1-12, ?section=A)
//	GET /api/display/round/{round}        what the page shows, JSON
//	GET /api/display/round/{round}/live   the same as server-sent events, at each change
//	GET /api/standings/{tournament}       a tournament's standings (Options.Standings computes them)
//	GET /api/standings/{tournament}/live  the same as server-sent events, at each change
//	GET /standings/{tournament}           the standings page
//	GET /display/standings/{tournament}   the standings for the hall's screens, fitted and paging
//
// A reader with credentials (Options.Authenticate: the hall's bearer
// tokens and web sessions) sees what its role allows: arbiters live,
// broadcast tokens with the delay. A round the chief arbiter made public
// needs no credentials and is shown with the delay.
//
// # PGN
//
// The games are written by formats/pgn with Round "5.12" (round and board,
// as lichess broadcasts identify a game), [%clk] and [%emt] after every
// move, the arbiter's rulings as comments, Termination, and the current
// FEN for a game without e-board moves.
//
// # The delay
//
// With a delay d, a reader who is not live at time t is shown each board's
// events committed up to t − d, and nothing newer: the delayed PGN at t is
// exactly the live PGN at t − d (events carry the wall time of their
// commit; Options.Clock must be the clock of those times).
//
// # Caching and conditional requests
//
// Nothing is rendered per request while nothing changed. A round's view
// (live, delayed, limited to sections, one board) is a cut: how many
// events of each board it shows. A cut stays valid until the source's
// change counter moves or, with a delay, until the next event comes out of
// it; then the events not read yet are read (only those) and only the
// boards whose shown events changed are written again. The document keeps
// a strong ETag (a hash of its content) and Last-Modified (the newest
// event shown), so a poller sending If-None-Match or If-Modified-Since
// every second gets 304 Not Modified for a map lookup and a comparison;
// gzip is sent when asked (Accept-Encoding), compressed once per document.
// Nothing of this runs on the hall's ingest path: the source only bumps a
// counter after each commit (Changes).
//
// # Relays
//
// SetRelay pushes a round's PGN (the public view, with the delay) to a
// relay whenever it changes, shaped like the lichess broadcast push API:
// POST of the whole round's PGN, Content-Type text/plain, Authorization:
// Bearer <token>. One goroutine per round: at most one push in flight, and
// each push takes the round as it is then, so changes meanwhile are
// coalesced and the latest state wins — a relay never gets an older state
// after a newer one. At most one push per RelayOptions.MinInterval; a
// failed push (no answer, or not 2xx) is retried with exponential backoff
// (MinBackoff doubling up to MaxBackoff) with the state of the moment.
// RelayStatuses says how each relay fares (also as the metrics
// hall_broadcast_relay_*).
//
// # Concurrency
//
// Feeds are safe for concurrent use. Each round's cache has its own mutex:
// pollers of one round share its renders, rounds do not wait for each
// other. A display stream costs one write of a shared, already encoded
// update per change (at most one per 250 ms).
package broadcast
