// Package arbiter is the Arbiter and Admin services: the arbiters' and
// the chief arbiter's calls. Setting the hall up (tournaments, rounds,
// boards, the hall plan), acting on boards (actions, dry runs, starting a
// round), devices (assign, swap, virtual clocks), reading (boards, audit
// logs, rounds with their tallies), tokens, broadcasts, importing a round
// from a pairing program's file and exporting its results (TRF, CSV, PGN),
// and backups. It also answers the web pages: the same methods as JSON
// (POST /api/arbiter/{Method}), through the generated descriptors to the
// same handlers, after the same role table and validation.
//
// Roles are checked at the door (auth.MayCall); sections here (an arbiter
// limited to sections acts on their boards only); the work itself is the
// hall's (package hall).
//
// # Usage
//
//	svc := arbiter.New(arbiter.Options{Hall: h, Store: st, ...})
//	pb.RegisterArbiterServer(grpcServer, svc)
//	pb.RegisterAdminServer(grpcServer, svc.Admin())
//	svc.Routes(mux)
//
// # Concurrency
//
// Handlers run on the callers' goroutines; what they change on a board
// runs on its actor, and what they change in the store is one
// transaction per call (an import included: read, plan, write, install).
package arbiter
