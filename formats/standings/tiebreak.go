package standings

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// TieBreak is one entry of a tournament's ordered tie-break list: an
// acronym of the FIDE Tie-Break Regulations and its modifiers (art. 14):
// Cut-n drops the n least significant values, Median-n the n least and
// the n most significant.
type TieBreak struct {
	Name   string // an acronym: PTS, BH, FB, SB, DE, WIN, WON, BPG, BWG, GE, ARO, TPR, PTP, APRO, APPO, AOB, PS, KS
	Cut    int    // Cut-n (C1, C2): the n lowest values cut
	Median int    // Median-n (M1, M2): the n lowest and n highest cut
	// Points is, in a team event, the score the tie-break is computed
	// on: "MP" match points, "GP" game points, "" the event's primary
	// score ("BH:GP" is Buchholz on game points).
	Points string
}

// String writes the tie-break as Parse reads it: "BH-C1", "BH-M2", "SB".
func (t TieBreak) String() string {
	s := t.Name
	if t.Points != "" {
		s += ":" + t.Points
	}
	switch {
	case t.Cut > 0:
		return s + "-C" + strconv.Itoa(t.Cut)
	case t.Median > 0:
		return s + "-M" + strconv.Itoa(t.Median)
	}
	return s
}

// names lists the acronyms known, with what each means and which
// modifiers it takes.
var names = []struct {
	name, what string
	cut, med   bool
}{
	{"PTS", "points", false, false},
	{"DE", "direct encounter", false, false},
	{"WIN", "rounds won, played or not", false, false},
	{"WON", "games won over the board", false, false},
	{"BPG", "games played with Black", false, false},
	{"BWG", "games won with Black", false, false},
	{"GE", "rounds one elected to play", false, false},
	{"PS", "progressive scores", true, false},
	{"KS", "Koya system (round robin)", false, false},
	{"BH", "Buchholz", true, true},
	{"SB", "Sonneborn-Berger", true, true},
	{"FB", "Fore Buchholz", true, true},
	{"AOB", "average of opponents' Buchholz", false, false},
	{"ARO", "average rating of opponents", true, false},
	{"TPR", "tournament performance rating", false, false},
	{"PTP", "perfect tournament performance", false, false},
	{"APRO", "average performance rating of opponents", false, false},
	{"APPO", "average perfect performance of opponents", false, false},
	{"MPTS", "match points (team events)", false, false},
	{"GPTS", "game points (team events)", false, false},
	{"EMMSB", "extended SB: opponents' match points × match points (team events)", true, true},
	{"EMGSB", "extended SB: opponents' match points × game points (team events)", true, true},
	{"EGMSB", "extended SB: opponents' game points × match points (team events)", true, true},
	{"EGGSB", "extended SB: opponents' game points × game points (team events)", true, true},
}

// TeamOnly reports a tie-break only a team event has: match or game
// points as a tie-break (MPTS, GPTS), one computed on them ("BH:GP"), the
// extended SB (EMGSB...). Compute refuses them.
func (t TieBreak) TeamOnly() bool { return t.Points != "" || teamOnly(t.Name) }

// Names returns the acronyms Parse knows, in the order of the regulations.
func Names() []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = n.name
	}
	return out
}

// DefaultSwiss and DefaultRoundRobin are the tie-breaks FIDE recommends
// when a tournament's regulations name none: for a Swiss, Buchholz Cut-1,
// Buchholz, direct encounter; for a round robin, direct encounter, wins,
// Sonneborn-Berger, Koya.
var (
	DefaultSwiss      = []TieBreak{{Name: "BH", Cut: 1}, {Name: "BH"}, {Name: "DE"}}
	DefaultRoundRobin = []TieBreak{{Name: "DE"}, {Name: "WIN"}, {Name: "SB"}, {Name: "KS"}}
)

// Defaults returns FIDE's recommended list for the kind of tournament.
func Defaults(roundRobin bool) []TieBreak {
	if roundRobin {
		return slices.Clone(DefaultRoundRobin)
	}
	return slices.Clone(DefaultSwiss)
}

