package dashboard_test

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chesshall/hallclock/internal/testkit/halltest"
	"github.com/chesshall/hallclock/internal/testkit/longtest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// A team event (the constructed TRF-16 Swiss with 013 team lines,
// imported at round 3) on a 390 px phone: the Standings view shows the
// teams' table above the players' — every team as the hall's Standings
// answer ranks it (rank, team, match and game points, each team
// tie-break) — and nothing on the page is wider than the phone. A
// tournament of players shows no teams' table (TestDashboardStandingsView
// checks its rows).
func TestDashboardTeamStandingsOnAPhone(t *testing.T) {
	longtest.Skip(t)
	t.Parallel()
	h := halltest.Start(t, halltest.OnLoopback())
	base := h.HTTP(t)
	file, err := os.ReadFile(filepath.Join("..", "..", "formats", "trf", "testdata", "constructed", "team-013-swiss.trf"))
	if err != nil {
		t.Fatal(err)
	}
	arb, ctx := h.Arbiter(t)
	if _, err := arb.CreateTournament(ctx, &pb.CreateTournamentRequest{Name: "Nordic Teams", DefaultConfig: &pb.ClockConfig{TimeControl: "5400+30"}}); err != nil {
		t.Fatal(err)
	}
	imp, err := arb.ImportRound(ctx, &pb.ImportRoundRequest{Tournament: "Nordic Teams", Content: file, Number: 3})
	if err != nil {
		t.Fatalf("import: %v", err)
	}
	want, err := arb.Standings(ctx, &pb.StandingsRequest{Tournament: "Nordic Teams"})
	if err != nil {
		t.Fatal(err)
	}
	if len(want.GetTeams()) != 5 {
		t.Fatalf("the hall's standings: %d teams, want the file's 5", len(want.GetTeams()))
	}

	p := openPage(t, base, 390, 844)
	p.signIn(h.Chief)
	p.waitHall(len(imp.GetBoards()))
	p.click("Standings", "#standings-open")
	p.poll("the teams' table", `!document.getElementById("st-teams").hidden && document.querySelectorAll("#st-teams tbody tr").length === 5`, 10*time.Second)
	head := evalAs[[]string](p, `[...document.querySelectorAll("#st-teams thead th")].map(c => c.textContent)`)
	if wantHead := append([]string{"Rk", "Team", "MP", "GP"}, want.GetTeamTieBreaks()...); !slices.Equal(head, wantHead) {
		t.Errorf("the teams' table's head: %q, want %q", head, wantHead)
	}
	rows := evalAs[[][]string](p, `[...document.querySelectorAll("#st-teams tbody tr")].map(r => [...r.cells].map(c => c.textContent))`)
	for i, w := range want.GetTeams() {
		wc := append([]string{strconv.Itoa(int(w.GetRank())), w.GetName(), w.GetMatchPoints(), w.GetGamePoints()}, w.GetTieBreaks()...)
		if i >= len(rows) || !slices.Equal(rows[i], wc) {
			t.Errorf("team row %d: %q, want %q", i+1, rows[i], wc)
		}
	}
	if above := evalAs[bool](p, `document.getElementById("st-teams").getBoundingClientRect().bottom <= document.getElementById("st-table").getBoundingClientRect().top`); !above {
		t.Error("the teams' table is not above the players'")
	}
	if w := widerThanView(t, p); len(w) != 0 {
		t.Errorf("at 390 px, wider than the phone: %v", w)
	}

	// The print page puts the same teams above the players, on paper.
	pr := p.printPage("teams-standings.pdf", "/print/standings/Nordic%20Teams")
	for _, w := range want.GetTeams() {
		if l := pr.lineOf(append([]string{strconv.Itoa(int(w.GetRank()))}, append(strings.Fields(w.GetName()), w.GetMatchPoints(), w.GetGamePoints())...)...); l == "" {
			t.Errorf("the printed standings lack team %s (%s MP, %s GP):\n%s", w.GetName(), w.GetMatchPoints(), w.GetGamePoints(), strings.Join(pr.lines, "\n"))
		}
	}
}
