package i18n

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"

	"golang.org/x/net/html"
)

// The rule of text for people, which TestPagesShowOnlyCatalogueText holds
// every page to:
//
// HTML (outside <script> and <style>): a text node with a letter is
// inside an element marked data-i18n="key" (the script replaces the
// element's text with the catalogue's); an attribute a person reads
// (title, placeholder, aria-label, alt; value of a button input) with a
// letter has a data-i18n-<attribute>="key" beside it. Text that is only a
// Go template's action ({{.Who}}) is data, not words; an acronym ("A4",
// "PGN") is the same in every language.
//
// Scripts (the pages' .js files and inline scripts):
//   - a sink: what is assigned to textContent, innerText, title,
//     placeholder, ariaLabel, alt or label; the value given to
//     setAttribute of title, aria-label, placeholder or alt; the text
//     argument of el(tag, class, text) and option(value, text); the
//     message of alert, confirm and prompt. A string literal with a
//     letter in a sink is untranslated text, unless it is the key of a
//     t("key", …) call.
//   - anywhere: a string literal that begins as a word does (a capital
//     letter and a small one: "Paused", "Sign in") is text for people,
//     unless it is a key of t(…) or a name the browser defines (a key's
//     name such as "Escape", a header such as "Content-Type": allowed
//     below).
//
// Every key a page names (data-i18n*, t("…")) must be in the catalogue.

// pageFiles are the files of every page a person reads, from the
// module's root. A page's new file must be added here (the test fails on
// an HTML or a script under server/ that is not).
var pageFiles = []string{
	"server/auth/signin.html",
	"server/broadcast/display.html",
	"server/broadcast/standings.html",
	"server/gateway/federation.html",
	"server/enrol/enrol.html",
	"server/assist/assets/index.html",
	"server/assist/assets/assist.js",
	"server/clockface/assets/index.html",
	"server/clockface/assets/face.js",
	"server/dashboard/assets/index.html",
	"server/dashboard/assets/print.html",
	"server/dashboard/assets/actions.js",
	"server/dashboard/assets/addboard.js",
	"server/dashboard/assets/api.js",
	"server/dashboard/assets/app.js",
	"server/dashboard/assets/attention.js",
	"server/dashboard/assets/audit.js",
	"server/dashboard/assets/blind.js",
	"server/dashboard/assets/board.js",
	"server/dashboard/assets/clock.js",
	"server/dashboard/assets/dom.js",
	"server/dashboard/assets/format.js",
	"server/dashboard/assets/hall.js",
	"server/dashboard/assets/link.js",
	"server/dashboard/assets/news.js",
	"server/dashboard/assets/print.js",
	"server/dashboard/assets/standings.js",
	"server/dashboard/assets/stream.js",
	"server/dashboard/assets/t.js",
	"server/dashboard/assets/tablet.js",
}

// pending are page files not translated yet, each with why: the scan
// skips them. The list only shrinks.
var pending = map[string]string{}

// browserNames are literals that look like words but are names the
// browser or HTTP defines.
var browserNames = map[string]bool{
	"Escape": true, "Enter": true, "Tab": true, "Backspace": true, "Delete": true, "Home": true, "End": true,
	"ArrowUp": true, "ArrowDown": true, "ArrowLeft": true, "ArrowRight": true, "PageUp": true, "PageDown": true,
	"Content-Type": true, "Accept": true, "Last-Event-ID": true, "Space": true,
	"Unavailable": true, // a gRPC code the pages pass on
	// the Arbiter service's methods and the names of a form's fields
	"Announce": true, "Vd": true, "Assistant": true, "Lang": true,
}

func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func hasLetter(s string) bool {
	return strings.IndexFunc(s, unicode.IsLetter) >= 0
}

var templateAction = regexp.MustCompile(`\{\{[^}]*\}\}`)

