// Package clockwasm holds the browser clock's law compiled to WebAssembly
// (cmd/clockwasm, built by tools/wasm/build.sh and committed gzipped, as
// the generated protobuf code is) and serves it under names that carry a
// hash of their content, so a browser may keep them for a year and a new
// build is a new name:
//
//	GET /assets/clock-<16 hex of the wasm's SHA-256>.wasm   Content-Encoding: gzip
//	GET /assets/wasm_exec-<16 hex of its SHA-256>.js        Go's loader, from the Go that built it
//
// WasmPath and ExecPath name the current files for the page that loads
// them; any other name under /assets/ is 404. The wasm is sent as
// embedded, gzipped (decompressed on the way only for a client that does
// not accept gzip).
package clockwasm

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"io"
	"net/http"
	"strings"

	"github.com/chesshall/hallclock/internal/acceptgzip"
)

//go:embed clock.wasm.gz
var wasmGz []byte

//go:embed clock.wasm.sha256
var wasmSum string

//go:embed wasm_exec.js
var execJS []byte

// BudgetGz is the most the gzipped WebAssembly may weigh: what a tablet
// on a hall's Wi-Fi loads before its clock shows.
const BudgetGz = 3 << 20

var (
	wasmName = "clock-" + strings.TrimSpace(wasmSum)[:16] + ".wasm"
	execName = "wasm_exec-" + hashOf(execJS) + ".js"
)

func hashOf(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:8])
}

// WasmPath is the URL path of the current WebAssembly.
func WasmPath() string { return "/assets/" + wasmName }

// ExecPath is the URL path of the wasm_exec.js that runs it.
func ExecPath() string { return "/assets/" + execName }

// Routes registers GET /assets/{file}.
func Routes(mux *http.ServeMux) {
	mux.HandleFunc("GET /assets/{file}", serve)
}

func serve(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	switch r.PathValue("file") {
	case wasmName:
		h.Set("Content-Type", "application/wasm")
		h.Set("Vary", "Accept-Encoding")
		immutable(h)
		if !acceptgzip.Accepts(r) {
			zr, err := gzip.NewReader(bytes.NewReader(wasmGz))
			if err != nil {
				http.Error(w, "the embedded WebAssembly is not gzip: "+err.Error(), http.StatusInternalServerError)
				return
			}
			_, _ = io.Copy(w, zr)
			return
		}
		h.Set("Content-Encoding", "gzip")
		_, _ = w.Write(wasmGz)
	case execName:
		h.Set("Content-Type", "text/javascript; charset=utf-8")
		immutable(h)
		_, _ = w.Write(execJS)
	default:
		http.NotFound(w, r)
	}
}

func immutable(h http.Header) {
	h.Set("Cache-Control", "public, max-age=31536000, immutable")
	h.Set("X-Content-Type-Options", "nosniff")
}
