package rules_test

import (
	"testing"

	"github.com/chesshall/hallclock/rules"
)

// whiteSeals starts a game in which White moves at 1 s, Black at 2 s,
// and White seals his second move at 3 s; the game resumes at 100 s
// with the players absent as given.
func whiteSeals(absent ...rules.Side) []rules.Event {
	resume := rules.Event{Kind: rules.KindResume, T: 100_000}
	for _, a := range absent {
		if a == rules.White {
			resume.AbsentWhite = true
		} else {
			resume.AbsentBlack = true
		}
	}
	return []rules.Event{at(0, start), press(1000, rules.White), press(2000, rules.Black), at(3000, adjourn), resume}
}

// TestSealedMoveIllegalLoses: a sealed move found illegal at the
// resumption loses the game for the sealer in every edition, game type
// and supervision (2023/2018 Guidelines I.8.3, 2009 guideline 8(c), 2005
// Appendix A8(c)), with no penalty time for the opponent — not 7.5.5's
// first illegal move, nor the appendices' claim rules.
func TestSealedMoveIllegalLoses(t *testing.T) {
	for _, r := range rules.Rulesets {
		for _, tc := range []string{"5400", "1800", "300"} { // standard, rapid, blitz in every edition
			for _, reg := range []rules.Regulations{defaults, insufficient} {
				cfg := config(r, tc, reg)
				s, ok := fold(t, cfg, whiteSeals())
				if !ok {
					continue
				}
				blackBefore := s.Project(101_000).P[rules.Black].MainMs
				n, err := rules.Apply(s, by(101_000, rules.KindIllegalMove, rules.White))
				if err != nil {
					t.Errorf("%s %s %v: illegal sealed move = %v, want the game lost", r, tc, reg.Supervision, err)
					continue
				}
				if n.Result != rules.BlackWins || n.Termination != rules.TermIllegalMove || n.P[rules.Black].MainMs != blackBefore {
					t.Errorf("%s %s %v: illegal sealed move: %s %s, Black %d ms (was %d), want 0-1 illegal_move and no penalty time",
						r, tc, reg.Supervision, n.Result, n.Termination, n.P[rules.Black].MainMs, blackBefore)
				}
			}
		}
	}
}

type SealedRulingTest struct {
	cfg     rules.Config
	history []rules.Event
	e       rules.Event
	result  rules.Result
	term    rules.Termination
}

var sealedRulingTests = []SealedRulingTest{
	// FIDE 2023 Guidelines I.8: except the cases of Art. 6.9, drawn when
	// the opponent cannot checkmate by any series of legal moves.
	{config(rules.FIDE2023, "5400", defaults), append([]rules.Event{{Kind: rules.KindPosition, T: 0, FEN: kqk}}, whiteSeals()...),
		by(101_000, rules.KindIllegalMove, rules.White), rules.Draw, rules.TermIllegalMove},
	// FIDE 2009 guideline 8(c): Black sealed; his sealed move loses.
	{config(rules.FIDE2009, "5400", defaults), []rules.Event{at(0, start), press(1000, rules.White), at(2000, adjourn), at(50_000, rules.KindResume)},
		by(51_000, rules.KindIllegalMove, rules.Black), rules.WhiteWins, rules.TermIllegalMove},
	// FIDE 2023 Guidelines I.10: the late sealer lost by default, but his
	// sealed move was checkmate: that conclusion applies.
	{config(rules.FIDE2023, "5400", rules.Regulations{DefaultTimeMs: rules.Ms(900_000)}), whiteSeals(rules.White),
		rules.Event{Kind: rules.KindSealedMoveEnds, T: 1_100_000, Result: rules.WhiteWins}, rules.WhiteWins, rules.TermNormal},
	// FIDE 2005 Appendix A10(b): the late sealer's sealed move is stalemate: drawn.
	{config(rules.FIDE2005, "5400", defaults), whiteSeals(rules.White),
		rules.Event{Kind: rules.KindSealedMoveEnds, T: 3_800_000, Result: rules.Draw}, rules.Draw, rules.TermNormal},
	// FIDE 2018 Guidelines I.10: the late opponent, mated by the sealed move.
	{config(rules.FIDE2018, "5400", defaults), whiteSeals(rules.Black),
		rules.Event{Kind: rules.KindSealedMoveEnds, T: 200_000, Result: rules.WhiteWins}, rules.WhiteWins, rules.TermNormal},
	// FIDE 2009 Art. 5.1(a): both present, the sealed move mates.
	{config(rules.FIDE2009, "5400", defaults), whiteSeals(),
		rules.Event{Kind: rules.KindSealedMoveEnds, T: 100_500, Result: rules.WhiteWins}, rules.WhiteWins, rules.TermNormal},
}

func TestSealedRulings(t *testing.T) {
	for _, test := range sealedRulingTests {
		s, ok := fold(t, test.cfg, test.history)
		if !ok {
			continue
		}
		n, err := rules.Apply(s, test.e)
		if err != nil {
			t.Errorf("%s: Apply(%v) = %v, want %s %s", test.cfg.Ruleset, test.e, err, test.result, test.term)
			continue
		}
		if !n.Over() || n.Result != test.result || n.Termination != test.term || n.Sealed {
			t.Errorf("%s: Apply(%v) = %v %s %s (sealed %t), want finished %s %s", test.cfg.Ruleset, test.e, n.Status, n.Result, n.Termination, n.Sealed, test.result, test.term)
		}
	}
}

// TestEnvelopeLost: the game resumes from the adjourned position with the
// recorded times, the sealer to move; his move completes at his press and
// earns the increment then (FIDE 2023 Guidelines I.12.1, 2009 guideline
// 11(a), 2005 Appendix A11(a)).
func TestEnvelopeLost(t *testing.T) {
	for _, r := range rules.Rulesets {
		s, ok := fold(t, config(r, "5400+30", defaults), []rules.Event{at(0, start), press(1000, rules.White), press(2000, rules.Black), at(3000, adjourn)})
		if !ok {
			continue
		}
		recorded := s.P[rules.White].MainMs
		n, err := rules.Apply(s, at(100_000, rules.KindEnvelopeLost))
		if err != nil {
			t.Errorf("%s: envelope lost = %v", r, err)
			continue
		}
		if side, running := n.Running(); !running || side != rules.White || n.P[rules.White].Moves != 1 || n.P[rules.White].MainMs != recorded || n.Sealed {
			t.Errorf("%s: envelope lost: %v, White %d moves %d ms (sealed %t), want White's clock running from %d ms with 1 move", r, n.Status, n.P[rules.White].Moves, n.P[rules.White].MainMs, n.Sealed, recorded)
		}
		n, err = rules.Apply(n, press(110_000, rules.White))
		if err != nil || n.P[rules.White].Moves != 2 || n.P[rules.White].MainMs != recorded-10_000+30_000 {
			t.Errorf("%s: the move made after the envelope was lost: %v, White %d moves %d ms, want 2 moves %d ms", r, err, n.P[rules.White].Moves, n.P[rules.White].MainMs, recorded+20_000)
		}
	}
}
