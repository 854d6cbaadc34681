package dashboard

import (
	"embed"
	"net/http"

	"github.com/chesshall/hallclock/internal/clockwasm"
	"github.com/chesshall/hallclock/internal/webassets"
)

//go:embed assets
var assets embed.FS

// files holds every asset by name ("app.js"), read once.
var files = webassets.Must(assets, "assets")

// Routes registers the page (GET /) and its assets (GET /dashboard/{file}),
// and the browser clock's WebAssembly under its content hash (GET
// /assets/{file}, package clockwasm).
func Routes(mux *http.ServeMux) {
	clockwasm.Routes(mux)
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) { files.Serve(w, r, "index.html") })
	mux.HandleFunc("GET /dashboard/{file}", func(w http.ResponseWriter, r *http.Request) { files.Serve(w, r, r.PathValue("file")) })
}
