package sim

var (
	firstNames = []string{"Anna", "Boris", "Chen", "Dilnoza", "Emil", "Fatima", "Gukesh", "Hou", "Ian", "Judit",
		"Kateryna", "Levon", "Magnus", "Nodirbek", "Olga", "Pia", "Quang", "Rameshbabu", "Sofia", "Teimour",
		"Ulla", "Vishy", "Wesley", "Xiong", "Yifan", "Zhansaya"}
	lastNames = []string{"Abdumalik", "Bologan", "Caruana", "Dubov", "Ehlvest", "Firouzja", "Giri", "Harika",
		"Ivanchuk", "Ju", "Kosteniuk", "Lagno", "Mamedyarov", "Nepomniachtchi", "Oparin", "Praggnanandhaa",
		"Rapport", "Sevian", "Topalov", "Uhlmann", "Vachier", "Wei", "Xu", "Yu", "Zatonskih"}
)
