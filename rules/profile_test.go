package rules

import (
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// lawNeeded reports whether the profile must cite law: the rules every
// edition has, and those of the features the profile turns on.
func lawNeeded(p *Profile, law Law) bool {
	switch law {
	case LawOwnFlag:
		return p.Unsupervised.OwnFlagMustStand
	case LawBothFlags:
		return p.Unsupervised.BothFlagsDraw
	case LawQuickplayAnnounced:
		return p.Quickplay.Announced
	case LawQuickplayRequest:
		return p.Quickplay.FiveSecondRequest
	case LawQuickplayNoArbiter:
		return p.Quickplay.NoArbiter
	case LawUnorderedFlags:
		return p.UnorderedFlags != FlagOrderNoRule
	}
	return true
}

// TestProfilesCiteTheirLaws: every profile says where its text holds each
// rule it applies (FIDE 2023 Art. 6.8 ... Guidelines III.6), and cites
// nothing but the Laws this package knows.
func TestProfilesCiteTheirLaws(t *testing.T) {
	known := map[Law]bool{}
	for _, l := range Laws {
		known[l] = true
	}
	for _, p := range Profiles() {
		for _, law := range Laws {
			if lawNeeded(p, law) && p.Articles[law] == "" {
				t.Errorf("%s: no article for %q", p.Ruleset, law)
			}
			if c := p.Cite(law); c != "" && !strings.HasPrefix(c, p.Edition+" ") {
				t.Errorf("%s: Cite(%q) = %q, want the edition %q first", p.Ruleset, law, c, p.Edition)
			}
		}
		for law := range p.Articles {
			if !known[law] {
				t.Errorf("%s: article for unknown law %q", p.Ruleset, law)
			}
		}
	}
}

// TestProfilesTable: the table is coherent (FIDE Appendix A.1 / B.1 order
// the game types; 7.5.5 / 7.4(b) need at least one illegal move).
func TestProfilesTable(t *testing.T) {
	ps := Profiles()
	if len(ps) != len(Rulesets) {
		t.Fatalf("%d profiles, %d rulesets", len(ps), len(Rulesets))
	}
	seen := map[string]bool{}
	for i, p := range ps {
		if p.Ruleset != Rulesets[i] {
			t.Errorf("Rulesets[%d] = %q, profile %q", i, Rulesets[i], p.Ruleset)
		}
		if seen[p.Edition] || p.Edition == "" || p.Source == "" {
			t.Errorf("%s: edition %q (source %q) missing or not unique", p.Ruleset, p.Edition, p.Source)
		}
		seen[p.Edition] = true
		if !(0 < p.BlitzMaxMs && p.BlitzMaxMs < p.RapidMaxMs) {
			t.Errorf("%s: blitz up to %d ms, rapid up to %d ms", p.Ruleset, p.BlitzMaxMs, p.RapidMaxMs)
		}
		if p.IllegalMovesToLose < 1 || p.Unsupervised.SettingLockMoves < 1 {
			t.Errorf("%s: %d illegal moves lose, setting locked after %d moves", p.Ruleset, p.IllegalMovesToLose, p.Unsupervised.SettingLockMoves)
		}
		if p.ResumptionDefaultMs < 0 && p.ResumptionDefaultMs != SameAsStart {
			t.Errorf("%s: resumption default %d ms", p.Ruleset, p.ResumptionDefaultMs)
		}
	}
	if p, err := ProfileOf(""); err != nil || p.Ruleset != DefaultRuleset {
		t.Errorf(`ProfileOf("") = %v, %v; want %s`, p, err, DefaultRuleset)
	}
}

// TestUnknownRulesetRefusedByName: an unknown ruleset never behaves like
// another one; every entry point names it and the known ones (rules.md:
// four rulesets, each selectable per event).
func TestUnknownRulesetRefusedByName(t *testing.T) {
	tc, _ := ParseTimeControl("5400")
	check := func(what string, err error) {
		t.Helper()
		var ie *InputError
		if !errors.As(err, &ie) || ie.Value != "fide-1999" || !strings.Contains(ie.Allowed, "fide-2023") || !strings.Contains(ie.Allowed, "fide-2005") {
			t.Errorf("%s = %v, want an *InputError naming fide-1999 and the known rulesets", what, err)
		}
	}
	_, err := ProfileOf("fide-1999")
	check("ProfileOf", err)
	_, err = ParseRuleset("fide-1999")
	check("ParseRuleset", err)
	_, err = GameType("fide-1999", tc)
	check("GameType", err)
	_, err = tc.Describe("fide-1999")
	check("Describe", err)
	_, err = NewState(Config{Ruleset: "fide-1999", TimeControl: tc})
	check("NewState", err)
	// A state built by hand with an unknown ruleset is refused, not read as 2023.
	s, _ := NewState(Config{TimeControl: tc})
	s.Config.Ruleset = "fide-1999"
	_, err = Apply(s, Event{Kind: KindStart})
	check("Apply", err)
}

// TestPerGameFor: the amounts of PerGame by game type and supervision
// (FIDE 2023 Appendix A.3: one minute in rapid).
func TestPerGameFor(t *testing.T) {
	a := PerGame{Standard: 1, Rapid: 2, Blitz: 3, RapidUnsupervised: 4, BlitzUnsupervised: 5}
	for _, c := range []struct {
		cat        Category
		supervised bool
		want       int64
	}{{Standard, true, 1}, {Standard, false, 1}, {Rapid, true, 2}, {Rapid, false, 4}, {Blitz, true, 3}, {Blitz, false, 5}} {
		if got := a.For(c.cat, c.supervised); got != c.want {
			t.Errorf("For(%v, %v) = %d, want %d", c.cat, c.supervised, got, c.want)
		}
	}
}

// TestNoEditionBranches (rules.md: each ruleset kept working:
// rulesets as data): the engine reads profiles, not ruleset names, so
// adding an edition touches profiles.go and its vectors only. No file
// but the table and the Ruleset constants names an edition (FIDE 2023
// and every other).
func TestNoEditionBranches(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	editions := map[string]bool{}
	for _, r := range Rulesets {
		for _, id := range []string{"FIDE" + strings.TrimPrefix(string(r), "fide-")} {
			editions[id] = true
		}
	}
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") || f == "profiles.go" || f == "ruleset.go" {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		file, err := parser.ParseFile(fset, f, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(file, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.Ident:
				if editions[n.Name] {
					t.Errorf("%s: names the edition %s; read its profile instead", fset.Position(n.Pos()), n.Name)
				}
			case *ast.BasicLit:
				if n.Kind == token.STRING && strings.Contains(n.Value, `"fide-`) {
					t.Errorf("%s: names a ruleset %s; read its profile instead", fset.Position(n.Pos()), n.Value)
				}
			}
			return true
		})
	}
}
