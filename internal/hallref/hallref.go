// Package hallref reads the names arbiters give tournaments, rounds and
// boards, one way for every command of hallctl and every request of the
// server, so that a name that works in one place works in all:
//
//	tournament  its id, the start of its id (4 characters or more), or its
//	            name (any case, blanks around it ignored)
//	round       its id (or the start of it), "N" (round N of the only
//	            tournament that has one), or "TOURNAMENT:N"
//	board       its id (or the start of it), "N" (board N of the only round
//	            that has one), "R.N", "R.SN" (board N of section S), or
//	            "TOURNAMENT:R.N"
//
// A name that fits more than one is refused with the candidates
// (*AmbiguousError), one that fits none with what there is
// (*NotFoundError). It is pure: the caller hands it what the hall has.
package hallref

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Tournament is what a name of a tournament is matched against.
type Tournament struct {
	ID, Name string
}

// Round is what a name of a round is matched against.
type Round struct {
	ID           string
	TournamentID string
	Tournament   string // its tournament's name
	Number       int
}

// Board is what a name of a board is matched against.
type Board struct {
	ID      string
	RoundID string
	Section string
	Number  int
}

// minPrefix is the shortest start of an id that names what it starts.
const minPrefix = 4

// SameName reports whether two tournament names are the same to an
// arbiter typing them: any case, blanks around them ignored.
func SameName(a, b string) bool { return strings.EqualFold(strings.TrimSpace(a), strings.TrimSpace(b)) }

// NotFoundError is a name that fits nothing.
type NotFoundError struct {
	What string // "tournament", "round", "board"
	Ref  string
	Hint string // what there is, or how to name one
}

func (e *NotFoundError) Error() string {
	s := fmt.Sprintf("no %s %q", e.What, e.Ref)
	if e.Hint != "" {
		s += " (" + e.Hint + ")"
	}
	return s
}

// AmbiguousError is a name that fits more than one.
type AmbiguousError struct {
	What       string
	Ref        string
	Candidates []string // each named so that it names that one alone
}

func (e *AmbiguousError) Error() string {
	return fmt.Sprintf("%s %q is ambiguous: it may be %s; name one of them", e.What, e.Ref, strings.Join(e.Candidates, ", "))
}

// FindTournament finds a tournament by id, the start of its id, or name.
func FindTournament(ref string, ts []Tournament) (Tournament, error) {
	for _, t := range ts {
		if t.ID == ref {
			return t, nil
		}
	}
	var byName, byPrefix []Tournament
	for _, t := range ts {
		if SameName(t.Name, ref) {
			byName = append(byName, t)
		} else if len(ref) >= minPrefix && strings.HasPrefix(t.ID, ref) {
			byPrefix = append(byPrefix, t)
		}
	}
	found := byName
	if len(found) == 0 {
		found = byPrefix
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		names := make([]string, 0, len(ts))
		for _, t := range ts {
			names = append(names, strconv.Quote(t.Name))
		}
		sort.Strings(names)
		hint := "there is no tournament yet"
		if len(names) > 0 {
			hint = "there are " + strings.Join(names, ", ")
		}
		return Tournament{}, &NotFoundError{What: "tournament", Ref: ref, Hint: hint}
	}
	var cs []string
	for _, t := range found {
		cs = append(cs, fmt.Sprintf("%q (id %s)", t.Name, t.ID))
	}
	sort.Strings(cs)
	return Tournament{}, &AmbiguousError{What: "tournament", Ref: ref, Candidates: cs}
}

// SplitRound reads "N" or "TOURNAMENT:N" (N from 1); ok is false for
// anything else, such as an id.
func SplitRound(ref string) (tournament string, number int, ok bool) {
	n := ref
	if i := strings.LastIndex(ref, ":"); i >= 0 {
		tournament, n = strings.TrimSpace(ref[:i]), ref[i+1:]
		if tournament == "" {
			return "", 0, false
		}
	}
	v, err := strconv.Atoi(strings.TrimSpace(n))
	if err != nil || v < 1 {
		return "", 0, false
	}
	return tournament, v, true
}

// RoundName names a round so that it names that one alone among rs.
func RoundName(r Round, rs []Round) string {
	for _, o := range rs {
		if o.ID != r.ID && o.Number == r.Number {
			return fmt.Sprintf("%s:%d", r.Tournament, r.Number)
		}
	}
	return strconv.Itoa(r.Number)
}

// FindRound finds a round by id (or the start of it), "N" or
// "TOURNAMENT:N"; the tournament is found as FindTournament finds it.
func FindRound(ref string, ts []Tournament, rs []Round) (Round, error) {
	found, err := matchRounds(ref, ts, rs)
	if err != nil {
		return Round{}, err
	}
	if len(found) == 1 {
		return found[0], nil
	}
	var cs []string
	for _, r := range found {
		cs = append(cs, fmt.Sprintf("%s:%d", r.Tournament, r.Number))
	}
	sort.Strings(cs)
	return Round{}, &AmbiguousError{What: "round", Ref: ref, Candidates: cs}
}

