// Package words builds the text the hall writes for people — refusal
// reasons, audit descriptions, the alerts of the attention list — from a
// kind and its parameters, in the reader's language. The hall keeps and
// sends the kind and the parameters (and, for developers and logs, the
// English words); a page or a program renders them with the catalogue of
// its reader's language. It is pure: no I/O, no clock.
//
// # Usage
//
//	m := words.Refused("add_time", err)  // kind "refused.clock_running", params {event, rule, text}
//	words.Render("ko", m)                // "시간 추가 거부됨: 먼저 시계를 멈춰야 합니다"
//	m.Params["text"]                     // the English sentence the hall wrote, as it wrote it
//
// # Catalogues
//
// One JSON file a language, i18n/<lang>.json (en, ko, ru, hy; a
// new file is a new language, the same file the pages take their words
// from): this package reads its keys "audit.<kind>", whose values hold
// {param} placeholders. A parameter whose value names a term
// the catalogue knows as "audit.<param>.<value>" (an event kind as
// "audit.event.add_time", a side as "audit.side.white") is written in the
// language's word for it; any other is written as it is. A kind a
// language lacks is written as English's; a kind no catalogue knows (and
// the kind "text", which the audit rows written before kinds carry) is
// its "text" parameter. The pages render the same files the same way:
// internal/i18n puts them in the pages' catalogues (I18N.words), and the
// hall serves them to other programs at /words/audit.<lang>.json.
package words

import (
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/chesshall/hallclock/rules"
)

// Message is a text for people as a kind and its parameters.
type Message struct {
	Kind   string            `json:"kind"`
	Params map[string]string `json:"params,omitempty"`
}

// IsZero reports whether m says nothing.
func (m Message) IsZero() bool { return m.Kind == "" }

// KindText is the kind of a message that is only its English words
// (parameter "text"): what the audit rows written before kinds keep.
const KindText = "text"

// Text returns the message of English words that have no kind.
func Text(s string) Message { return Message{Kind: KindText, Params: map[string]string{"text": s}} }

// English is m in English: its catalogue's words, or its "text".
func (m Message) English() string { return Render(English, m) }

// English is the language of a message in a language the catalogues do
// not have.
const English = "en"

// Files are the catalogues, i18n/<lang>.json: one file a language, with
// every word a person reads in it — the pages' (package internal/i18n
// serves them to the pages) and the hall's words for people (keys
// "audit.<kind>" and the terms "audit.<param>.<value>", which this package
// renders).
//
//go:embed i18n/*.json
var Files embed.FS

// Catalogue returns lang's whole catalogue as it is written: a message is
// a string, or an object of CLDR plural forms (the pages').
func Catalogue(lang string) (map[string]json.RawMessage, error) {
	b, err := Files.ReadFile("i18n/" + lang + ".json")
	if err != nil {
		return nil, fmt.Errorf("words: no catalogue of language %q", lang)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("words: i18n/%s.json: %w", lang, err)
	}
	return m, nil
}

// AuditWords returns the hall's words for people of lang's catalogue (the
// keys "audit.…"), as served at /words/audit.<lang>.json.
func AuditWords(lang string) (map[string]string, error) {
	if c, ok := catalogues[lang]; ok {
		return c, nil
	}
	return nil, fmt.Errorf("words: no catalogue of language %q", lang)
}

// Languages lists the catalogues' languages (a file each), English first.
var Languages = func() []string {
	ents, err := Files.ReadDir("i18n")
	if err != nil {
		panic(err)
	}
	out := []string{English}
	for _, e := range ents {
		l, ok := strings.CutSuffix(e.Name(), ".json")
		if ok && l != English {
			out = append(out, l)
		}
	}
	return out
}()

// catalogues holds each language's keys, read once.
var catalogues = func() map[string]map[string]string {
	out := map[string]map[string]string{}
	for _, lang := range Languages {
		all, err := Catalogue(lang)
		if err != nil {
			panic(err)
		}
		c := map[string]string{}
		for k, v := range all {
			if !strings.HasPrefix(k, "audit.") {
				continue // the pages' words
			}
			var text string
			if err := json.Unmarshal(v, &text); err != nil {
				panic(fmt.Sprintf("words: i18n/%s.json: %s is not a string: %v", lang, k, err))
			}
			c[k] = text
		}
		out[lang] = c
	}
	return out
}()

