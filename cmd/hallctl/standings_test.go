package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"os"
	"strings"
	"testing"

	"github.com/chesshall/hallclock/formats/standings"
	"github.com/chesshall/hallclock/formats/trf"
	"github.com/chesshall/hallclock/internal/testkit/halltest"
)

// A tournament imported from a TRF with four rounds played and round 5
// paired: before the hall has played a round, hallctl standings -after 4
// -csv writes the table standings.Compute makes of the file (FIDE's Swiss
// defaults, its Records); without -after, the standings are round 5's,
// provisional, each game shown playing in the crosstable.
func TestStandingsOfAnImportedTournament(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t, halltest.OnLoopback())
	do, expect := runner(t, chiefEnv(h))
	src := "../../formats/trf/testdata/nordic-open-r5.trfx"
	do("tournament", "Nordic Open", "-tc", "5400+30")
	do("import-round", "Nordic Open", src, "../../formats/trf/testdata/nordic-open-r5.pairs")

	raw, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	f, err := trf.Read(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	model, err := standings.FromTRF(f, false)
	if err != nil {
		t.Fatal(err)
	}
	tab, err := standings.Compute(model, 4, standings.Defaults(false))
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	w := csv.NewWriter(&want)
	w.WriteAll(tab.Records())
	if got := do("standings", "Nordic Open", "-after", "4", "-csv"); got != want.String() {
		t.Errorf("standings -after 4 -csv:\n%s\nwant standings.Compute's:\n%s", got, want.String())
	}
	if !strings.HasPrefix(want.String(), "rank,start,name,points,BH-C1,BH,DE\n") {
		t.Errorf("CSV header: %q", strings.SplitN(want.String(), "\n", 2)[0])
	}

	out := do("standings", "nordic open")
	lead := tab.Rows[0]
	expect(out, "Nordic Open, standings after round 5", "PROVISIONAL", "RANK", "START", "PTS", "BH-C1", "R1", "R5", lead.Name)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3+len(tab.Rows) {
		t.Errorf("%d lines, want a title, the provisional line, a header and %d rows:\n%s", len(lines), len(tab.Rows), out)
	}
	pairs, err := os.ReadFile("../../formats/trf/testdata/nordic-open-r5.pairs")
	if err != nil {
		t.Fatal(err)
	}
	games := 0
	for _, l := range strings.Split(strings.TrimSpace(string(pairs)), "\n")[1:] {
		if f := strings.Fields(l); len(f) == 2 && f[1] != "0" {
			games++
		}
	}
	if playing := strings.Count(out, "w*") + strings.Count(out, "b*"); playing != 2*games {
		t.Errorf("round 5: %d players shown playing, want the %d of its %d games:\n%s", playing, 2*games, games, out)
	}
}

// A tie-break list is kept with the tournament and printed; one that does
// not read is refused naming the entry.
func TestTournamentTieBreaks(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t, halltest.OnLoopback())
	do, expect := runner(t, chiefEnv(h))
	expect(do("tournament", "Open", "-tiebreaks", "bh-c1, BH,sb", "-section-tiebreaks", "Juniors=SB,WIN"),
		"tie-breaks BH-C1,BH,SB", "section Juniors: tie-breaks SB,WIN")
	expect(do("tournament", "Blitz"), "tie-breaks FIDE's recommended defaults")
	expect(do("tiebreaks", "Blitz", "DE,WIN,SB", "-reason", "announced at the start"), "Blitz: tie-breaks DE,WIN,SB")
	expect(do("tiebreaks", "Open", "KS", "-section", "Open A"), "tie-breaks BH-C1,BH,SB", "section Open A: tie-breaks KS", "section Juniors: tie-breaks SB,WIN")
	if out := do("tiebreaks", "Open", "-section", "Juniors"); strings.Contains(out, "Juniors") {
		t.Errorf("section Juniors's list cleared, still shown:\n%s", out)
	}
	expect(do("tiebreaks", "Blitz"), "Blitz: tie-breaks FIDE's recommended defaults")
	expect(do("audit", "-kind", "set_tie_breaks"), "set_tie_breaks Blitz: DE,WIN,SB (was FIDE's defaults)", "announced at the start")
	var out bytes.Buffer
	err := run(context.Background(), []string{"tournament", "Bad", "-tiebreaks", "BH,BUCHHOLZ"}, &out, chiefEnv(h))
	if err == nil || !strings.Contains(err.Error(), "BUCHHOLZ") || !strings.Contains(err.Error(), "InvalidArgument") {
		t.Errorf("a bad tie-break list: %v, want InvalidArgument naming BUCHHOLZ", err)
	}
	// A team event's tie-break is refused when the list is set, not at
	// every table after: the hall ranks players.
	err = run(context.Background(), []string{"tiebreaks", "Blitz", "BH,EMGSB"}, &out, chiefEnv(h))
	if err == nil || !strings.Contains(err.Error(), "EMGSB") || !strings.Contains(err.Error(), "InvalidArgument") || !strings.Contains(err.Error(), "rank players") {
		t.Errorf("a team event's tie-break: %v, want InvalidArgument naming EMGSB, saying the hall ranks players", err)
	}
}
