package dashboard

import (
	"embed"
	"net/http"

	"github.com/chesshall/hallclock/internal/webassets"
)

//go:embed assets
var assets embed.FS

// files holds every asset by name ("app.js"), read once.
var files = webassets.Must(assets, "assets")

// Routes registers the page (GET /) and its assets (GET /dashboard/{file}).
func Routes(mux *http.ServeMux) {
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) { files.Serve(w, r, "index.html") })
	mux.HandleFunc("GET /dashboard/{file}", func(w http.ResponseWriter, r *http.Request) { files.Serve(w, r, r.PathValue("file")) })
}
