package rules_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/chesshall/hallclock/rules"
)

// blind returns a 90m+30s board of ruleset r played under the rules for
// visually disabled players as b says.
func blind(r rules.Ruleset, b rules.BlindPlay) rules.Config {
	cfg := config(r, "90m+30s", defaults)
	cfg.Blind = b
	return cfg
}

// vd marks side visually disabled, with an assistant when assisted.
func vd(side rules.Side, assisted bool, lang string) rules.BlindPlay {
	var b rules.BlindPlay
	b.Players[side] = rules.BlindPlayer{VisuallyDisabled: true, Assistant: assisted, Language: lang}
	return b
}

// What a board's configuration may say of play with visually disabled
// players, and what NewState refuses, naming the article.
func TestBlindPlayConfiguration(t *testing.T) {
	sightedAssistant := vd(rules.White, false, "de")
	sightedAssistant.Players[rules.Black].Assistant = true
	bothAssisted := vd(rules.White, true, "ru")
	bothAssisted.Players[rules.Black] = rules.BlindPlayer{VisuallyDisabled: true, Assistant: true, Language: "fr-CA"}
	tooMany := vd(rules.White, true, "")
	tooMany.Players[rules.Black].Assistant = true
	langForSighted := vd(rules.White, false, "")
	langForSighted.Players[rules.Black].Language = "en"
	var assistantAlone rules.BlindPlay
	assistantAlone.Players[rules.Black].Assistant = true

	for _, tc := range []struct {
		name string
		b    rules.BlindPlay
		want string // "" accepted; else words of the refusal
	}{
		{"not under the appendix", rules.BlindPlay{}, ""},
		{"D.1: Black visually disabled, no assistant", vd(rules.Black, false, ""), ""},
		{"D.2.10: White visually disabled with an assistant, German", vd(rules.White, true, "de"), ""},
		{"D.2.11: the sighted player's assistant when the visually disabled player has none", sightedAssistant, ""},
		{"both players visually disabled, each with an assistant", bothAssisted, ""},
		{"D.2.11: no sighted player's assistant beside the visually disabled player's", tooMany, "FIDE 2018 Appendix D.2.11"},
		{"D.2.10: an assistant without a visually disabled player", assistantAlone, "FIDE 2018 Appendix D.2.10"},
		{"D.2.6.1: announcements only to a visually disabled player", langForSighted, "FIDE 2018 Appendix D.2.6.1"},
		{"a language that is no tag", vd(rules.White, false, "Deutsch!"), "not a language tag"},
		{"a tag too long", vd(rules.White, false, "de-"+strings.Repeat("x", 40)), "not a language tag"},
		{"a primary language of one letter", vd(rules.White, false, "d"), "not a language tag"},
	} {
		_, err := rules.NewState(blind(rules.FIDE2018, tc.b))
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: NewState = %v, want it accepted", tc.name, err)
		case tc.want != "" && (!errors.Is(err, rules.ErrInvalid) || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: NewState = %v, want an *InputError saying %q", tc.name, err, tc.want)
		}
	}
}

