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

// Two bad files were refused vaguely: an empty one with the hall's
// "content: is required", naming no file, and a TRF whose lines were
// spaced out as a CSV ("no column names"). An empty file is refused
// naming it and saying what is wanted; a TRF with blank lines imports;
// an indented one is refused as a TRF, saying it is indented.
func TestImportFilesRefusedClearly(t *testing.T) {
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
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	src, err := os.ReadFile("../../formats/trf/testdata/nordic-open-r5.trfx")
	if err != nil {
		t.Fatal(err)
	}
	lf := strings.ReplaceAll(string(src), "\r\n", "\n")
	pairs := "../../formats/trf/testdata/nordic-open-r5.pairs"
	do("tournament", "Nordic Open", "-tc", "5400+30")

	empty := write("round5.trf", "")
	if e := fail("import-round", "Nordic Open", empty); !strings.Contains(e, "round5.trf is empty") || !strings.Contains(e, "TRF-16") || !strings.Contains(e, "CSV") {
		t.Errorf("an empty file: %s; want it named, and a TRF-16 or a CSV asked for", e)
	}
	noPairs := write("round5.pairs", "")
	if e := fail("import-round", "Nordic Open", write("ok.trf", lf), noPairs); !strings.Contains(e, "round5.pairs is empty") || !strings.Contains(e, "number of pairs") {
		t.Errorf("an empty pairings file: %s; want it named, and what a pairing program writes asked for", e)
	}
	indented := write("indented.trf", "\n  "+strings.ReplaceAll(lf, "\n", "\n\n  "))
	if e := fail("import-round", "Nordic Open", indented, pairs); strings.Contains(e, "column names") || !strings.Contains(e, "TRF") || !strings.Contains(e, "blanks") {
		t.Errorf("an indented TRF: %s; want it refused as a TRF, saying its lines begin with blanks", e)
	}
	spaced := write("spaced.trf", "\n\n"+strings.ReplaceAll(lf, "\n", "\n\n"))
	expect(do("import-round", "Nordic Open", spaced, pairs), "Nordic Open round 5: 9 boards, 3 byes (from trf")
}
