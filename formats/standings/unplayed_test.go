package standings

import "testing"

// Unplayed rounds, FIDE Tie-Break Regulations 2023, art. 16.
//
//	R1: 1-2 1-0, 3-4 0-1, 5 pairing-allocated bye
//	R2: 1-4 ½-½, 2-5 0-1, 3 absent (zero-point bye), withdrawn
//	points: 1: 1.5, 2: 0, 3: 0, 4: 1.5, 5: 2
func withdrawn(t *testing.T) Tournament {
	return build(t, Classic, false,
		"1: 2w1 4b=",
		"2: 1b0 5w0",
		"3: 4w0 Z",
		"4: 3b1 1w=",
		"5: U 2b1",
	)
}

func TestUnplayedRounds(t *testing.T) {
	tab := mustCompute(t, withdrawn(t), 0, "BH,BH-C1,SB,WIN,WON,GE,BPG")
	for _, c := range []struct {
		start    int
		tb, want string
		why      string
	}{
		// art. 16.4: a player's own unplayed round counts as played
		// against a dummy opponent with the player's own score.
		{5, "BH", "2", "art. 16.4: PAB against a dummy of 5's own 2 points, plus 2's 0"},
		{3, "BH", "1.5", "art. 16.4: 4's 1.5, plus a dummy of 3's own 0 for the absence"},
		// art. 16.3.2: 3's absence after its last game counts as a
		// draw for its opponents: 0 + ½.
		{4, "BH", "2", "art. 16.3.2: 3 counts 0.5 (its absence as a draw), plus 1's 1.5"},
		{1, "BH", "1.5", "art. 8.1: 2's 0, plus 4's 1.5"},
		// art. 14.6: a voluntarily unplayed round is cut first.
		{3, "BH-C1", "1.5", "art. 14.6: the absence's dummy (0) cut first"},
		// art. 16.4 with 9.1: the dummy's score times what the round scored.
		{5, "SB", "2", "art. 9.1: PAB 1 × dummy 2, plus 1 × 2's 0"},
		{5, "WIN", "2", "art. 7.1: the PAB scores a win"},
		{5, "WON", "1", "art. 7.2: the PAB is not won over the board"},
		{5, "GE", "2", "art. 7.6: the PAB counts as elected to play"},
		{3, "GE", "1", "art. 7.6: the absence does not"},
		{5, "BPG", "1", "art. 7.3"},
	} {
		if got := get(t, tab, c.start, c.tb); got != c.want {
			t.Errorf("player %d %s = %s, want %s (%s)", c.start, c.tb, got, c.want, c.why)
		}
	}
}

// A voluntarily unplayed round is cut first even when a game counts less
// (art. 14.6): Cut-1 drops the half-point bye's dummy (own score 2), not
// the game against 0 points.
//
//	R1: 1-2 1-0, 3-4 1-0; R2: 1 half-point bye, 3-2 1-0, 4 pairing-allocated bye; R3: 1-4 ½-½, 2-3 0-1
func TestCutVoluntaryFirst(t *testing.T) {
	tour := build(t, Classic, false,
		"1: 2w1 H 4w=",
		"2: 1b0 3b0 3w0",
		"3: 4w1 2w1 2b1",
		"4: 3b0 U 1b=",
	)
	// 2 met 3 twice: a Swiss does not forbid it here, the arithmetic holds.
	tab := mustCompute(t, tour, 0, "BH,BH-C1")
	if got := get(t, tab, 1, "PTS"); got != "2" {
		t.Fatalf("PTS %s", got)
	}
	// BH: 2's 0 + dummy 2 (own score) + 4's 1.5 = 3.5
	if got := get(t, tab, 1, "BH"); got != "3.5" {
		t.Errorf("BH %s, want 3.5 (art. 16.4: the half-point bye against a dummy of 2 points)", got)
	}
	// BH-C1: the bye's 2 is cut, though 2's 0 is lower: 0 + 1.5
	if got := get(t, tab, 1, "BH-C1"); got != "1.5" {
		t.Errorf("BH-C1 %s, want 1.5 (art. 14.6: the voluntarily unplayed round is cut first)", got)
	}
}

