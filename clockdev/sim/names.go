package sim

import (
	"math/rand/v2"

	hallv1 "github.com/chesshall/hallclock/proto/hall/v1"
)

var (
	firstNames = []string{"Anna", "Boris", "Chen", "Dilnoza", "Emil", "Fatima", "Gukesh", "Hou", "Ian", "Judit",
		"Kateryna", "Levon", "Magnus", "Nodirbek", "Olga", "Pia", "Quang", "Rameshbabu", "Sofia", "Teimour",
		"Ulla", "Vishy", "Wesley", "Xiong", "Yifan", "Zhansaya"}
	lastNames = []string{"Abdumalik", "Bologan", "Caruana", "Dubov", "Ehlvest", "Firouzja", "Giri", "Harika",
		"Ivanchuk", "Ju", "Kosteniuk", "Lagno", "Mamedyarov", "Nepomniachtchi", "Oparin", "Praggnanandhaa",
		"Rapport", "Sevian", "Topalov", "Uhlmann", "Vachier", "Wei", "Xu", "Yu", "Zatonskih"}
)

// players draws the pairing of a board: two names and ratings, the same
// for the same seed and place in the hall.
func players(seed int64, tournament string, round, board int) (white, black *hallv1.Player) {
	s1, s2 := gameSeed(seed, tournament, round, board)
	rng := rand.New(rand.NewPCG(s1^0x9e3779b97f4a7c15, s2))
	one := func() *hallv1.Player {
		return &hallv1.Player{
			Name:   firstNames[rng.IntN(len(firstNames))] + " " + lastNames[rng.IntN(len(lastNames))],
			Rating: int32(max(1200, 2600-8*board) + rng.IntN(100) - 50),
		}
	}
	return one(), one()
}
