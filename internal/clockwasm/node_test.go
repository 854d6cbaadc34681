package clockwasm

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chesshall/hallclock/clockdev/jsapi"
	"github.com/chesshall/hallclock/internal/testkit/longtest"
	"github.com/chesshall/hallclock/rules/conformance"
)

// node runs testdata/run.js on the committed artifact with the request
// and returns what it printed. Each run starts Node and compiles the
// WebAssembly (a few seconds here), so these tests are long ones.
func node(t *testing.T, request any) []byte {
	t.Helper()
	longtest.Skip(t)
	bin, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: the WebAssembly build is checked under Node (apt-get install nodejs)")
	}
	dir := t.TempDir()
	wasm, req := filepath.Join(dir, "clock.wasm"), filepath.Join(dir, "request.json")
	if err := os.WriteFile(wasm, gunzip(t, wasmGz), 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(request)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(req, b, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, filepath.Join("testdata", "run.js"), "wasm_exec.js", wasm, req)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node run.js: %v", err)
	}
	return out
}

// vectorDirs are the project's vectors and, when beside the module, the
// shared ones.
func vectorDirs(t *testing.T) []string {
	dirs := []string{filepath.Join("..", "..", "rules", "testdata")}
	shared := filepath.Join("..", "..", "..", "shared", "conformance")
	if _, err := os.Stat(shared); err == nil {
		dirs = append(dirs, shared)
	} else {
		t.Logf("no shared vectors beside the module (%v): the project's only", err)
	}
	return dirs
}

// The conformance vectors give the same outcome, vector by vector, through
// the WebAssembly build as through the native runner: the browser's law
// is the server's.
func TestVectorsThroughWasm(t *testing.T) {
	files := map[string]string{}
	native := map[string]string{} // "file\x00name#n" -> "" (passed) or the failure
	key := func(seen map[string]int, file, name string) string {
		k := file + "\x00" + name
		seen[k]++
		return fmt.Sprintf("%s#%d", k, seen[k])
	}
	seen := map[string]int{}
	for _, dir := range vectorDirs(t) {
		err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".json") {
				b, err := os.ReadFile(p)
				files[p] = string(b)
				return err
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		vs, errs := conformance.LoadDir(dir)
		if len(errs) > 0 {
			t.Fatalf("native: %v", errs)
		}
		for i := range vs {
			k := key(seen, vs[i].File, vs[i].Name)
			native[k] = ""
			if f := vs[i].Run(); f != nil {
				native[k] = f.Error()
			}
		}
	}

	var got struct {
		Version  string
		Outcomes []jsapi.Outcome
	}
	if err := json.Unmarshal(node(t, map[string]any{"vectors": files}), &got); err != nil {
		t.Fatal(err)
	}
	seen = map[string]int{}
	passed := 0
	for _, o := range got.Outcomes {
		k := key(seen, o.File, o.Name)
		want, ok := native[k]
		switch {
		case !ok:
			t.Errorf("wasm ran %s: %s, which the native runner did not", o.File, o.Name)
		case o.Failure != want:
			t.Errorf("%s: %s: wasm %q, native %q", o.File, o.Name, o.Failure, want)
		case !o.Pass:
			t.Errorf("fails in both: %s", o.Failure)
		default:
			passed++
		}
	}
	if len(got.Outcomes) != len(native) {
		t.Errorf("wasm ran %d vectors, native %d", len(got.Outcomes), len(native))
	}
	t.Logf("%d of %d vectors pass through the WebAssembly (%s) as natively, from %d files", passed, len(native), got.Version, len(files))
}

// The local clock a face calls answers through the WebAssembly exactly as
// natively: presses, a press on the side not to move, a pause by the
// arbiter, the flag recorded at its deadline and the refusal after it.
func TestClockThroughWasm(t *testing.T) {
	setup := `{"time_control": "180+2", "ruleset": "fide-2023"}`
	calls := [][]any{
		{"do", `{"t": 0, "do": "start"}`},
		{"press", "white", 1500},
		{"press", "white", 1600}, // not White's move: nothing
		{"press", "black", 4200},
		{"do", `{"t": 5000, "do": "pause"}`},
		{"view", 9000},
		{"do", `{"t": 9000, "do": "resume"}`},
		{"press", "white", 400000}, // White's flag fell at 9000 + 181.8 s - 5000 + ...
		{"view", 500000},
	}
	c, err := jsapi.NewClock(setup)
	if err != nil {
		t.Fatal(err)
	}
	var want []json.RawMessage
	for _, call := range calls {
		var a string
		switch call[0] {
		case "do":
			a = jsapi.Answer(c.Do(call[1].(string)))
		case "press":
			a = jsapi.Answer(c.Press(call[1].(string), int64(call[2].(int))))
		case "view":
			a = jsapi.Answer(c.View(int64(call[1].(int))), nil)
		}
		want = append(want, json.RawMessage(a))
	}
	last := string(want[len(want)-2])
	if !strings.Contains(last, `"flag":"white"`) || !strings.Contains(last, `"refused":true`) {
		t.Fatalf("native: the late press answers %s, want White's flag and a refusal", last)
	}

	var got []json.RawMessage
	if err := json.Unmarshal(node(t, map[string]any{"setup": setup, "calls": calls}), &got); err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("wasm answered %d calls, want %d", len(got), len(want))
	}
	for i := range want {
		if string(got[i]) != string(want[i]) {
			t.Errorf("call %d %v:\n wasm   %s\n native %s", i, calls[i], got[i], want[i])
		}
	}
}
