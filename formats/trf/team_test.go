package trf

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// Team lines: TRF-16's 013 (name in columns 5-36, members from 37 in
// fields of four) and TRF-2026's 310 (number in 5-7, name in 9-40,
// members from 71), each in board order.
func TestTeams(t *testing.T) {
	for _, c := range []struct {
		file  string
		want  []Team
		first int
	}{
		{"testdata/constructed/team-013-rr.trf", []Team{
			{1, "Aurora", []int{1, 2}}, {2, "Boreal", []int{3, 4}}, {3, "Caledon", []int{5, 6}}, {4, "Dovre", []int{7, 8}}}, 0},
		{"testdata/real/sharly-team-forfeit-win.trf", []Team{
			{1, "TeamA", []int{1, 2, 3}}, {2, "TeamB", []int{4, 5, 6}}, {3, "TeamC", []int{7, 8, 9}},
			{4, "TeamD", []int{10, 11, 12}}, {5, "TeamE", []int{13, 14, 15}}}, 0},
	} {
		got, err := readFile(t, c.file).Teams()
		if err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		if !slices.EqualFunc(got, c.want, func(a, b Team) bool {
			return a.Number == b.Number && a.Name == b.Name && slices.Equal(a.Members, b.Members)
		}) {
			t.Errorf("%s: teams %+v, want %+v", c.file, got, c.want)
		}
	}
	// A member that is no player, or already in a team, is refused with
	// the line it is on.
	for _, c := range []struct{ line, says string }{
		{"013 Extra                              9", "member 9 is no player of the file"},
		{"013 Extra                              1", "player 1 is in team 1 already"},
	} {
		f := readFile(t, "testdata/constructed/team-013-rr.trf")
		f.Header = append(f.Header, c.line)
		_, err := f.Teams()
		var te *Error
		if !errors.As(err, &te) || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%q: %v, want an *Error saying %q", c.line, err, c.says)
		}
	}
}
