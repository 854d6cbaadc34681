package rules_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/chesshall/hallclock/rules"
	"github.com/chesshall/hallclock/rules/conformance"
)

// runVectors runs every conformance vector below dir as a subtest.
func runVectors(t *testing.T, dir string) []conformance.Vector {
	vs, errs := conformance.LoadDir(dir)
	for _, err := range errs {
		t.Errorf("LoadDir(%q): %v", dir, err)
	}
	for i := range vs {
		v := &vs[i]
		t.Run(filepath.Base(v.File)+"/"+v.Name, func(t *testing.T) {
			if f := v.Run(); f != nil {
				t.Error(f)
			}
		})
	}
	return vs
}

// TestConformanceVectors runs the vectors of testdata/, written from the
// Laws (conformance.md), and checks that each names what it shows and the
// article it comes from.
func TestConformanceVectors(t *testing.T) {
	vs := runVectors(t, "testdata")
	if len(vs) < 100 {
		t.Errorf("testdata holds %d vectors, want at least 100", len(vs))
	}
	names := map[string]string{}
	for _, v := range vs {
		if v.Law == "" {
			t.Errorf("%s: %s: no law", v.File, v.Name)
		}
		if f, dup := names[v.Name]; dup {
			t.Errorf("%s: %s: name used in %s too", v.File, v.Name, f)
		}
		names[v.Name] = v.File
	}
}

// TestSharedConformanceVectors runs the project's shared vectors
// (../shared/conformance beside the module), when they are there.
func TestSharedConformanceVectors(t *testing.T) {
	dir := filepath.Join("..", "..", "shared", "conformance")
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("no shared vectors: %v", err)
	}
	runVectors(t, dir)
}

// Helpers that build configurations and events for the tables.

func mustTC(s string) rules.TimeControl {
	tc, err := rules.ParseTimeControl(s)
	if err != nil {
		panic(err)
	}
	return tc
}

func config(r rules.Ruleset, tc string, reg rules.Regulations) rules.Config {
	return rules.Config{Ruleset: r, TimeControl: mustTC(tc), Regulations: reg}
}

var (
	defaults     = rules.Regulations{}
	insufficient = rules.Regulations{Supervision: rules.Insufficient}
	quickplay    = rules.Regulations{QuickplayFinish: true}
)

func at(t int64, k rules.Kind) rules.Event { return rules.Event{Kind: k, T: t} }

func by(t int64, k rules.Kind, s rules.Side) rules.Event { return rules.Event{Kind: k, T: t, Side: s} }

func press(t int64, s rules.Side) rules.Event { return by(t, rules.KindPress, s) }

func illegalFound(t int64, s rules.Side, move int) rules.Event {
	return rules.Event{Kind: rules.KindIllegalMoveFound, T: t, Side: s, Move: move, WhiteMs: 60_000, BlackMs: 60_000}
}

func claim(t int64, s rules.Side, d rules.Decision) rules.Event {
	return rules.Event{Kind: rules.KindQuickplayClaim, T: t, Side: s, Decision: d}
}

// withTimes starts the clock at 0 and installs the remaining times.
func withTimes(w, b int64, more ...rules.Event) []rules.Event {
	return append([]rules.Event{at(0, rules.KindStart), at(0, rules.KindPause),
		{Kind: rules.KindSetClock, WhiteMs: w, BlackMs: b}, at(0, rules.KindResume)}, more...)
}

// movesEach starts the clock at 0, and each player completes n moves, one
// second each, from t = 1000.
func movesEach(n int, more ...rules.Event) []rules.Event {
	es := []rules.Event{at(0, rules.KindStart)}
	for i := range 2 * n {
		es = append(es, press(int64(i+1)*1000, rules.Side(i%2)))
	}
	return append(es, more...)
}

func fold(t *testing.T, cfg rules.Config, es []rules.Event) (rules.State, bool) {
	t.Helper()
	s, err := rules.Fold(cfg, es)
	if err != nil {
		t.Errorf("Fold(%v, history) = %v", cfg.TimeControl, err)
		return s, false
	}
	return s, true
}

type RefusalTest struct {
	cfg     rules.Config
	history []rules.Event
	e       rules.Event
	code    rules.RefusalCode
	rule    string
}

const (
	kqk      = "4k3/8/8/8/8/8/8/3QK3 w - - 0 1"
	lateMs   = 1 << 60
	tooMuch  = 1_000_000_001 // 1e6 s and a millisecond
	paused   = rules.KindPause
	adjourn  = rules.KindAdjourn
	start    = rules.KindStart
	setClock = rules.KindSetClock
)

