package rules

// LockChess takes the lock that serialises the chess library's parsers
// that keep package-level state, and returns its unlock:
//
//   - FEN decoding (chess.FEN, chess.NewGame, chess.StartingPosition) keeps
//     the ranks in a package-level buffer (corentings/chess v2.3.2,
//     fen.go: rankBuffer);
//   - SAN decoding (AlgebraicNotation.Decode, Game.PushNotationMove) returns
//     a slice it has already put back in a sync.Pool (notation.go:
//     generateOptions), so two decodings at once overwrite each other's
//     candidate moves.
//
// The rules hold it for their FEN checks; code elsewhere that makes the
// library decode a FEN or a move while boards play (the simulator's and
// the PGN writer's move replay, tests) holds it meanwhile.
func LockChess() (unlock func()) {
	chessFENMu.Lock()
	return chessFENMu.Unlock
}
