// Package layers holds the project to its import structure: its test
// reads the imports of every package (go list) and fails on an arrow that
// points up — a lower layer importing a higher one, a package of the
// server importing the server itself, production code importing a test
// harness (internal/testkit), or the gateway's command linking SQLite or
// the hall. The table in its test is the folder map of the design, kept
// in code:
//
//	rules        the chess library (through internal/chesslib), rules/internal
//	formats      rules, formats/internal, internal/chesslib
//	formats/standings  rules, formats/trf (tie-breaks, crosstables)
//	storage      rules, internal/ident
//	server/...   storage, formats, rules, proto, internal; each a room of its own (see the table)
//	clockdev     rules, proto, formats, internal
//	cmd, tools   everything but internal/testkit
//
// A second test reads the README's folder map and fails on an arrow the
// code has and the map does not say, so that the table a newcomer reads
// cannot fall behind the code.
//
// Run it with go test ./tools/layers.
package layers
