package i18n

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"
)

// message is a catalogue's entry: text, or plural forms.
type message struct {
	text  string
	forms map[string]string
}

func load(t *testing.T, lang string) map[string]message {
	t.Helper()
	raw, err := Catalogue(lang)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]message{}
	for k, v := range raw {
		var m message
		if err := json.Unmarshal(v, &m.text); err != nil {
			if err := json.Unmarshal(v, &m.forms); err != nil {
				t.Fatalf("%s: %s is neither text nor plural forms: %s", lang, k, v)
			}
		}
		out[k] = m
	}
	return out
}

var placeholder = regexp.MustCompile(`\{(\w+)\}`)

func placeholders(s string) []string {
	var out []string
	for _, m := range placeholder.FindAllStringSubmatch(s, -1) {
		if !slices.Contains(out, m[1]) {
			out = append(out, m[1])
		}
	}
	slices.Sort(out)
	return out
}

// cldrCategories are the cardinal plural categories of each language
// (CLDR), which a plural message must give exactly.
var cldrCategories = map[string][]string{
	"en": {"one", "other"},
	"ko": {"other"},
	"ru": {"few", "many", "one", "other"},
	"hy": {"one", "other"},
}

func TestEveryCatalogueHasEveryKey(t *testing.T) {
	en := load(t, "en")
	if len(en) == 0 {
		t.Fatal("the English catalogue is empty")
	}
	for _, lang := range Langs() {
		cats, ok := cldrCategories[lang]
		if !ok {
			t.Errorf("%s: no plural categories in this test: add the language's CLDR categories", lang)
			continue
		}
		c := load(t, lang)
		for k, m := range en {
			got, ok := c[k]
			if !ok {
				t.Errorf("%s lacks %q", lang, k)
				continue
			}
			want := placeholders(m.text)
			if m.forms != nil {
				want = placeholders(m.forms["other"])
				if got.forms == nil {
					t.Errorf("%s: %q is plural in English, not here", lang, k)
					continue
				}
			} else if got.forms != nil {
				t.Errorf("%s: %q is plural here, not in English", lang, k)
				continue
			}
			if got.forms == nil {
				if p := placeholders(got.text); !slices.Equal(p, want) {
					t.Errorf("%s: %q has placeholders %v, English %v", lang, k, p, want)
				}
				continue
			}
			var forms []string
			for f, s := range got.forms {
				forms = append(forms, f)
				p := slices.DeleteFunc(placeholders(s), func(x string) bool { return x == "n" })
				w := slices.DeleteFunc(slices.Clone(want), func(x string) bool { return x == "n" })
				if !slices.Equal(p, w) {
					t.Errorf("%s: %q (%s) has placeholders %v, English %v", lang, k, f, p, w)
				}
			}
			slices.Sort(forms)
			if !slices.Equal(forms, cats) {
				t.Errorf("%s: %q gives the forms %v; the language's are %v", lang, k, forms, cats)
			}
		}
		for k := range c {
			if _, ok := en[k]; !ok {
				t.Errorf("%s has %q, which English has not", lang, k)
			}
		}
	}
}

// The catalogues say the Laws' terms as the glossary does: a message
// whose English says a term (as a word's beginning) says the language's
// word for it.
func TestCataloguesUseTheGlossary(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(moduleRoot(t), "docs", "glossary.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	var head []string
	type term struct {
		en, row string
		words   map[string]string
	}
	var terms []term
	for i, line := range strings.Split(string(b), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		cells := strings.Split(line, "\t")
		if head == nil {
			head = cells
			continue
		}
		if len(cells) != len(head) {
			t.Fatalf("glossary line %d has %d cells, the header %d", i+1, len(cells), len(head))
		}
		tm := term{row: cells[0], words: map[string]string{}}
		for j, h := range head {
			if h == "en" {
				tm.en = cells[j]
			} else if len(h) == 2 && cells[j] != "" {
				tm.words[h] = cells[j]
			}
		}
		terms = append(terms, tm)
	}
	if len(terms) < 10 {
		t.Fatalf("the glossary has %d terms", len(terms))
	}
	texts := func(m message) []string {
		if m.forms == nil {
			return []string{m.text}
		}
		var out []string
		for _, s := range m.forms {
			out = append(out, s)
		}
		return out
	}
	en := load(t, "en")
	used := 0
	for _, lang := range Langs() {
		if lang == "en" {
			continue
		}
		c := load(t, lang)
		for _, tm := range terms {
			word, ok := tm.words[lang]
			if !ok {
				continue
			}
			says := regexp.MustCompile(`(?i)\b` + regexp.QuoteMeta(tm.en))
			for k, m := range en {
				if !says.MatchString(strings.Join(texts(m), "\n")) {
					continue
				}
				used++
				for _, s := range texts(c[k]) {
					if !slices.ContainsFunc(strings.Split(word, " / "), func(w string) bool { return strings.Contains(strings.ToLower(s), strings.ToLower(w)) }) {
						t.Errorf("%s: %q says %q for %q; the glossary's word is %q", lang, k, s, tm.en, word)
					}
				}
			}
		}
	}
	if used == 0 {
		t.Error("no message says a term of the glossary")
	}
}

func node(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: the plural forms of the pages' script are tested under Node")
	}
	return p
}

