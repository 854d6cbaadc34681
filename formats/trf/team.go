package trf

import (
	"strconv"
	"strings"
)

// Team is one team line of a team event: TRF-16's 013 or TRF-2026's 310.
type Team struct {
	// Number is the team's number: 310's own (columns 5-7); for 013
	// lines, which have none, their order in the file from 1.
	Number int
	Name   string
	// Members are the starting ranks of the team's players, in board
	// order (reserves last), as the line lists them.
	Members []int
}

// Teams returns the file's team lines: TRF-16's 013 (the name in
// columns 5-36, the members' starting ranks from column 37, in fields of
// four columns with one blank between) or TRF-2026's 310 (the number in
// 5-7, the name in 9-40, the members from column 71). A file with 310
// lines is read by them alone, as TRF-2026 says. A member that is no
// player of the file, or is in two teams, is refused with its line.
func (f *File) Teams() ([]Team, error) {
	code := "013"
	for _, h := range f.Header {
		if strings.HasPrefix(h, "310 ") {
			code = "310"
			break
		}
	}
	var out []Team
	seen := map[int]int{} // starting rank → team number
	numbers := map[int]bool{}
	for k, h := range f.Header {
		if !strings.HasPrefix(h, code+" ") {
			continue
		}
		line := k + 1
		if k < len(f.headerLine) {
			line = f.headerLine[k]
		}
		t := Team{Number: len(out) + 1}
		var members string
		if code == "013" {
			t.Name = strings.TrimSpace(teamCols(h, 4, 36))
			members = teamCols(h, 36, len(h))
		} else {
			n, err := strconv.Atoi(strings.TrimSpace(teamCols(h, 4, 7)))
			if err != nil || n < 1 {
				return nil, errorf(line, 5, "team number %q: want a number from 1 in columns 5-7", strings.TrimSpace(teamCols(h, 4, 7)))
			}
			t.Number = n
			t.Name = strings.TrimSpace(teamCols(h, 8, 40))
			members = teamCols(h, 70, len(h))
		}
		if numbers[t.Number] {
			return nil, errorf(line, 5, "team number %d used twice: each team has its own", t.Number)
		}
		numbers[t.Number] = true
		for _, fld := range strings.Fields(members) {
			n, err := strconv.Atoi(fld)
			if err != nil || n < 1 {
				return nil, errorf(line, 0, "team %q: member %q: want the starting ranks of its players", t.Name, fld)
			}
			if f.Player(n) == nil {
				return nil, errorf(line, 0, "team %q: member %d is no player of the file", t.Name, n)
			}
			if other, dup := seen[n]; dup {
				return nil, errorf(line, 0, "team %q: player %d is in team %d already: a player plays for one team", t.Name, n, other)
			}
			seen[n] = t.Number
			t.Members = append(t.Members, n)
		}
		out = append(out, t)
	}
	return out, nil
}

// teamCols returns s[from:to] within s's length.
func teamCols(s string, from, to int) string {
	from, to = min(from, len(s)), min(to, len(s))
	return s[from:to]
}
