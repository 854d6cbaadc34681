package rules

import (
	"fmt"
	"strings"
)

// Words describes the time control in words, so that an arbiter sees what
// was set: "90 min for 40 moves, then 30 min, +30 s per move from move 1",
// "3 min for the game, +2 s per move from move 1", "hourglass, 1 min each".
// An increment or delay shared by the last periods is said once, with the
// move it starts from; otherwise each period says its own.
func (tc TimeControl) Words() string {
	if tc.Black != nil {
		return "White " + tc.For(White).Words() + "; Black " + tc.For(Black).Words()
	}
	if len(tc.Periods) == 0 {
		return "no time control"
	}
	if tc.Hourglass {
		return "hourglass, " + tcDuration(tc.Periods[0].BaseMs) + " each"
	}
	// The periods from k on share one bonus and those before have none.
	k := tc.Last()
	for k > 0 && tc.Periods[k-1].Bonus == tc.Periods[k].Bonus && tc.Periods[k-1].BonusMs == tc.Periods[k].BonusMs {
		k--
	}
	shared := true
	for _, p := range tc.Periods[:k] {
		shared = shared && p.BonusMs == 0
	}
	parts := make([]string, len(tc.Periods))
	for i, p := range tc.Periods {
		w := tcDuration(p.BaseMs)
		if p.BaseMs == 0 {
			w = "no more time"
		}
		switch {
		case len(tc.Periods) == 1:
			w += " for the game"
		case i < tc.Last() && p.Moves == 1:
			w += " for 1 move"
		case i < tc.Last():
			w += fmt.Sprintf(" for %d moves", p.Moves)
		}
		if !shared && p.BonusMs > 0 {
			w += " with " + tcBonusWords(p)
		}
		parts[i] = w
	}
	s := strings.Join(parts, ", then ")
	if last := tc.Periods[tc.Last()]; shared && last.BonusMs > 0 {
		s += fmt.Sprintf(", %s from move %d", tcBonusWords(last), tc.MovesBefore(k)+1)
	}
	return s
}

// Describe says the time control in words with its game type under the
// ruleset r ("" is DefaultRuleset): "90 min for 40 moves, then 30 min,
// +30 s per move from move 1; standard". With a control per side each
// side is said, then the game's type (see Profile.GameType): "White 5 min
// for the game; Black 4 min for the game; blitz". An unknown ruleset is an
// *InputError.
func (tc TimeControl) Describe(r Ruleset) (string, error) {
	c, err := GameType(r, tc)
	if err != nil {
		return "", err
	}
	return tc.Words() + "; " + c.String(), nil
}

func tcBonusWords(p Period) string {
	switch p.Bonus {
	case Increment:
		return "+" + tcSeconds(p.BonusMs) + " s per move"
	case SimpleDelay:
		return tcSeconds(p.BonusMs) + " s delay per move"
	case Bronstein:
		return tcSeconds(p.BonusMs) + " s Bronstein delay per move"
	}
	return ""
}

// tcPeriodPhrase says one period briefly, for messages: "3 s + 2 s per
// move", "40 moves in 30 s", "30 s".
func tcPeriodPhrase(p Period, hourglass bool) string {
	s := tcDuration(p.BaseMs)
	if p.Moves > 0 {
		s = fmt.Sprintf("%d moves in %s", p.Moves, s)
		if p.Moves == 1 {
			s = "1 move in " + tcDuration(p.BaseMs)
		}
	}
	if hourglass {
		s = "hourglass of " + s
	}
	switch p.Bonus {
	case Increment:
		s += " + " + tcSeconds(p.BonusMs) + " s per move"
	case SimpleDelay:
		s += " with " + tcSeconds(p.BonusMs) + " s delay"
	case Bronstein:
		s += " with " + tcSeconds(p.BonusMs) + " s Bronstein delay"
	}
	return s
}

// tcDuration says a duration: "90 min", "1 min 30 s", "45 s", "1.5 s".
func tcDuration(ms int64) string {
	switch {
	case ms >= 60_000 && ms%60_000 == 0:
		return fmt.Sprintf("%d min", ms/60_000)
	case ms >= 60_000:
		return fmt.Sprintf("%d min %s s", ms/60_000, tcSeconds(ms%60_000))
	}
	return tcSeconds(ms) + " s"
}
