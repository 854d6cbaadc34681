package sim

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/chesshall/hallclock/formats/trf"
)

var (
	federations = []string{"NOR", "SWE", "DEN", "FIN", "GER", "POL", "NED", "ESP", "FRA", "ITA", "IND", "UZB", "USA", "UKR", "CZE", "HUN"}
	titles      = []string{"GM", "IM", "FM", "CM"}
)

// roster returns a tournament's players as its TRF: 2n players with
// names drawn without repeating one, ratings falling with the starting
// rank, FIDE ids and federations, the same for the same seed and name.
func roster(seed int64, tournament string, n int) *trf.File {
	s1, s2 := gameSeed(seed, tournament, 0, 0)
	rng := rand.New(rand.NewPCG(s1^0x5bd1e995, s2))
	f := &trf.File{Header: []string{"012 " + tournament, "XXR 9"}}
	used := map[string]bool{}
	var ratings []int
	for range 2 * n {
		ratings = append(ratings, 1400+rng.IntN(1300))
	}
	slices.SortFunc(ratings, func(a, b int) int { return b - a })
	for i, r := range ratings {
		var name string
		for try := 0; ; try++ {
			first, last := firstNames[rng.IntN(len(firstNames))], lastNames[rng.IntN(len(lastNames))]
			name = last + ", " + first
			if try > 20 {
				name = fmt.Sprintf("%s %c., %s", last, 'A'+rune(i%26), first)
			}
			if !used[name] {
				break
			}
		}
		used[name] = true
		p := trf.Player{StartRank: i + 1, Sex: "m", Name: name, Rating: r, Federation: federations[rng.IntN(len(federations))],
			FideID: fmt.Sprint(1_000_000 + rng.IntN(50_000_000)), BirthDate: fmt.Sprintf("%d/%02d/%02d", 1960+rng.IntN(55), 1+rng.IntN(12), 1+rng.IntN(28))}
		if strings.HasSuffix(strings.Split(name, ", ")[1], "a") {
			p.Sex = "w"
		}
		switch {
		case r >= 2500:
			p.Title = titles[0]
		case r >= 2400:
			p.Title = titles[1]
		case r >= 2300:
			p.Title = titles[2]
		case r >= 2200:
			p.Title = titles[3]
		}
		f.Players = append(f.Players, p)
	}
	return f
}
