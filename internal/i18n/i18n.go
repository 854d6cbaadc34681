// Package i18n serves the words of the hall's pages, one catalogue per
// language (formats/words/i18n/en.json, ko.json, ru.json, hy.json: plain
// data, no build step, one file a language for the pages and for the words
// the hall writes for people alike), and the one small script every page includes to show them
// (i18n.js). It serves both as one script, GET /i18n/i18n.js: the
// catalogues and the hall's default language first, then the script,
// gzipped when the browser takes it, with an ETag.
//
// A catalogue maps a key ("signin.title") to a message: a string with
// {name} placeholders, or an object of CLDR plural forms ("one", "few",
// "many", "other") chosen by the parameter n with Intl.PluralRules. The
// glossary of the Laws' terms (docs/glossary.tsv) says which words the
// catalogues use for them; the tests hold the catalogues to it. The
// catalogues' keys "audit.<kind>" are the words the hall writes for people,
// which I18N.words renders from an API's Words {kind, params} as package
// words renders them in Go. See docs/languages.md for adding a
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
	"net/http"
	"slices"
	"strings"
	"sync"

	"golang.org/x/text/language"

	"github.com/chesshall/hallclock/formats/words"
)

//go:embed i18n.js
var files embed.FS

// Path is where pages load the script.
const Path = "/i18n/i18n.js"

// Langs lists the languages there are catalogues for, sorted: a file
// each in formats/words/i18n (one file a language, for the pages and for
// the words the hall writes for people alike).
func Langs() []string {
	return slices.Sorted(slices.Values(words.Languages))
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
	return words.Catalogue(lang)
}

// Texts returns lang's messages that are text, by key (a plural
// message, an object of forms, is left out).
func Texts(lang string) (map[string]string, error) {
	raw, err := Catalogue(lang)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for k, v := range raw {
		var s string
		if json.Unmarshal(v, &s) == nil {
			out[k] = s
		}
	}
	return out, nil
}

// Script returns the script pages load: the catalogues, the default
// language, the hall's time zone (an IANA name, "" for none: the pages
// then write times in the browser's), then i18n.js.
func Script(defaultLang, zone string) ([]byte, error) {
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
	if zone != "" {
		z, _ := json.Marshal(zone)
		b.WriteString(", \"zone\": ")
		b.Write(z)
	}
	b.WriteString(", \"catalogues\": {")
	for i, l := range Langs() {
		c, err := compact(l)
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

// compact returns lang's catalogue as one line of JSON.
func compact(lang string) ([]byte, error) {
	m, err := Catalogue(lang)
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(m); err != nil {
		return nil, err
	}
	return bytes.TrimSpace(out.Bytes()), nil
}

// Handler serves Script(defaultLang, zone). It panics on a language
// without a catalogue: check the flag with Check first.
func Handler(defaultLang, zone string) http.Handler {
	sc := served(defaultLang, zone)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Type", "text/javascript; charset=utf-8")
		h.Set("Cache-Control", "no-cache")
		h.Set("ETag", sc.etag)
		h.Set("Vary", "Accept-Encoding")
		h.Set("X-Content-Type-Options", "nosniff")
		if r.Header.Get("If-None-Match") == sc.etag {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		if strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
			h.Set("Content-Encoding", "gzip")
			_, _ = w.Write(sc.gz)
			return
		}
		_, _ = w.Write(sc.body)
	})
}

// script is Script(defaultLang, zone) as Handler serves it: plain,
// gzipped and its ETag. It never changes: the catalogues are embedded.
type script struct {
	body, gz []byte
	etag     string
}

// scripts holds the script of each default language and zone a Handler
// was made for, built once a process: building it (the catalogues decoded
// and encoded again, then gzipped at the best compression) took longer
// than the rest of a hall's start — every test's hall paid it again.
var scripts sync.Map // defaultLang + "\x00" + zone -> func() *script

func served(defaultLang, zone string) *script {
	build, _ := scripts.LoadOrStore(defaultLang+"\x00"+zone, sync.OnceValue(func() *script {
		body, err := Script(defaultLang, zone)
		if err != nil {
			panic(err)
		}
		var z bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&z, gzip.BestCompression)
		_, _ = zw.Write(body)
		_ = zw.Close()
		sum := sha256.Sum256(body)
		return &script{body: body, gz: z.Bytes(), etag: `"` + hex.EncodeToString(sum[:8]) + `"`}
	}))
	return build.(func() *script)()
}

// Routes registers GET /i18n/i18n.js: the pages' words in defaultLang
// first, and their times in zone (the hall's; "" for the browser's).
func Routes(mux *http.ServeMux, defaultLang, zone string) {
	mux.Handle("GET "+Path, Handler(defaultLang, zone))
}
