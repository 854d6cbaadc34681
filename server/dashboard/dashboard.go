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
// the print pages (GET /print/pairings/{round}, /print/results/{round},
// /print/standings/{tournament}),
// and the browser clock's WebAssembly under its content hash (GET
// /assets/{file}, package clockwasm).
func Routes(mux *http.ServeMux) {
	clockwasm.Routes(mux)
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) { files.Serve(w, r, "index.html") })
	mux.HandleFunc("GET /dashboard/{file}", func(w http.ResponseWriter, r *http.Request) { files.Serve(w, r, r.PathValue("file")) })
	// The print pages: one page whose script reads what to print from the
	// path and asks the hall as the session, as the dashboard does.
	for _, kind := range []string{"pairings", "results", "standings"} {
		mux.HandleFunc("GET /print/"+kind+"/{name...}", func(w http.ResponseWriter, r *http.Request) { files.Serve(w, r, "print.html") })
	}
}
