package clockface_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/chesshall/hallclock/internal/clockwasm"
	"github.com/chesshall/hallclock/server/assist"
	"github.com/chesshall/hallclock/server/clockface"
	"github.com/chesshall/hallclock/server/dashboard"
)

// Only the clock's face may compile WebAssembly: its page and script
// carry 'wasm-unsafe-eval', the hall's other pages do not. The face asks
// for the current WebAssembly by name.
func TestOnlyTheFaceRunsWasm(t *testing.T) {
	mux := http.NewServeMux()
	dashboard.Routes(mux)
	assist.Routes(mux)
	clockface.Routes(mux)
	get := func(path string) *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		mux.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
		if rec.Code != http.StatusOK {
			t.Fatalf("GET %s: %d", path, rec.Code)
		}
		return rec
	}
	for path, wasm := range map[string]bool{"/clock": true, "/clockface/face.js": true, "/clockface/face.css": true, "/": false, "/assist": false, "/dashboard/app.js": false} {
		csp := get(path).Header().Get("Content-Security-Policy")
		if got := strings.Contains(csp, "'wasm-unsafe-eval'"); got != wasm {
			t.Errorf("GET %s: Content-Security-Policy %q; wasm allowed %v, want %v", path, csp, got, wasm)
		}
		if !strings.Contains(csp, "default-src 'self'") || strings.Contains(csp, "unsafe-inline") {
			t.Errorf("GET %s: Content-Security-Policy %q is not the hall's strict one", path, csp)
		}
	}
	// The face's words come from the hall's catalogues: its page loads
	// /i18n/i18n.js from the hall itself, which its policy allows.
	face := get("/clock")
	if !strings.Contains(face.Body.String(), `<script src="/i18n/i18n.js"></script>`) ||
		!strings.Contains(face.Header().Get("Content-Security-Policy"), "script-src 'self'") {
		t.Errorf("GET /clock: the page does not load /i18n/i18n.js under script-src 'self' (policy %q)", face.Header().Get("Content-Security-Policy"))
	}
	var paths map[string]string
	if err := json.Unmarshal(get("/clockface/wasm.json").Body.Bytes(), &paths); err != nil {
		t.Fatal(err)
	}
	if paths["wasm"] != clockwasm.WasmPath() || paths["exec"] != clockwasm.ExecPath() {
		t.Errorf("wasm.json = %v, want %s and %s", paths, clockwasm.WasmPath(), clockwasm.ExecPath())
	}
}