var refusalTests = []RefusalTest{
	// FIDE 2023 Art. 6.6: White's clock is started at the time set for the start.
	{config(rules.FIDE2023, "300", defaults), nil, press(0, rules.White), rules.RefusedNotStarted, "FIDE 2023 Art. 6.6"},
	{config(rules.FIDE2023, "300", defaults), []rules.Event{at(0, start)}, at(1, start), rules.RefusedStarted, "FIDE 2023 Art. 6.6"},
	// The clock is not running before the start: no arbiter's change either (12.9, 13.5 are for a game in play).
	{config(rules.FIDE2023, "300", defaults), nil, rules.Event{Kind: rules.KindAddTime, Ms: 1000}, rules.RefusedNotStarted, "FIDE 2023 Art. 6.6"},
	{config(rules.FIDE2018, "300", defaults), nil, at(0, setClock), rules.RefusedNotStarted, "FIDE 2018 Art. 6.6"},
	{config(rules.FIDE2009, "300", defaults), nil, press(0, rules.White), rules.RefusedNotStarted, "FIDE 2009 Art. 6.5"},
	{config(rules.FIDE2005, "300", defaults), nil, at(0, paused), rules.RefusedNotStarted, "FIDE 2005 Art. 6.5"},
	// A game ends over the board only once it has begun: before the start, a
	// result is the arbiter's (a default, 2023 6.7.1 and 12.9), never the
	// players' clock's.
	{config(rules.FIDE2023, "300", defaults), nil, rules.Event{Kind: rules.KindResult, Result: rules.WhiteWins, Termination: rules.TermNormal}, rules.RefusedNotStarted, "FIDE 2023 Art. 6.6"},
	{config(rules.FIDE2018, "300", defaults), nil, rules.Event{Kind: rules.KindResult, T: 5, Result: rules.Draw, Termination: rules.TermAgreement}, rules.RefusedNotStarted, "FIDE 2018 Art. 6.6"},
	{config(rules.FIDE2009, "300", defaults), nil, rules.Event{Kind: rules.KindResult, Result: rules.BlackForfeit}, rules.RefusedNotStarted, "FIDE 2009 Art. 6.5"},
	{config(rules.FIDE2005, "300", defaults), nil, rules.Event{Kind: rules.KindResult, Result: rules.BlackWins}, rules.RefusedNotStarted, "FIDE 2005 Art. 6.5"},
	// FIDE 2023 Art. 5: the game is over; only the arbiter changes the result.
	{config(rules.FIDE2023, "60", defaults), []rules.Event{at(0, start)}, press(60_000, rules.White), rules.RefusedGameOver, "FIDE 2023 Art. 5"},
	{config(rules.FIDE2023, "300", defaults), []rules.Event{at(0, start), {Kind: rules.KindResult, Result: rules.Draw, Termination: rules.TermAgreement}},
		rules.Event{Kind: rules.KindResult, T: 1, Result: rules.WhiteWins}, rules.RefusedGameOver, "FIDE 2023 Art. 5"},
	{config(rules.FIDE2005, "5400", defaults), []rules.Event{{Kind: start, AbsentBlack: true}}, by(3_600_001, rules.KindArrive, rules.Black), rules.RefusedGameOver, "FIDE 2005 Art. 5"},
	// FIDE 2023 Art. 6.11: the clock is paused, or runs already.
	{config(rules.FIDE2023, "300", defaults), []rules.Event{at(0, start), at(0, paused)}, press(1, rules.White), rules.RefusedNotRunning, "FIDE 2023 Art. 6.11"},
	{config(rules.FIDE2023, "300", defaults), []rules.Event{at(0, start)}, at(1, rules.KindResume), rules.RefusedNotPaused, "FIDE 2023 Art. 6.11"},
	{config(rules.FIDE2009, "300", defaults), []rules.Event{at(0, start), at(0, paused)}, at(1, paused), rules.RefusedNotRunning, "FIDE 2009 Art. 6.12"},
	// The game is adjourned (2023 Guidelines I, 2005 Appendix A).
	{config(rules.FIDE2023, "5400", defaults), []rules.Event{at(0, start), at(0, adjourn)}, press(1, rules.White), rules.RefusedNotRunning, "FIDE 2023 Guidelines I"},
	{config(rules.FIDE2009, "5400", defaults), []rules.Event{at(0, start), at(0, adjourn)}, at(1, adjourn), rules.RefusedNotRunning, "FIDE 2009 Guidelines for adjourned games"},
	{config(rules.FIDE2005, "5400", defaults), []rules.Event{at(0, start), at(0, adjourn)}, at(1, paused), rules.RefusedNotRunning, "FIDE 2005 Appendix A"},
	// Default time: 2023 Art. 6.7, 2009 and 2005 Art. 6.6.
	{config(rules.FIDE2023, "5400", rules.Regulations{DefaultTimeMs: rules.Ms(900_000)}), []rules.Event{{Kind: start, AbsentWhite: true}}, press(1, rules.White), rules.RefusedAbsent, "FIDE 2023 Art. 6.7"},
	{config(rules.FIDE2023, "5400", rules.Regulations{DefaultTimeMs: rules.Ms(900_000)}), []rules.Event{{Kind: start, AbsentWhite: true}}, by(1, rules.KindArrive, rules.Black), rules.RefusedPresent, "FIDE 2023 Art. 6.7"},
	{config(rules.FIDE2009, "5400", rules.Regulations{DefaultTimeMs: rules.Ms(900_000)}), []rules.Event{{Kind: start, AbsentWhite: true}}, press(1, rules.White), rules.RefusedAbsent, "FIDE 2009 Art. 6.6"},
	{config(rules.FIDE2005, "5400", defaults), []rules.Event{at(0, start)}, by(1, rules.KindArrive, rules.Black), rules.RefusedPresent, "FIDE 2005 Art. 6.6"},
	// FIDE 2023 Art. 6.8: the opponent's flag has not fallen.
	{config(rules.FIDE2023, "900", insufficient), withTimes(5000, 900_000), by(4999, rules.KindFlagClaim, rules.Black), rules.RefusedNoFlag, "FIDE 2023 Art. 6.8"},
	{config(rules.FIDE2023, "900", insufficient), withTimes(5000, 900_000), by(6000, rules.KindFlagClaim, rules.White), rules.RefusedNoFlag, "FIDE 2023 Art. 6.8"},
	{config(rules.FIDE2023, "300", defaults), withTimes(5000, 300_000), by(4999, rules.KindFlag, rules.White), rules.RefusedNoFlag, "FIDE 2023 Art. 6.8"},
	// An illegal move stands once the opponent has moved: 7.5.1 (2023), 7.4(a) (2009),
	// and without adequate supervision the appendix of each edition.
	{config(rules.FIDE2023, "5400", defaults), movesEach(1), by(2000, rules.KindIllegalMove, rules.White), rules.RefusedMoveStands, "FIDE 2023 Art. 7.5.1"},
	{config(rules.FIDE2023, "5400", defaults), []rules.Event{at(0, start)}, by(0, rules.KindIllegalMove, rules.White), rules.RefusedMoveStands, "FIDE 2023 Art. 7.5.1"},
	{config(rules.FIDE2023, "900", insufficient), movesEach(1), by(2000, rules.KindIllegalMove, rules.White), rules.RefusedMoveStands, "FIDE 2023 Appendix A.5.2"},
	{config(rules.FIDE2018, "300", insufficient), movesEach(1), by(2000, rules.KindIllegalMove, rules.White), rules.RefusedMoveStands, "FIDE 2018 Appendix A.4.2"},
	{config(rules.FIDE2009, "5400", defaults), movesEach(1), by(2000, rules.KindIllegalMove, rules.White), rules.RefusedMoveStands, "FIDE 2009 Art. 7.4(a)"},
	{config(rules.FIDE2009, "900", insufficient), movesEach(1), by(2000, rules.KindIllegalMove, rules.White), rules.RefusedMoveStands, "FIDE 2009 Appendix A4(c)"},
	{config(rules.FIDE2009, "300", insufficient), movesEach(1), by(2000, rules.KindIllegalMove, rules.White), rules.RefusedMoveStands, "FIDE 2009 Appendix B3(c)"},
	{config(rules.FIDE2005, "900", insufficient), movesEach(1), by(2000, rules.KindIllegalMove, rules.White), rules.RefusedMoveStands, "FIDE 2005 Appendix B6"},
	{config(rules.FIDE2005, "300", insufficient), movesEach(1), by(2000, rules.KindIllegalMove, rules.White), rules.RefusedMoveStands, "FIDE 2005 Appendix C3"},
	// Quickplay finish, FIDE 2023 and 2018 Guidelines III.
	{config(rules.FIDE2023, "900", defaults), withTimes(100_000, 200_000), by(1000, rules.KindQuickplayIncrement, rules.White), rules.RefusedNotApplicable, "FIDE 2023 Guidelines III.2.1"},
	{config(rules.FIDE2023, "300", quickplay), withTimes(100_000, 200_000), claim(1000, rules.White, rules.DecisionDraw), rules.RefusedNotApplicable, "FIDE 2023 Guidelines III.2.2"},
	{config(rules.FIDE2018, "900+5", quickplay), withTimes(100_000, 200_000), claim(1000, rules.White, rules.DecisionDraw), rules.RefusedNotApplicable, "FIDE 2018 Guidelines III.2.2"},
	{config(rules.FIDE2023, "*900", quickplay), withTimes(100_000, 200_000), claim(1000, rules.White, rules.DecisionDraw), rules.RefusedNotApplicable, "FIDE 2023 Guidelines III.2.2"},
	{config(rules.FIDE2023, "900", quickplay), withTimes(100_000, 200_000, by(0, rules.KindQuickplayIncrement, rules.White)), claim(1000, rules.White, rules.DecisionDraw), rules.RefusedNotApplicable, "FIDE 2023 Guidelines III.4"},
	{config(rules.FIDE2023, "900", quickplay), withTimes(300_000, 100_000), by(1000, rules.KindQuickplayIncrement, rules.Black), rules.RefusedNotToMove, "FIDE 2023 Guidelines III.4"},
	{config(rules.FIDE2023, "900", quickplay), withTimes(300_000, 100_000), claim(1000, rules.Black, rules.DecisionDraw), rules.RefusedNotToMove, "FIDE 2023 Guidelines III.5"},
	{config(rules.FIDE2023, "40/600:300", quickplay), withTimes(100_000, 200_000), claim(1000, rules.White, rules.DecisionDraw), rules.RefusedNotApplicable, "FIDE 2023 Guidelines III.1"},
	{config(rules.FIDE2023, "900", rules.Regulations{QuickplayFinish: true, Supervision: rules.Insufficient}), withTimes(5000, 200_000), claim(6000, rules.White, rules.DecisionDraw), rules.RefusedOwnFlag, "FIDE 2023 Guidelines III.5"},
	{config(rules.FIDE2023, "900", quickplay), withTimes(120_000, 200_000), claim(0, rules.White, rules.DecisionDraw), rules.RefusedTimeLimit, "FIDE 2023 Guidelines III.5"},
	{config(rules.FIDE2018, "900", quickplay), withTimes(120_000, 200_000), by(0, rules.KindQuickplayIncrement, rules.White), rules.RefusedTimeLimit, "FIDE 2018 Guidelines III.4"},
	// Quickplay finish, FIDE 2009 and 2005 Art. 10.
	{config(rules.FIDE2009, "900", quickplay), withTimes(100_000, 200_000), by(1000, rules.KindQuickplayIncrement, rules.White), rules.RefusedNotApplicable, "FIDE 2009 Art. 10.2"},
	{config(rules.FIDE2009, "600", insufficient), withTimes(100_000, 200_000), claim(1000, rules.White, rules.DecisionDraw), rules.RefusedNotApplicable, "FIDE 2009 Appendix B3(b)"},
	{config(rules.FIDE2005, "600", defaults), withTimes(100_000, 200_000), claim(1000, rules.White, rules.DecisionDraw), rules.RefusedNotApplicable, "FIDE 2005 Appendix C2"},
	{config(rules.FIDE2009, "900+5", defaults), withTimes(100_000, 200_000), claim(1000, rules.White, rules.DecisionDraw), rules.RefusedNotApplicable, "FIDE 2009 Art. 10.1"},
	{config(rules.FIDE2005, "40/1800:900", defaults), withTimes(100_000, 200_000), claim(1000, rules.White, rules.DecisionDraw), rules.RefusedNotApplicable, "FIDE 2005 Art. 10.1"},
	{config(rules.FIDE2009, "900", defaults), withTimes(300_000, 100_000), claim(1000, rules.Black, rules.DecisionDraw), rules.RefusedNotToMove, "FIDE 2009 Art. 10.2"},
	{config(rules.FIDE2005, "900", defaults), withTimes(120_000, 200_000), claim(0, rules.White, rules.DecisionReject), rules.RefusedTimeLimit, "FIDE 2005 Art. 10.2"},
	// The arbiter's changes: 12.9 (2023), 13.4 (2009, 2005); 6.10.2 (2023), 6.10(b) (2009), 6.13 (2005).
	{config(rules.FIDE2023, "300", defaults), []rules.Event{at(0, start)}, rules.Event{Kind: rules.KindAddTime, T: 1000, Side: rules.Black, Ms: -300_001}, rules.RefusedNegativeTime, "FIDE 2023 Art. 12.9"},
	{config(rules.FIDE2009, "300", defaults), []rules.Event{at(0, start)}, rules.Event{Kind: rules.KindAddTime, T: 1000, Side: rules.White, Ms: -299_001}, rules.RefusedNegativeTime, "FIDE 2009 Art. 13.4"},
	{config(rules.FIDE2023, "300", defaults), []rules.Event{at(0, start)}, rules.Event{Kind: rules.KindAddTime, T: 1000, Ms: tooMuch}, rules.RefusedInvalid, "FIDE 2023 Art. 12.9"},
	{config(rules.FIDE2023, "300", defaults), []rules.Event{at(0, start)}, rules.Event{Kind: rules.KindAddTime, T: 1000, Ms: math.MinInt64}, rules.RefusedInvalid, "FIDE 2023 Art. 12.9"},
	{config(rules.FIDE2023, "300", defaults), []rules.Event{at(0, start)}, at(1, setClock), rules.RefusedRunning, "FIDE 2023 Art. 6.10.2"},
	{config(rules.FIDE2009, "300", defaults), []rules.Event{at(0, start)}, at(1, setClock), rules.RefusedRunning, "FIDE 2009 Art. 6.10(b)"},
	{config(rules.FIDE2005, "300", defaults), []rules.Event{at(0, start)}, at(1, setClock), rules.RefusedRunning, "FIDE 2005 Art. 6.13"},
	{config(rules.FIDE2023, "300", defaults), []rules.Event{at(0, start), at(0, paused)}, rules.Event{Kind: setClock, WhiteMs: -1}, rules.RefusedNegativeTime, "FIDE 2023 Art. 6.10.2"},
	{config(rules.FIDE2023, "300", defaults), []rules.Event{at(0, start), at(0, paused)}, rules.Event{Kind: setClock, WhiteMs: tooMuch}, rules.RefusedInvalid, "FIDE 2023 Art. 6.10.2"},
	{config(rules.FIDE2023, "300", defaults), []rules.Event{at(0, start), at(0, paused)}, rules.Event{Kind: setClock, WhiteMoves: new(math.MaxInt)}, rules.RefusedInvalid, "FIDE 2023 Art. 6.10.2"},
	// The clock setting is locked without adequate supervision after 10 moves
	// each (2023 A.5.1.1, 2018 A.4.1.1) or 3 (2009 A4(a), 2005 B4).
	{config(rules.FIDE2023, "900", insufficient), movesEach(10, at(20_000, paused)), at(20_000, setClock), rules.RefusedSettingLocked, "FIDE 2023 Appendix A.5.1.1"},
	{config(rules.FIDE2018, "300", insufficient), movesEach(10, at(20_000, paused)), at(20_000, setClock), rules.RefusedSettingLocked, "FIDE 2018 Appendix A.4.1.1"},
	{config(rules.FIDE2009, "900", insufficient), movesEach(3, at(6000, paused)), at(6000, setClock), rules.RefusedSettingLocked, "FIDE 2009 Appendix A4(a)"},
	{config(rules.FIDE2005, "300", insufficient), movesEach(3, at(6000, paused)), at(6000, setClock), rules.RefusedSettingLocked, "FIDE 2005 Appendix B4"},
	// Claims with no arbiter present: III.6 (2023, 2018), Appendix D (2009);
	// none in 2005, where the claimant summons the arbiter (10.2).
	{config(rules.FIDE2005, "5400", defaults), withTimes(100_000, 200_000), claim(1000, rules.White, rules.DecisionRefer), rules.RefusedNotApplicable, "FIDE 2005 Art. 10.2"},
	{config(rules.FIDE2009, "600", insufficient), withTimes(100_000, 200_000), claim(1000, rules.White, rules.DecisionRefer), rules.RefusedNotApplicable, "FIDE 2009 Appendix B3(b)"},
	{config(rules.FIDE2023, "900", quickplay), withTimes(100_000, 200_000, claim(0, rules.White, rules.DecisionRefer)), press(1000, rules.White), rules.RefusedGameOver, "FIDE 2023 Guidelines III.6"},
	{config(rules.FIDE2009, "5400", defaults), withTimes(100_000, 200_000, claim(0, rules.White, rules.DecisionRefer)), at(1000, paused), rules.RefusedGameOver, "FIDE 2009 Appendix D"},
	{config(rules.FIDE2023, "900", quickplay), withTimes(100_000, 200_000), claim(0, rules.White, rules.Decision(9)), rules.RefusedInvalid, ""},
	// Flags whose order is unknown: III.3 only where Guidelines III apply.
	{config(rules.FIDE2023, "5400", defaults), []rules.Event{at(0, start)}, at(1000, rules.KindFlagsUnordered), rules.RefusedNotApplicable, "FIDE 2023 Guidelines III.2.1"},
	{config(rules.FIDE2018, "5400+30", quickplay), []rules.Event{at(0, start)}, at(1000, rules.KindFlagsUnordered), rules.RefusedNotApplicable, "FIDE 2018 Guidelines III.2.2"},
	{config(rules.FIDE2009, "5400", defaults), nil, at(0, rules.KindFlagsUnordered), rules.RefusedNotStarted, "FIDE 2009 Art. 6.5"},
	// Illegal moves found later (7.5.1), where the appendices do not forbid it.
	{config(rules.FIDE2023, "5400", defaults), movesEach(2), illegalFound(5000, rules.White, 1), rules.RefusedRunning, "FIDE 2023 Art. 6.10.2"},
	{config(rules.FIDE2009, "5400", defaults), movesEach(2, at(5000, paused)), illegalFound(5000, rules.White, 3), rules.RefusedInvalid, "FIDE 2009 Art. 7.4(a)"},
	{config(rules.FIDE2023, "900", insufficient), movesEach(2, at(5000, paused)), illegalFound(5000, rules.White, 1), rules.RefusedMoveStands, "FIDE 2023 Appendix A.5.2"},
	{config(rules.FIDE2005, "900", defaults), movesEach(2, at(5000, paused)), illegalFound(5000, rules.White, 1), rules.RefusedMoveStands, "FIDE 2005 Appendix B6"},
	{config(rules.FIDE2005, "300", defaults), movesEach(2, at(5000, paused)), illegalFound(5000, rules.White, 1), rules.RefusedMoveStands, "FIDE 2005 Appendix C3"},
	{config(rules.FIDE2023, "5400", defaults), movesEach(2, at(5000, paused)), rules.Event{Kind: rules.KindIllegalMoveFound, T: 5000, Move: 1, WhiteMs: -1}, rules.RefusedNegativeTime, "FIDE 2023 Art. 6.10.2"},
	// Adjourning before the session's end: the time to it is charged (I.1.2).
	{config(rules.FIDE2023, "5400", defaults), []rules.Event{at(0, start)}, rules.Event{Kind: adjourn, T: 0, SessionEndMs: 5_400_000}, rules.RefusedNegativeTime, "FIDE 2023 Guidelines I.1.2"},
	{config(rules.FIDE2009, "5400", defaults), []rules.Event{at(0, start)}, rules.Event{Kind: adjourn, T: 0, SessionEndMs: 6_000_000}, rules.RefusedNegativeTime, "FIDE 2009 Guidelines for adjourned games 1(b)"},
	{config(rules.FIDE2005, "5400", defaults), []rules.Event{at(0, start)}, rules.Event{Kind: adjourn, T: 0, SessionEndMs: lateMs}, rules.RefusedInvalid, "FIDE 2005 Appendix A1(b)"},
	{config(rules.FIDE2023, "5400", defaults), []rules.Event{at(0, start), at(0, paused)}, rules.Event{Kind: rules.KindResume, T: 1, AbsentWhite: true}, rules.RefusedNotApplicable, "FIDE 2023 Guidelines I.9"},
	// The sealed move: it ends the game only once made at the resumption,
	// before it is answered, as the sealer's win or a draw (Guidelines I.10);
	// only an adjourned game has an envelope to lose (I.12).
	{config(rules.FIDE2023, "5400", defaults), []rules.Event{at(0, start), at(0, adjourn)}, rules.Event{Kind: rules.KindSealedMoveEnds, T: 1, Result: rules.WhiteWins}, rules.RefusedNotRunning, "FIDE 2023 Guidelines I.10"},
	{config(rules.FIDE2018, "5400", defaults), movesEach(1), rules.Event{Kind: rules.KindSealedMoveEnds, T: 2000, Result: rules.BlackWins}, rules.RefusedNotApplicable, "FIDE 2018 Guidelines I.10"},
	{config(rules.FIDE2009, "5400", defaults), whiteSeals(), rules.Event{Kind: rules.KindSealedMoveEnds, T: 100_000, Result: rules.BlackWins}, rules.RefusedInvalid, "FIDE 2009 Guidelines for adjourned games 10"},
	{config(rules.FIDE2005, "5400", defaults), whiteSeals(), rules.Event{Kind: rules.KindSealedMoveEnds, T: 100_000, Result: rules.WhiteHalf}, rules.RefusedInvalid, "FIDE 2005 Appendix A10"},
	{config(rules.FIDE2005, "5400", defaults), []rules.Event{at(0, start)}, at(1, rules.KindEnvelopeLost), rules.RefusedNotApplicable, "FIDE 2005 Appendix A11"},
	{config(rules.FIDE2018, "5400", defaults), whiteSeals(), at(100_000, rules.KindEnvelopeLost), rules.RefusedNotApplicable, "FIDE 2018 Guidelines I.12"},
	// The arbiter calls a flag only if it fell (6.8).
	{config(rules.FIDE2023, "900", insufficient), movesEach(1), by(2000, rules.KindArbiterFlag, rules.White), rules.RefusedNoFlag, "FIDE 2023 Art. 6.8"},
	// A game declared lost: in 2005 the arbiter must say the opponent's score.
	{config(rules.FIDE2005, "5400", defaults), []rules.Event{at(0, start)}, by(1000, rules.KindDeclareLost, rules.White), rules.RefusedInvalid, "FIDE 2005 Art. 12.2(b)"},
	{config(rules.FIDE2023, "5400", defaults), []rules.Event{at(0, start)}, rules.Event{Kind: rules.KindDeclareLost, T: 1000, Side: rules.Black, Result: rules.BlackHalf}, rules.RefusedInvalid, "FIDE 2023 Art. 12.9"},
	// Malformed events name no article.
	{config(rules.FIDE2023, "300", defaults), []rules.Event{at(1000, start)}, press(999, rules.White), rules.RefusedTimeBackwards, ""},
	{config(rules.FIDE2023, "300", defaults), nil, at(lateMs, start), rules.RefusedInvalid, ""},
	{config(rules.FIDE2023, "300", defaults), []rules.Event{at(0, start)}, press(1, rules.Side(2)), rules.RefusedInvalid, ""},
	{config(rules.FIDE2023, "300", defaults), []rules.Event{at(0, start)}, at(1, rules.Kind(99)), rules.RefusedInvalid, ""},
	{config(rules.FIDE2023, "300", defaults), []rules.Event{at(0, start)}, at(1, rules.KindInvalid), rules.RefusedInvalid, ""},
	{config(rules.FIDE2023, "900", quickplay), withTimes(100_000, 200_000), claim(1000, rules.White, rules.DecisionNone), rules.RefusedInvalid, ""},
	{config(rules.FIDE2023, "300", defaults), []rules.Event{at(0, start)}, rules.Event{Kind: rules.KindResult, T: 1, Result: rules.NoResult}, rules.RefusedInvalid, ""},
}

