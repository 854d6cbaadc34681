package rules

import "strings"

// Profile is everything one ruleset decides, as data: the game-type
// thresholds, the penalty times, what the supervision of rapid and blitz
// changes, the claim and flag rules, the quickplay finish, the clock-setting
// lock, the default times and the article numbers its messages cite. The
// engine reads only profiles; no code branches on a ruleset's name, so an
// edition (or a national ruleset) is one entry of the table in profiles.go
// and its vectors. Every amount is a default that the event's
// [Regulations] may override where they have a field for it.
type Profile struct {
	Ruleset Ruleset // the id events use, e.g. "fide-2023"
	Edition string  // how messages name the text, e.g. "FIDE 2023"
	Source  string  // where the text comes from, for the documentation

	// Game type (Appendix A.1 / B.1) from T, the time for 60 moves
	// (TimeControl.SixtyMoveMs): blitz when T ≤ BlitzMaxMs, rapid when
	// BlitzMaxMs < T ≤ RapidMaxMs, standard above. A threshold "below 15
	// minutes" is written 15 min − 1 ms: T is a whole number of ms.
	BlitzMaxMs, RapidMaxMs int64

	// IllegalMovePenalty: the time the opponent receives for a completed
	// illegal move (7.5.5; 7.4(b) in the older editions).
	IllegalMovePenalty PerGame
	// DrawClaimPenalty: the time the opponent receives for an incorrect
	// draw claim under Art. 9 (9.5.3; 9.5(b) in the older editions).
	DrawClaimPenalty PerGame
	// IllegalMovesToLose: the completed illegal moves by one player that
	// lose the game (the 2nd in 2023 and 2018, the 3rd before).
	IllegalMovesToLose int

	// DefaultTimeMs: how late a player may arrive at the start (6.7; 6.6 in
	// the older editions), unless the regulations say otherwise.
	DefaultTimeMs int64
	// ResumptionDefaultMs: how late a player may arrive at the resumption
	// of an adjourned game (Guidelines I.10; 2009 guideline 10; 2005 A10);
	// SameAsStart means the event's default time.
	ResumptionDefaultMs int64

	// SupervisionDecides: the regulations' word on the supervision of rapid
	// and blitz decides whether the Competition Rules govern them. False
	// when the edition has no notion of supervision and its appendices
	// govern every rapid and blitz game (2005 B, C).
	SupervisionDecides bool
	// Unsupervised: how rapid and blitz games go where the appendices
	// govern them (insufficient supervision, or always without the notion).
	Unsupervised Unsupervised

	// Quickplay: the quickplay finish (Guidelines III; Art. 10 before 2018).
	Quickplay Quickplay
	// UnorderedFlags: both flags down and it cannot be established which
	// fell first (Guidelines III.3; 2009 Art. 6.8; 2005 Art. 6.11).
	UnorderedFlags FlagOrder
	// DeclaredLost: the opponent's score when the arbiter declares a game
	// lost (12.9; a sounding phone, 2009/2005 Art. 12.2(b)).
	DeclaredLost OpponentScore

	// Articles: where this text holds each rule, as its messages cite it
	// ("Art. 6.10.2", "Appendix A4(a)"); "" where the text has no such rule.
	Articles map[Law]string

	// Blind: its rules for play with visually disabled players (2018
	// Appendix D), as citations.
	Blind BlindText
}

// SameAsStart, as Profile.ResumptionDefaultMs, means the resumption of an
// adjourned game has the event's default time for the start.
const SameAsStart int64 = -1

// PerGame is an amount for each game type, with rapid and blitz apart for
// games that the appendices govern (insufficient supervision).
type PerGame struct {
	Standard, Rapid, Blitz               int64 // the Competition Rules
	RapidUnsupervised, BlitzUnsupervised int64 // the appendices
}

// For returns the amount for a game of category c, supervised or not.
func (a PerGame) For(c Category, supervised bool) int64 {
	switch {
	case c == Rapid && supervised:
		return a.Rapid
	case c == Rapid:
		return a.RapidUnsupervised
	case c == Blitz && supervised:
		return a.Blitz
	case c == Blitz:
		return a.BlitzUnsupervised
	}
	return a.Standard
}