// Every ruleset carries its rules for play with visually disabled
// players: 2023 and 2018 Appendix D, 2009 Appendix E, and fide-2005,
// whose text in the hall holds none, the 2009 ones, saying so.
func TestBlindTextOfEveryRuleset(t *testing.T) {
	want := map[rules.Ruleset][2]string{ // the assistant's article, and where the clock rule is
		rules.FIDE2023: {"FIDE 2023 Appendix D.2.10", "FIDE 2023 Appendix D.2.6.1"},
		rules.FIDE2018: {"FIDE 2018 Appendix D.2.10", "FIDE 2018 Appendix D.2.6.1"},
		rules.FIDE2009: {"FIDE 2009 Appendix E2.9", "FIDE 2009 Appendix E2.4 (a talking clock: E1)"},
		rules.FIDE2005: {"FIDE 2009 Appendix E2.9", "FIDE 2009 Appendix E2.4 (a talking clock: E1)"},
	}
	for _, r := range rules.Rulesets {
		bt, err := rules.BlindTextOf(r)
		if err != nil {
			t.Fatalf("BlindTextOf(%s) = %v", r, err)
		}
		if got := [2]string{bt.Assistant, bt.Clock}; got != want[r] {
			t.Errorf("BlindTextOf(%s): assistant %q, clock %q; want %q", r, got[0], got[1], want[r])
		}
		for name, v := range map[string]string{"Adapt": bt.Adapt, "MoveMade": bt.MoveMade, "SightedRules": bt.SightedRules,
			"BoardsDiffer": bt.BoardsDiffer, "SightedAssistant": bt.SightedAssistant, "StopClock": bt.StopClock} {
			if v == "" {
				t.Errorf("BlindTextOf(%s).%s is empty", r, name)
			}
		}
		if (bt.Note != "") != (r == rules.FIDE2005) {
			t.Errorf("BlindTextOf(%s).Note = %q; only fide-2005 borrows its text", r, bt.Note)
		}
	}
	if _, err := rules.BlindTextOf("fide-1997"); !errors.Is(err, rules.ErrInvalid) {
		t.Errorf("BlindTextOf(fide-1997) = %v, want an *InputError", err)
	}
}

// The assistant's duties, with the article of each, by edition.
func TestAssistantDuties(t *testing.T) {
	// FIDE 2018 D.2.10: the visually disabled player's assistant.
	got := rules.AssistantDuties(blind(rules.FIDE2018, vd(rules.Black, true, "")), rules.Black)
	want := []struct {
		a       rules.Assist
		article string
		clock   rules.Kind
	}{
		{rules.AssistMoveOnOpponentBoard, "FIDE 2018 Appendix D.2.10.1", rules.KindInvalid},
		{rules.AssistAnnounceMoves, "FIDE 2018 Appendix D.2.10.2", rules.KindInvalid},
		{rules.AssistKeepScore, "FIDE 2018 Appendix D.2.10.3", rules.KindInvalid},
		{rules.AssistStartClock, "FIDE 2018 Appendix D.2.10.3", rules.KindPress},
		{rules.AssistAnnounceTime, "FIDE 2018 Appendix D.2.10.4", rules.KindInvalid},
		{rules.AssistClaimFlag, "FIDE 2018 Appendix D.2.10.5", rules.KindFlagClaim},
		{rules.AssistReportTouch, "FIDE 2018 Appendix D.2.10.5", rules.KindInvalid},
		{rules.AssistCallArbiter, "FIDE 2018 Appendix D.2.10.5, FIDE 2018 Art. 6.11.2", rules.KindPause},
		{rules.AssistAdjourn, "FIDE 2018 Appendix D.2.10.6", rules.KindAdjourn},
	}
	if len(got) != len(want) {
		t.Fatalf("AssistantDuties = %v, want %d duties", got, len(want))
	}
	for i, w := range want {
		if g := got[i]; g.Assist != w.a || g.Article != w.article || g.Clock != w.clock || g.OnRequest != (w.a == rules.AssistAnnounceTime) {
			t.Errorf("duty %d = %+v, want %v %q on %v (on request only: D.2.10.4)", i, g, w.a, w.article, w.clock)
		}
	}

	// FIDE 2009 E2.9(c): the same duty, the 2009 article.
	d09 := rules.AssistantDuties(blind(rules.FIDE2009, vd(rules.White, true, "")), rules.White)
	if len(d09) != len(want) || d09[3].Assist != rules.AssistStartClock || d09[3].Article != "FIDE 2009 Appendix E2.9(c)" {
		t.Errorf("2009 duties = %v, want start_clock under FIDE 2009 Appendix E2.9(c)", d09)
	}

	// FIDE 2018 D.2.11: a sighted player's assistant makes and announces the moves only.
	b := vd(rules.White, false, "")
	b.Players[rules.Black].Assistant = true
	sighted := rules.AssistantDuties(blind(rules.FIDE2018, b), rules.Black)
	if len(sighted) != 2 || sighted[0].Assist != rules.AssistMoveOnOpponentBoard || sighted[1].Assist != rules.AssistAnnounceMoves ||
		sighted[1].Article != "FIDE 2018 Appendix D.2.11, FIDE 2018 Appendix D.2.10.2" {
		t.Errorf("sighted player's assistant's duties = %v, want D.2.10.1 and D.2.10.2 under D.2.11", sighted)
	}

	// No assistant, or a board not under the appendix: no duties.
	for name, tc := range map[string]struct {
		cfg  rules.Config
		side rules.Side
	}{
		"no assistant":           {blind(rules.FIDE2018, vd(rules.White, false, "")), rules.White},
		"the other player's":     {blind(rules.FIDE2018, vd(rules.White, true, "")), rules.Black},
		"not under the appendix": {config(rules.FIDE2018, "90m+30s", defaults), rules.White},
	} {
		if d := rules.AssistantDuties(tc.cfg, tc.side); d != nil {
			t.Errorf("%s: AssistantDuties = %v, want none", name, d)
		}
	}
}

