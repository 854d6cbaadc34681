package rules

import "strings"

// Play with visually disabled players: the FIDE 2018 Laws' Appendix D
// ("Rules for play with blind and visually disabled players"), the 2023
// Laws' Appendix D numbered alike, and the 2009 Laws' Appendix E ("rules
// for play with blind and visually handicapped players"). What the clock
// and the hall take from it:
//
//   - A board is played under it, for one player or both (the organiser,
//     after consulting the arbiter, may adapt the rules: 2018 D.1, 2009
//     E1). [BlindPlay] in the board's [Config] says which players are
//     visually disabled, who has an assistant, and the language the
//     clock speaks to each.
//   - A clock made for the visually disabled player may announce the time
//     and the number of moves to him (2018 D.2.6.1). The 2009 text admits
//     a tactile clock (E2.4); a talking clock there is the organiser's
//     adaptation (E1).
//   - The player's assistant may do what 2018 D.2.10 (2009 E2.9) lists,
//     and no more; a sighted player may have one for D.2.10.1 and D.2.10.2
//     only, when the visually disabled player has none (D.2.11, 2009
//     E2.10). [AssistantDuties] lists them with their articles;
//     [AssistantMay] checks an assistant's clock action.
//
// The Korean translation in the hall's seed letters the items of D.2.6
// and D.2.10 가, 나, 다, ... (a, b, c, ...); the FIDE text numbers them:
// D.2.10.3 is the seed's 제D조제2항제10호다목. The 2009 seed, machine
// translated, lost its numbering; it is rebuilt from the text's own cross
// references (E2.10 names "9.a and 9.b", E2.9(c) names "rule 3.c"). The
// 2005 text the hall has (articles 10-14 and appendices A-C) holds no such
// rules: a fide-2005 board takes the 2009 rules, cited as 2009's.

// BlindPlay says how a board is played under the rules for play with
// visually disabled players (2018 Appendix D, 2009 Appendix E). The zero
// value: it is not.
type BlindPlay struct {
	Players [2]BlindPlayer `json:"players"` // by Side
}

// BlindPlayer is one player's part in it.
type BlindPlayer struct {
	// VisuallyDisabled: the player is visually disabled (legally blind,
	// 2018 D.1) and plays under the appendix.
	VisuallyDisabled bool `json:"visually_disabled,omitempty"`
	// Assistant: an assistant sits with the player — the visually
	// disabled player's (D.2.10), or a sighted player's when the visually
	// disabled player has none (D.2.11).
	Assistant bool `json:"assistant,omitempty"`
	// Language is the BCP 47 tag ("de", "pt-BR") of the announcements to
	// a visually disabled player; "" is English.
	Language string `json:"language,omitempty"`
}

// Applies reports whether the board is played under the appendix: at
// least one player is visually disabled.
func (b BlindPlay) Applies() bool {
	return b.Players[White].VisuallyDisabled || b.Players[Black].VisuallyDisabled
}

// Check refuses, as NewState does for a board under ruleset r ("" the
// default), what the appendix does not allow (see validate): a
// tournament's or round's setting is checked before any board has it.
func (b BlindPlay) Check(r Ruleset) error {
	p, err := ProfileOf(r)
	if err != nil {
		return err
	}
	return b.validate(p)
}

// validate refuses what the appendix does not allow: an assistant or a
// language on a board not played under it, a language for a sighted
// player, a sighted player's assistant beside the visually disabled
// player's own (D.2.11), a language that is not a tag.
func (b BlindPlay) validate(p *Profile) error {
	text, err := BlindTextOf(p.Ruleset)
	if err != nil {
		return err
	}
	for side, pl := range b.Players {
		s := Side(side)
		switch {
		case pl.Language != "" && !languageTag(pl.Language):
			return &InputError{What: "announcement language", Value: pl.Language,
				Problem: "not a language tag", Allowed: "a BCP 47 tag such as en, de, ru, pt-BR"}
		case pl.Language != "" && !pl.VisuallyDisabled:
			return &InputError{What: "announcement language", Value: pl.Language,
				Problem: s.String() + " is not marked visually disabled; the clock announces only to a visually disabled player (" + text.Clock + ")",
				Allowed: "a language for a visually disabled player"}
		case pl.Assistant && !b.Applies():
			return &InputError{What: "assistant", Value: s.String(),
				Problem: "neither player is marked visually disabled; an assistant comes with the rules for visually disabled players (" + text.Assistant + ")",
				Allowed: "mark the visually disabled player first"}
		case pl.Assistant && !pl.VisuallyDisabled && b.Players[s.Other()].Assistant && b.Players[s.Other()].VisuallyDisabled:
			return &InputError{What: "assistant", Value: s.String(),
				Problem: "a sighted player may have an assistant only when the visually disabled player has none (" + text.SightedAssistant + ")",
				Allowed: "an assistant for the visually disabled player, or for the sighted player alone"}
		}
	}
	return nil
}

