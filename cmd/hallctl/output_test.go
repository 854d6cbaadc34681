package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/chesshall/hallclock/formats/trf"
	"github.com/chesshall/hallclock/internal/testkit/halltest"
	"github.com/chesshall/hallclock/rules"
)

// hallctl's output is for people: the audit in the dashboard's words
// ("Black −2:00", not "add_time black -120000ms"), its actors whole in a
// wide terminal and cut only to fit a narrow one; watch and devices name
// boards as arbiters do (5.1); export-round -o - writes to standard
// output, and -o DIR the suggested file in DIR.
func TestOutputForPeople(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t, halltest.OnLoopback())
	env := chiefEnv(h)
	do, expect := runner(t, env)
	wide, _ := runner(t, func(k string) string {
		if k == "COLUMNS" {
			return "160"
		}
		return env(k)
	})
	do("tournament", "Nordic Open", "-tc", "5400+30")
	do("plan", "set", "1", "CLK-001", "2", "CLK-002")
	dir := "../../formats/trf/testdata/"
	do("import-round", "Nordic Open", dir+"nordic-open-r5.trfx", dir+"nordic-open-r5.pairs")
	d := h.Device(t, "CLK-001")
	do("start", "5.1")
	if err := d.Press(rules.White, "", ""); err != nil {
		t.Fatal(err)
	}
	halltest.Synced(t, d)
	do("add", "5.1", "black", "-2m", "-reason", "phone rang")
	do("illegal", "5.1", "white")

	a := wide("audit", "5.1")
	t.Logf("hallctl audit 5.1:\n%s", a)
	expect(a, "Black −2:00", "illegal move by White (7.5) · Black +2:00", "clock started", "chief arbiter via clock CLK-001", "“phone rang”")
	for _, raw := range []string{"add_time", "ms", "chief:", "…"} {
		if strings.Contains(a, raw) {
			t.Errorf("the audit in a 160-column terminal holds %q:\n%s", raw, a)
		}
	}
	// -what finds an entry by the server's words or the page's.
	for _, w := range []string{"add_time", "−2:00"} {
		if got := wide("audit", "5.1", "-what", w); !strings.Contains(got, "Black −2:00") || strings.Contains(got, "clock started") {
			t.Errorf("audit -what %s:\n%s", w, got)
		}
	}
	narrow := do("audit", "5.1", "-width", "60")
	for _, l := range strings.Split(strings.TrimSpace(narrow), "\n") {
		if n := utf8.RuneCountInString(l); n > 60 {
			t.Errorf("audit -width 60: a line of %d characters: %q", n, l)
		}
	}
	expect(narrow, "chief arbiter via c…")

	devices := do("devices")
	if !regexp.MustCompile(`CLK-001\s+true\s+5\.1\s`).MatchString(devices) {
		t.Errorf("devices does not name CLK-001's board 5.1:\n%s", devices)
	}
	boards := do("boards")
	for _, l := range strings.Split(boards, "\n") {
		if f := strings.Fields(l); len(f) > 0 && strings.HasPrefix(f[len(f)-1], "b-") && strings.Contains(devices, f[len(f)-1]) {
			t.Errorf("devices names board %s by its id:\n%s", f[len(f)-1], devices)
		}
	}

	// watch, until it has printed the start of board 5.1.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out halltest.SyncBuffer
	done := make(chan error, 1)
	go func() { done <- run(ctx, []string{"watch", "-round", "5"}, &out, env) }()
	halltest.Eventually(t, 10*time.Second, func() error {
		if !regexp.MustCompile(`(?m)^#\d+ 5\.1 +running`).MatchString(out.String()) {
			return fmt.Errorf("watch printed %q", out.String())
		}
		return nil
	})
	cancel()
	<-done

	trfOut := do("export-round", "5", "-o", "-")
	if _, err := trf.Read(strings.NewReader(trfOut)); err != nil || strings.HasPrefix(trfOut, "wrote") {
		t.Errorf("export-round -o - printed %q (%v); want the TRF itself", trfOut, err)
	}
	into := t.TempDir()
	expect(do("export-round", "5", "-o", into, "-format", "csv"), "wrote "+into+string(filepath.Separator))
	files, _ := os.ReadDir(into)
	if len(files) != 1 || !strings.HasSuffix(files[0].Name(), ".csv") {
		t.Errorf("export-round -o DIR wrote %v; want the suggested .csv file in DIR", files)
	}
	var stdout bytes.Buffer
	if err := run(context.Background(), []string{"export-round", "5", "-format", "pgn"}, &stdout, env); err != nil || !strings.Contains(stdout.String(), `[Round "5`) {
		t.Errorf("export-round without -o: %v\n%s", err, stdout.String())
	}
}
