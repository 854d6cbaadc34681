package rules

import (
	"fmt"
	"strings"
)

// The hall's short notation of play under the rules for visually disabled
// players, for a round's CSV (a Blind column), the arbiters' command line
// and the audit log:
//
//	W          White is visually disabled
//	B+A        Black is visually disabled and has an assistant (D.2.10)
//	W:de       White is visually disabled; his clock speaks German to him
//	W+A:ru     both
//	W,B=A      White visually disabled, the sighted Black has an assistant (D.2.11)
//	W+A,B+A    both players visually disabled, each with an assistant
//	-          not played under the appendix (also "" and "none")
//
// Sides are W or B (also White, Black), in any case; players are joined by
// commas.

// String writes b in the short notation: "" when the board is not played
// under the appendix.
func (b BlindPlay) String() string {
	var parts []string
	for s, p := range b.Players {
		side := "WB"[s : s+1]
		switch {
		case p.VisuallyDisabled:
			out := side
			if p.Assistant {
				out += "+A"
			}
			if p.Language != "" {
				out += ":" + p.Language
			}
			parts = append(parts, out)
		case p.Assistant:
			parts = append(parts, side+"=A")
		}
	}
	return strings.Join(parts, ",")
}

// ParseBlindPlay reads the short notation. It checks the notation only;
// what the Laws allow (an assistant where nobody is visually disabled, a
// language for a sighted player) is NewState's (or Check's) to judge. An
// error is an *InputError.
func ParseBlindPlay(s string) (BlindPlay, error) {
	var b BlindPlay
	s = strings.TrimSpace(s)
	switch strings.ToLower(s) {
	case "", "-", "none", "no":
		return b, nil
	}
	seen := [2]bool{}
	for _, item := range strings.Split(s, ",") {
		item = strings.TrimSpace(item)
		bad := func(problem string) error {
			return &InputError{What: "play with visually disabled players", Value: item, Problem: problem,
				Allowed: `W or B for the visually disabled player, +A with an assistant, :de for his language ("W+A:de"); B=A for a sighted player's assistant; players joined by commas; - for none`}
		}
		side, rest, ok := cutSide(item)
		if !ok {
			return b, bad("no side: begin with W or B")
		}
		if seen[side] {
			return b, bad(side.String() + " is named twice")
		}
		seen[side] = true
		p := &b.Players[side]
		if strings.EqualFold(rest, "=A") {
			p.Assistant = true
			continue
		}
		p.VisuallyDisabled = true
		if len(rest) >= 2 && strings.EqualFold(rest[:2], "+A") {
			p.Assistant = true
			rest = rest[2:]
		}
		if lang, ok := strings.CutPrefix(rest, ":"); ok {
			if lang == "" || !languageTag(lang) {
				return b, bad(fmt.Sprintf("language %q is not a language tag (en, de, pt-BR)", lang))
			}
			p.Language, rest = lang, ""
		}
		if rest != "" {
			return b, bad(fmt.Sprintf("%q after the side is not understood", rest))
		}
	}
	return b, nil
}

// cutSide reads the side an item of the notation begins with.
func cutSide(item string) (Side, string, bool) {
	lower := strings.ToLower(item)
	for _, w := range []struct {
		word string
		side Side
	}{{"white", White}, {"black", Black}, {"w", White}, {"b", Black}} {
		if strings.HasPrefix(lower, w.word) {
			return w.side, item[len(w.word):], true
		}
	}
	return White, "", false
}