// languageTag reports whether s has the shape of a BCP 47 tag: a primary
// language of 2 to 8 letters, then subtags of 1 to 8 letters or digits,
// joined by hyphens, 35 characters at most.
func languageTag(s string) bool {
	if len(s) > 35 {
		return false
	}
	for i, sub := range strings.Split(s, "-") {
		if len(sub) < 1 || len(sub) > 8 || i == 0 && len(sub) < 2 {
			return false
		}
		for _, c := range sub {
			letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
			if !letter && (i == 0 || c < '0' || c > '9') {
				return false
			}
		}
	}
	return true
}

// BlindText is where an edition holds its rules for play with visually
// disabled players, each as a citation ("FIDE 2018 Appendix D.2.10.3").
type BlindText struct {
	Adapt            string            // the organiser may adapt the rules; two boards (2018 D.1)
	MoveMade         string            // when a move is made, and only then the opponent's clock is started (D.2.3-D.2.4)
	SightedRules     string            // the normal rules hold for the sighted player (D.2.5)
	Clock            string            // the clock made for the visually disabled (D.2.6.1)
	BoardsDiffer     string            // the two boards show different positions (D.2.9)
	Assistant        string            // the visually disabled player's assistant (D.2.10)
	SightedAssistant string            // the sighted player's assistant (D.2.11)
	StopClock        string            // a player may stop the clock to seek the arbiter's assistance (6.11.2)
	Duties           map[Assist]string // each duty of the assistant (D.2.10.1 ... D.2.10.6)
	// Note says where the text comes from when it is not the edition's own
	// ("" when it is).
	Note string
}

// BlindTextOf returns the rules for play with visually disabled players of
// ruleset r ("" is the default): its profile's Blind. An unknown ruleset
// is an *InputError. The caller must not change the text.
func BlindTextOf(r Ruleset) (*BlindText, error) {
	p, err := ProfileOf(r)
	if err != nil {
		return nil, err
	}
	return &p.Blind, nil
}

// appendixD is the 2018 Appendix D, numbered as the FIDE text (seed 000),
// cited as edition's; the 2023 text keeps its numbers.
func appendixD(edition, note string) BlindText {
	d := func(n string) string { return edition + " Appendix D." + n }
	return BlindText{
		Adapt: d("1"), MoveMade: d("2.3-D.2.4"), SightedRules: d("2.5"), Clock: d("2.6.1"),
		BoardsDiffer: d("2.9"), Assistant: d("2.10"), SightedAssistant: d("2.11"),
		StopClock: edition + " Art. 6.11.2",
		Duties: map[Assist]string{
			AssistMoveOnOpponentBoard: d("2.10.1"), AssistAnnounceMoves: d("2.10.2"),
			AssistKeepScore: d("2.10.3"), AssistStartClock: d("2.10.3"), AssistAnnounceTime: d("2.10.4"),
			AssistClaimFlag: d("2.10.5"), AssistReportTouch: d("2.10.5"),
			AssistCallArbiter: d("2.10.5") + ", " + edition + " Art. 6.11.2",
			AssistAdjourn:     d("2.10.6"),
		},
		Note: note,
	}
}

// appendixE is the 2009 Appendix E (seed 002, numbers rebuilt from its
// cross references), cited as edition's.
func appendixE(edition, note string) BlindText {
	e := func(n string) string { return edition + " Appendix E" + n }
	return BlindText{
		Adapt: e("1"), MoveMade: e("2.3"), SightedRules: e("2.3"), Clock: e("2.4") + " (a talking clock: E1)",
		BoardsDiffer: e("2.7-E2.8"), Assistant: e("2.9"), SightedAssistant: e("2.10"),
		StopClock: edition + " Art. 6.12(b)",
		Duties: map[Assist]string{
			AssistMoveOnOpponentBoard: e("2.9(a)"), AssistAnnounceMoves: e("2.9(b)"),
			AssistKeepScore: e("2.9(c)"), AssistStartClock: e("2.9(c)"), AssistAnnounceTime: e("2.9(d)"),
			AssistClaimFlag: e("2.9(e)"), AssistReportTouch: e("2.9(e)"),
			AssistCallArbiter: e("2.9(e)") + ", " + edition + " Art. 6.12(b)",
			AssistAdjourn:     e("2.9(f)"),
		},
		Note: note,
	}
}
