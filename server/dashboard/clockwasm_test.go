package dashboard_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/chesshall/hallclock/internal/clockwasm"
	"github.com/chesshall/hallclock/server/dashboard"
)

// The hall's pages include the browser clock's WebAssembly, under its
// content hash; an old hash is not found.
func TestServesTheClockWasm(t *testing.T) {
	mux := http.NewServeMux()
	dashboard.Routes(mux)
	for path, want := range map[string]int{
		clockwasm.WasmPath():                    http.StatusOK,
		clockwasm.ExecPath():                    http.StatusOK,
		"/assets/clock-0123456789abcdef.wasm":   http.StatusNotFound,
		"/assets/wasm_exec-0123456789abcdef.js": http.StatusNotFound,
	} {
		req := httptest.NewRequest(http.MethodGet, path, nil)
		req.Header.Set("Accept-Encoding", "gzip")
		rec := httptest.NewRecorder()
		mux.ServeHTTP(rec, req)
		if rec.Code != want {
			t.Errorf("GET %s: %d, want %d", path, rec.Code, want)
		}
		if want == http.StatusOK && rec.Header().Get("Cache-Control") != "public, max-age=31536000, immutable" {
			t.Errorf("GET %s: Cache-Control %q, want a year, immutable", path, rec.Header().Get("Cache-Control"))
		}
	}
}