// runScript runs the pages' script (catalogues and i18n.js, as served)
// under Node, then js, and returns what js printed.
func runScript(t *testing.T, js string) string {
	t.Helper()
	return runScriptIn(t, "", js)
}

// runScriptIn is runScript for a hall in zone, under Node in UTC.
func runScriptIn(t *testing.T, zone, js string) string {
	t.Helper()
	body, err := Script("en", zone)
	if err != nil {
		t.Fatal(err)
	}
	f := filepath.Join(t.TempDir(), "run.js")
	src := "globalThis.window = globalThis;\n" + string(body) + "\n" + js
	if err := os.WriteFile(f, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node(t), f)
	cmd.Env = append(os.Environ(), "TZ=UTC")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, out)
	}
	return string(out)
}

// The pages choose plural forms as CLDR says, in every language: the
// script's choice under Node (Intl.PluralRules) is the one
// golang.org/x/text makes, and t gives that form of every plural message
// of the catalogue, with n written in.
func TestPluralForms(t *testing.T) {
	ns := []int{0, 1, 2, 5, 21, 22, 25, 101}
	out := runScript(t, fmt.Sprintf(`
const ns = %s, res = {};
for (const l of I18N.langs()) {
  const cat = HALL_I18N.catalogues[l], msgs = {};
  for (const k of Object.keys(cat)) if (typeof cat[k] === "object") msgs[k] = ns.map(n => I18N.tIn(l, k, {n}));
  res[l] = { cats: ns.map(n => new Intl.PluralRules(l).select(n)), msgs };
}
console.log(JSON.stringify(res));`, mustJSON(ns)))
	var got map[string]struct {
		Cats []string            `json:"cats"`
		Msgs map[string][]string `json:"msgs"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	// What CLDR says, written out for the four languages of the issue.
	want := map[string]string{
		"en": "other one other other other other other other",
		"ko": "other other other other other other other other",
		"ru": "many one few many one few many one",
		"hy": "one one other other other other other other",
	}
	for _, lang := range Langs() {
		c := load(t, lang)
		cats := got[lang].Cats
		for i, n := range ns {
			form := plural.Cardinal.MatchPlural(language.MustParse(lang), n, 0, 0, 0, 0)
			if name := formName(form); name != cats[i] {
				t.Errorf("%s %d: the page's Intl says %s, golang.org/x/text %s", lang, n, cats[i], name)
			}
		}
		if w, ok := want[lang]; ok && strings.Join(cats, " ") != w {
			t.Errorf("%s at %v: %v, CLDR says %s", lang, ns, cats, w)
		}
		plurals := 0
		for k, m := range c {
			if m.forms == nil {
				continue
			}
			plurals++
			for i, n := range ns {
				wantText := strings.ReplaceAll(m.forms[cats[i]], "{n}", fmt.Sprint(n))
				if g := got[lang].Msgs[k]; len(g) != len(ns) || g[i] != wantText {
					t.Errorf("%s %s at %d: t gives %q, want the %s form %q", lang, k, n, g, cats[i], wantText)
				}
			}
		}
		if plurals == 0 {
			t.Errorf("%s: no plural message to test", lang)
		}
	}
}

func formName(f plural.Form) string {
	switch f {
	case plural.Zero:
		return "zero"
	case plural.One:
		return "one"
	case plural.Two:
		return "two"
	case plural.Few:
		return "few"
	case plural.Many:
		return "many"
	}
	return "other"
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// The language a page shows: the address's ?lang=, else the browser's
// remembered choice, else its languages, else the hall's default.
func TestLanguageChoice(t *testing.T) {
	cases := []struct {
		Query   string   `json:"query"`
		Saved   string   `json:"saved"`
		Browser []string `json:"browser"`
		Def     string   `json:"def"`
		want    string
	}{
		{"", "", []string{"ko-KR", "en"}, "en", "ko"},
		{"", "", []string{"de-DE", "ru"}, "en", "ru"},
		{"", "", []string{"de-DE", "fr"}, "hy", "hy"},
		{"", "", nil, "", "en"},
		{"", "hy", []string{"ko"}, "en", "hy"},
		{"ru", "hy", []string{"ko"}, "en", "ru"},
		{"xx", "zz", []string{"hy-AM"}, "en", "hy"},
	}
	js := "const cases = " + mustJSON(cases) + ";\nconsole.log(JSON.stringify(cases.map(c => I18N.choose(c.query, c.saved, c.browser, c.def).lang)));"
	var got []string
	out := runScript(t, js)
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	for i, c := range cases {
		if got[i] != c.want {
			t.Errorf("?lang=%q, remembered %q, browser %v, hall %q: %s, want %s", c.Query, c.Saved, c.Browser, c.Def, got[i], c.want)
		}
	}
}

func TestScriptCarriesTheHallsDefault(t *testing.T) {
	if err := Check("tlh"); err == nil || !strings.Contains(err.Error(), "en, hy, ko, ru") {
		t.Errorf("Check(tlh) = %v, want a refusal naming the languages", err)
	}
	rec := httptest.NewRecorder()
	Handler("hy", "").ServeHTTP(rec, httptest.NewRequest(http.MethodGet, Path, nil))
	if rec.Code != 200 || !strings.HasPrefix(rec.Body.String(), `window.HALL_I18N = {"default": "hy"`) {
		t.Errorf("%d %.60s", rec.Code, rec.Body.String())
	}
	req := httptest.NewRequest(http.MethodGet, Path, nil)
	req.Header.Set("If-None-Match", rec.Header().Get("ETag"))
	rec2 := httptest.NewRecorder()
	Handler("hy", "").ServeHTTP(rec2, req)
	if rec2.Code != http.StatusNotModified {
		t.Errorf("revalidation: %d", rec2.Code)
	}
}

// The pages write times in the hall's zone, wherever the browser is: a
// hall in Tokyo shows the epoch as 09:00 to a browser in UTC, and a hall
// that gave no zone shows the browser's (00:00); a page that names a zone
// keeps it.
func TestPagesWriteTimesInTheHallsZone(t *testing.T) {
	const js = `const o = { hour: "2-digit", minute: "2-digit", hourCycle: "h23" };
console.log(JSON.stringify([I18N.time(new Date(0), o), I18N.time(new Date(0), Object.assign({ timeZone: "UTC" }, o))]));`
	if got := strings.TrimSpace(runScriptIn(t, "Asia/Tokyo", js)); got != `["09:00","00:00"]` {
		t.Errorf("a hall in Asia/Tokyo, the epoch: %s, want [\"09:00\",\"00:00\"]", got)
	}
	if got := strings.TrimSpace(runScriptIn(t, "", js)); got != `["00:00","00:00"]` {
		t.Errorf("a hall without a zone, in a browser in UTC, the epoch: %s, want [\"00:00\",\"00:00\"]", got)
	}
}

// Every hall's start makes a Handler (every test's hall too): the script
// is built once a process for each default language and zone — building
// it decodes, encodes and gzips the catalogues, thousands of allocations —
// and each zone still gets its own.
func TestHandlerBuildsTheScriptOnce(t *testing.T) {
	body := func(zone string) string {
		rec := httptest.NewRecorder()
		Handler("ko", zone).ServeHTTP(rec, httptest.NewRequest(http.MethodGet, Path, nil))
		return rec.Body.String()
	}
	oslo, tokyo := body("Europe/Oslo"), body("Asia/Tokyo")
	if !strings.Contains(oslo, `"zone": "Europe/Oslo"`) || strings.Contains(oslo, "Asia/Tokyo") || !strings.Contains(tokyo, `"zone": "Asia/Tokyo"`) {
		t.Errorf("each zone's script names its zone only: %.80s / %.80s", oslo, tokyo)
	}
	if n := testing.AllocsPerRun(5, func() { Handler("ko", "Europe/Oslo") }); n > 20 {
		t.Errorf("a second Handler of the same language and zone made %.0f allocations; want the script built once (a few)", n)
	}
}
