package dashboard_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// The page's "used" (format.js) writes the time a move took as the PGN's
// [%emt] does, to the second, on the cases formats/pgn tests [%emt] on
// (cut to whole seconds: 7.999 s is 0:07 on both, where rounding made the
// page say 0:08). Run in Node, which reads the page's module as it is.
func TestUsedAgreesWithEmt(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("no node installed: format.js is not run outside a browser")
	}
	cases, err := os.ReadFile(filepath.Join("..", "..", "formats", "pgn", "testdata", "used.json"))
	if err != nil {
		t.Fatal(err)
	}
	module, err := filepath.Abs(filepath.Join("assets", "format.js"))
	if err != nil {
		t.Fatal(err)
	}
	script := `import { used } from ` + jsString("file://"+module) + `;
const f = JSON.parse(process.argv[1]);
console.log(JSON.stringify(f.cases.map(c => used(c.ms))));`
	out, err := exec.Command(node, "--input-type=module", "-e", script, string(cases)).CombinedOutput()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, out)
	}
	var got []string
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("node wrote %s: %v", out, err)
	}
	var want struct {
		Cases []struct {
			Ms   int64  `json:"ms"`
			Used string `json:"used"`
		} `json:"cases"`
	}
	if err := json.Unmarshal(cases, &want); err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want.Cases) {
		t.Fatalf("node answered %d cases, want %d", len(got), len(want.Cases))
	}
	for i, c := range want.Cases {
		if got[i] != c.Used {
			t.Errorf("used(%d) = %q, want %q (as [%%emt] says it)", c.Ms, got[i], c.Used)
		}
	}
}
