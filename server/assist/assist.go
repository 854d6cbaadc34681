package assist

import (
	"embed"
	"net/http"

	"github.com/chesshall/hallclock/internal/webassets"
)

//go:embed assets
var assets embed.FS

var page = webassets.Must(assets, "assets")

// Routes registers the page (GET /assist) and its files (GET /assist/{file}).
func Routes(mux *http.ServeMux) {
	mux.HandleFunc("GET /assist", func(w http.ResponseWriter, r *http.Request) { page.Serve(w, r, "index.html") })
	mux.HandleFunc("GET /assist/{file}", func(w http.ResponseWriter, r *http.Request) { page.Serve(w, r, r.PathValue("file")) })
}
