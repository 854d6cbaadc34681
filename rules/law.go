package rules

// Amounts every edition shares. What differs between the rulesets is in
// their profiles (profile.go, profiles.go).
const (
	minute          = 60_000
	quickplayLimit  = 2 * minute // "less than two minutes" (III.4, III.5, III.6, 10.2, Appendix D)
	quickplayBonus  = 5_000      // III.4: an extra five seconds a move
	quickplayExtra  = 2 * minute // III.4, III.5, 10.2: the opponent's two extra minutes
	timeTroubleMs   = 5 * minute // 8.4: "less than five minutes left on his clock"
	timeTroubleIncr = 30_000     // 8.4: "additional time of 30 seconds or more added with each move"
)

// profile returns the profile of the state's ruleset, or nil for an
// unknown one (a State built by hand; NewState refuses those).
func (s *State) profile() *Profile {
	p, err := ProfileOf(s.Config.Ruleset)
	if err != nil {
		return nil
	}
	return p
}

// Supervised reports whether the Competition Rules govern flags, illegal
// moves and claims as in standard games: always for standard games, and
// for rapid and blitz when the edition lets the regulations decide and
// they say the supervision is adequate.
func (s *State) Supervised() bool {
	p := s.profile()
	return p != nil && p.supervised(s.Config.Regulations, s.Category)
}

// IllegalMovePenaltyMs is the time the opponent receives for a completed
// illegal move on this board (7.5.5); 0 for an unknown ruleset.
func (s *State) IllegalMovePenaltyMs() int64 {
	if p := s.profile(); p != nil {
		return p.IllegalMovePenaltyMs(s.Config.Regulations, s.Category)
	}
	return 0
}

// DrawClaimPenaltyMs is the time the opponent receives for an incorrect
// draw claim on this board (9.5.3); 0 for an unknown ruleset.
func (s *State) DrawClaimPenaltyMs() int64 {
	if p := s.profile(); p != nil {
		return p.DrawClaimPenaltyMs(s.Config.Regulations, s.Category)
	}
	return 0
}