// What the assistant may do on the clock, and what not (FIDE 2018 D.2.10;
// 2009 E2.9).
func TestAssistantMay(t *testing.T) {
	// White is visually disabled and has an assistant; Black is sighted.
	cfg := blind(rules.FIDE2018, vd(rules.White, true, ""))
	running := []rules.Event{at(0, rules.KindStart)}           // White's clock runs
	blackToMove := append(running, press(10_000, rules.White)) // Black's clock runs
	paused := append(running, at(5_000, rules.KindPause))
	over := append(running, rules.Event{Kind: rules.KindResult, T: 5_000, Result: rules.BlackWins})
	lost := rules.Regulations{Supervision: rules.Insufficient}

	for _, tc := range []struct {
		name    string
		cfg     rules.Config
		history []rules.Event
		side    rules.Side // whose assistant asks
		e       rules.Event
		code    rules.RefusalCode // with ok false
		rule    string
		ok      bool
	}{
		// D.2.3-D.2.4, D.2.10.3: once White's move is made, the assistant
		// starts Black's clock (presses for White).
		{name: "D.2.10.3: start the opponent's clock once the move is made", cfg: cfg, history: running, side: rules.White,
			e: press(8_000, rules.White), ok: true},
		{name: "D.2.4: not while the opponent has the move", cfg: cfg, history: blackToMove, side: rules.White,
			e: press(12_000, rules.White), code: rules.RefusedNotToMove, rule: "FIDE 2018 Appendix D.2.3-D.2.4"},
		{name: "D.2.5: the sighted player starts his own clock", cfg: cfg, history: blackToMove, side: rules.White,
			e: press(12_000, rules.Black), code: rules.RefusedNotPermitted, rule: "FIDE 2018 Appendix D.2.5"},
		{name: "6.11.2: not while the clock is stopped", cfg: cfg, history: paused, side: rules.White,
			e: press(6_000, rules.White), code: rules.RefusedNotRunning, rule: "FIDE 2018 Art. 6.11.2"},
		// D.2.10.5: the flag claim, for the player.
		{name: "D.2.10.5: claim for the player only", cfg: cfg, history: running, side: rules.White,
			e: by(2_000, rules.KindFlagClaim, rules.Black), code: rules.RefusedNotPermitted, rule: "FIDE 2018 Appendix D.2.10.5"},
		// D.2.10.5 with 6.11.2: stop the clock to call the arbiter.
		{name: "D.2.10.5: stop the clock to call the arbiter", cfg: cfg, history: blackToMove, side: rules.White,
			e: at(12_000, rules.KindPause), ok: true},
		{name: "6.11.3: the arbiter restarts it", cfg: cfg, history: paused, side: rules.White,
			e: at(6_000, rules.KindResume), code: rules.RefusedNotPermitted, rule: "FIDE 2018 Appendix D.2.10"},
		{name: "6.11.2: a stopped clock is not stopped again", cfg: cfg, history: paused, side: rules.White,
			e: at(6_000, rules.KindPause), code: rules.RefusedNotRunning, rule: "FIDE 2018 Art. 6.11.2"},
		// D.2.10.6: the formalities of an adjournment: seal the player's move.
		{name: "D.2.10.6: seal the player's move", cfg: cfg, history: running, side: rules.White,
			e: at(3_000, rules.KindAdjourn), ok: true},
		{name: "D.2.10.6: not the opponent's", cfg: cfg, history: blackToMove, side: rules.White,
			e: at(12_000, rules.KindAdjourn), code: rules.RefusedNotToMove, rule: "FIDE 2018 Appendix D.2.10.6"},
		// Nothing else: the arbiter's actions stay the arbiter's.
		{name: "D.2.10: no time given", cfg: cfg, history: running, side: rules.White,
			e: rules.Event{Kind: rules.KindAddTime, T: 3_000, Side: rules.White, Ms: 60_000}, code: rules.RefusedNotPermitted, rule: "FIDE 2018 Appendix D.2.10"},
		{name: "D.2.10: no result", cfg: cfg, history: running, side: rules.White,
			e: rules.Event{Kind: rules.KindResult, T: 3_000, Result: rules.Draw}, code: rules.RefusedNotPermitted, rule: "FIDE 2018 Appendix D.2.10"},
		{name: "D.2.10: no start", cfg: cfg, side: rules.White,
			e: at(0, rules.KindStart), code: rules.RefusedNotPermitted, rule: "FIDE 2018 Appendix D.2.10"},
		{name: "D.2.10: nothing after the game", cfg: cfg, history: over, side: rules.White,
			e: press(6_000, rules.White), code: rules.RefusedGameOver, rule: "FIDE 2018 Appendix D.2.10"},
		// Who may have an assistant at all.
		{name: "D.2.10: the sighted player has none here", cfg: cfg, history: blackToMove, side: rules.Black,
			e: press(12_000, rules.Black), code: rules.RefusedNotPermitted, rule: "FIDE 2018 Appendix D.2.10"},
		{name: "D.2.11: a sighted player's assistant does nothing on the clock",
			cfg: func() rules.Config {
				c := blind(rules.FIDE2018, vd(rules.White, false, ""))
				c.Blind.Players[rules.Black].Assistant = true
				return c
			}(),
			history: blackToMove, side: rules.Black, e: press(12_000, rules.Black), code: rules.RefusedNotPermitted, rule: "FIDE 2018 Appendix D.2.11"},
		{name: "D.1: a board not under the appendix", cfg: config(rules.FIDE2018, "90m+30s", defaults), history: running, side: rules.White,
			e: press(8_000, rules.White), code: rules.RefusedNotApplicable, rule: "FIDE 2018 Appendix D.1"},
		// The 2009 text: the same, with its articles (E2.3: only then the opponent's clock).
		{name: "2009 E2.9(c): start the opponent's clock", cfg: blind(rules.FIDE2009, vd(rules.Black, true, "")), history: blackToMove,
			side: rules.Black, e: press(12_000, rules.Black), ok: true},
		{name: "2009 E2.3: only once the move is made", cfg: blind(rules.FIDE2009, vd(rules.Black, true, "")), history: running,
			side: rules.Black, e: press(8_000, rules.Black), code: rules.RefusedNotToMove, rule: "FIDE 2009 Appendix E2.3"},
		{name: "2005: the 2009 rules, cited as 2009's", cfg: blind(rules.FIDE2005, vd(rules.White, true, "")), history: running,
			side: rules.White, e: rules.Event{Kind: rules.KindAddTime, T: 3_000, Side: rules.White, Ms: 1}, code: rules.RefusedNotPermitted, rule: "FIDE 2009 Appendix E2.9"},
		// D.2.10.5: the assistant claims the opponent's flag; in rapid
		// under the appendices it counts when claimed (2018 A.4.5).
		{name: "D.2.10.5: claim the opponent's flag", cfg: func() rules.Config {
			c := config(rules.FIDE2018, "15m", lost)
			c.Blind = vd(rules.White, true, "")
			return c
		}(), history: []rules.Event{at(0, rules.KindStart), press(1_000, rules.White)}, side: rules.White,
			e: by(16*60_000, rules.KindFlagClaim, rules.White), ok: true},
	} {
		s, ok := fold(t, tc.cfg, tc.history)
		if !ok {
			continue
		}
		err := rules.AssistantMay(s, tc.side, tc.e)
		if tc.ok {
			if err != nil {
				t.Errorf("%s: AssistantMay(%v) = %v, want nil", tc.name, tc.e, err)
				continue
			}
			if _, err := rules.Apply(s, tc.e); err != nil {
				t.Errorf("%s: allowed, then Apply(%v) = %v", tc.name, tc.e, err)
			}
			continue
		}
		r := rules.RefusalOf(err)
		if r == nil || r.Code != tc.code || r.Rule != tc.rule {
			t.Errorf("%s: AssistantMay(%v) = %v, want code %d citing %q", tc.name, tc.e, err, tc.code, tc.rule)
		}
	}
}

