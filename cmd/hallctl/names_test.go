package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chesshall/hallclock/internal/testkit/halltest"
)

// Every command reads names alike: a tournament by its name, a round as
// "Section Test:1", a board as "Section Test:1.2" or 1.2 where only one
// round 1 has a board 2; a name that fits several is refused naming
// each; two tournaments may not share a name. A result is a value, even
// one that begins with a dash.
func TestNamesInEveryCommand(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t, halltest.OnLoopback())
	env := chiefEnv(h)
	do, expect := runner(t, env)
	fail := func(args ...string) string {
		t.Helper()
		var out bytes.Buffer
		err := run(context.Background(), args, &out, env)
		if err == nil {
			t.Fatalf("hallctl %s succeeded:\n%s", strings.Join(args, " "), out.String())
		}
		return err.Error()
	}
	expect(do("tournament", "Section Test", "-tc", "90m+30s", "-scoring", "3-1-0"), "scoring 3 for a win, 1 for a draw, 0 for a loss")
	if e := fail("tournament", " section TEST", "-tc", "3m+2s"); !strings.Contains(e, "AlreadyExists") || !strings.Contains(e, `called "Section Test" already`) {
		t.Errorf("a second Section Test: %s", e)
	}
	if e := fail("tournament", "Rapid", "-scoring", "1-2-0"); !strings.Contains(e, "a win worth more than a draw") {
		t.Errorf("-scoring 1-2-0: %s", e)
	}
	do("tournament", "Blitz", "-tc", "3m+2s")
	do("round", "Section Test", "1")
	do("round", "blitz", "1")
	do("add-board", "Section Test:1", "1", "Anna", "Bert", "-device", "CLK-001")
	do("add-board", "Section Test:1", "2", "Cleo", "Dan")
	do("add-board", "Blitz:1", "1", "Eva", "Finn")
	expect(do("boards", "-round", "Section Test:1"), "Anna", "Cleo")
	if e := fail("audit", "1.1"); !strings.Contains(e, `board "1.1" is ambiguous: it may be Blitz:1.1, Section Test:1.1`) {
		t.Errorf("audit 1.1: %s", e)
	}
	if e := fail("board", "1"); !strings.Contains(e, "ambiguous") {
		t.Errorf("board 1: %s", e)
	}
	if e := fail("boards", "-round", "1"); !strings.Contains(e, `round "1" is ambiguous: it may be Blitz:1, Section Test:1`) {
		t.Errorf("boards -round 1: %s", e)
	}
	expect(do("board", "1.2"), "Cleo", "Dan")
	h.Device(t, "CLK-001")
	expect(do("start", "Section Test:1.1"), "APPLIED")
	expect(do("virtual", "Section Test:1.2"), "waiting")
	expect(do("result", "1.2", "-+", "-reason", "Cleo did not come"), "APPLIED", "-+")
	expect(do("result", "1.2", "-reason", "the appeal", "=-"), "APPLIED", "1/2-0")
	expect(do("result", "1.2", "-reason", "scoresheet", "--", "1-0"), "APPLIED", "1-0")
	expect(do("result", "1.2", "--", "--"), "APPLIED", "--")
	expect(do("result", "1.2", "0-1"), "APPLIED", "0-1")
	expect(do("result", "1.2", "double-forfeit"), "APPLIED", "--")
	if e := fail("result", "1.2", "--"); !strings.Contains(e, "double-forfeit") {
		t.Errorf("result 1.2 -- (a lone end of flags): %s; want a refusal naming double-forfeit", e)
	}
	expect(do("audit", "1.2"), "Cleo did not come", "the appeal")
	expect(do("result", "Section Test:1.1", "1-0", "-unplayed"), "APPLIED")
	expect(do("audit", "Section Test:1.1"), "unplayed")
	expect(do("rounds", "section test"), "Section Test")

	// The files of an import are checked before anything is sent.
	big := filepath.Join(t.TempDir(), "big.trf")
	if err := os.WriteFile(big, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(big, 11<<20); err != nil {
		t.Fatal(err)
	}
	if e := fail("import-round", "Blitz", big); !strings.Contains(e, "big.trf is 11,534,336 bytes (11.0 MiB): an import takes at most 10,485,760 bytes (10.0 MiB)") {
		t.Errorf("an 11 MiB file: %s", e)
	}
}
