package rules

// LockChessFEN takes the lock that serialises the chess library's FEN
// decoding (see chessFENMu) and returns its unlock. Code outside this
// package that makes the library decode a FEN (chess.FEN, chess.NewGame,
// chess.StartingPosition) while the rules may run elsewhere — tests that
// replay e-board games beside a playing hall — holds it meanwhile.
func LockChessFEN() (unlock func()) {
	chessFENMu.Lock()
	return chessFENMu.Unlock
}