// TeamDefaults returns the hall's list for a team event whose regulations
// name none: the other score first (GPTS when the event ranks by match
// points, MPTS when by game points, primary "GP"), then FIDE's
// recommended list for the kind of tournament, on the ranking score.
func TeamDefaults(roundRobin bool, primary string) []TieBreak {
	other := TieBreak{Name: "GPTS"}
	if primary == "GP" {
		other.Name = "MPTS"
	}
	return append([]TieBreak{other}, Defaults(roundRobin)...)
}

// Parse reads an ordered tie-break list, "BH-C1,BH,SB": acronyms of the
// regulations separated by commas (blanks allowed), each with at most one
// modifier after "-" or "/": C1, C2 (Cut-1, Cut-2), M1, M2 (Median-1,
// Median-2); case does not matter. In a team event an acronym may name
// the points it is computed on, ":MP" or ":GP" ("BH:GP-C1"); MPTS and
// GPTS are the match and game points as tie-breaks, EMMSB, EMGSB, EGMSB
// and EGGSB the extended Sonneborn-Berger. PTS, if listed, is dropped: points
// always rank first. An empty list is no tie-breaks. The same tie-break
// twice is refused.
func Parse(s string) ([]TieBreak, error) {
	var out []TieBreak
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	seen := map[TieBreak]bool{}
	for i, raw := range strings.Split(s, ",") {
		item := strings.TrimSpace(raw)
		fail := func(format string, a ...any) error {
			return &ParseError{Item: i + 1, Entry: item, Msg: fmt.Sprintf(format, a...)}
		}
		if item == "" {
			return nil, fail("empty: want an acronym such as BH-C1 (known: %s)", strings.Join(Names(), ", "))
		}
		up := strings.ToUpper(item)
		name, mod, hasMod := strings.Cut(strings.ReplaceAll(up, "/", "-"), "-")
		name, pts, hasPts := strings.Cut(name, ":")
		if hasPts && pts != "MP" && pts != "GP" {
			return nil, fail("points %q: want MP (match points) or GP (game points), as in BH:GP", pts)
		}
		k := slices.IndexFunc(names, func(n struct {
			name, what string
			cut, med   bool
		}) bool {
			return n.name == name
		})
		if k < 0 {
			return nil, fail("unknown tie-break %q: want one of %s", name, strings.Join(Names(), ", "))
		}
		tb := TieBreak{Name: name, Points: pts}
		if hasPts && (name == "PTS" || teamOnly(name)) {
			return nil, fail("%s names its points already", name)
		}
		if hasMod {
			if mod == "" || len(mod) < 2 {
				return nil, fail("modifier %q: want C1, C2 (cut) or M1, M2 (median)", mod)
			}
			n, err := strconv.Atoi(mod[1:])
			if err != nil || n < 1 || n > 2 {
				return nil, fail("modifier %q: want C1, C2 (cut) or M1, M2 (median)", mod)
			}
			switch mod[0] {
			case 'C':
				if !names[k].cut {
					return nil, fail("%s takes no cut (cuts apply to %s)", name, withMod(true))
				}
				tb.Cut = n
			case 'M':
				if !names[k].med {
					return nil, fail("%s takes no median (medians apply to %s)", name, withMod(false))
				}
				tb.Median = n
			default:
				return nil, fail("modifier %q: want C1, C2 (cut) or M1, M2 (median)", mod)
			}
		}
		if tb.Name == "PTS" {
			continue
		}
		if seen[tb] {
			return nil, fail("listed twice")
		}
		seen[tb] = true
		out = append(out, tb)
	}
	return out, nil
}

func withMod(cut bool) string {
	var out []string
	for _, n := range names {
		if cut && n.cut || !cut && n.med {
			out = append(out, n.name)
		}
	}
	return strings.Join(out, ", ")
}

// Format writes a list as Parse reads it.
func Format(tbs []TieBreak) string {
	s := make([]string, len(tbs))
	for i, t := range tbs {
		s[i] = t.String()
	}
	return strings.Join(s, ",")
}

// teamOnly reports a tie-break of team events only: the match and game
// points, and the extended Sonneborn-Berger, which names both scores it
// multiplies (EMGSB: the opponents' match points × the game points made
// against them).
func teamOnly(name string) bool {
	switch name {
	case "MPTS", "GPTS", "EMMSB", "EMGSB", "EGMSB", "EGGSB":
		return true
	}
	return false
}
