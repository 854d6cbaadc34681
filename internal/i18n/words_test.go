package i18n

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/chesshall/hallclock/formats/words"
)

var wordsParam = regexp.MustCompile(`\{(\w+)\}`)

// The pages write the hall's words (an audit entry, an alert, a refusal
// as a kind and its parameters) as the Go side does: I18N.words, under
// Node, gives what words.Render gives for every kind of the words'
// catalogues in every language — a term's parameter (an event, a side) in
// the language's word, a kind without words and the kind "text" as their
// English text — and the script's catalogues carry them all.
func TestPagesWriteTheHallsWordsAsGoDoes(t *testing.T) {
	en, err := words.AuditWords("en")
	if err != nil {
		t.Fatal(err)
	}
	var msgs []words.Message
	for key, text := range en {
		kind, _ := strings.CutPrefix(key, "audit.")
		if strings.HasPrefix(kind, "event.") || strings.HasPrefix(kind, "side.") {
			continue // terms, not kinds
		}
		m := words.Message{Kind: kind, Params: map[string]string{"text": "the hall's English"}}
		for _, p := range wordsParam.FindAllStringSubmatch(text, -1) {
			switch p[1] {
			case "event":
				m.Params["event"] = "add_time"
			case "side":
				m.Params["side"] = "black"
			case "text":
			default:
				m.Params[p[1]] = "«" + p[1] + "»"
			}
		}
		msgs = append(msgs, m)
	}
	slices.SortFunc(msgs, func(a, b words.Message) int { return strings.Compare(a.Kind, b.Kind) })
	msgs = append(msgs,
		words.Message{Kind: "text", Params: map[string]string{"text": "written before kinds"}},
		words.Message{Kind: "no.such.kind", Params: map[string]string{"text": "a kind of a newer hall"}},
		words.Message{Kind: "refused.not_running", Params: map[string]string{"event": "no_such_event"}}, // an event without a term: as it is
	)
	if len(msgs) < 20 {
		t.Fatalf("only %d kinds in formats/words' catalogue", len(msgs))
	}
	out := runScript(t, "const msgs = "+mustJSON(msgs)+`, res = {};
for (const l of I18N.langs()) res[l] = msgs.map(m => I18N.words(m, l));
console.log(JSON.stringify(res));`)
	var got map[string][]string
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	for _, lang := range Langs() {
		if len(got[lang]) != len(msgs) {
			t.Fatalf("%s: %d messages written, want %d", lang, len(got[lang]), len(msgs))
		}
		for i, m := range msgs {
			if want := words.Render(lang, m); got[lang][i] != want {
				t.Errorf("%s %s: the page writes %q, Go %q", lang, m.Kind, got[lang][i], want)
			}
		}
	}
	// Korean is not English: the page found the Korean words.
	if ko, en := got["ko"][0], got["en"][0]; ko == en {
		t.Errorf("%s reads the same in Korean as in English: %q", msgs[0].Kind, ko)
	}
}