// Unsupervised are the rules of rapid and blitz games that the appendices
// govern.
type Unsupervised struct {
	// SettingLockMoves: once each player has completed this many moves, no
	// claim about the clock setting (2023 A.5.1.1: 10; 2009 A4(a), 2005 B4: 3).
	SettingLockMoves int
	// ScheduleException: the lock gives way when the schedule of the
	// event would otherwise suffer (2023 A.5.1.1, 2018 A.4.1.1). 2009
	// A4(a) and 2005 B4 have no exception: a set_clock with
	// schedule_override is refused there like any other.
	ScheduleException bool
	// OwnFlagMustStand: a time-win claimant's own flag must still be up
	// (2009 A5, 2005 B8).
	OwnFlagMustStand bool
	// BothFlagsDraw: the game is drawn the moment both flags are down
	// (2009 A6, 2005 B8); otherwise the first to fall decides.
	BothFlagsDraw bool
	// BlitzIllegalMoveWins: in blitz the opponent may claim a win for an
	// illegal move, drawn if he cannot checkmate (2009 B3(c), 2005 C3);
	// otherwise the penalty of an illegal move applies.
	BlitzIllegalMoveWins bool
	// ArbiterCallsFlag: the arbiter calls a flag fall he observes, which
	// ends the game as a valid claim would (2023 A.5.5, 2018 A.4.5);
	// otherwise he refrains and only the player's claim counts (2009
	// A4(d), 2005 B7).
	ArbiterCallsFlag bool
}

// Quickplay is the quickplay finish of a ruleset.
type Quickplay struct {
	// Announced: it applies only if the event announced it (2023/2018
	// Guidelines III.2.1); otherwise it is part of the Laws (Art. 10).
	Announced bool
	// FiveSecondRequest: a player may request five seconds a move (III.4).
	FiveSecondRequest bool
	// BlitzWhenSupervised: adequately supervised blitz follows the
	// Competition Rules, so the claim applies there (2009 B2). Otherwise
	// it never applies to blitz (III.2.2, 2009 B3(b), 2005 C2).
	BlitzWhenSupervised bool
	// NoArbiter: a claim with no arbiter present ends the game and is
	// referred to the arbiter (III.6; 2009 Appendix D).
	NoArbiter bool
	// LastPeriodOnly: the quickplay finish is a phase of the game, "when
	// all the (remaining) moves must be made in a limited time" (2009 and
	// 2005 Art. 10.1): a last period without increment or delay has one,
	// whatever an earlier period gave. Otherwise the guidelines apply only
	// to "games without increment" (2023/2018 III.2.2), and an increment
	// or delay in any period makes the game one with increment.
	LastPeriodOnly bool
}

// FlagOrder is what happens when both flags have fallen and it cannot be
// established which fell first. Append only.
type FlagOrder int8

const (
	// FlagOrderNoRule: the text has no rule; the arbiter decides (6.10.1).
	FlagOrderNoRule FlagOrder = iota
	// FlagOrderByPeriod: play continues in a period other than the last,
	// and the game is drawn in the last (2009 Art. 6.8).
	FlagOrderByPeriod
	// FlagOrderGuidelines: as FlagOrderByPeriod, where the quickplay
	// guidelines apply: announced, no increment or delay, not blitz
	// (2023/2018 Guidelines III.3 with III.2).
	FlagOrderGuidelines
	// FlagOrderContinue: play continues (2005 Art. 6.11).
	FlagOrderContinue
)

// OpponentScore is the opponent's score when the arbiter declares a game
// lost without saying it. Append only.
type OpponentScore int8

const (
	// OpponentWins: the opponent wins (2023 Art. 11.3.2.1, 12.9).
	OpponentWins OpponentScore = iota
	// OpponentWinsIfHeCan: the opponent wins; if he cannot win by any
	// series of legal moves, he scores a draw (2009 Art. 12.2(b)).
	OpponentWinsIfHeCan
	// OpponentByArbiter: the arbiter determines the opponent's score and
	// must say it (2005 Art. 12.2(b)).
	OpponentByArbiter
)

