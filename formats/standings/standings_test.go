package standings

import (
	"errors"
	"testing"
)

// Four players, three rounds, everything played: the values worked out
// by hand.
//
//	R1: 1-2 1-0, 3-4 ½-½; R2: 3-1 ½-½, 2-4 0-1; R3: 1-4 1-0, 2-3 ½-½
//	points: 1: 2.5, 2: 0.5, 3: 1.5, 4: 1.5
func swiss4(t *testing.T, sc Scoring) Tournament {
	return build(t, sc, false,
		"1: 2w1 3b= 4w1",
		"2: 1b0 4w0 3b=",
		"3: 4w= 1w= 2w=",
		"4: 3b= 2b1 1b0",
	)
}

func TestPlayedGames(t *testing.T) {
	tab := mustCompute(t, swiss4(t, Classic), 0, "BH,SB,BH-C1,BH-M1,WIN,WON,BPG,BWG,GE,PS,DE")
	for _, c := range []struct {
		start int
		tb    string
		want  string
	}{
		{1, "PTS", "2.5"},
		{1, "BH", "3.5"},    // FIDE Tie-Break Regulations 2023, art. 8.1: 0.5 + 1.5 + 1.5
		{2, "BH", "5.5"},    // art. 8.1: 2.5 + 1.5 + 1.5
		{3, "BH", "4.5"},    // art. 8.1: 1.5 + 2.5 + 0.5
		{1, "BH-C1", "3"},   // art. 14.1: Cut-1 drops the lowest, 0.5
		{1, "BH-M1", "1.5"}, // art. 14.1: Median-1 drops 0.5 and 1.5
		{1, "SB", "2.75"},   // art. 9.1: 1×0.5 + ½×1.5 + 1×1.5
		{3, "SB", "2.25"},   // art. 9.1: ½×1.5 + ½×2.5 + ½×0.5
		{4, "SB", "1.25"},   // art. 9.1: ½×1.5 + 1×0.5 + 0×2.5
		{1, "WIN", "2"},     // art. 7.1
		{1, "WON", "2"},     // art. 7.2
		{1, "BPG", "1"},     // art. 7.3
		{4, "BWG", "1"},     // art. 7.4: won with Black in round 2
		{4, "GE", "3"},      // art. 7.6
		{1, "PS", "5"},      // art. 7.5: 1 + 1.5 + 2.5
		{4, "PS", "3.5"},    // art. 7.5: 0.5 + 1.5 + 1.5
		{3, "DE", "0"},      // art. 6: 3 and 4 drew their game: not separated
	} {
		if got := get(t, tab, c.start, c.tb); got != c.want {
			t.Errorf("player %d %s = %s, want %s", c.start, c.tb, got, c.want)
		}
	}
	// 3 and 4 are tied on points and BH; SB separates them (art. 4.2:
	// the next tie-break in the list).
	if got := order(tab); got != "1:1 2:3 3:4 4:2" {
		t.Errorf("order %s", got)
	}
}

// The tournament's own scoring decides the points and what a win is
// (3-1-0: art. 7.1's "points awarded for a win" are 3).
func TestThreeOneZero(t *testing.T) {
	tab := mustCompute(t, swiss4(t, ThreeOneZero), 0, "BH,SB,WIN")
	for _, c := range []struct {
		start    int
		tb, want string
	}{
		{1, "PTS", "7"}, // 3 + 1 + 3
		{4, "PTS", "4"}, // 1 + 3 + 0
		{1, "BH", "8"},  // art. 8.1: 1 + 3 + 4
		{4, "BH", "11"}, // art. 8.1: 3 + 1 + 7
		{1, "SB", "18"}, // art. 9.1: 3×1 + 1×3 + 3×4, points scored × the opponent's points
		{1, "WIN", "2"}, // art. 7.1: rounds scoring a win's 3 points
		{3, "WIN", "0"}, // three draws of 1 point: no win
	} {
		if got := get(t, tab, c.start, c.tb); got != c.want {
			t.Errorf("3-1-0: player %d %s = %s, want %s", c.start, c.tb, got, c.want)
		}
	}
}