func TestApplyRefusals(t *testing.T) {
	for i, test := range refusalTests {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			s, ok := fold(t, test.cfg, test.history)
			if !ok {
				return
			}
			n, err := rules.Apply(s, test.e)
			r := rules.RefusalOf(err)
			switch {
			case err == nil:
				t.Errorf("%s %v: Apply(%v) = accepted, want refusal %d (%s)", test.cfg.Ruleset, test.cfg.TimeControl, test.e, test.code, test.rule)
				return
			case !errors.Is(err, rules.ErrRefused) || r == nil:
				t.Errorf("%s %v: Apply(%v) = %v, want a *Refusal", test.cfg.Ruleset, test.cfg.TimeControl, test.e, err)
				return
			}
			if r.Code != test.code || r.Rule != test.rule {
				t.Errorf("%s %v: Apply(%v) = code %d, rule %q, want code %d, rule %q (%v)", test.cfg.Ruleset, test.cfg.TimeControl, test.e, r.Code, r.Rule, test.code, test.rule, err)
			}
			if !reflect.DeepEqual(r.Event, test.e) {
				t.Errorf("Apply(%v): Refusal.Event = %v, want the refused event", test.e, r.Event)
			}
			if r.Reason == "" || err.Error() == "" {
				t.Errorf("Apply(%v) = %v, want a reason", test.e, err)
			}
			if !reflect.DeepEqual(n, s) {
				t.Errorf("Apply(%v) refused but changed the state", test.e)
			}
		})
	}
}

