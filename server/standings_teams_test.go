package server_test

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chesshall/hallclock/internal/testkit/halltest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// A team event (the constructed TRF-16 files with 013 team lines, a
// Swiss with a team's pairing-allocated bye and forfeits, a round robin)
// comes into the hall at its last round and is played as recorded: the
// Standings answer has, beside the players, the teams' table — with no
// list of its own the hall's team defaults, and with the list the chief
// arbiter sets (team tie-breaks, accepted in a team event) rank, match
// and game points and every tie-break as TieBreakServer computes them
// (formats/standings/testdata/tiebreakserver/teams, the figures
// TestTeamTRFAgainstTieBreakServer checks the package against).
func TestTeamStandingsOfATeamEvent(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name     string
		defaults string
	}{
		{"team-013-swiss", "GPTS,BH-C1,BH,DE"},
		{"team-013-rr", "GPTS,DE,WIN,SB,KS"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			h := halltest.Start(t)
			arb, ctx := h.Arbiter(t)
			rf := realRound(t, realFile("constructed/"+c.name+".trf"), 3, classicPoints)
			imp := realImport(t, arb, ctx, "Nordic Teams", nil, &pb.ImportRoundRequest{Content: rf.paired})

			live := getStandings(t, arb, ctx, &pb.StandingsRequest{Tournament: "Nordic Teams"})
			if len(live.GetTeams()) == 0 || !live.GetProvisional() {
				t.Fatalf("during round 3: %d teams, provisional %v; want the teams' table, provisional", len(live.GetTeams()), live.GetProvisional())
			}
			playAsRecorded(t, arb, ctx, rf, imp.GetBoards())
			done := getStandings(t, arb, ctx, &pb.StandingsRequest{Tournament: "Nordic Teams"})
			if got := strings.Join(done.GetTeamTieBreaks(), ","); got != c.defaults {
				t.Errorf("team tie-breaks with no list: %s, want %s", got, c.defaults)
			}
			if got := strings.Join(done.GetTieBreaks(), ","); got == c.defaults || len(done.GetRows()) == 0 {
				t.Errorf("players' table: tie-breaks %s, %d rows; want the individual defaults and every player", got, len(done.GetRows()))
			}

			head, recs := tieBreakServerTeams(t, c.name)
			list := strings.Join(head[2:], ",") // MPTS,GPTS,BH,BH/C1,...
			if _, err := arb.SetTieBreaks(ctx, &pb.SetTieBreaksRequest{Tournament: "Nordic Teams", TieBreaks: list, Reason: "team regulations"}); err != nil {
				t.Fatalf("SetTieBreaks %s in a team event: %v", list, err)
			}
			st := getStandings(t, arb, ctx, &pb.StandingsRequest{Tournament: "Nordic Teams"})
			if st.GetProvisional() || len(st.GetTeams()) != len(recs) || len(st.GetTeamTieBreaks()) != len(head)-2 {
				t.Fatalf("%d teams, tie-breaks %v, provisional %v; want %d teams, %s", len(st.GetTeams()), st.GetTeamTieBreaks(), st.GetProvisional(), len(recs), list)
			}
			if len(st.GetRows()) != len(done.GetRows()) || !slices.Equal(st.GetTieBreaks(), done.GetTieBreaks()) {
				t.Errorf("players' table with a list of team tie-breaks: %v, want the individual defaults %v", st.GetTieBreaks(), done.GetTieBreaks())
			}
			byStart := map[string][]string{}
			for _, r := range recs {
				byStart[r[0]] = r[1:]
			}
			prev := int32(0)
			for _, row := range st.GetTeams() {
				want := byStart[strconv.Itoa(int(row.GetStart()))]
				if want == nil {
					t.Fatalf("team %d %q: not in TieBreakServer's table", row.GetStart(), row.GetName())
				}
				if row.GetRank() < prev {
					t.Errorf("team %d: rank %d after rank %d", row.GetStart(), row.GetRank(), prev)
				}
				prev = row.GetRank()
				if strconv.Itoa(int(row.GetRank())) != want[0] {
					t.Errorf("team %d: rank %d, TieBreakServer %s", row.GetStart(), row.GetRank(), want[0])
				}
				sameNumber(t, row.GetStart(), "MP", row.GetMatchPoints(), want[1])
				sameNumber(t, row.GetStart(), "GP", row.GetGamePoints(), want[2])
				for k, v := range row.GetTieBreaks() {
					sameNumber(t, row.GetStart(), head[2+k], v, want[1+k])
				}
			}
			if st.GetTeams()[0].GetName() == "" {
				t.Errorf("team %d has no name", st.GetTeams()[0].GetStart())
			}
		})
	}
}

