// Package standings computes a tournament's standings, tie-breaks and
// crosstable as the FIDE Tie-Break Regulations define them (Handbook
// C.07, approved 1 August 2023, in force for FIDE-rated tournaments from
// 1 April 2024). It is pure: no I/O, no clock; the hall feeds it its
// rounds' results, or [FromTRF] a TRF-16 file read by formats/trf.
//
// Every value is exact: points are hundredths ([Points]), tie-break
// values ten-thousandths ([Value]), so a Sonneborn-Berger of 35.25 or an
// AOB rounded to 133.93 prints as such, never 35.249999.
//
// # Tie-breaks
//
// The acronyms of the regulations ([Parse] reads a list such as
// "BH-C1,BH,SB"; [Names] lists them): PTS points; DE direct encounter
// (art. 6); WIN, WON, BPG, BWG (art. 7.1-7.4), PS progressive scores
// (7.5, with Cut-n), GE (7.6); BH Buchholz (8.1), AOB the average of the
// opponents' Buchholz (8.2), FB Fore Buchholz (8.3: the tournament's last
// round counted as drawn by everyone paired in it); SB Sonneborn-Berger
// (9.1) and KS Koya (9.2); BH, FB and SB with Cut-1, Cut-2, Median-1,
// Median-2 (art. 14); ARO (10.1, and its Cut-n), TPR (10.2), PTP (10.3),
// APRO (10.4) and APPO (10.5, the average of the opponents' PTP), the
// ratings through the FIDE Rating Regulations' tables (B.02 8.1).
// [DefaultSwiss] and [DefaultRoundRobin] are FIDE's recommended lists.
//
// Team events ([ComputeTeams]; [FromTeamTRF] reads one from a TRF's
// 013 or 310 team lines) rank by match points (2-1-0 unless the event
// says otherwise) or game points; MPTS and GPTS are the other score as a
// tie-break, and any tie-break is computed on the primary score or the
// one it names ("BH:GP"): SB multiplies an opponent's score by the score
// of the same kind made against him, the extended SB names both (EMGSB:
// the opponents' match points × the game points made against them, the
// Olympiads' Sonneborn-Berger; EGMSB, EMMSB, EGGSB). Matches won (WIN,
// WON, GE...) count on match points.
//
// # Unplayed rounds
//
// The 2023 regulations replaced the "virtual opponent" of 2009 (who had
// the player's score before the round and drew every round after): in a
// Swiss, a player's own unplayed round (a bye of any kind, a forfeit won
// or lost, an absence) counts in his BH and SB as played against a
// "dummy opponent" whose score is the player's own final score (art.
// 16.4); for his opponents' BH, his unplayed rounds count as scored,
// except the voluntarily unplayed ones (forfeit losses, half- and
// zero-point byes: art. 16.2) after the last round he played, which count
// as draws (16.3.2) — a withdrawn player does not drag his opponents
// down. Cuts remove voluntarily unplayed rounds first (14.6). In a round
// robin (pre-determined pairings) a forfeit counts as a game against its
// scheduled opponent (art. 15) and a round without one counts in no
// opponent-based tie-break. The tournament's own scoring
// ([Scoring]: 1-½-0, 3-1-0, a file's values) scores every round, and a
// "win" for WIN, WON, BWG and GE is a round that scored what a win does.
//
// The computation follows the FIDE Technical Commission's reference
// implementation, TieBreakServer; the tests compare every value with its
// output on real tournaments.
//
// # Usage
//
//	tbs, err := standings.Parse("BH-C1,BH,SB") // or standings.Defaults(false)
//	if err != nil { ... }                        // *ParseError: which entry, why
//	t := standings.Tournament{
//		Scoring: standings.Classic, // ThreeOneZero, or ScoringOf(...)
//		Players: []standings.Player{
//			{Start: 1, Name: "Carlsen, Magnus", Rating: 2830, Rounds: []standings.Round{
//				{Opponent: 2, Colour: standings.White, Result: standings.Win},
//			}},
//			{Start: 2, Name: "Nakamura, Hikaru", Rating: 2790, Rounds: []standings.Round{
//				{Opponent: 1, Colour: standings.Black, Result: standings.Loss},
//			}},
//		},
//	}
//	tab, err := standings.Compute(t, 0, tbs) // 0: after the last round
//	for _, row := range tab.Rows {
//		fmt.Println(row.Rank, row.Start, row.Name, row.Points, row.Values)
//		// row.Rounds: the crosstable — opponent, its rank, colour, result
//	}
//
// From a TRF: f, _ := trf.Read(r); t, _ := standings.FromTRF(f, false).
// Standings after round 3: Compute(t, 3, tbs).
package standings
