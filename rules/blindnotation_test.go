package rules_test

import (
	"errors"
	"testing"

	"github.com/chesshall/hallclock/rules"
)

// The short notation of play with visually disabled players, read and
// written back.
func TestBlindPlayNotation(t *testing.T) {
	sightedAssistant := vd(rules.White, false, "")
	sightedAssistant.Players[rules.Black].Assistant = true
	both := vd(rules.White, true, "ru")
	both.Players[rules.Black] = rules.BlindPlayer{VisuallyDisabled: true, Assistant: true}
	for _, tc := range []struct {
		in   string
		want rules.BlindPlay
		out  string // what String writes back
	}{
		{"-", rules.BlindPlay{}, ""},
		{"", rules.BlindPlay{}, ""},
		{"none", rules.BlindPlay{}, ""},
		{"W", vd(rules.White, false, ""), "W"},                     // D.1
		{"B+A", vd(rules.Black, true, ""), "B+A"},                  // D.2.10
		{"W:de", vd(rules.White, false, "de"), "W:de"},             // D.2.6.1: the clock speaks his language
		{"B+A:pt-BR", vd(rules.Black, true, "pt-BR"), "B+A:pt-BR"}, // both
		{"W,B=A", sightedAssistant, "W,B=A"},                       // D.2.11
		{"w+a:ru, b+A", both, "W+A:ru,B+A"},                        // any case, spaces around commas
		{" Black+A ", vd(rules.Black, true, ""), "B+A"},            // words for the side
	} {
		t.Run(tc.in, func(t *testing.T) {
			got, err := rules.ParseBlindPlay(tc.in)
			if err != nil || got != tc.want {
				t.Fatalf("ParseBlindPlay(%q) = %+v, %v; want %+v", tc.in, got, err, tc.want)
			}
			if s := got.String(); s != tc.out {
				t.Errorf("String() = %q, want %q", s, tc.out)
			}
		})
	}
	for _, in := range []string{"X", "W,W", "W+B", "W:", "W:Deutsch!", "W +A", "B=A:de", "W;B"} {
		t.Run(in, func(t *testing.T) {
			got, err := rules.ParseBlindPlay(in)
			var ie *rules.InputError
			if !errors.As(err, &ie) {
				t.Errorf("ParseBlindPlay(%q) = %+v, %v; want an *InputError", in, got, err)
			}
		})
	}
}

// What a tournament or round says is checked as a board's would be.
func TestBlindPlayCheck(t *testing.T) {
	var assistantAlone rules.BlindPlay
	assistantAlone.Players[rules.White].Assistant = true
	if err := assistantAlone.Check(rules.FIDE2009); !errors.Is(err, rules.ErrInvalid) {
		t.Errorf("Check(an assistant, nobody visually disabled) = %v, want invalid input (FIDE 2009 Appendix E2.9)", err)
	}
	if err := vd(rules.Black, true, "de").Check(""); err != nil {
		t.Errorf("Check(B+A:de) = %v, want nil", err)
	}
	if err := vd(rules.Black, true, "").Check("fide-1999"); err == nil {
		t.Errorf("Check under an unknown ruleset = nil, want an error")
	}
}

// Who may be told the completed moves and the time used: a visually
// disabled player, by his clock (FIDE 2018 D.2.6.1) or, at his request,
// by his assistant (D.2.10.4); not a sighted player, and not through an
// assistant he does not have.
func TestMayAnnounce(t *testing.T) {
	sightedAssistant := vd(rules.White, false, "")
	sightedAssistant.Players[rules.Black].Assistant = true
	for _, tc := range []struct {
		name        string
		cfg         rules.Config
		side        rules.Side
		byAssistant bool
		code        rules.RefusalCode // with rule; RefusedOther: allowed
		rule        string
	}{
		{"D.2.6.1: the clock tells the visually disabled player", blind(rules.FIDE2018, vd(rules.White, false, "")), rules.White, false, rules.RefusedOther, ""},
		{"D.2.10.4: his assistant tells him", blind(rules.FIDE2018, vd(rules.White, true, "")), rules.White, true, rules.RefusedOther, ""},
		{"E2.9(d): the 2009 assistant tells him", blind(rules.FIDE2009, vd(rules.Black, true, "")), rules.Black, true, rules.RefusedOther, ""},
		{"D.2.6.1: not to a sighted player", blind(rules.FIDE2018, vd(rules.White, true, "")), rules.Black, false, rules.RefusedNotApplicable, "FIDE 2018 Appendix D.2.6.1"},
		{"D.2.6.1: not on a board not under the appendix", config(rules.FIDE2023, "90m+30s", defaults), rules.White, false, rules.RefusedNotApplicable, "FIDE 2023 Appendix D.2.6.1"},
		{"D.2.10.4: not through an assistant he does not have", blind(rules.FIDE2018, vd(rules.White, false, "")), rules.White, true, rules.RefusedNotPermitted, "FIDE 2018 Appendix D.2.10.4"},
		{"D.2.11: the sighted player's assistant tells nothing of the clock", blind(rules.FIDE2018, sightedAssistant), rules.Black, true, rules.RefusedNotApplicable, "FIDE 2018 Appendix D.2.6.1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := rules.MayAnnounce(tc.cfg, tc.side, tc.byAssistant)
			if tc.code == rules.RefusedOther {
				if err != nil {
					t.Errorf("MayAnnounce = %v, want nil", err)
				}
				return
			}
			r := rules.RefusalOf(err)
			if r == nil || r.Code != tc.code || r.Rule != tc.rule || r.What != "announcement" {
				t.Errorf("MayAnnounce = %#v, want a refusal %d of the announcement citing %q", err, tc.code, tc.rule)
			}
		})
	}
}

// What ParseBlindPlay reads, String writes so that it reads back the same.
func FuzzParseBlindPlay(f *testing.F) {
	for _, s := range []string{"W", "B+A", "W:de", "W+A:pt-BR,B", "W,B=A", "white+a:ru, black", "-", "", "W,W", "B=A:de"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		b, err := rules.ParseBlindPlay(s)
		if err != nil {
			return
		}
		again, err := rules.ParseBlindPlay(b.String())
		if err != nil || again != b {
			t.Errorf("ParseBlindPlay(%q) = %+v, written %q, read back %+v, %v", s, b, b.String(), again, err)
		}
	})
}