// looksLikeWords: a capital letter then a small one ("Paused"), unless
// it is one name in Pascal case ("GetBoard", "ArrowUp").
func looksLikeWords(s string) bool {
	r := []rune(strings.TrimLeft(s, " ⚑⏸▶·—–(«\"'"))
	if len(r) < 2 || !unicode.IsUpper(r[0]) || !unicode.IsLower(r[1]) {
		return false
	}
	if !strings.ContainsFunc(s, unicode.IsSpace) && strings.IndexFunc(string(r[1:]), unicode.IsUpper) >= 0 {
		return false
	}
	return true
}

// intlOptions are the options of Intl's formats, whose values are names.
var intlOptions = map[string]bool{"hour": true, "minute": true, "second": true, "year": true, "month": true, "day": true, "weekday": true,
	"dateStyle": true, "timeStyle": true, "style": true, "unit": true, "unitDisplay": true, "timeZoneName": true, "hourCycle": true}

// acronym: letters, all capital Latin ones ("PGN", "TRF-16").
func acronym(s string) bool {
	return hasLetter(s) && !strings.ContainsFunc(s, func(r rune) bool { return unicode.IsLetter(r) && (r < 'A' || r > 'Z') })
}

// compare are the operators whose operands are compared, not shown.
var compare = map[string]bool{"===": true, "!==": true, "==": true, "!=": true}

var visibleAttrs = []string{"title", "placeholder", "aria-label", "alt"}

// scanHTML returns the untranslated text of an HTML page, the keys it
// names, and its inline scripts.
func scanHTML(src string) (bad []string, keys []string, scripts []string) {
	doc, err := html.Parse(strings.NewReader(src))
	if err != nil {
		return []string{err.Error()}, nil, nil
	}
	var walk func(n *html.Node, marked bool)
	walk = func(n *html.Node, marked bool) {
		if n.Type == html.ElementNode {
			attr := map[string]string{}
			for _, a := range n.Attr {
				attr[a.Key] = a.Val
				if strings.HasPrefix(a.Key, "data-i18n") && a.Key != "data-i18n-switcher" {
					keys = append(keys, a.Val)
				}
			}
			if _, ok := attr["data-i18n"]; ok {
				marked = true
			}
			check := visibleAttrs
			if n.Data == "input" && (attr["type"] == "button" || attr["type"] == "submit") {
				check = append(slices.Clip(check), "value")
			}
			for _, a := range check {
				v, ok := attr[a]
				if !ok || !hasLetter(templateAction.ReplaceAllString(v, "")) {
					continue
				}
				if _, ok := attr["data-i18n-"+a]; !ok {
					bad = append(bad, fmt.Sprintf("<%s %s=%q> has no data-i18n-%s", n.Data, a, v, a))
				}
			}
			switch n.Data {
			case "script":
				if n.FirstChild != nil {
					scripts = append(scripts, n.FirstChild.Data)
				}
				return
			case "style":
				return
			}
		}
		if n.Type == html.TextNode && !marked {
			s := strings.TrimSpace(templateAction.ReplaceAllString(n.Data, ""))
			if hasLetter(s) && !acronym(s) {
				bad = append(bad, fmt.Sprintf("text %q is not marked data-i18n", s))
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, marked)
		}
	}
	walk(doc, false)
	return bad, keys, scripts
}

var sinkProps = map[string]bool{"textContent": true, "innerText": true, "title": true, "placeholder": true, "ariaLabel": true, "alt": true, "label": true}
var sinkAttrs = map[string]bool{"title": true, "aria-label": true, "placeholder": true, "alt": true}

// sinkCalls: a call's name -> which argument (0-based) is text.
var sinkCalls = map[string]int{"el": 2, "option": 1, "alert": 0, "confirm": 0, "prompt": 0}

