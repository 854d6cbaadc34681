package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chesshall/hallclock/formats/trf"
	"github.com/chesshall/hallclock/internal/testkit/halltest"
)

// A round set up from JaVaFo's files and named by its number, a board by
// round.board, time taken away with a negative duration, the audit at 100
// columns, results exported for the pairing program.
func TestRoundCommands(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t, halltest.OnLoopback())
	env := chiefEnv(h)
	do, expect := runner(t, env)
	do("tournament", "Nordic Open", "-tc", "5400+30")
	expect(do("plan", "set", "1", "CLK-001", "2", "CLK-002"), "hall plan of the hall", "CLK-002")
	dir := "../../formats/trf/testdata/"
	out := do("import-round", "Nordic Open", dir+"nordic-open-r5.trfx", dir+"nordic-open-r5.pairs")
	expect(out, "Nordic Open round 5: 9 boards, 3 byes (from trf)", "GM Berzins, Arturs (2587)", "CLK-001", "half", "warning: table 3")
	expect(do("tournaments"), "Nordic Open", "5400+30", "5")
	expect(do("rounds"), "Nordic Open  5      paired")
	expect(do("boards", "-round", "Nordic Open:5"), "ROUND", "Nordic Open 5", "Schröder, Lukas")
	var out2 bytes.Buffer
	if err := run(context.Background(), []string{"boards", "-round", "nope"}, &out2, env); err == nil {
		t.Errorf("boards -round nope succeeded:\n%s", out2.String())
	}
	h.Device(t, "CLK-001")
	expect(do("start", "5.1"), "APPLIED")
	expect(do("add", "5.1", "white", "-2m", "-reason", "phone rang"), "running, white's clock  white 1:27:5")
	expect(do("board", "5.1"), "Nordic Open round 5, board 1, table 1", "GM Berzins, Arturs (2587) – FM Schröder, Lukas (2288)")
	a := do("audit", "5.1", "-what", "add_time", "-width", "100")
	for _, l := range strings.Split(strings.TrimSpace(a), "\n") {
		if len([]rune(l)) > 100 {
			t.Errorf("audit line of %d characters: %q", len([]rune(l)), l)
		}
	}
	expect(a, "phone rang")
	if strings.Contains(a, "start") {
		t.Errorf("audit -what add_time shows the start:\n%s", a)
	}
	file := filepath.Join(t.TempDir(), "r5.trf")
	expect(do("export-round", "5", "-o", file), "not complete")
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := trf.Read(bytes.NewReader(b)); err != nil {
		t.Errorf("the exported TRF does not read: %v", err)
	}
	id := strings.Fields(do("token", "issue", "arbiter", "Anna"))[0]
	expect(do("token", "revoke", id), "revoked "+id)
}