func sameNumber(t *testing.T, team int32, what, got, want string) {
	t.Helper()
	g, err1 := strconv.ParseFloat(got, 64)
	w, err2 := strconv.ParseFloat(want, 64)
	if err1 != nil || err2 != nil || g != w {
		t.Errorf("team %d %s: %q, TieBreakServer %q", team, what, got, want)
	}
}

// tieBreakServerTeams reads TieBreakServer's table of a constructed team
// file: its head (StartNo, Rank, then each tie-break) and its rows.
func tieBreakServerTeams(t *testing.T, name string) ([]string, [][]string) {
	t.Helper()
	fh, err := os.Open(filepath.Join("..", "formats", "standings", "testdata", "tiebreakserver", "teams", name+".csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	recs, err := csv.NewReader(fh).ReadAll()
	if err != nil || len(recs) < 2 || recs[0][2] != "MPTS" || recs[0][3] != "GPTS" {
		t.Fatalf("TieBreakServer's table: %v (want StartNo,Rank,MPTS,GPTS,...)", err)
	}
	return recs[0], recs[1:]
}

// The public standings feed of a team event (its round public, no token)
// carries the teams' table as the Standings answer has it, beside the
// players: the JSON the /standings and /display/standings pages show. An
// arbiter of another section sees no team (none has a player of his).
func TestTeamStandingsFeed(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t)
	arb, ctx := h.Arbiter(t)
	rf := realRound(t, realFile("constructed/team-013-swiss.trf"), 3, classicPoints)
	imp := realImport(t, arb, ctx, "Nordic Teams", nil, &pb.ImportRoundRequest{Content: rf.paired, Section: "Teams"})
	if _, err := arb.SetBroadcast(ctx, &pb.SetBroadcastRequest{RoundId: imp.GetRound().GetRoundId(), Public: ptrBool(true)}); err != nil {
		t.Fatal(err)
	}
	want := getStandings(t, arb, ctx, &pb.StandingsRequest{Tournament: "Nordic Teams"})
	base := h.HTTP(t)
	code, _, body := getFeed(t, base, "/api/standings/Nordic%20Teams", "")
	if code != http.StatusOK {
		t.Fatalf("the public feed: %d %s", code, body)
	}
	var feed struct {
		Standings struct {
			TeamTieBreaks []string `json:"teamTieBreaks"`
			Teams         []struct {
				Rank        int    `json:"rank"`
				Name        string `json:"name"`
				MatchPoints string `json:"matchPoints"`
				GamePoints  string `json:"gamePoints"`
			} `json:"teams"`
		} `json:"standings"`
	}
	if err := json.Unmarshal([]byte(body), &feed); err != nil {
		t.Fatal(err)
	}
	var got, wantRows []string
	for _, r := range feed.Standings.Teams {
		got = append(got, fmt.Sprintf("%d %s %s %s", r.Rank, r.Name, r.MatchPoints, r.GamePoints))
	}
	for _, r := range want.GetTeams() {
		wantRows = append(wantRows, fmt.Sprintf("%d %s %s %s", r.GetRank(), r.GetName(), r.GetMatchPoints(), r.GetGamePoints()))
	}
	if len(got) != 5 || !slices.Equal(got, wantRows) || !slices.Equal(feed.Standings.TeamTieBreaks, want.GetTeamTieBreaks()) {
		t.Errorf("the public feed's teams: %q %v, want the Standings answer's %q %v", got, feed.Standings.TeamTieBreaks, wantRows, want.GetTeamTieBreaks())
	}
	for _, c := range []struct {
		section string
		teams   int
	}{{"Juniors", 0}, {"Teams", 5}} {
		tok := h.Token(t, pb.Role_ROLE_ARBITER, "Anna", "", c.section)
		code, _, body := getFeed(t, base, "/api/standings/Nordic%20Teams", tok)
		if n := strings.Count(body, `"matchPoints"`); code != http.StatusOK || n != c.teams {
			t.Errorf("an arbiter of section %s: %d, %d teams (%s); want %d", c.section, code, n, body, c.teams)
		}
	}
}
