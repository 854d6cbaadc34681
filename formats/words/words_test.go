package words

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/chesshall/hallclock/rules"
)

var placeholder = regexp.MustCompile(`\{[a-z_]+\}`)

// Every catalogue has every key English has, and no other, with the same
// placeholders: a page or a program in any language can write every kind.
func TestCataloguesComplete(t *testing.T) {
	en := catalogues[English]
	for _, lang := range Languages {
		c := catalogues[lang]
		for k, v := range en {
			s, ok := c[k]
			if !ok {
				t.Errorf("%s lacks %s", lang, k)
				continue
			}
			want, got := placeholder.FindAllString(v, -1), placeholder.FindAllString(s, -1)
			slices.Sort(want)
			slices.Sort(got)
			if !slices.Equal(want, got) {
				t.Errorf("%s %s has placeholders %v, English %v", lang, k, got, want)
			}
			if lang != English && s == v && !strings.HasPrefix(s, "{") {
				t.Errorf("%s %s is English's words %q", lang, k, s)
			}
		}
		for k := range c {
			if _, ok := en[k]; !ok {
				t.Errorf("%s has %s, which English does not", lang, k)
			}
		}
	}
}

// Every refusal code of the rules and every event kind has its words in
// every language.
func TestEveryRefusalAndEventHasWords(t *testing.T) {
	for c := rules.RefusedOther; c <= rules.RefusedNotPermitted; c++ {
		name := RefusalName(c)
		if name == "refused" && c != rules.RefusedOther {
			t.Errorf("refusal code %d has no name", c)
		}
		for _, lang := range Languages {
			if _, ok := catalogues[lang]["audit.refused."+name]; !ok {
				t.Errorf("%s lacks audit.refused.%s", lang, name)
			}
		}
	}
	for k := rules.KindInvalid; k.Valid() || k == rules.KindInvalid; k++ {
		for _, lang := range Languages {
			if _, ok := catalogues[lang]["audit.event."+k.String()]; !ok {
				t.Errorf("%s lacks audit.event.%s", lang, k)
			}
		}
	}
}

// An audit entry written while the hall spoke English — its message
// stored as JSON — reads in each language from its kind and parameters:
// the words of the refusal and of the event in that language, the
// article as it is.
func TestEntryWrittenInEnglishReadsInEveryLanguage(t *testing.T) {
	refusal := &rules.Refusal{Event: rules.Event{Kind: rules.KindAddTime}, Code: rules.RefusedRunning,
		Rule: "FIDE 2023 Art. 6.10.2", Reason: "the clock must be stopped first"}
	stored, err := json.Marshal(Refused("", fmt.Errorf("board b1: %w", refusal)))
	if err != nil {
		t.Fatal(err)
	}
	var m Message
	if err := json.Unmarshal(stored, &m); err != nil {
		t.Fatal(err)
	}
	if m.Kind != "refused.clock_running" || m.Params["event"] != "add_time" || m.Params["rule"] != "FIDE 2023 Art. 6.10.2" ||
		m.Params["text"] != "board b1: add_time refused: the clock must be stopped first (FIDE 2023 Art. 6.10.2)" {
		t.Fatalf("stored message %s", stored)
	}
	for lang, want := range map[string]string{
		"en":    "giving time refused: the clock must be stopped first",
		"ko":    "시간 추가 거부됨: 먼저 시계를 멈춰야 합니다",
		"ko-KR": "시간 추가 거부됨: 먼저 시계를 멈춰야 합니다",
		"ru":    "добавление времени: отказано — сначала нужно остановить часы",
		"hy":    "ժամանակի ավելացում՝ մերժված է. նախ պետք է կանգնեցնել ժամացույցը",
		"pt":    "giving time refused: the clock must be stopped first", // no catalogue: English
	} {
		if got := Render(lang, m); got != want {
			t.Errorf("Render(%s) = %q, want %q", lang, got, want)
		}
	}
}

// Parameters that are not terms are written as they are; a kind no
// catalogue knows, and the kind "text" of the rows written before kinds,
// are their English text in every language.
func TestParamsAndFallbacks(t *testing.T) {
	m := Message{Kind: "alert.display_check", Params: map[string]string{"device": "CLK-7", "white_ms": "61000", "black_ms": "59000",
		"seq": "12", "rules_white_ms": "60000", "rules_black_ms": "59000"}}
	if got, want := Render("ru", m), "устройство CLK-7 показывает у белых 61000 мс, у чёрных 59000 мс после события 12; по правилам 60000 мс и 59000 мс"; got != want {
		t.Errorf("Render(ru) = %q, want %q", got, want)
	}
	old := Text("refused: the game is over")
	unknown := Message{Kind: "alert.from_a_newer_hall", Params: map[string]string{"text": "something new"}}
	for _, lang := range Languages {
		if got := Render(lang, old); got != "refused: the game is over" {
			t.Errorf("Render(%s, text) = %q", lang, got)
		}
		if got := Render(lang, unknown); got != "something new" {
			t.Errorf("Render(%s, unknown kind) = %q", lang, got)
		}
		if got := Render(lang, m); strings.ContainsAny(got, "{}") {
			t.Errorf("Render(%s) left a placeholder: %q", lang, got)
		}
	}
}
