package announce

import (
	"strings"
	"testing"

	"golang.org/x/text/feature/plural"
	langtag "golang.org/x/text/language"

	"github.com/chesshall/hallclock/rules"
)

// 1 h 2 min 5 s and 58 min 40 s, 23 and 22 moves: the example of the
// package documentation.
var game = Facts{Moves: [2]int{23, 22}, UsedMs: [2]int64{3_725_000, 3_520_000}}

// What a talking clock says (FIDE 2018 D.2.6.1, D.2.10.4: the completed
// moves and the time used by both players), in each language.
var sayTests = []struct {
	lang string
	f    Facts
	want string
}{
	{"en", game, "White: 23 moves, 1 hour 2 minutes 5 seconds used. Black: 22 moves, 58 minutes 40 seconds used."},
	{"en", Facts{}, "White: 0 moves, 0 seconds used. Black: 0 moves, 0 seconds used."},
	{"en", Facts{Moves: [2]int{1, 1}, UsedMs: [2]int64{3_600_000, 61_000}}, "White: 1 move, 1 hour used. Black: 1 move, 1 minute 1 second used."},
	// Rounded up to the second: never less than was used.
	{"en", Facts{UsedMs: [2]int64{1, 59_001}}, "White: 0 moves, 1 second used. Black: 0 moves, 1 minute used."},
	{"de", game, "Weiß: 23 Züge, 1 Stunde 2 Minuten 5 Sekunden verbraucht. Schwarz: 22 Züge, 58 Minuten 40 Sekunden verbraucht."},
	{"de", Facts{Moves: [2]int{1, 0}, UsedMs: [2]int64{1_000, 7_201_000}}, "Weiß: 1 Zug, 1 Sekunde verbraucht. Schwarz: 0 Züge, 2 Stunden 1 Sekunde verbraucht."},
	{"es", game, "Blancas: 23 jugadas, tiempo empleado 1 hora 2 minutos 5 segundos. Negras: 22 jugadas, tiempo empleado 58 minutos 40 segundos."},
	{"es", Facts{Moves: [2]int{1, 0}, UsedMs: [2]int64{60_000, 0}}, "Blancas: 1 jugada, tiempo empleado 1 minuto. Negras: 0 jugadas, tiempo empleado 0 segundos."},
	// French: 0 and 1 take the singular.
	{"fr", game, "Blancs : 23 coups, temps utilisé 1 heure 2 minutes 5 secondes. Noirs : 22 coups, temps utilisé 58 minutes 40 secondes."},
	{"fr", Facts{Moves: [2]int{0, 1}, UsedMs: [2]int64{0, 1_000}}, "Blancs : 0 coup, temps utilisé 0 seconde. Noirs : 1 coup, temps utilisé 1 seconde."},
	{"ko", game, "백 23수, 사용 시간 1시간 2분 5초. 흑 22수, 사용 시간 58분 40초."},
	// Russian: 1, 21 (not 11) one form; 2-4, 22-24 (not 12-14) another; the rest a third.
	{"ru", game, "Белые: 23 хода, затрачено 1 час 2 минуты 5 секунд. Чёрные: 22 хода, затрачено 58 минут 40 секунд."},
	{"ru", Facts{Moves: [2]int{21, 11}, UsedMs: [2]int64{21*60_000 + 1_000, 12*60_000 + 14_000}}, "Белые: 21 ход, затрачено 21 минута 1 секунда. Чёрные: 11 ходов, затрачено 12 минут 14 секунд."},
	{"ru", Facts{Moves: [2]int{5, 104}, UsedMs: [2]int64{2 * 3_600_000, 5 * 3_600_000}}, "Белые: 5 ходов, затрачено 2 часа. Чёрные: 104 хода, затрачено 5 часов."},
	// Armenian: the Laws' terms (քայլ, րոպե, վայրկյան); nouns singular after every number.
	{"hy", game, "Սպիտակներ՝ 23 քայլ, օգտագործված ժամանակը՝ 1 ժամ 2 րոպե 5 վայրկյան։ Սևեր՝ 22 քայլ, օգտագործված ժամանակը՝ 58 րոպե 40 վայրկյան։"},
	{"hy", Facts{Moves: [2]int{1, 0}, UsedMs: [2]int64{1_000, 2*3_600_000 + 21*60_000}}, "Սպիտակներ՝ 1 քայլ, օգտագործված ժամանակը՝ 1 վայրկյան։ Սևեր՝ 0 քայլ, օգտագործված ժամանակը՝ 2 ժամ 21 րոպե։"},
	// A language announce does not speak: English.
	{"pt", game, "White: 23 moves, 1 hour 2 minutes 5 seconds used. Black: 22 moves, 58 minutes 40 seconds used."},
}

