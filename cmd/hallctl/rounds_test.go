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
	expect(out, "Nordic Open round 5: 9 boards, 3 byes (from trf, utf-8)", "GM Berzins, Arturs (2587)", "CLK-001", "half", "warning: table 3")
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

// import-round's -encoding and -allow-absent, and export-round's
// -encoding and -lichess, reach the hall.
func TestImportExportFlags(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t, halltest.OnLoopback())
	env := chiefEnv(h)
	do, expect := runner(t, env)
	do("tournament", "Nordic Open", "-tc", "5400+30")
	dir := "../../formats/trf/testdata/"
	var out bytes.Buffer
	err := run(context.Background(), []string{"import-round", "Nordic Open", dir + "nordic-open-r5.trfx", dir + "nordic-open-r5.pairs", "-encoding", "klingon"}, &out, env)
	if err == nil || !strings.Contains(err.Error(), "windows-1250") {
		t.Errorf("-encoding klingon: %v, want a refusal listing the known encodings", err)
	}
	short := filepath.Join(t.TempDir(), "short.pairs")
	if err := os.WriteFile(short, []byte("9\n1 7\n5 9\n11 15\n2 18\n3 19\n6 14\n8 17\n10 21\n20 0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	err = run(context.Background(), []string{"import-round", "Nordic Open", dir + "nordic-open-r5.trfx", short}, &out, env)
	if err == nil || !strings.Contains(err.Error(), "2 left out") {
		t.Errorf("two players left out: %v, want a refusal listing them", err)
	}
	expect(do("import-round", "Nordic Open", dir+"nordic-open-r5.trfx", short, "-allow-absent", "-encoding", "cp1250"),
		"8 boards, 3 byes (from trf, utf-8)", "absent", "Rossi, Giulia", "Petrov, Nikolai", "half (½)")
	// Its names are Norwegian, Polish, Spanish...: no one code page
	// writes them all, and the export says which it cannot.
	out.Reset()
	err = run(context.Background(), []string{"export-round", "Nordic Open:5", "-encoding", "windows-1250"}, &out, env)
	if err == nil || !strings.Contains(err.Error(), "'ø' cannot be written in windows-1250") {
		t.Errorf("export-round -encoding windows-1250: %v, want a refusal naming the character", err)
	}
	expect(do("export-round", "5", "-format", "pgn", "-lichess"), `[Round "5.1"]`)
}
