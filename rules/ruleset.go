package rules

import "fmt"

// Ruleset names an edition of the FIDE Laws of Chess. Each is kept working;
// an event chooses one, and its Regulations may override the defaults the
// ruleset gives.
type Ruleset string

const (
	FIDE2023 Ruleset = "fide-2023" // Laws effective 1 January 2023 (the default)
	FIDE2018 Ruleset = "fide-2018" // Laws effective 1 January 2018
	FIDE2009 Ruleset = "fide-2009" // Laws effective 1 July 2009
	FIDE2005 Ruleset = "fide-2005" // Laws of the early 2000s (rapidplay appendix B, blitz appendix C)
)

// DefaultRuleset is used when an event names none.
const DefaultRuleset = FIDE2023

// Rulesets lists every supported ruleset, newest first: the rulesets of
// the profile table.
var Rulesets = func() []Ruleset {
	rs := make([]Ruleset, len(profiles))
	for i, p := range profiles {
		rs[i] = p.Ruleset
	}
	return rs
}()

// ParseRuleset reads a ruleset id; the empty string means DefaultRuleset.
// An unknown id is refused by name, with the known ones.
func ParseRuleset(s string) (Ruleset, error) {
	p, err := ProfileOf(Ruleset(s))
	if err != nil {
		return "", err
	}
	return p.Ruleset, nil
}

// Category is the game type of Appendix A.1 / B.1: blitz, rapid or standard.
type Category int8

const (
	Standard Category = iota
	Rapid
	Blitz
)

func (c Category) String() string {
	switch c {
	case Standard:
		return "standard"
	case Rapid:
		return "rapid"
	case Blitz:
		return "blitz"
	}
	return fmt.Sprintf("Category(%d)", int8(c))
}

// Supervision says whether rapid and blitz games are adequately supervised
// (2023 A.4/B.2, 2018 A.3/B.3, 2009 A3/B2: the Competition Rules apply as
// in standard games) or not (2023 A.5/B.3, 2018 A.4/B.4, 2009 A4/B3: flags
// count only when claimed, illegal moves only before the opponent moves, ...).
// Standard games are always treated as adequately supervised; an edition
// without the notion (fide-2005, Profile.SupervisionDecides) ignores it
// and its appendices govern every rapid and blitz game.
type Supervision int8

const (
	Adequate Supervision = iota
	Insufficient
)

func (s Supervision) String() string {
	if s == Insufficient {
		return "insufficient"
	}
	return "adequate"
}

// PeriodChange says when the clock adds the next period's time.
type PeriodChange int8

const (
	// ByMoves: when the player completes the last move of the period.
	ByMoves PeriodChange = iota
	// AtFlag: when the player's time of the period runs out; the move
	// requirement is then checked (6.4 2023) and the game lost if unmet.
	AtFlag
)

func (p PeriodChange) String() string {
	if p == AtFlag {
		return "flag"
	}
	return "moves"
}

// Scoring is what a win, a draw and a loss score. The zero value means
// the usual 1, ½, 0.
type Scoring struct {
	Win, Draw, Loss float64
}

// ClassicScoring is 1 / ½ / 0.
var ClassicScoring = Scoring{Win: 1, Draw: 0.5, Loss: 0}

// Regulations are what an event's regulations decide. Every field's zero
// value means "the ruleset's default"; see the package documentation for the
// defaults of each ruleset.
type Regulations struct {
	// Supervision of rapid and blitz games (default Adequate).
	Supervision Supervision
	// QuickplayFinish: the event announced Guidelines III (2023, 2018). The
	// 2009 and 2005 Laws apply Art. 10.2 without announcement.
	QuickplayFinish bool
	// DefaultTimeMs: how late a player may arrive (6.7). Nil means the
	// ruleset's default: 0 (at once) in 2023, 2018 and 2009, one hour in 2005.
	DefaultTimeMs *int64
	// ResumptionDefaultMs: how late a player may arrive at the resumption
	// of an adjourned game (Guidelines I.10). Nil means the ruleset's
	// default: the default time in 2023 and 2018, one hour in 2009 and 2005.
	ResumptionDefaultMs *int64
	// PeriodChange: when the next period's time is added (default ByMoves).
	PeriodChange PeriodChange
	// IncrementAtStart: the first period's increment is also given before
	// move 1, as some clocks do.
	IncrementAtStart bool
	// IllegalMovePenaltyMs, if not nil, replaces the ruleset's time given to
	// the opponent for an illegal move (7.5.5).
	IllegalMovePenaltyMs *int64
	// DrawClaimPenaltyMs, if not nil, replaces the ruleset's time given to
	// the opponent for an incorrect draw claim (9.5.3).
	DrawClaimPenaltyMs *int64
	// Scoring of results; zero value means 1 / ½ / 0.
	Scoring Scoring
	// DrawOdds: a draw counts as this side's win (an Armageddon game gives
	// them to Black); the board's result stays the draw (State.CountingResult).
	DrawOdds DrawOdds `json:",omitempty"`
}

// Config is everything that fixes how one board's clock behaves.
type Config struct {
	Ruleset     Ruleset
	TimeControl TimeControl
	Regulations Regulations
	// Blind: the board is played under the rules for play with visually
	// disabled players (2018 Appendix D), and how; the zero value: it is not.
	Blind BlindPlay `json:",omitzero"`
}

// Ms returns a pointer to v, for the optional millisecond fields of Regulations.
func Ms(v int64) *int64 { return &v }
