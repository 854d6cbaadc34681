package rules

// This file holds what differs between the rulesets: one function per
// question, each citing the articles it follows. Everything else in the
// package is shared by all editions.

const (
	minute         = 60_000
	quickplayLimit = 2 * minute // "less than two minutes" (III.4, III.5, 10.2)
	quickplayBonus = 5_000      // III.4: an extra five seconds a move
	quickplayExtra = 2 * minute // III.4, III.5, 10.2: the opponent's two extra minutes
)

// supervised reports whether the Competition Rules apply to flags and
// illegal moves as in standard games: always for standard games, and for
// rapid and blitz when the regulations say supervision is adequate.
func (s *State) supervised() bool {
	return s.Category == Standard || s.Config.Regulations.Supervision == Adequate
}

// IllegalMovePenaltyMs is the time the opponent receives for a completed
// illegal move under cfg in a game of category c.
//
//	fide-2023: 2 min standard (7.5.5); 1 min rapid (A.3); blitz 1 min under
//	           B.3 (insufficient supervision, A.3) and 2 min under B.2
//	           (adequate supervision: the Competition Rules) — the
//	           regulations should say, with IllegalMovePenaltyMs.
//	fide-2018: 2 min standard and rapid (7.5.5); 1 min blitz (B.2).
//	fide-2009, fide-2005: 2 min (7.4.b).
func IllegalMovePenaltyMs(cfg Config, c Category) int64 {
	if p := cfg.Regulations.IllegalMovePenaltyMs; p != nil {
		return *p
	}
	switch cfg.Ruleset {
	case FIDE2023, "":
		switch c {
		case Rapid:
			return minute
		case Blitz:
			if cfg.Regulations.Supervision == Insufficient {
				return minute
			}
			return 2 * minute
		}
		return 2 * minute
	case FIDE2018:
		if c == Blitz {
			return minute
		}
	}
	return 2 * minute
}

// DrawClaimPenaltyMs is the time the opponent receives for an incorrect draw
// claim under Art. 9 (repetition, fifty moves).
//
//	fide-2023: as for an illegal move (9.5.3 with A.3).
//	fide-2018: 2 min; blitz 1 min (9.5.3, B.2).
//	fide-2009, fide-2005: 3 min (9.5.b).
func DrawClaimPenaltyMs(cfg Config, c Category) int64 {
	if p := cfg.Regulations.DrawClaimPenaltyMs; p != nil {
		return *p
	}
	switch cfg.Ruleset {
	case FIDE2023, "":
		return IllegalMovePenaltyMs(Config{Ruleset: FIDE2023, Regulations: Regulations{Supervision: cfg.Regulations.Supervision}}, c)
	case FIDE2018:
		if c == Blitz {
			return minute
		}
		return 2 * minute
	}
	return 3 * minute
}

// IllegalMovesToLose is the number of completed illegal moves by one player
// that loses the game: 2 in fide-2023 and fide-2018 (7.5.5), 3 in fide-2009
// and fide-2005 (7.4.b).
func IllegalMovesToLose(r Ruleset) int {
	if r.modern() {
		return 2
	}
	return 3
}

// DefaultTimeMs is the default time of 6.7: the regulations' value, else 0,
// except fide-2005 (6.6.a): one hour.
func DefaultTimeMs(cfg Config) int64 {
	if p := cfg.Regulations.DefaultTimeMs; p != nil {
		return *p
	}
	if cfg.Ruleset == FIDE2005 {
		return 60 * minute
	}
	return 0
}

// settingLockMoves is, for insufficiently supervised rapid and blitz, the
// number of moves each after which the clock setting may no longer be
// changed: 10 (2023 A.5.1.1, 2018 A.4.1.1), 3 (2009 A4(a), 2005 B4).
func settingLockMoves(r Ruleset) int {
	if r.modern() {
		return 10
	}
	return 3
}

// bothFlagsDraw reports whether, under insufficient supervision, the game
// is drawn the moment the second flag falls (2009 A6 / B3, 2005 B8 / C).
func bothFlagsDraw(r Ruleset) bool { return !r.modern() }

// ownFlagMustStand reports whether a time-win claimant's own flag must still
// be up (2009 A5, 2005 B8: "the claimant ... his own flag").
func ownFlagMustStand(r Ruleset) bool { return !r.modern() }

// blitzIllegalMoveLoses reports whether, in insufficiently supervised blitz,
// the opponent may claim a win for the first illegal move (2009 B3(c),
// 2005 C3), drawn if the claimant cannot checkmate.
func blitzIllegalMoveLoses(r Ruleset) bool { return !r.modern() }
