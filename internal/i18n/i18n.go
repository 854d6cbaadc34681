// Package i18n holds the words of the hall's pages, one catalogue per
// language (catalogues/en.json, ko.json, ru.json, hy.json: plain data, no
// build step), and the one small script every page includes to show them
// (i18n.js). It serves both as one script, GET /i18n/i18n.js: the
// catalogues and the hall's default language first, then the script,
// gzipped when the browser takes it, with an ETag.
//
// A catalogue maps a key ("signin.title") to a message: a string with
// {name} placeholders, or an object of CLDR plural forms ("one", "few",
// "many", "other") chosen by the parameter n with Intl.PluralRules. The
// glossary of the Laws' terms (docs/glossary.tsv) says which words the
// catalogues use for them; the tests hold the catalogues to it. The
// script's catalogues also carry the words the hall writes for people
// (formats/words' files, keys "audit.<kind>"), which I18N.words renders
// from an API's Words {kind, params}. See docs/languages.md for adding a
// language.
package i18n

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"path"
	"slices"
	"strings"

	"golang.org/x/text/language"

	"github.com/chesshall/hallclock/formats/words"
)

//go:embed catalogues/*.json i18n.js
var files embed.FS

// Path is where pages load the script.
const Path = "/i18n/i18n.js"

// Langs lists the languages there are catalogues for, sorted.
func Langs() []string {
	ents, err := fs.ReadDir(files, "catalogues")
	if err != nil {
		panic(err)
	}
	var out []string
	for _, e := range ents {
		if l, ok := strings.CutSuffix(e.Name(), ".json"); ok {
			out = append(out, l)
		}
	}
	slices.Sort(out)
	return out
}

// Check says whether lang has a catalogue, naming those there are if not.
func Check(lang string) error {
	if slices.Contains(Langs(), lang) {
		return nil
	}
	return fmt.Errorf("language %q has no catalogue; the hall speaks %s", lang, strings.Join(Langs(), ", "))
}

// Match returns the language a page is first written in for a browser
// that says acceptLanguage (its Accept-Language header) and has no choice
// of its own remembered: the first of its languages, by preference, the
// hall has a catalogue of ("ko-KR" is "ko"), as i18n.js chooses from
// navigator.languages; else the hall's default def; else English.
func Match(acceptLanguage, def string) string {
	langs := Langs()
	tags, _, _ := language.ParseAcceptLanguage(acceptLanguage)
	for _, t := range tags {
		if b, _ := t.Base(); slices.Contains(langs, b.String()) {
			return b.String()
		}
	}
	if slices.Contains(langs, def) {
		return def
	}
	return "en"
}

// Catalogue returns the raw catalogue of lang.
func Catalogue(lang string) (map[string]json.RawMessage, error) {
	b, err := files.ReadFile(path.Join("catalogues", lang+".json"))
	if err != nil {
		return nil, err
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("catalogue %s: %w", lang, err)
	}
	return m, nil
}

// Script returns the script pages load: the catalogues, the default
// language, then i18n.js.
func Script(defaultLang string) ([]byte, error) {
	if defaultLang == "" {
		defaultLang = "en"
	}
	if err := Check(defaultLang); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.WriteString("window.HALL_I18N = {\"default\": ")
	d, _ := json.Marshal(defaultLang)
	b.Write(d)
	b.WriteString(", \"catalogues\": {")
	for i, l := range Langs() {
		raw, err := files.ReadFile(path.Join("catalogues", l+".json"))
		if err != nil {
			return nil, err
		}
		c, err := withWords(l, raw)
		if err != nil {
			return nil, err
		}
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, "\n%q: ", l)
		b.Write(c)
	}
	b.WriteString("}};\n")
	js, err := files.ReadFile("i18n.js")
	if err != nil {
		return nil, err
	}
	b.Write(js)
	return b.Bytes(), nil
}

// withWords returns lang's catalogue (raw) compacted, with the words the
// hall writes for people (formats/words' i18n/audit.<lang>.json, keys
// "audit.<kind>") added: the pages render an API's Words {kind, params}
// with the same files the Go side renders them with (I18N.words).
func withWords(lang string, raw []byte) ([]byte, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, fmt.Errorf("catalogue %s: %w", lang, err)
	}
	w, err := words.Files.ReadFile("i18n/audit." + lang + ".json")
	if err == nil {
		var audit map[string]json.RawMessage
		if err := json.Unmarshal(w, &audit); err != nil {
			return nil, fmt.Errorf("words of %s: %w", lang, err)
		}
		for k, v := range audit {
			if _, ok := m[k]; ok {
				return nil, fmt.Errorf("catalogue %s: key %s is the words' (formats/words): give it another name", lang, k)
			}
			m[k] = v
		}
	}
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(m); err != nil {
		return nil, err
	}
	return bytes.TrimSpace(out.Bytes()), nil
}

// Handler serves Script(defaultLang). It panics on a language without a
// catalogue: check the flag with Check first.
func Handler(defaultLang string) http.Handler {
	body, err := Script(defaultLang)
	if err != nil {
		panic(err)
	}
	var z bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&z, gzip.BestCompression)
	_, _ = zw.Write(body)
	_ = zw.Close()
	sum := sha256.Sum256(body)
	etag := `"` + hex.EncodeToString(sum[:8]) + `"`
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Type", "text/javascript; charset=utf-8")
		h.Set("Cache-Control", "no-cache")
		h.Set("ETag", etag)
		h.Set("Vary", "Accept-Encoding")
		h.Set("X-Content-Type-Options", "nosniff")
		if r.Header.Get("If-None-Match") == etag {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		if strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
			h.Set("Content-Encoding", "gzip")
			_, _ = w.Write(z.Bytes())
			return
		}
		_, _ = w.Write(body)
	})
}

// Routes registers GET /i18n/i18n.js.
func Routes(mux *http.ServeMux, defaultLang string) {
	mux.Handle("GET "+Path, Handler(defaultLang))
}