// The assistant's press completes the visually disabled player's move and
// starts the opponent's clock, as the player's own press would (FIDE 2018
// D.2.10.3): the hall applies it as White's press once AssistantMay agrees.
func TestAssistantPressStartsTheOpponentsClock(t *testing.T) {
	s, err := rules.NewState(blind(rules.FIDE2018, vd(rules.White, true, "")))
	if err != nil {
		t.Fatal(err)
	}
	s, _ = rules.Apply(s, at(0, rules.KindStart))
	e := press(42_000, rules.White)
	if err := rules.AssistantMay(s, rules.White, e); err != nil {
		t.Fatalf("AssistantMay = %v", err)
	}
	n, err := rules.Apply(s, e)
	if err != nil {
		t.Fatal(err)
	}
	if side, ok := n.Running(); !ok || side != rules.Black || n.P[rules.White].Moves != 1 {
		t.Errorf("after the assistant's press: running %v %v, White's moves %d; want Black's clock running after White's first move", side, ok, n.P[rules.White].Moves)
	}
}

// The time used that an announcement tells (FIDE 2018 D.2.10.4, D.2.6.1):
// the time each player's clock ran — delay windows included, pauses not,
// nor the time the arbiter gives or takes.
func TestTimeUsed(t *testing.T) {
	for _, tc := range []struct {
		name       string
		cfg        rules.Config
		es         []rules.Event
		at         int64
		white, blk int64
	}{
		{"Fischer increment", config(rules.FIDE2018, "90m+30s", defaults),
			[]rules.Event{at(0, rules.KindStart), press(12_000, rules.White), press(20_000, rules.Black)}, 25_000, 17_000, 8_000},
		{"simple delay counts as used", config(rules.FIDE2018, "300d5", defaults),
			[]rules.Event{at(0, rules.KindStart), press(3_000, rules.White), press(11_000, rules.Black)}, 11_000, 3_000, 8_000},
		{"a pause is nobody's", config(rules.FIDE2018, "90m", defaults),
			[]rules.Event{at(0, rules.KindStart), at(4_000, rules.KindPause), at(64_000, rules.KindResume), press(70_000, rules.White)}, 71_000, 10_000, 1_000},
		{"time given is not time used", config(rules.FIDE2018, "90m", defaults),
			[]rules.Event{at(0, rules.KindStart), {Kind: rules.KindAddTime, T: 1_000, Side: rules.White, Ms: 120_000}, press(5_000, rules.White)}, 5_000, 5_000, 0},
		{"a clock setting is not time used", config(rules.FIDE2018, "90m", defaults),
			withTimes(60_000, 60_000, press(2_000, rules.White)), 2_000, 2_000, 0},
		{"hourglass", config(rules.FIDE2018, "*60", defaults),
			[]rules.Event{at(0, rules.KindStart), press(7_000, rules.White)}, 10_000, 7_000, 3_000},
		{"adjourned before the session's end: charged (Guidelines I.1.2)", config(rules.FIDE2018, "90m", defaults),
			[]rules.Event{at(0, rules.KindStart), {Kind: rules.KindAdjourn, T: 60_000, SessionEndMs: 90_000}}, 500_000, 90_000, 0},
	} {
		s, ok := fold(t, tc.cfg, tc.es)
		if !ok {
			continue
		}
		p := s.Project(tc.at)
		if p.P[rules.White].UsedMs != tc.white || p.P[rules.Black].UsedMs != tc.blk {
			t.Errorf("%s: time used at %d = %d/%d ms, want %d/%d", tc.name, tc.at, p.P[rules.White].UsedMs, p.P[rules.Black].UsedMs, tc.white, tc.blk)
		}
	}
}