func TestSay(t *testing.T) {
	for _, tc := range sayTests {
		got := Say(tc.lang, tc.f)
		if got.Text != tc.want {
			t.Errorf("Say(%q, %v).Text =\n\t%q\nwant\n\t%q", tc.lang, tc.f, got.Text, tc.want)
		}
		if want := tc.lang; got.Language != want && !(want == "pt" && got.Language == English) {
			t.Errorf("Say(%q, %v).Language = %q", tc.lang, tc.f, got.Language)
		}
	}
}

// Every language announce lists says every side, unit and form.
func TestEveryLanguageComplete(t *testing.T) {
	for _, lang := range Languages {
		w, ok := words[lang]
		if !ok {
			t.Errorf("Languages lists %q, which has no words", lang)
			continue
		}
		for n := 0; n <= 125; n++ {
			text := Say(lang, Facts{Moves: [2]int{n, n}, UsedMs: [2]int64{int64(n) * 3_661_000, 0}}).Text
			for _, part := range append(w.side[:], strings.TrimSpace(w.count(n, w.move))) {
				if !strings.Contains(text, part) {
					t.Errorf("Say(%q) with %d moves = %q, missing %q", lang, n, text, part)
				}
			}
		}
	}
	if len(words) != len(Languages) {
		t.Errorf("%d languages have words, Languages lists %d", len(words), len(Languages))
	}
}

// The language of an announcement: the player's if announce and the
// clock's voice both speak it, English otherwise.
func TestChoose(t *testing.T) {
	for _, tc := range []struct {
		player string
		voices []string
		want   string
	}{
		{"", []string{"en", "de"}, "en"},
		{"de", []string{"en", "de"}, "de"},
		{"de-AT", []string{"en", "de-DE"}, "de"},
		{"DE", []string{"de"}, "de"},
		{"de", []string{"en"}, "en"}, // the clock cannot speak German
		{"de", nil, "en"},            // a clock that said nothing speaks English
		{"pt-BR", []string{"pt"}, "en"},
		{"ru", []string{"en", "ru", "fr"}, "ru"},
		{"hy-AM", []string{"en", "hy"}, "hy"},
		{"hy", []string{"en"}, "en"}, // no Armenian voice: English (a tablet speaks through the browser)
	} {
		if got := Choose(tc.player, tc.voices); got != tc.want {
			t.Errorf("Choose(%q, %q) = %q, want %q", tc.player, tc.voices, got, tc.want)
		}
	}
}

// The facts come off the state: completed moves, and the time each clock
// ran (rules.Player.UsedMs).
func TestFromState(t *testing.T) {
	tc, err := rules.ParseTimeControl("90m+30s")
	if err != nil {
		t.Fatal(err)
	}
	st, err := rules.NewState(rules.Config{TimeControl: tc})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range []rules.Event{
		{Kind: rules.KindStart}, {Kind: rules.KindPress, T: 12_345, Side: rules.White},
		{Kind: rules.KindPress, T: 20_000, Side: rules.Black}, {Kind: rules.KindPress, T: 21_000, Side: rules.White},
	} {
		if st, err = rules.Apply(st, e); err != nil {
			t.Fatal(err)
		}
	}
	got := FromState(st.Project(25_000))
	want := Facts{Moves: [2]int{2, 1}, UsedMs: [2]int64{13_345, 11_655}}
	if got != want {
		t.Errorf("FromState = %+v, want %+v", got, want)
	}
	if text := Say("en", got).Text; text != "White: 2 moves, 14 seconds used. Black: 1 move, 12 seconds used." {
		t.Errorf("Say = %q", text)
	}
}

// Each language's plural rule picks the form CLDR's cardinal rules give
// (golang.org/x/text holds them), at the numbers the issue names and
// every number to 300.
func TestPluralRulesAreCLDRs(t *testing.T) {
	// The index of each CLDR category in a language's forms.
	index := map[string]map[plural.Form]int{
		"en": {plural.One: 0, plural.Other: 1},
		"de": {plural.One: 0, plural.Other: 1},
		"es": {plural.One: 0, plural.Other: 1, plural.Many: 1},
		"fr": {plural.One: 0, plural.Other: 1, plural.Many: 1},
		"ko": {plural.Other: 0},
		"ru": {plural.One: 0, plural.Few: 1, plural.Many: 2},
		"hy": {plural.One: 0, plural.Other: 1},
	}
	numbers := []int{0, 1, 2, 5, 21, 22, 25, 101}
	for n := 0; n <= 300; n++ {
		numbers = append(numbers, n)
	}
	for _, lang := range Languages {
		forms, ok := index[lang]
		if !ok {
			t.Errorf("no CLDR categories listed for %q", lang)
			continue
		}
		tag := langtag.MustParse(lang)
		for _, n := range numbers {
			cat := plural.Cardinal.MatchPlural(tag, n, 0, 0, 0, 0)
			want, ok := forms[cat]
			if !ok {
				t.Errorf("%s: %d is CLDR's %v, which the test does not map", lang, n, cat)
				continue
			}
			if got := words[lang].rule(n); got != want {
				t.Errorf("%s: %d takes form %d, CLDR's %v is form %d", lang, n, got, cat, want)
			}
		}
	}
}
