// Package webassets serves a web page's files embedded in the binary:
// each with its content type and an ETag, revalidated on every load (a
// new server's page is used at once), under a strict
// Content-Security-Policy that keeps the page to its own server (its
// scripts, styles and calls; no inline script, no other origin). Nothing
// is fetched from the network at run time and there is no build step.
//
// # Usage
//
//	//go:embed assets
//	var files embed.FS
//	var page = webassets.Must(files, "assets")
//	mux.HandleFunc("GET /assist", func(w http.ResponseWriter, r *http.Request) { page.Serve(w, r, "index.html") })
package webassets

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"mime"
	"net/http"
	"path"
)

// Set is a page's files by name ("app.js"), read once.
type Set struct {
	files map[string]file
	csp   string
}

type file struct {
	body        []byte
	contentType string
	etag        string
}

// Must reads every file under dir of fsys, by its base name; it panics on
// an error (the files are embedded: an error is a build's).
func Must(fsys fs.FS, dir string) *Set {
	s := &Set{files: map[string]file{}, csp: CSP}
	err := fs.WalkDir(fsys, dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(b)
		ct := mime.TypeByExtension(path.Ext(p))
		if ct == "" {
			ct = "application/octet-stream"
		}
		s.files[path.Base(p)] = file{body: b, contentType: ct, etag: `"` + hex.EncodeToString(sum[:8]) + `"`}
		return nil
	})
	if err != nil {
		panic(err)
	}
	return s
}

// CSP keeps a page to its own server: its scripts, styles and calls.
const CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"

// CSPWasm is CSP for a page that runs WebAssembly (the tablet clock's
// face): its scripts may compile the hall's own WebAssembly
// ('wasm-unsafe-eval'), and nothing else changes. No other page needs it.
const CSPWasm = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"

// WithWasm returns s serving its files under CSPWasm: for the one page
// that instantiates the hall's WebAssembly.
func (s *Set) WithWasm() *Set {
	return &Set{files: s.files, csp: CSPWasm}
}

// Serve writes the file name, or 404 if the set has none.
func (s *Set) Serve(w http.ResponseWriter, r *http.Request, name string) {
	f, ok := s.files[name]
	if !ok {
		http.NotFound(w, r)
		return
	}
	h := w.Header()
	h.Set("Content-Type", f.contentType)
	h.Set("Cache-Control", "no-cache")
	h.Set("ETag", f.etag)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", s.csp)
	h.Set("Referrer-Policy", "same-origin")
	if r.Header.Get("If-None-Match") == f.etag {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	_, _ = w.Write(f.body)
}