// A tied group of DE is ranked by the games among them (art. 6.1, 6.2);
// in a Swiss, one who could still be caught by a game its rivals did not
// play is not separated.
func TestDirectEncounter(t *testing.T) {
	// 1, 2, 3 and 6 score 1 of 2: 1 beat 2, 3 and 6 drew, the others
	// did not meet. 1's point among them does not exceed the 2.5 that 3
	// or 6 could have had: nobody is separated.
	sw := build(t, Classic, false,
		"1: 2w1 4b0",
		"2: 1b0 5w1",
		"3: 4b= 6w=",
		"4: 3w= 1w1",
		"5: 6b= 2b0",
		"6: 5w= 3b=",
	)
	tab := mustCompute(t, sw, 0, "DE")
	for _, start := range []int{1, 2, 3, 6} {
		if got := get(t, tab, start, "DE"); got != "0" {
			t.Errorf("Swiss: player %d DE %s, want 0 (art. 6.2: not separated)", start, got)
		}
	}
	// Tied on DE, the four share a rank: no tie-break is left.
	if got := order(tab); got != "1:4 2:1 2:2 2:3 2:6 6:5" {
		t.Errorf("order %s", got)
	}
	// A round robin of five (a bye each round): 1, 2 and 3 tied on 2 of
	// 4; among them 1 scored 1.5, 2 scored 1, 3 scored 0.5.
	rr := build(t, Classic, true,
		"1: 2w1 3w= 4w= 5w0 Z",
		"2: 1b0 5w0 Z 4w1 3w1",
		"3: 4w1 1b= 5w= Z 2b0",
		"4: 3b0 Z 1b= 2b0 5w1",
		"5: Z 2b1 3b= 1b1 4b0",
	)
	tab = mustCompute(t, rr, 0, "DE")
	for start, want := range map[int]string{1: "1", 2: "2", 3: "3", 4: "0", 5: "0"} {
		if got := get(t, tab, start, "DE"); got != want {
			t.Errorf("round robin: player %d DE %s, want %s (art. 6.2: all met)", start, got, want)
		}
	}
	if got := order(tab); got != "1:5 2:1 3:2 4:3 5:4" {
		t.Errorf("order %s", got)
	}
}

func TestInputErrors(t *testing.T) {
	for name, tour := range map[string]Tournament{
		"unknown opponent": {Players: []Player{{Start: 1, Rounds: []Round{{Opponent: 9, Colour: White, Result: Win}}}}},
		"not named back": {Players: []Player{
			{Start: 1, Rounds: []Round{{Opponent: 2, Colour: White, Result: Win}}},
			{Start: 2, Rounds: []Round{{Result: HalfBye}}},
		}},
		"duplicate start":       {Players: []Player{{Start: 1}, {Start: 1}}},
		"game without opponent": {Players: []Player{{Start: 1, Rounds: []Round{{Result: Win}}}}},
	} {
		_, err := Compute(tour, 0, nil)
		var ie *InputError
		if !errors.As(err, &ie) {
			t.Errorf("%s: err %v, want an *InputError", name, err)
		}
	}
}

// Records are the columns hallctl standings -csv will print: rank,
// start, name, points, then each tie-break by its acronym.
func TestRecords(t *testing.T) {
	tab := mustCompute(t, swiss4(t, Classic), 0, "BH-C1,SB")
	recs := tab.Records()
	want := [][]string{
		{"rank", "start", "name", "points", "BH-C1", "SB"},
		{"1", "1", "P1", "2.5", "3", "2.75"},
		{"2", "3", "P3", "1.5", "4", "2.25"},
		{"3", "4", "P4", "1.5", "4", "1.25"},
		{"4", "2", "P2", "0.5", "4", "0.75"},
	}
	if len(recs) != len(want) {
		t.Fatalf("%d records, want %d", len(recs), len(want))
	}
	for i := range want {
		for j := range want[i] {
			if recs[i][j] != want[i][j] {
				t.Errorf("record %d column %d = %q, want %q", i, j, recs[i][j], want[i][j])
			}
		}
	}
}