// FIDE 2018 D.2.9 (2009 E2.7-E2.8): the two boards show different
// positions and the scoresheets differ: the moves are retraced to where
// they agree and the arbiter readjusts the clocks. That is the arbiter's
// existing actions: pause, set_clock with the times and the move counters,
// position (the position reinstated), resume. Under the rapid and blitz
// appendices, once the clock setting is locked (2018 A.4.1.1, after ten
// moves each), set_clock needs schedule_override.
func TestBoardsDifferRetraceD29(t *testing.T) {
	const agreed = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3" // 1. e4 e5 2. Nf3 Nc6
	two := 2
	retrace := func(t0 int64, override bool) []rules.Event {
		return []rules.Event{
			at(t0, rules.KindPause),
			{Kind: rules.KindSetClock, T: t0, WhiteMs: 5_000_000, BlackMs: 5_100_000, WhiteMoves: &two, BlackMoves: &two, ScheduleOverride: override},
			{Kind: rules.KindPosition, T: t0, FEN: agreed},
			at(t0+1_000, rules.KindResume),
		}
	}
	// Standard play: four moves each, the scoresheets agree up to move 2.
	cfg := blind(rules.FIDE2018, vd(rules.White, true, ""))
	s, ok := fold(t, cfg, movesEach(4, retrace(10_000, false)...))
	if ok {
		if side, running := s.Running(); !running || side != rules.White || s.P[rules.White].Moves != 2 || s.P[rules.Black].Moves != 2 ||
			s.P[rules.White].MainMs != 5_000_000 || s.P[rules.Black].MainMs != 5_100_000 || s.FEN != agreed {
			t.Errorf("after the retrace: %v running (%v), moves %d/%d, times %d/%d, fen %q; want White's clock from move 3, the times set, the agreed position",
				side, running, s.P[rules.White].Moves, s.P[rules.Black].Moves, s.P[rules.White].MainMs, s.P[rules.Black].MainMs, s.FEN)
		}
	}
	// Unsupervised rapid after ten moves each: the setting is locked
	// (A.4.1.1) unless the arbiter overrides the lock.
	rapid := config(rules.FIDE2018, "25m+10s", insufficient)
	rapid.Blind = vd(rules.White, true, "")
	locked, _ := fold(t, rapid, movesEach(10, at(30_000, rules.KindPause)))
	_, err := rules.Apply(locked, retrace(30_000, false)[1])
	if r := rules.RefusalOf(err); r == nil || r.Code != rules.RefusedSettingLocked {
		t.Errorf("set_clock after ten moves each, unsupervised rapid = %v, want RefusedSettingLocked", err)
	}
	if _, ok := fold(t, rapid, movesEach(10, retrace(30_000, true)...)); !ok {
		t.Errorf("the retrace with schedule_override was refused")
	}
}
