package standings

import (
	"math/rand/v2"
	"testing"
)

// random makes a Swiss-like tournament: each round pairs the players
// present at random, gives the odd one out a bye of some kind, and
// scores games, forfeits, absences.
func random(rng *rand.Rand, sc Scoring) Tournament {
	np := 2 + rng.IntN(14)
	rounds := 1 + rng.IntN(7)
	t := Tournament{Scoring: sc}
	for i := range np {
		t.Players = append(t.Players, Player{Start: i + 1, Rating: []int{0, 1500, 1800, 2100, 2400}[rng.IntN(5)]})
	}
	for range rounds {
		perm := rng.Perm(np)
		k := 0
		for ; k+1 < len(perm); k += 2 {
			a, b := &t.Players[perm[k]], &t.Players[perm[k+1]]
			ra, rb := Round{Opponent: b.Start, Colour: White}, Round{Opponent: a.Start, Colour: Black}
			switch rng.IntN(8) {
			case 0, 1, 2:
				ra.Result, rb.Result = Win, Loss
			case 3, 4:
				ra.Result, rb.Result = Loss, Win
			case 5:
				ra.Result, rb.Result = Draw, Draw
			case 6:
				ra.Result, rb.Result = ForfeitWin, ForfeitLoss
			case 7:
				ra, rb = Round{Result: HalfBye}, Round{Result: ZeroBye}
			}
			a.Rounds, b.Rounds = append(a.Rounds, ra), append(b.Rounds, rb)
		}
		if k < len(perm) {
			p := &t.Players[perm[k]]
			p.Rounds = append(p.Rounds, Round{Result: []Result{PairingBye, FullBye, HalfBye, ZeroBye}[rng.IntN(4)]})
		}
	}
	return t
}

// Properties that hold whatever the results (FIDE Tie-Break Regulations
// art. 14.1: a cut or a median removes values, never adds; art. 4.2: the
// ranking follows points first; the sum of points is what the rounds
// scored).
func TestProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 2023))
	list, err := Parse("BH,BH-C1,BH-C2,BH-M1,BH-M2,SB,SB-C1,ARO,ARO-C1,WIN,WON,GE,PS,PS-C1,DE")
	if err != nil {
		t.Fatal(err)
	}
	for n := range 500 {
		sc := []Scoring{Classic, ThreeOneZero}[n%2]
		tour := random(rng, sc)
		tab, err := Compute(tour, 0, list)
		if err != nil {
			t.Fatalf("case %d: %v", n, err)
		}
		var sum, want Points
		for _, p := range tour.Players {
			for _, r := range p.Rounds {
				want += sc.Score(r.Result)
			}
		}
		for k, r := range tab.Rows {
			sum += r.Points
			v := func(name string) Value {
				x, _ := tab.Value(k, name)
				return x
			}
			for _, le := range [][2]string{
				{"BH-C1", "BH"}, {"BH-C2", "BH-C1"}, {"BH-M1", "BH-C1"}, {"BH-M2", "BH-M1"}, {"BH-M2", "BH-C2"},
				{"SB-C1", "SB"}, {"WON", "WIN"}, {"WIN", "GE"}, {"PS-C1", "PS"},
			} {
				if v(le[0]) > v(le[1]) {
					t.Fatalf("case %d player %d: %s %s > %s %s", n, r.Start, le[0], v(le[0]), le[1], v(le[1]))
				}
			}
			if v("SB") > v("BH")*Value(sc.Win)/100 {
				t.Fatalf("case %d player %d: SB %s above BH × a win", n, r.Start, v("SB"))
			}
			if k > 0 {
				prev := tab.Rows[k-1]
				if r.Points > prev.Points || r.Rank < prev.Rank || r.Rank == prev.Rank && r.Points != prev.Points {
					t.Fatalf("case %d: row %d out of order", n, k)
				}
			}
		}
		if sum != want {
			t.Fatalf("case %d: points sum %s, the rounds scored %s", n, sum, want)
		}
	}
}

// Compute never panics on rounds that name each other consistently,
// however few or many.
func FuzzCompute(f *testing.F) {
	f.Add(uint64(1), uint64(2))
	f.Add(uint64(33), uint64(2023))
	list, _ := Parse("BH-C2,BH-M2,SB-C1,DE,KS,AOB,APRO,PTP,TPR,ARO-C1,PS-C1")
	f.Fuzz(func(t *testing.T, a, b uint64) {
		rng := rand.New(rand.NewPCG(a, b))
		tour := random(rng, Classic)
		tour.RoundRobin = a%2 == 0
		if _, err := Compute(tour, int(b%9), list); err != nil {
			t.Fatal(err)
		}
	})
}
