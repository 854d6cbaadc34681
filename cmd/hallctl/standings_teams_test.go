package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/chesshall/hallclock/formats/standings"
	"github.com/chesshall/hallclock/formats/trf"

	"github.com/chesshall/hallclock/internal/testkit/halltest"
)

// A team event imported from its TRF (013 team lines) at round 3, round
// 3 still playing: hallctl tiebreaks takes the team tie-breaks, and
// standings -teams -after 2 -csv writes rank,team,MP,GP then each of
// them as standings.ComputeTeams makes them of the file; without -after
// the teams' table is round 3's, provisional. In a tournament of
// players, -teams says there are no teams.
func TestTeamStandingsOnTheCommandLine(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t, halltest.OnLoopback())
	do, expect := runner(t, chiefEnv(h))
	src := "../../formats/trf/testdata/constructed/team-013-swiss.trf"
	do("tournament", "Nordic Teams", "-tc", "5400+30")
	do("import-round", "Nordic Teams", src, "-round", "3")
	do("tiebreaks", "Nordic Teams", "GPTS,BH,EMGSB", "-reason", "team regulations")

	raw, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	f, err := trf.Read(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	tt, err := standings.FromTeamTRF(f, false)
	if err != nil {
		t.Fatal(err)
	}
	tbs, _ := standings.Parse("MPTS,GPTS,BH,EMGSB")
	tab, err := standings.ComputeTeams(tt, 2, tbs)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"rank,team,MP,GP,GPTS,BH,EMGSB"}
	for k, r := range tab.Rows {
		mp, _ := tab.Value(k, "MPTS")
		gp, _ := tab.Value(k, "GPTS")
		bh, _ := tab.Value(k, "BH")
		sb, _ := tab.Value(k, "EMGSB")
		want = append(want, strings.Join([]string{strconv.Itoa(r.Rank), r.Name, mp.String(), gp.String(), gp.String(), bh.String(), sb.String()}, ","))
	}
	recs, err := csv.NewReader(strings.NewReader(do("standings", "Nordic Teams", "-teams", "-after", "2", "-csv"))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range recs {
		got = append(got, strings.Join(r, ","))
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") || len(want) != 6 {
		t.Errorf("standings -teams -after 2 -csv:\n%s\nwant standings.ComputeTeams':\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	expect(do("standings", "Nordic Teams", "-teams"), "Nordic Teams, standings after round 3, teams", "PROVISIONAL", "RANK", "TEAM", "MP", "GP", "EMGSB", "Boreal")

	do("tournament", "Club Open", "-tc", "5400+30")
	do("import-round", "Club Open", "../../formats/trf/testdata/nordic-open-r5.trfx", "../../formats/trf/testdata/nordic-open-r5.pairs")
	var out bytes.Buffer
	if err := run(context.Background(), []string{"standings", "Club Open", "-teams"}, &out, chiefEnv(h)); err == nil || !strings.Contains(err.Error(), "no team event") {
		t.Errorf("standings -teams of a tournament of players: %v, want it to say there are no teams", err)
	}
}