// scanJS returns the untranslated text of a script and the keys it names.
func scanJS(src string) (bad []string, keys []string) {
	toks := lexJS(src)
	isKey := make([]bool, len(toks))
	for i, tk := range toks {
		if tk.kind == 's' && i >= 2 && toks[i-1].text == "(" && toks[i-2].kind == 'i' && toks[i-2].text == "t" {
			isKey[i] = true
			if i+1 < len(toks) && toks[i+1].text == "+" {
				keys = append(keys, tk.text+"*") // a key's beginning: t("audit.event." + kind)
			} else {
				keys = append(keys, tk.text)
			}
		}
	}
	inSink := make([]bool, len(toks))
	// mark marks the sink's tokens from..to that it shows itself: not the
	// arguments of a call inside it (nameOf("white"), el("span", …)),
	// which a call of its own shows or not.
	mark := func(from, to int) {
		var calls []bool
		for k := from; k < to && k < len(toks); k++ {
			switch toks[k].text {
			case "(":
				calls = append(calls, k > 0 && (toks[k-1].kind == 'i' || toks[k-1].text == ")"))
				continue
			case ")":
				if len(calls) > 0 {
					calls = calls[:len(calls)-1]
				}
				continue
			}
			if !slices.Contains(calls, true) {
				inSink[k] = true
			}
		}
	}
	// argEnd returns the end of the argument starting at i (at a "," or
	// the closing ")" of depth 0).
	argEnd := func(i int) int {
		d := 0
		for ; i < len(toks); i++ {
			switch toks[i].text {
			case "(", "[", "{":
				d++
			case ")", "]", "}":
				if d == 0 {
					return i
				}
				d--
			case ",":
				if d == 0 && toks[i].kind == 'p' {
					return i
				}
			}
		}
		return i
	}
	// exprEnd returns the end of an assignment's value starting at i.
	exprEnd := func(i int) int {
		d := 0
		for j := i; j < len(toks); j++ {
			tk := toks[j]
			if tk.kind == 'p' {
				switch tk.text {
				case "(", "[", "{":
					d++
				case ")", "]", "}":
					if d == 0 {
						return j
					}
					d--
				case ";":
					if d == 0 {
						return j
					}
				}
			}
			if d == 0 && j > i && tk.line > toks[j-1].line {
				prev := toks[j-1].text
				cont := toks[j-1].kind == 'p' && strings.Contains("?:+,=(|&", prev[len(prev)-1:])
				if !cont && !(tk.kind == 'p' && strings.Contains("?:+.|&", tk.text[:1])) {
					return j
				}
			}
		}
		return len(toks)
	}
	for i := 0; i+1 < len(toks); i++ {
		tk := toks[i]
		if tk.kind != 'i' {
			continue
		}
		if sinkProps[tk.text] && i > 0 && toks[i-1].text == "." && (toks[i+1].text == "=" || toks[i+1].text == "+=") {
			mark(i+2, exprEnd(i+2))
		}
		if tk.text == "setAttribute" && i+3 < len(toks) && toks[i+1].text == "(" && toks[i+2].kind == 's' && sinkAttrs[toks[i+2].text] && toks[i+3].text == "," {
			mark(i+4, argEnd(i+4))
		}
		if arg, ok := sinkCalls[tk.text]; ok && toks[i+1].text == "(" && (i == 0 || toks[i-1].text != "function") {
			j := i + 2
			for a := 0; a < arg && j < len(toks); a++ {
				j = argEnd(j)
				if j >= len(toks) || toks[j].text != "," {
					j = -1
					break
				}
				j++
			}
			if j > 0 {
				mark(j, argEnd(j))
			}
		}
	}
	for i, tk := range toks {
		if tk.kind != 's' || isKey[i] {
			continue
		}
		// compared, not shown: x === "white"
		if i > 0 && compare[toks[i-1].text] || i+1 < len(toks) && compare[toks[i+1].text] {
			continue
		}
		// an option of Intl ({hour: "2-digit"}), an attribute ({href: "/api/…"})
		if i >= 3 && toks[i-1].text == ":" && toks[i-2].kind == 'i' && (toks[i-3].text == "{" || toks[i-3].text == ",") &&
			(intlOptions[toks[i-2].text] || !looksLikeWords(tk.text)) {
			continue
		}
		// an acronym, the same in every language: "PGN", "FIDE"
		if acronym(tk.text) {
			continue
		}
		// a method of the hall's API: call("GetBoard", …)
		if i >= 2 && toks[i-1].text == "(" && toks[i-2].text == "call" {
			continue
		}
		switch {
		case inSink[i] && hasLetter(tk.text):
			bad = append(bad, fmt.Sprintf("line %d: %q is shown untranslated", tk.line, tk.text))
		case looksLikeWords(tk.text) && !browserNames[tk.text]:
			bad = append(bad, fmt.Sprintf("line %d: %q reads as words but is not a catalogue key", tk.line, tk.text))
		}
	}
	return bad, keys
}