type InputErrorTest struct {
	cfg     rules.Config
	history []rules.Event
	e       rules.Event
}

// Inputs that are not a position or a result: *InputError, not *Refusal.
var inputErrorTests = []InputErrorTest{
	{config(rules.FIDE2023, "300", defaults), []rules.Event{at(0, start)}, rules.Event{Kind: rules.KindPosition, T: 1, FEN: "not a position"}},                     // FIDE 2023 Art. 6.9 needs a position: not a FEN
	{config(rules.FIDE2023, "300", defaults), []rules.Event{at(0, start)}, rules.Event{Kind: rules.KindPress, T: 1, FEN: "8/8/8/8/8/8/8/8 w - - 0 1"}},             // FIDE 2023 Art. 3: a position has both kings
	{config(rules.FIDE2023, "300", defaults), []rules.Event{at(0, start)}, rules.Event{Kind: rules.KindResult, T: 1, Result: "2-0"}},                               // FIDE 2023 Art. 8.7: no such result
	{config(rules.FIDE2023, "300", defaults), []rules.Event{at(0, start)}, rules.Event{Kind: rules.KindResult, T: 1, Result: rules.Draw, Termination: "resigned"}}, // FIDE 2023 Art. 5.1.2 is "normal"
}

func TestApplyInputErrors(t *testing.T) {
	for i, test := range inputErrorTests {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			s, ok := fold(t, test.cfg, test.history)
			if !ok {
				return
			}
			n, err := rules.Apply(s, test.e)
			if !errors.Is(err, rules.ErrInvalid) || errors.Is(err, rules.ErrRefused) {
				t.Errorf("Apply(%v) = %v, want an *InputError", test.e, err)
			}
			if !reflect.DeepEqual(n, s) {
				t.Errorf("Apply(%v) = %v but changed the state", test.e, err)
			}
		})
	}
}

