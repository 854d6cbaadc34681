package clockface

import (
	"embed"
	"encoding/json"
	"net/http"

	"github.com/chesshall/hallclock/internal/clockwasm"
	"github.com/chesshall/hallclock/internal/webassets"
)

//go:embed assets
var assets embed.FS

var page = webassets.Must(assets, "assets").WithWasm()

// Routes registers the page and its files.
func Routes(mux *http.ServeMux) {
	mux.HandleFunc("GET /clock", func(w http.ResponseWriter, r *http.Request) { page.Serve(w, r, "index.html") })
	mux.HandleFunc("GET /clockface/wasm.json", serveWasmPaths)
	mux.HandleFunc("GET /clockface/{file}", func(w http.ResponseWriter, r *http.Request) { page.Serve(w, r, r.PathValue("file")) })
}

// serveWasmPaths names the current WebAssembly and its loader: their
// names carry their hash, so the page asks each time.
func serveWasmPaths(w http.ResponseWriter, _ *http.Request) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Content-Type-Options", "nosniff")
	_ = json.NewEncoder(w).Encode(map[string]string{"wasm": clockwasm.WasmPath(), "exec": clockwasm.ExecPath()})
}
