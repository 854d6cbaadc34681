package main

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/chesshall/hallclock/internal/testkit/halltest"
)

// hallctl audit without a board is the hall-wide audit: "who changed which
// result today", one line an entry with its board, filtered by round,
// actor, kind and time on the hall.
func TestAuditHallWide(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t, halltest.OnLoopback())
	env := chiefEnv(h)
	do, expect := runner(t, env)
	do("tournament", "Nordic Open", "-tc", "5400+30")
	dir := "../../formats/trf/testdata/"
	do("import-round", "Nordic Open", dir+"nordic-open-r5.trfx", dir+"nordic-open-r5.pairs")
	for _, b := range []string{"5.1", "5.2"} {
		do("virtual", b, "-reason", "no clocks yet")
		do("start", b)
	}
	do("result", "5.1", "1-0", "-reason", "Black resigned")
	do("pause", "5.2")
	do("result", "5.2", "0-1", "agreement")

	out := do("audit", "-round", "5", "-actor", "chief", "-kind", "result", "-since", "00:00")
	t.Logf("hallctl audit -round 5 -actor chief -kind result:\n%s", out)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 || !strings.Contains(lines[0], "Nordic Open:5.1") || !strings.Contains(lines[2], "Nordic Open:5.2") {
		t.Errorf("the round's results: %d lines; want 5.1's with its reason, then 5.2's, each naming its board:\n%s", len(lines), out)
	}
	expect(out, "“Black resigned”", "1-0", "0-1")
	if strings.Contains(out, "clock started") || strings.Contains(out, "virtual") {
		t.Errorf("-kind result printed other kinds:\n%s", out)
	}
	// Two kinds; a time range that holds nothing.
	expect(do("audit", "-kind", "start,pause", "-since", "10m"), "Nordic Open:5.1", "Nordic Open:5.2")
	expect(do("audit", "-until", time.Now().Add(-time.Hour).Format(time.RFC3339)), "no entries")
	// What it cannot read, it says how to write.
	err := run(context.Background(), []string{"audit", "-since", "nine"}, io.Discard, env)
	if !errors.Is(err, errUsage) || !strings.Contains(err.Error(), "09:00") {
		t.Errorf("audit -since nine: %v; want a usage error showing how to write a time", err)
	}
}