type NewStateTest struct {
	cfg rules.Config
	ok  bool
}

var newStateTests = []NewStateTest{
	{config(rules.FIDE2023, "300", defaults), true},                                               // FIDE 2023 Art. 6.2
	{config("", "300", defaults), true},                                                           // the default ruleset, fide-2023
	{config("fide-1999", "300", defaults), false},                                                 // no such edition
	{rules.Config{Ruleset: rules.FIDE2023}, false},                                                // no time control
	{config(rules.FIDE2023, "300", rules.Regulations{DefaultTimeMs: rules.Ms(-1)}), false},        // FIDE 2023 Art. 6.7.1: a default time is 0 or more
	{config(rules.FIDE2023, "300", rules.Regulations{IllegalMovePenaltyMs: rules.Ms(-1)}), false}, // FIDE 2023 Art. 7.5.5: the opponent is given time
	{config(rules.FIDE2023, "300", rules.Regulations{DrawClaimPenaltyMs: rules.Ms(-1)}), false},   // FIDE 2023 Art. 9.5.3: the opponent is given time
	// Beyond any game: a remaining time could overflow.
	{config(rules.FIDE2023, "300", rules.Regulations{IllegalMovePenaltyMs: rules.Ms(math.MaxInt64)}), false}, // FIDE 2023 Art. 7.5.5: beyond any game
	{config(rules.FIDE2023, "300", rules.Regulations{DefaultTimeMs: rules.Ms(math.MaxInt64)}), false},        // FIDE 2023 Art. 6.7.1: beyond any game
	{config(rules.FIDE2023, "300", rules.Regulations{DefaultTimeMs: rules.Ms(1_000_000_000)}), true},         // FIDE 2023 Art. 6.7.1: the longest default time accepted
}