// A forfeit in a Swiss is an unplayed round for both (art. 16.4: each
// against a dummy of his own score); in a round robin it is a game
// against the scheduled opponent (art. 15: pre-determined pairings).
func TestForfeitSwissAndRoundRobin(t *testing.T) {
	lines := []string{
		"1: 4w1 2w= 3b1",
		"2: 3w= 1b= 4w+",
		"3: 2b= 4b1 1w0",
		"4: 1b0 3w0 2b-",
	}
	// points: 1: 2.5, 2: 2, 3: 1.5, 4: 0
	for _, c := range []struct {
		rr       bool
		start    int
		tb, want string
		why      string
	}{
		{false, 2, "SB", "4", "art. 16.4: ½×1.5 + ½×2.5 + 1×dummy 2"},
		{true, 2, "SB", "2", "art. 15: ½×1.5 + ½×2.5 + 1×4's 0"},
		{false, 2, "BH", "6", "art. 16.4: 1.5 + 2.5 + dummy 2"},
		{true, 2, "BH", "4", "art. 15: 1.5 + 2.5 + 0"},
		{false, 4, "BH", "4", "art. 16.4: 2.5 + 1.5 + dummy 0"},
		{true, 1, "KS", "1.5", "art. 9.2: 50 % of 3 is 1.5: ½ against 2, 1 against 3"},
		{true, 2, "KS", "1", "art. 9.2: ½ against 3, ½ against 1"},
		{true, 3, "KS", "0.5", "art. 9.2"},
		{false, 2, "WON", "0", "art. 7.2: the forfeit is not won over the board"},
		{false, 2, "WIN", "1", "art. 7.1: the forfeit scores a win"},
	} {
		tab := mustCompute(t, build(t, Classic, c.rr, lines...), 0, "BH,SB,KS,WIN,WON")
		if got := get(t, tab, c.start, c.tb); got != c.want {
			t.Errorf("round robin %v: player %d %s = %s, want %s (%s)", c.rr, c.start, c.tb, got, c.want, c.why)
		}
	}
}

// Standings after an earlier round count only the rounds up to it; a
// game still playing scores nothing; the crosstable shows the opponent's
// rank.
func TestAfterRoundAndCrosstable(t *testing.T) {
	tour := withdrawn(t)
	tab := mustCompute(t, tour, 1, "BH")
	if got := get(t, tab, 5, "PTS"); got != "1" {
		t.Errorf("after round 1: 5 has %s, want 1 (the PAB)", got)
	}
	if tab.After != 1 || len(tab.Rows[0].Rounds) != 1 {
		t.Errorf("after %d, %d rounds in a row", tab.After, len(tab.Rows[0].Rounds))
	}
	tab = mustCompute(t, tour, 0, "BH")
	for _, r := range tab.Rows {
		for k, c := range r.Rounds {
			if c.Opponent == 0 {
				if c.OpponentRank != 0 {
					t.Errorf("player %d round %d: a bye with opponent rank %d", r.Start, k+1, c.OpponentRank)
				}
				continue
			}
			for _, o := range tab.Rows {
				if o.Start == c.Opponent && o.Rank != c.OpponentRank {
					t.Errorf("player %d round %d: opponent %d shown at rank %d, is %d", r.Start, k+1, c.Opponent, c.OpponentRank, o.Rank)
				}
			}
		}
	}
	// A game not finished (Pending) scores nothing and counts in no
	// tie-break.
	pend := build(t, Classic, false, "1: 2w1 3b*", "2: 1b0 4w1", "3: 4b= 1w*", "4: 3w= 2b0")
	tab = mustCompute(t, pend, 0, "BH,GE")
	if got := get(t, tab, 1, "BH"); got != "1" {
		t.Errorf("pending: BH %s, want 1 (2's point only)", got)
	}
	if got := get(t, tab, 1, "GE"); got != "1" {
		t.Errorf("pending: GE %s, want 1", got)
	}
}