// Base returns the catalogue language of a BCP 47 tag ("ko-KR" is "ko"),
// English for a language there is no catalogue of.
func Base(tag string) string {
	primary, _, _ := strings.Cut(tag, "-")
	primary = strings.ToLower(primary)
	if _, ok := catalogues[primary]; ok {
		return primary
	}
	return English
}

// lookup returns key in lang's catalogue, else English's.
func lookup(lang, key string) (string, bool) {
	if s, ok := catalogues[lang][key]; ok {
		return s, true
	}
	s, ok := catalogues[English][key]
	return s, ok
}

// Known reports whether the catalogues have words for kind (any other is
// written as its "text").
func Known(kind string) bool {
	_, ok := catalogues[English]["audit."+kind]
	return ok
}

// Render writes m in lang (a BCP 47 tag).
func Render(lang string, m Message) string {
	lang = Base(lang)
	tmpl, ok := lookup(lang, "audit."+m.Kind)
	if !ok || m.Kind == "" {
		if t, ok := m.Params["text"]; ok {
			return t
		}
		return m.Kind
	}
	var b strings.Builder
	for {
		open := strings.IndexByte(tmpl, '{')
		if open < 0 {
			break
		}
		end := strings.IndexByte(tmpl[open:], '}')
		if end < 0 {
			break
		}
		name := tmpl[open+1 : open+end]
		b.WriteString(tmpl[:open])
		v := m.Params[name]
		if term, ok := lookup(lang, "audit."+name+"."+v); ok && v != "" {
			v = term
		}
		b.WriteString(v)
		tmpl = tmpl[open+end+1:]
	}
	b.WriteString(tmpl)
	return b.String()
}

// RefusalName is the stable name of a refusal's code ("game_over"), as
// clocks read it (Rejection.code) and as kinds "refused.<name>" use it.
func RefusalName(c rules.RefusalCode) string {
	if n, ok := refusalNames[c]; ok {
		return n
	}
	return "refused"
}

var refusalNames = map[rules.RefusalCode]string{
	rules.RefusedOther: "refused", rules.RefusedGameOver: "game_over", rules.RefusedNotStarted: "not_started",
	rules.RefusedStarted: "already_started", rules.RefusedNotRunning: "not_running", rules.RefusedRunning: "clock_running",
	rules.RefusedNotPaused: "not_paused", rules.RefusedNotToMove: "not_to_move", rules.RefusedAbsent: "absent",
	rules.RefusedPresent: "present", rules.RefusedNoFlag: "no_flag", rules.RefusedOwnFlag: "own_flag",
	rules.RefusedMoveStands: "move_stands", rules.RefusedNotApplicable: "not_applicable", rules.RefusedTimeLimit: "time_limit",
	rules.RefusedTimeBackwards: "time_backwards", rules.RefusedNegativeTime: "negative_time",
	rules.RefusedSettingLocked: "setting_locked", rules.RefusedInvalid: "invalid", rules.RefusedNotPermitted: "not_permitted",
}

// Refused returns the message of err, the refusal of an event of kind
// event (a rules.Kind's name, "announcement"; "" for the refusal's own):
// kind "refused.<name>" of the rules' refusal (RefusalName;
// "refused.invalid" for invalid input), with parameters event, rule (the
// article, if any) and text (err's English words). Any other error is
// its English words (Text).
func Refused(event string, err error) Message {
	name := "refused"
	rule := ""
	if !errors.Is(err, rules.ErrRefused) && !errors.Is(err, rules.ErrInvalid) {
		return Text(err.Error())
	}
	if r := rules.RefusalOf(err); r != nil {
		name, rule = RefusalName(r.Code), r.Rule
		if r.What != "" && event == "" {
			event = r.What
		} else if event == "" {
			event = r.Event.Kind.String()
		}
	} else if errors.Is(err, rules.ErrInvalid) {
		name = "invalid"
	}
	return RefusedCode(name, event, err.Error(), "rule", rule)
}

// RefusedCode returns the message "refused.<code>" of an event of kind
// event, with its English text and more parameters as name, value pairs.
func RefusedCode(code, event, text string, params ...string) Message {
	m := Message{Kind: "refused." + code, Params: map[string]string{"event": event, "text": text}}
	for i := 0; i+1 < len(params); i += 2 {
		if params[i+1] != "" {
			m.Params[params[i]] = params[i+1]
		}
	}
	return m
}