func TestNewState(t *testing.T) {
	for i, test := range newStateTests {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			s, err := rules.NewState(test.cfg)
			if (err == nil) != test.ok {
				t.Errorf("NewState(%+v) = %v, want ok %v", test.cfg, err, test.ok)
				return
			}
			if err != nil {
				if !errors.Is(err, rules.ErrInvalid) {
					t.Errorf("NewState(%+v) = %v, want an *InputError", test.cfg, err)
				}
				return
			}
			base := test.cfg.TimeControl.Periods[0].BaseMs
			if s.Status != rules.Waiting || s.P[rules.White].MainMs != base || s.P[rules.Black].MainMs != base ||
				s.Result != rules.NoResult || s.P[rules.White].FlagAt != rules.NoFlag || s.Config.Ruleset == "" {
				t.Errorf("NewState(%+v) = %+v, want a waiting board showing %d ms each", test.cfg, s, base)
			}
		})
	}
}

type DeadlineTest struct {
	cfg      rules.Config
	history  []rules.Event
	flag     int64 // FlagDeadline, -1 for none
	deadline int64 // NextDeadline, -1 for none
}

var deadlineTests = []DeadlineTest{
	// FIDE 2023 Art. 6.6: no clock runs before the start.
	{config(rules.FIDE2023, "300", defaults), nil, -1, -1}, // FIDE 2023 Art. 6.6
	// The flag falls when the main time reaches zero (6.9)...
	{config(rules.FIDE2023, "300", defaults), []rules.Event{at(1000, start)}, 301_000, 301_000},                          // FIDE 2023 Art. 6.6, 6.9
	{config(rules.FIDE2023, "300", defaults), []rules.Event{at(0, start), press(10_000, rules.White)}, 310_000, 310_000}, // FIDE 2023 Art. 6.2.1, 6.9
	// ... after the delay window (6.3.2 time-delay mode); Bronstein runs at once.
	{config(rules.FIDE2023, "300d5", defaults), []rules.Event{at(0, start)}, 305_000, 305_000},                                               // FIDE 2023 Art. 6.3.2
	{config(rules.FIDE2023, "300d5", defaults), []rules.Event{at(0, start), at(3000, paused), at(9000, rules.KindResume)}, 311_000, 311_000}, // FIDE 2023 Art. 6.3.2, 6.11.1
	{config(rules.FIDE2023, "300b5", defaults), []rules.Event{at(0, start)}, 300_000, 300_000},                                               // rules.md §1 (Bronstein delay)
	// Hourglass: Black runs with what White used added.
	{config(rules.FIDE2009, "*60", defaults), []rules.Event{at(0, start), press(10_000, rules.White)}, 80_000, 80_000}, // rules.md §1 (hourglass)
	// 6.4: with the period added at the flag, the first deadline is the period's end.
	{config(rules.FIDE2018, "2/10s:30s", rules.Regulations{PeriodChange: rules.AtFlag}), movesEach(2), 12_000, 12_000}, // FIDE 2018 Art. 6.4
	// 6.11, Guidelines I: a stopped clock has no deadline.
	{config(rules.FIDE2023, "300", defaults), []rules.Event{at(0, start), at(5000, paused)}, -1, -1},  // FIDE 2023 Art. 6.11.1
	{config(rules.FIDE2023, "300", defaults), []rules.Event{at(0, start), at(5000, adjourn)}, -1, -1}, // FIDE 2023 Guidelines I.1
	// 6.7: an absent player forfeits once the default time has passed.
	{config(rules.FIDE2023, "5400", rules.Regulations{DefaultTimeMs: rules.Ms(900_000)}), []rules.Event{{Kind: start, AbsentBlack: true}}, 5_400_000, 900_001}, // FIDE 2023 Art. 6.7.1
	{config(rules.FIDE2005, "5400", defaults), []rules.Event{{Kind: start, T: 1000, AbsentBlack: true}}, 5_401_000, 3_601_001},                                 // FIDE 2005 Art. 6.6(a): one hour
	{config(rules.FIDE2009, "5400", defaults), []rules.Event{{Kind: start, AbsentWhite: true, AbsentBlack: true}}, 5_400_000, 1},                               // FIDE 2009 Art. 6.6(a): 0 minutes
	{config(rules.FIDE2005, "300", defaults), []rules.Event{{Kind: start, AbsentBlack: true}}, 300_000, 300_000},                                               // FIDE 2005 Art. 6.9 before 6.6(a): the flag falls first
	// A.5: once White's flag fell unobserved, nothing more falls by itself while White runs.
	{config(rules.FIDE2023, "900", insufficient), withTimes(5000, 900_000, at(6000, paused), at(6000, rules.KindResume)), -1, -1}, // FIDE 2023 Appendix A.5.3
	// A finished game has no deadline.
	{config(rules.FIDE2023, "60", defaults), []rules.Event{at(0, start), {Kind: rules.KindResult, T: 1000, Result: rules.Draw}}, -1, -1}, // FIDE 2023 Art. 5.2.3
}