// A full-point bye is won without playing, not a voluntarily unplayed
// round; a zero-point bye before a round played counts, for the
// opponents, as the nothing it scored — only absences to the end count
// as draws (art. 16.3.2).
//
//	R1: 1 full-point bye, 3-2 1-0 (3 White), 4 half-point bye, 5 absent
//	R2: 1-2 1-0, 3 absent to the end, 4-5 1-0
//	points: 1: 2, 2: 0, 3: 1, 4: 1.5, 5: 0
func TestByesOfEachKind(t *testing.T) {
	tab := mustCompute(t, build(t, Classic, false,
		"1: F 2w1",
		"2: 3b0 1b0",
		"3: 2w1 Z",
		"4: H 5w1",
		"5: Z 4b0",
	), 0, "BH,WIN,WON,GE")
	for _, c := range []struct {
		start    int
		tb, want string
		why      string
	}{
		{1, "BH", "2", "art. 16.4: the full-point bye against a dummy of 1's own 2, plus 2's 0"},
		{2, "BH", "3.5", "art. 16.3.2: 3 counts 1.5 (its last absence as a draw), 1 counts 2 (its bye as won)"},
		{4, "BH", "1.5", "art. 16.3.2: 5's absence before it played counts as the 0 it scored; dummy 1.5"},
		{1, "WIN", "2", "art. 7.1: the full-point bye scores a win"},
		{1, "WON", "1", "art. 7.2"},
		{1, "GE", "2", "art. 7.6: a full-point bye counts as elected to play"},
		{4, "GE", "1", "art. 7.6: a half-point bye does not"},
	} {
		if got := get(t, tab, c.start, c.tb); got != c.want {
			t.Errorf("player %d %s = %s, want %s (%s)", c.start, c.tb, got, c.want, c.why)
		}
	}
}

// Fore Buchholz (art. 8.3) counts the tournament's last round as drawn:
// each player's and each opponent's score as a draw in it leaves them, a
// forfeit in it a game drawn against the scheduled opponent; rounds
// before it as Buchholz does (art. 16). Cut-1 drops the least significant
// value, a voluntarily unplayed round first (art. 14.1, 14.6).
func TestForeBuchholz(t *testing.T) {
	// points: 1: 2.5, 2: 2, 3: 1.5, 4: 0; scores with round 3 drawn:
	// 1: 2, 2: 1.5, 3: 2, 4: 0.5
	forfeit := build(t, Classic, false,
		"1: 4w1 2w= 3b1",
		"2: 3w= 1b= 4w+",
		"3: 2b= 4b1 1w0",
		"4: 1b0 3w0 2b-",
	)
	// round 2's half-point bye is voluntarily unplayed; round 3 drawn
	// leaves 1 with 2, 2 with 0.5, 4 with 1.5
	cut := build(t, Classic, false,
		"1: 2w1 H 4w=",
		"2: 1b0 3b0 3w0",
		"3: 4w1 2w1 2b1",
		"4: 3b0 U 1b=",
	)
	for _, c := range []struct {
		tour     Tournament
		start    int
		tb, want string
		why      string
	}{
		{forfeit, 2, "FB", "4.5", "art. 8.3: 3's 2 + 1's 2 + the forfeit won drawn against 4: 0.5 (BH 6, a dummy of 2)"},
		{forfeit, 4, "FB", "5.5", "art. 8.3: 1's 2 + 3's 2 + the forfeit lost drawn against 2: 1.5"},
		{forfeit, 4, "FB-C1", "4", "art. 14.1: the last round's 1.5 cut, no longer unplayed"},
		{forfeit, 1, "FB-M1", "1.5", "art. 14.1: 4's 0.5 and 3's 2 dropped, 2's 1.5 left"},
		{cut, 1, "FB", "4", "art. 8.3: 2's 0.5 + the bye's dummy of 1's own 2 (art. 16.4) + 4's 1.5"},
		{cut, 1, "FB-C1", "2", "art. 14.6: the half-point bye cut first though 2's 0.5 is lower"},
		{cut, 4, "FB", "6", "art. 8.3: 3's 2.5 + the PAB's dummy of 4's own 1.5 (art. 16.4) + 1's 2"},
	} {
		tab := mustCompute(t, c.tour, 0, "BH,FB,FB-C1,FB-M1")
		if got := get(t, tab, c.start, c.tb); got != c.want {
			t.Errorf("player %d %s = %s, want %s (%s)", c.start, c.tb, got, c.want, c.why)
		}
	}
	// Before the last round, FB is BH: no round of the tournament's last
	// is counted yet.
	forfeit.Rounds = 4
	tab := mustCompute(t, forfeit, 0, "BH,FB")
	if bh, fb := get(t, tab, 2, "BH"), get(t, tab, 2, "FB"); bh != fb {
		t.Errorf("a 4-round tournament after round 3: FB %s, BH %s, want equal", fb, bh)
	}
}
