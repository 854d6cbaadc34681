package sim_test

import (
	"reflect"
	"testing"
	"time"

	"github.com/chesshall/hallclock/clockdev/sim"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
)

// A seed makes the players' decisions repeatable: the same seed plays the
// same games, move for move and think time for think time; another seed
// plays others.
func TestSeedRepeatsDecisions(t *testing.T) {
	for _, spec := range []sim.RoundSpec{
		{TimeControl: "60+1", Boards: 1},
		{TimeControl: "G/15", Boards: 1, Regulations: &pb.Regulations{QuickplayFinish: true}},
		{TimeControl: "3m+2s", Boards: 1, EBoard: true},
		{TimeControl: "10m+5s", Boards: 1, AdjournAfter: 20, EBoard: true},
	} {
		for board := 1; board <= 3; board++ {
			a, err := sim.Rehearse(spec, 42, 1, board)
			if err != nil {
				t.Fatal(err)
			}
			b, err := sim.Rehearse(spec, 42, 1, board)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(a.Turns, b.Turns) || a.Final.Result != b.Final.Result {
				t.Errorf("%s board %d: two rehearsals with seed 42 differ (%d and %d turns)", spec.TimeControl, board, len(a.Turns), len(b.Turns))
			}
			c, err := sim.Rehearse(spec, 43, 1, board)
			if err != nil {
				t.Fatal(err)
			}
			if reflect.DeepEqual(a.Turns, c.Turns) {
				t.Errorf("%s board %d: seeds 42 and 43 play the same game", spec.TimeControl, board)
			}
			if a.Final.Status != rules.Finished {
				t.Errorf("%s board %d: the rehearsal did not finish (%s after %d turns)", spec.TimeControl, board, a.Final.Status, len(a.Turns))
			}
		}
	}
}

// Think times look like a real round: quick in the opening, slower in the
// middlegame, within the time control, and now and then a flag in time
// trouble of a sudden death.
func TestThinkTimesLookReal(t *testing.T) {
	spec := sim.RoundSpec{TimeControl: "G/5", Boards: 1}
	var opening, middle time.Duration
	var nOpening, nMiddle, flags, games int
	for board := 1; board <= 100; board++ {
		r, err := sim.Rehearse(spec, 7, 1, board)
		if err != nil {
			t.Fatal(err)
		}
		games++
		if r.Final.Termination == rules.TermTime {
			flags++
		}
		moves := [2]int{}
		for _, tu := range r.Turns {
			if tu.Kind != rules.KindPress {
				continue
			}
			switch n := moves[tu.Side]; {
			case n < 6:
				opening += tu.Think
				nOpening++
			case n >= 12 && n < 35:
				middle += tu.Think
				nMiddle++
			}
			moves[tu.Side]++
		}
		if used := r.Final.P[rules.White].MainMs; used < 0 {
			t.Errorf("board %d: white has %d ms left", board, used)
		}
	}
	avgOpening, avgMiddle := opening/time.Duration(nOpening), middle/time.Duration(nMiddle)
	t.Logf("5-minute games: opening moves %v, middlegame moves %v on average; %d flags in %d games", avgOpening, avgMiddle, flags, games)
	if avgOpening*3 > avgMiddle {
		t.Errorf("opening moves take %v, middlegame moves %v; want the opening much quicker", avgOpening, avgMiddle)
	}
	if avgMiddle < 2*time.Second || avgMiddle > 15*time.Second {
		t.Errorf("middlegame moves take %v in a 5-minute game; want a few seconds", avgMiddle)
	}
	if flags == 0 || flags > games/3 {
		t.Errorf("%d flags in %d sudden-death blitz games; want some, not most", flags, games)
	}
}