func TestDeadlines(t *testing.T) {
	for i, test := range deadlineTests {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			s, ok := fold(t, test.cfg, test.history)
			if !ok {
				return
			}
			f, okf := s.FlagDeadline()
			if !okf {
				f = -1
			}
			d, okd := s.NextDeadline()
			if !okd {
				d = -1
			}
			if f != test.flag || d != test.deadline {
				t.Errorf("%s %v after %v: FlagDeadline() = %d, NextDeadline() = %d, want %d, %d", test.cfg.Ruleset, test.cfg.TimeControl, test.history, f, d, test.flag, test.deadline)
			}
		})
	}
}

type ScoreTest struct {
	r            rules.Result
	sc           rules.Scoring
	white, black float64
}

var (
	threeOneZero = rules.Scoring{Win: 3, Draw: 1, Loss: 0}
	scoreTests   = []ScoreTest{
		// FIDE 2005 and 2009 Art. 11.1: 1, ½, 0 unless announced otherwise.
		{rules.WhiteWins, rules.Scoring{}, 1, 0},     // FIDE 2005 Art. 11.1
		{rules.BlackWins, rules.Scoring{}, 0, 1},     // FIDE 2005 Art. 11.1
		{rules.Draw, rules.Scoring{}, 0.5, 0.5},      // FIDE 2005 Art. 11.1
		{rules.BlackForfeit, rules.Scoring{}, 1, 0},  // FIDE 2023 Art. 6.7.1: a game lost by default
		{rules.WhiteForfeit, rules.Scoring{}, 0, 1},  // FIDE 2023 Art. 6.7.1
		{rules.DoubleForfeit, rules.Scoring{}, 0, 0}, // FIDE 2023 Art. 6.7.1: neither came
		{rules.BothLose, rules.Scoring{}, 0, 0},      // 2009 Art. 12.9: both lose
		{rules.WhiteHalf, rules.Scoring{}, 0.5, 0},   // FIDE 2023 Art. 12.9: Black's score reduced
		{rules.BlackHalf, rules.Scoring{}, 0, 0.5},   // FIDE 2009 Art. 12.2(b): the opponent cannot win
		{rules.WhiteHalf, threeOneZero, 1, 0},        // regulations: a draw's points and a loss
		{rules.NoResult, rules.Scoring{}, 0, 0},      // the game goes on
		{rules.Draw, rules.ClassicScoring, 0.5, 0.5}, // FIDE 2009 Art. 11.1
		// Regulations: 3 / 1 / 0.
		{rules.WhiteWins, threeOneZero, 3, 0},     // regulations (FIDE 2009 Art. 11.1: unless announced otherwise)
		{rules.Draw, threeOneZero, 1, 1},          // regulations
		{rules.WhiteForfeit, threeOneZero, 0, 3},  // regulations
		{rules.DoubleForfeit, threeOneZero, 0, 0}, // regulations
		{rules.NoResult, threeOneZero, 0, 0},      // regulations
	}
)

func TestScore(t *testing.T) {
	for i, test := range scoreTests {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			if w, b := test.r.Score(test.sc); w != test.white || b != test.black {
				t.Errorf("Result(%q).Score(%+v) = %v, %v, want %v, %v", test.r, test.sc, w, b, test.white, test.black)
			}
			cfg := config(rules.FIDE2023, "300", rules.Regulations{Scoring: test.sc})
			if test.r == rules.NoResult {
				return
			}
			s, ok := fold(t, cfg, []rules.Event{at(0, start), {Kind: rules.KindResult, T: 1, Result: test.r, ByArbiter: true}})
			if !ok {
				return
			}
			if w, b := s.Score(); w != test.white || b != test.black {
				t.Errorf("State with %q under %+v: Score() = %v, %v, want %v, %v", test.r, test.sc, w, b, test.white, test.black)
			}
		})
	}
}

type EventJSONTest struct {
	e    rules.Event
	json string
}

var eventJSONTests = []EventJSONTest{
	{rules.Event{Kind: rules.KindStart, AbsentBlack: true}, `{"do":"start","t":0,"absent_black":true}`},                                                                                                      // FIDE 2023 Art. 6.7
	{rules.Event{Kind: rules.KindPress, T: 1000, Side: rules.Black, SAN: "e5", FEN: kqk}, `{"do":"press","t":1000,"side":"black","fen":"` + kqk + `","san":"e5"}`},                                           // FIDE 2023 Art. 6.2.1
	{rules.Event{Kind: rules.KindPress, T: 1000, Side: rules.White}, `{"do":"press","t":1000}`},                                                                                                              // FIDE 2023 Art. 6.2.1: White, the zero side, is left out
	{rules.Event{Kind: rules.KindQuickplayClaim, T: 5, Side: rules.White, Decision: rules.DecisionPostpone, NoExtraTime: true}, `{"do":"quickplay_claim","t":5,"decision":"postpone","no_extra_time":true}`}, // FIDE 2023 Guidelines III.5.2
	{rules.Event{Kind: rules.KindAddTime, T: 5, Side: rules.Black, Ms: -30_000}, `{"do":"add_time","t":5,"side":"black","ms":-30000}`},                                                                       // FIDE 2023 Art. 12.9.3
	{rules.Event{Kind: rules.KindSetClock, T: 5, WhiteMs: 1, BlackMs: 2, WhiteMoves: new(0), BlackMoves: new(39), ScheduleOverride: true},
		`{"do":"set_clock","t":5,"white_ms":1,"black_ms":2,"white_moves":0,"black_moves":39,"schedule_override":true}`}, // FIDE 2023 Art. 6.10.2, Appendix A.5.1.1
	{rules.Event{Kind: rules.KindResult, T: 9, Result: rules.BlackForfeit, Termination: rules.TermDefault, ByArbiter: true}, `{"do":"result","t":9,"result":"+-","termination":"default","by_arbiter":true}`}, // FIDE 2023 Art. 6.7.1
	{rules.Event{Kind: rules.KindFlag, T: 9, Side: rules.Black}, `{"do":"flag","t":9,"side":"black"}`},                                                                                                        // FIDE 2023 Art. 6.8
	{rules.Event{Kind: rules.KindIllegalMoveFound, T: 9, Side: rules.Black, Move: 12, WhiteMs: 1, BlackMs: 2}, `{"do":"illegal_move_found","t":9,"side":"black","move":12,"white_ms":1,"black_ms":2}`},        // FIDE 2023 Art. 7.5.1
	{rules.Event{Kind: rules.KindAdjourn, T: 9, SessionEndMs: 99}, `{"do":"adjourn","t":9,"session_end_ms":99}`},                                                                                              // FIDE 2023 Guidelines I.1.2
	{rules.Event{Kind: rules.KindQuickplayClaim, T: 5, Decision: rules.DecisionRefer}, `{"do":"quickplay_claim","t":5,"decision":"refer"}`},                                                                   // FIDE 2023 Guidelines III.6
	{rules.Event{Kind: rules.KindDeclareLost, T: 5, Side: rules.Black, Result: rules.WhiteHalf}, `{"do":"declare_lost","t":5,"side":"black","result":"1/2-0"}`},                                               // FIDE 2023 Art. 12.9
	{rules.Event{Kind: rules.KindFlagsUnordered, T: 5}, `{"do":"flags_unordered","t":5}`},                                                                                                                     // FIDE 2023 Guidelines III.3
	{rules.Event{Kind: rules.KindArbiterFlag, T: 5, Side: rules.Black}, `{"do":"arbiter_flag","t":5,"side":"black"}`},                                                                                         // FIDE 2023 Appendix A.5.5
	{rules.Event{Kind: rules.KindSealedMoveEnds, T: 5, Result: rules.WhiteWins}, `{"do":"sealed_move_ends","t":5,"result":"1-0"}`},                                                                            // FIDE 2023 Guidelines I.10
	{rules.Event{Kind: rules.KindEnvelopeLost, T: 5, AbsentWhite: true}, `{"do":"envelope_lost","t":5,"absent_white":true}`},                                                                                  // FIDE 2023 Guidelines I.12
}