// Law names a rule that a message cites; each profile says where its text
// holds it (Profile.Articles). Append only.
type Law string

const (
	LawGameOver           Law = "game over"                       // Art. 5: the game has ended
	LawStart              Law = "start"                           // 6.6: White's clock is started
	LawDefaultTime        Law = "default time"                    // 6.7: arriving late
	LawFlag               Law = "flag"                            // 6.8: when a flag is considered fallen
	LawDefectiveClock     Law = "defective clock"                 // 6.10.1: the arbiter sets the times
	LawClockSetting       Law = "clock setting"                   // 6.10.2: a wrong setting is corrected
	LawStopClock          Law = "stopping the clock"              // 6.11: pausing and restarting
	LawIllegalMove        Law = "illegal move"                    // 7.5.1: the position before is reinstated
	LawTimeTrouble        Law = "time trouble"                    // 8.4: under five minutes
	LawArbiterPenalties   Law = "arbiter's penalties"             // 12.9: time and score
	LawDeclaredLost       Law = "game declared lost"              // 12.9 / 12.2(b): the opponent's score
	LawAdjourn            Law = "adjournment"                     // Guidelines I
	LawAdjournEarly       Law = "adjourning early"                // I.1.2: time to the session's end
	LawResumption         Law = "resumption"                      // I.9: who must be there
	LawResumptionDefault  Law = "late for the resumption"         // I.10 / A10
	LawSettingLock        Law = "clock setting locked"            // A.5.1.1 / A4(a) / B4
	LawIllegalClaim       Law = "illegal move claim, rapid"       // A.5.2 / A4(c) / B6
	LawBlitzIllegalClaim  Law = "illegal move claim, blitz"       // B.3 / B3(c) / C3
	LawOwnFlag            Law = "claimant's own flag"             // A5 / B8
	LawBothFlags          Law = "both flags down"                 // A6 / B8
	LawQuickplayFinish    Law = "quickplay finish"                // III.1 / 10.1: all remaining moves
	LawQuickplayAnnounced Law = "quickplay announced"             // III.2.1
	LawQuickplayIncrement Law = "quickplay with an increment"     // III.2.2 / 10.1
	LawQuickplayBlitz     Law = "quickplay in blitz"              // III.2.2 / B3(b) / C2
	LawQuickplayRequest   Law = "five seconds a move"             // III.4
	LawQuickplayClaim     Law = "quickplay claim"                 // III.5 / 10.2
	LawQuickplayNoArbiter Law = "quickplay claim without arbiter" // III.6 / Appendix D
	LawUnorderedFlags     Law = "flag order unknown"              // III.3 / 6.8 / 6.11
	LawArbiterFlag        Law = "arbiter calls a flag"            // A.5.5 / A.4.5 / A4(d) / B7
	LawSealedMove         Law = "sealed move"                     // I.8 / guideline 8 / A8: an illegal sealed move loses
	LawSealedMoveEnds     Law = "sealed move ends the game"       // I.10 / guideline 10 / A10
	LawEnvelopeLost       Law = "envelope lost"                   // I.12 / guideline 11 / A11
)

// Laws lists every Law, for the tests that check each profile cites them.
var Laws = []Law{
	LawGameOver, LawStart, LawDefaultTime, LawFlag, LawDefectiveClock, LawClockSetting, LawStopClock,
	LawIllegalMove, LawTimeTrouble, LawArbiterPenalties, LawDeclaredLost, LawAdjourn, LawAdjournEarly,
	LawResumption, LawResumptionDefault, LawSettingLock, LawIllegalClaim, LawBlitzIllegalClaim, LawOwnFlag,
	LawBothFlags, LawQuickplayFinish, LawQuickplayAnnounced, LawQuickplayIncrement, LawQuickplayBlitz,
	LawQuickplayRequest, LawQuickplayClaim, LawQuickplayNoArbiter, LawUnorderedFlags,
	LawArbiterFlag, LawSealedMove, LawSealedMoveEnds, LawEnvelopeLost,
}