// matchRounds returns the rounds a name fits, at least one; none is a
// *NotFoundError.
func matchRounds(ref string, ts []Tournament, rs []Round) ([]Round, error) {
	for _, r := range rs {
		if r.ID == ref {
			return []Round{r}, nil
		}
	}
	tournament, number, named := SplitRound(ref)
	var found []Round
	switch {
	case named && tournament != "":
		t, err := FindTournament(tournament, ts)
		if err != nil {
			return nil, err
		}
		var have []string
		for _, r := range rs {
			if r.TournamentID == t.ID && r.Number == number {
				return []Round{r}, nil
			}
			if r.TournamentID == t.ID {
				have = append(have, strconv.Itoa(r.Number))
			}
		}
		hint := t.Name + " has no round yet"
		if len(have) > 0 {
			sort.Slice(have, func(i, j int) bool {
				return len(have[i]) < len(have[j]) || len(have[i]) == len(have[j]) && have[i] < have[j]
			})
			hint = t.Name + " has rounds " + strings.Join(have, ", ")
		}
		return nil, &NotFoundError{What: "round", Ref: ref, Hint: hint}
	case named:
		for _, r := range rs {
			if r.Number == number {
				found = append(found, r)
			}
		}
	case len(ref) >= minPrefix:
		for _, r := range rs {
			if strings.HasPrefix(r.ID, ref) {
				found = append(found, r)
			}
		}
	}
	if len(found) == 0 {
		return nil, &NotFoundError{What: "round", Ref: ref, Hint: `name one as 5, "Open:5" or by its id; hallctl rounds lists them`}
	}
	return found, nil
}

// SplitBoard reads "N", "R.N", "R.SN" and "TOURNAMENT:R.N": the round's
// name ("" for "N"), the section and the board's number; ok is false for
// anything else, such as an id.
func SplitBoard(ref string) (round, section string, number int, ok bool) {
	rest := ref
	if i := strings.LastIndex(ref, "."); i >= 0 && i > strings.LastIndex(ref, ":") {
		round, rest = ref[:i], ref[i+1:]
		if _, _, ok := SplitRound(round); !ok {
			return "", "", 0, false
		}
	}
	j := len(rest)
	for j > 0 && rest[j-1] >= '0' && rest[j-1] <= '9' {
		j--
	}
	section = strings.TrimSpace(rest[:j])
	n, err := strconv.Atoi(rest[j:])
	if err != nil || n < 1 || (round == "" && section != "") {
		return "", "", 0, false
	}
	return round, section, n, true
}

// FindBoard finds a board by id (or the start of it), "N", "R.N", "R.SN"
// or "TOURNAMENT:R.N", among boards, every board the caller may see. A
// round name that fits rounds of several tournaments ("1.1") names the
// board if only one of them has it.
func FindBoard(ref string, ts []Tournament, rs []Round, boards []Board) (Board, error) {
	for _, b := range boards {
		if b.ID == ref {
			return b, nil
		}
	}
	roundRef, section, number, named := SplitBoard(ref)
	var found []Board
	switch {
	case named && roundRef != "":
		in, err := matchRounds(roundRef, ts, rs)
		if err != nil {
			return Board{}, err
		}
		rounds := map[string]bool{}
		for _, r := range in {
			rounds[r.ID] = true
		}
		for _, b := range boards {
			if rounds[b.RoundID] && b.Number == number && strings.EqualFold(b.Section, section) {
				found = append(found, b)
			}
		}
		if len(found) == 0 && len(in) == 1 {
			return Board{}, &NotFoundError{What: "board", Ref: ref, Hint: fmt.Sprintf("round %s:%d has no board %s%d", in[0].Tournament, in[0].Number, section, number)}
		}
	case named:
		for _, b := range boards {
			if b.Number == number {
				found = append(found, b)
			}
		}
	case len(ref) >= minPrefix:
		for _, b := range boards {
			if strings.HasPrefix(b.ID, ref) {
				found = append(found, b)
			}
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		return Board{}, &NotFoundError{What: "board", Ref: ref, Hint: `name one as 5.12 (round 5, board 12), "Open:5.12", 5.A3 (section A) or by its id; hallctl boards lists them`}
	}
	return Board{}, &AmbiguousError{What: "board", Ref: ref, Candidates: BoardNames(found, rs)}
}

// BoardName names a board so that it names that one alone: "5.12",
// "5.A3", or "Open:5.12" where more than one tournament has a round 5;
// its id if its round is not among rs.
func BoardName(b Board, rs []Round) string {
	for _, r := range rs {
		if r.ID == b.RoundID {
			return fmt.Sprintf("%s.%s%d", RoundName(r, rs), b.Section, b.Number)
		}
	}
	return b.ID
}

// BoardNames names boards, sorted.
func BoardNames(bs []Board, rs []Round) []string {
	var out []string
	for _, b := range bs {
		out = append(out, BoardName(b, rs))
	}
	sort.Strings(out)
	return out
}