func TestPagesShowOnlyCatalogueText(t *testing.T) {
	root := moduleRoot(t)
	en, err := Catalogue("en")
	if err != nil {
		t.Fatal(err)
	}
	// every page file is listed
	var found []string
	for _, pat := range []string{"server/*/*.html", "server/*/assets/*.html", "server/*/assets/*.js"} {
		m, _ := filepath.Glob(filepath.Join(root, pat))
		for _, f := range m {
			rel, _ := filepath.Rel(root, f)
			found = append(found, filepath.ToSlash(rel))
		}
	}
	for _, f := range found {
		if !slices.Contains(pageFiles, f) {
			t.Errorf("%s is a page's file the scan does not know: add it to pageFiles", f)
		}
	}
	for _, f := range pageFiles {
		if pending[f] != "" {
			continue
		}
		b, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			t.Error(err)
			continue
		}
		var bad, keys []string
		if strings.HasSuffix(f, ".html") {
			var scripts []string
			bad, keys, scripts = scanHTML(string(b))
			for _, s := range scripts {
				b2, k2 := scanJS(s)
				bad, keys = append(bad, b2...), append(keys, k2...)
			}
		} else {
			bad, keys = scanJS(string(b))
		}
		for _, k := range keys {
			if prefix, ok := strings.CutSuffix(k, "*"); ok {
				if !slices.ContainsFunc(slices.Collect(maps.Keys(en)), func(key string) bool { return strings.HasPrefix(key, prefix) }) {
					bad = append(bad, fmt.Sprintf("no key of the catalogue begins %q", prefix))
				}
			} else if _, ok := en[k]; !ok {
				bad = append(bad, fmt.Sprintf("key %q is not in the catalogue", k))
			}
		}
		for _, m := range bad {
			t.Errorf("%s: %s", f, m)
		}
	}
}

// The rule finds what it should: each line of this page is a real
// untranslated string, and the marked twins are not.
func TestPageScanFindsUntranslatedText(t *testing.T) {
	bad, _, _ := scanHTML(`<html><head><title>Hall</title></head><body>
<p>Paused</p><p data-i18n="x">Paused</p><p>{{.Who}}</p><p> — 12 </p>
<button title="Close">×</button><button title="Close" data-i18n-title="k">×</button>
<input placeholder="Search"><input type="submit" value="Go"></body></html>`)
	if len(bad) != 5 {
		t.Errorf("HTML: found %d, want 5 (Hall, Paused, title Close, placeholder Search, value Go): %q", len(bad), bad)
	}
	js := `
e.textContent = "connecting…";
e.textContent = t("live.on");
e.title = ok ? t("a") : "stopped";
x.setAttribute("aria-label", "Close");
x.setAttribute("class", "tile small");
list.append(el("li", "row", "nothing here"));
list.append(el("li", "row", t("k", {n: 2})));
const label = {pause: "Pause the clock"};
if (ev.key === "Escape") close();
const re = /Paused/g, sel = "tile board";
const s = ` + "`Board ${n} of ${m}`" + `;
e.textContent = n + " · " + m;
e.textContent = side === "white" ? t("w") : nameOf("black");
const r = await call("GetBoard", {});
`
	bad, keys := scanJS(js)
	want := []string{`"connecting…"`, `"stopped"`, `"Close"`, `"nothing here"`, `"Pause the clock"`, `"Board "`}
	if len(bad) != len(want) {
		t.Errorf("JS: found %d, want %d: %q", len(bad), len(want), bad)
	}
	for i, w := range want {
		if i < len(bad) && !strings.Contains(bad[i], w) {
			t.Errorf("JS finding %d: %s, want %s", i, bad[i], w)
		}
	}
	if !slices.Equal(keys, []string{"live.on", "a", "k", "w"}) {
		t.Errorf("keys %q", keys)
	}
}

func mustJSONBytes(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