func TestEventJSON(t *testing.T) {
	for i, test := range eventJSONTests {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			b, err := json.Marshal(test.e)
			if err != nil || string(b) != test.json {
				t.Errorf("json.Marshal(%v) = %s, %v, want %s", test.e, b, err, test.json)
			}
			var got rules.Event
			if err := json.Unmarshal([]byte(test.json), &got); err != nil || !reflect.DeepEqual(got, test.e) {
				t.Errorf("json.Unmarshal(%s) = %+v, %v, want %+v", test.json, got, err, test.e)
			}
		})
	}
	// Every kind and decision reads back from its name.
	for k := rules.KindStart; k.Valid(); k++ {
		e := rules.Event{Kind: k, T: int64(k), Side: rules.Black, Decision: rules.DecisionReject}
		b, err := json.Marshal(e)
		var got rules.Event
		if err == nil {
			err = json.Unmarshal(b, &got)
		}
		if err != nil || !reflect.DeepEqual(got, e) {
			t.Errorf("json round trip of %v = %+v, %v (%s)", e, got, err, b)
		}
	}
	for _, bad := range []string{`{"do":"invalid"}`, `{"do":"castle"}`, `{"do":"press","side":"green"}`, `{"do":"quickplay_claim","decision":"maybe"}`} {
		var e rules.Event
		if err := json.Unmarshal([]byte(bad), &e); !errors.Is(err, rules.ErrInvalid) {
			t.Errorf("json.Unmarshal(%s) = %v, want an *InputError", bad, err)
		}
	}
}

// TestStateJSON checks that a State survives a JSON round trip, as a
// snapshot of a board does.
func TestStateJSON(t *testing.T) {
	histories := []struct {
		cfg rules.Config
		es  []rules.Event
	}{
		{config(rules.FIDE2023, "300", defaults), nil},
		{config(rules.FIDE2018, "40/5400+30:1800+30", rules.Regulations{DefaultTimeMs: rules.Ms(900_000), IllegalMovePenaltyMs: rules.Ms(60_000), Scoring: threeOneZero}),
			[]rules.Event{{Kind: start, AbsentBlack: true}, press(1000, rules.White), by(1000, rules.KindIllegalMove, rules.White),
				{Kind: rules.KindPosition, T: 2000, FEN: kqk}, by(3000, rules.KindArrive, rules.Black), at(4000, adjourn)}},
		{config(rules.FIDE2009, "900", rules.Regulations{Supervision: rules.Insufficient, PeriodChange: rules.AtFlag}),
			withTimes(100_000, 100_000, press(6000, rules.White), claim(6000, rules.Black, rules.DecisionPostpone))},
		{config(rules.FIDE2005, "*60", defaults), []rules.Event{at(0, start), press(10_000, rules.White)}},
		{config(rules.FIDE2023, "300b5", defaults), []rules.Event{at(0, start), at(70_000, paused)}},
		{config(rules.FIDE2023, "60", defaults), []rules.Event{at(0, start), press(59_000, rules.White), {Kind: rules.KindResult, T: 61_000, Result: rules.Draw}}},
	}
	for _, h := range histories {
		s, ok := fold(t, h.cfg, h.es)
		if !ok {
			continue
		}
		b, err := json.Marshal(s)
		if err != nil {
			t.Errorf("json.Marshal(%+v) = %v", s, err)
			continue
		}
		var got rules.State
		if err := json.Unmarshal(b, &got); err != nil || !reflect.DeepEqual(got, s) {
			t.Errorf("json.Unmarshal(json.Marshal(%+v)) = %+v, %v", s, got, err)
		}
	}
}

// TestRegressions holds the histories that once broke an invariant.
func TestRegressions(t *testing.T) {
	// FIDE 2023 Art. 6.10.2 then 7.5.1: the arbiter set White's move counter
	// to 0 after White's move; ruling that move illegal left -1 moves.
	zero := 0
	s, ok := fold(t, config(rules.FIDE2023, "300", defaults), []rules.Event{
		at(0, start), press(1000, rules.White), at(1000, paused),
		{Kind: setClock, T: 1000, WhiteMs: 1000, BlackMs: 1000, WhiteMoves: &zero},
		by(1000, rules.KindIllegalMove, rules.White),
	})
	if ok && (s.P[rules.White].Moves != 0 || s.P[rules.White].Illegal != 1) {
		t.Errorf("illegal move after the arbiter set the counter to 0: moves %d, illegal %d, want 0, 1", s.P[rules.White].Moves, s.P[rules.White].Illegal)
	}
	// An instant near the end of int64 overflowed the flag deadline: the flag
	// "fell" at a negative instant the moment the clock started.
	s, _ = rules.NewState(config(rules.FIDE2023, "300", defaults))
	if n, err := rules.Apply(s, at(math.MaxInt64-1000, start)); err == nil {
		t.Errorf("Apply(%v) = %+v, want refused", at(math.MaxInt64-1000, start), n)
	}
	if n, err := rules.Apply(s, at(1<<53, start)); err != nil || n.Over() {
		t.Errorf("Apply(%v) = %+v, %v, want a running clock", at(1<<53, start), n, err)
	} else if f, _ := n.FlagDeadline(); f != 1<<53+300_000 {
		t.Errorf("FlagDeadline() = %d, want %d", f, int64(1<<53+300_000))
	}
}
