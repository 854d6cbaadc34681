package clockwasm

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// The committed artifact holds what its name says, within the budget.
func TestArtifactWithinBudget(t *testing.T) {
	raw := gunzip(t, wasmGz)
	t.Logf("clock.wasm: %d bytes, %d gzipped (budget %d)", len(raw), len(wasmGz), BudgetGz)
	if len(wasmGz) > BudgetGz {
		t.Errorf("clock.wasm.gz is %d bytes, over the budget of %d: the browser build links too much (gRPC?)", len(wasmGz), BudgetGz)
	}
	sum := sha256.Sum256(raw)
	if got, want := hex.EncodeToString(sum[:]), strings.TrimSpace(wasmSum); got != want {
		t.Errorf("clock.wasm.gz holds sha256 %s, clock.wasm.sha256 says %s: run tools/wasm/build.sh", got, want)
	}
	if !bytes.HasPrefix(raw, []byte("\x00asm")) {
		t.Errorf("clock.wasm.gz does not hold WebAssembly (starts %q)", raw[:min(8, len(raw))])
	}
}

func gunzip(t *testing.T, b []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

func get(t *testing.T, url, acceptEncoding string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept-Encoding", acceptEncoding)
	c := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, body
}

// The hall serves the WebAssembly under its content hash, gzipped, for a
// year; any other hash is not found.
func TestServedUnderItsHash(t *testing.T) {
	mux := http.NewServeMux()
	Routes(mux)
	srv := httptest.NewServer(mux)
	defer srv.Close()

	path := WasmPath()
	name, ok := strings.CutPrefix(path, "/assets/clock-")
	prefix, ok2 := strings.CutSuffix(name, ".wasm")
	if !ok || !ok2 || len(prefix) != 16 {
		t.Fatalf("WasmPath() = %q, want /assets/clock-<16 hex>.wasm", path)
	}

	resp, body := get(t, srv.URL+path, "br, gzip")
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s", path, resp.Status)
	}
	for k, want := range map[string]string{"Content-Encoding": "gzip", "Content-Type": "application/wasm",
		"Cache-Control": "public, max-age=31536000, immutable", "Vary": "Accept-Encoding"} {
		if got := resp.Header.Get(k); got != want {
			t.Errorf("%s: %q, want %q", k, got, want)
		}
	}
	raw := gunzip(t, body)
	sum := sha256.Sum256(raw)
	if got := hex.EncodeToString(sum[:8]); got != prefix {
		t.Errorf("served wasm hashes to %s, its name says %s", got, prefix)
	}

	// A client that takes no gzip gets the same program, uncompressed.
	resp, plain := get(t, srv.URL+path, "identity")
	if resp.Header.Get("Content-Encoding") != "" || !bytes.Equal(plain, raw) {
		t.Errorf("without gzip: Content-Encoding %q, %d bytes, want none and the %d bytes of the wasm",
			resp.Header.Get("Content-Encoding"), len(plain), len(raw))
	}

	resp, js := get(t, srv.URL+ExecPath(), "")
	jsum := sha256.Sum256(js)
	if resp.StatusCode != http.StatusOK || !strings.Contains(ExecPath(), hex.EncodeToString(jsum[:8])) ||
		!bytes.Contains(js, []byte("globalThis.Go")) {
		t.Errorf("GET %s: %s, %d bytes hashing to %x: want Go's wasm_exec.js under its hash", ExecPath(), resp.Status, len(js), jsum[:8])
	}

	old := "0000000000000000"
	if old == prefix {
		old = "1111111111111111"
	}
	for _, p := range []string{"/assets/clock-" + old + ".wasm", "/assets/clock.wasm", "/assets/wasm_exec-" + old + ".js"} {
		if resp, _ := get(t, srv.URL+p, "gzip"); resp.StatusCode != http.StatusNotFound {
			t.Errorf("GET %s: %s, want 404", p, resp.Status)
		}
	}
}
