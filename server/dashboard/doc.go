// Package dashboard is the arbiters' dashboard: one web page, and its
// embedded scripts and styles, from which a chief arbiter runs a hall of
// hundreds of boards and a deputy runs a section from a tablet.
//
// The page shows every board of the hall's current rounds (or of one
// round) as compact tiles grouped by round and section — at least 200 on
// a 1920×1080 screen — or as a list: players with ratings (FIDE ids on
// hover), both clocks ticking in the browser from the last state (no
// traffic per second: a state says its server time, server_unix_ms, and
// the page runs the running clock forward with requestAnimationFrame),
// whose clock runs and who is to move, move, period and what it gives,
// game type, status, result, the clock device's state. A "Needs
// attention" panel orders what an arbiter must see to by urgency (a flag
// fallen, a claim waiting for a decision, a clock offline, a command not
// yet applied, a player absent as the default time nears, ...), each
// entry leading to its board. A board shows its timeline (the audit log,
// readable: every press with the time it took and the time left, pauses,
// period changes, penalties, arbiter actions with who and why), its moves
// and position when an e-board sent them, a chart of both clocks over the
// moves, and every action hallctl has for a board, each confirmed after a
// dry run shows what it will do.
//
// A Standings view shows a tournament's or a section's standings and
// crosstable after any round (the Standings RPC), sortable and searchable,
// said to be provisional while a round plays. Print pages give a round's
// pairings, its results sheet and the standings ready for the wall (A4 or
// Letter, nothing of the dashboard on them).
//
// # What it talks to
//
// The page is a client of the hall like any other; this package holds no
// state and calls nothing. The page uses:
//
//	GET  /api/session            who is signed in (role, sections, CSRF token); /signin when nobody is
//	POST /api/arbiter/{Method}   the Arbiter service in protojson, as the session (ListRounds,
//	                             ListBoards, AuditLog, ListDevices, BoardAction, AssignDevice, ...)
//	GET  /api/watch[?round=]     the hub's live feed (server-sent events of WatchUpdate)
//	POST /signout                sign out
//
// so it can do exactly what the signed-in token may do over gRPC, no more:
// broadcast tokens get a read-only view (delayed like their feeds), an
// arbiter limited to sections sees and acts on those sections only.
//
// # Serving
//
// Routes registers GET / (the page) and GET /dashboard/{file} (its
// assets) and GET /print/pairings/{round}, /print/results/{round} and
// /print/standings/{tournament} (one page, print.html, whose script asks
// the hall as the session: a visitor not signed in is sent to sign in),
// embedded in the binary: nothing is fetched from the network at
// run time and there is no build step. Assets carry an ETag and are
// revalidated on each load; the page has a strict Content-Security-Policy
// (scripts and styles from the server only, no inline script), and writes
// every name it shows as text, never as markup. Routes also registers
// GET /assets/{file}: the browser clock's WebAssembly and its loader under
// their content hashes, cached for a year (package clockwasm).
package dashboard