// Cite returns the reference to law in this text, with the edition:
// "FIDE 2009 Art. 6.10(b)", "FIDE 2023 Guidelines III.5"; "" if the text
// has no such rule.
func (p *Profile) Cite(law Law) string {
	a := p.Articles[law]
	if a == "" {
		return ""
	}
	return p.Edition + " " + a
}

// ProfileOf returns the profile of ruleset r; "" is DefaultRuleset. An
// unknown ruleset is an *InputError naming it and the known ones.
func ProfileOf(r Ruleset) (*Profile, error) {
	if r == "" {
		r = DefaultRuleset
	}
	for i := range profiles {
		if profiles[i].Ruleset == r {
			return &profiles[i], nil
		}
	}
	return nil, &InputError{What: "ruleset", Value: string(r), Problem: "no such ruleset", Allowed: rulesetList()}
}

// Profiles returns every profile, newest edition first. The caller must not
// change them.
func Profiles() []*Profile {
	out := make([]*Profile, len(profiles))
	for i := range profiles {
		out[i] = &profiles[i]
	}
	return out
}

func rulesetList() string {
	names := make([]string, len(profiles))
	for i, p := range profiles {
		names[i] = string(p.Ruleset)
	}
	return strings.Join(names, ", ")
}

// GameType returns the category of a game played with tc under this
// profile, from T = tc.SixtyMoveMs() (Appendix A.1 / B.1). The
// appendices define rapid and blitz by the time of "each player": with a
// control per side the game is rapid (blitz) when each side's control is;
// when the two fall in different categories neither appendix's
// definition holds and the game is standard (docs/laws.md).
func (p *Profile) GameType(tc TimeControl) Category {
	if tc.Black != nil {
		w, b := p.GameType(tc.For(White)), p.GameType(tc.For(Black))
		if w != b {
			return Standard
		}
		return w
	}
	switch t := tc.SixtyMoveMs(); {
	case t <= p.BlitzMaxMs:
		return Blitz
	case t <= p.RapidMaxMs:
		return Rapid
	}
	return Standard
}

// IllegalMovePenaltyMs is the time the opponent receives for a completed
// illegal move in a game of category c: the regulations' amount, else the
// profile's for the game type and supervision.
func (p *Profile) IllegalMovePenaltyMs(reg Regulations, c Category) int64 {
	if v := reg.IllegalMovePenaltyMs; v != nil {
		return *v
	}
	return p.IllegalMovePenalty.For(c, p.supervised(reg, c))
}

// DrawClaimPenaltyMs is the time the opponent receives for an incorrect
// draw claim under Art. 9 in a game of category c.
func (p *Profile) DrawClaimPenaltyMs(reg Regulations, c Category) int64 {
	if v := reg.DrawClaimPenaltyMs; v != nil {
		return *v
	}
	return p.DrawClaimPenalty.For(c, p.supervised(reg, c))
}

// DefaultTime is the default time of the start: the regulations', else
// the profile's.
func (p *Profile) DefaultTime(reg Regulations) int64 {
	if v := reg.DefaultTimeMs; v != nil {
		return *v
	}
	return p.DefaultTimeMs
}

// ResumptionDefault is the default time of the resumption of an adjourned
// game: the regulations', else the profile's (or the start's).
func (p *Profile) ResumptionDefault(reg Regulations) int64 {
	if v := reg.ResumptionDefaultMs; v != nil {
		return *v
	}
	if p.ResumptionDefaultMs == SameAsStart {
		return p.DefaultTime(reg)
	}
	return p.ResumptionDefaultMs
}

// supervised reports whether the Competition Rules govern a game of
// category c as in standard games: always for standard games; for rapid
// and blitz when the edition lets the supervision decide and the
// regulations say it is adequate.
func (p *Profile) supervised(reg Regulations, c Category) bool {
	return c == Standard || (p.SupervisionDecides && reg.Supervision == Adequate)
}
