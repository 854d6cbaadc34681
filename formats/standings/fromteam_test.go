package standings

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/chesshall/hallclock/formats/trf"
)

func readTeamTRF(t *testing.T, path string) *trf.File {
	t.Helper()
	fh, err := os.Open(filepath.Join("..", "trf", "testdata", path))
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	f, err := trf.Read(fh)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// Team events written as TRF-16 with 013 team lines (see
// formats/trf/testdata's README): a round robin of four teams of two
// boards, a board forfeited; a Swiss of five, a team bye each round, a
// match forfeited by both of a team's boards. Against TieBreakServer's
// standings of the same files: match and game points, BH and SB on match
// points (with Cut-1), on game points (BH:GP, SB:GP), the extended SB
// (EMGSB, EGGSB), WIN, WON, GE, DE and KS. FB is worked by hand below:
// TieBreakServer's commit 7bff943 adds a draw to a team whose last round
// is a bye (see testdata/tiebreakserver/README.md).
func TestTeamTRFAgainstTieBreakServer(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "tiebreakserver", "teams", "*.csv"))
	if err != nil || len(files) < 2 {
		t.Fatalf("reference files: %v %v", files, err)
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".csv")
		t.Run(name, func(t *testing.T) {
			tt, err := FromTeamTRF(readTeamTRF(t, "constructed/"+name+".trf"), strings.HasSuffix(name, "-rr"))
			if err != nil {
				t.Fatal(err)
			}
			if tt.Boards != 2 || len(tt.Teams) < 4 || tt.Teams[1].Name != "Boreal" {
				t.Fatalf("%d boards, %d teams (%+v)", tt.Boards, len(tt.Teams), tt.Teams)
			}
			teamsAgainst(t, tt, file)
		})
	}
}

func teamsAgainst(t *testing.T, tt TeamTournament, file string) {
	t.Helper()
	fh, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	recs, err := csv.NewReader(fh).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	head := recs[0][2:]
	tbs, err := Parse(strings.Join(head, ","))
	if err != nil {
		t.Fatal(err)
	}
	tab, err := ComputeTeams(tt, 0, tbs)
	if err != nil {
		t.Fatal(err)
	}
	row := map[int]int{}
	for k, r := range tab.Rows {
		row[r.Start] = k
	}
	for _, rec := range recs[1:] {
		start, _ := strconv.Atoi(rec[0])
		rank, _ := strconv.Atoi(rec[1])
		k := row[start]
		if got := tab.Rows[k].Rank; got != rank {
			t.Errorf("team %d: rank %d, TieBreakServer %d", start, got, rank)
		}
		for c, h := range head {
			got, ok := tab.Value(k, strings.ReplaceAll(strings.ToUpper(h), "/", "-"))
			if !ok {
				t.Fatalf("no %s", h)
			}
			if want := parseValue(t, rec[2+c]); got != want {
				t.Errorf("team %d %s: %s, TieBreakServer %s", start, h, got, rec[2+c])
			}
		}
	}
}

// Fore Buchholz of a team event (art. 8.3), on match points: the last
// round counted as a match drawn (1 match point) by every team paired in
// it; a team with the bye in it keeps its score.
func TestTeamForeBuchholz(t *testing.T) {
	tt, err := FromTeamTRF(readTeamTRF(t, "constructed/team-013-swiss.trf"), false)
	if err != nil {
		t.Fatal(err)
	}
	tab := teamTable(t, tt, "BH,FB")
	for _, c := range []struct {
		team     int
		tb, want string
		why      string
	}{
		{1, "BH", "9", "art. 8.1: Boreal 5 + Caledon 0 + Dovre 4"},
		{1, "FB", "11", "art. 8.3: Boreal 5 (its last round a bye) + Caledon 1 + Dovre 5, both with round 3 drawn"},
		{2, "FB", "14", "art. 8.3, 16.4: Aurora 4 + two dummies of Boreal's own 5 (the forfeit won, the bye)"},
	} {
		if got := get(t, tab, c.team, c.tb); got != c.want {
			t.Errorf("team %d %s = %s, want %s (%s)", c.team, c.tb, got, c.want, c.why)
		}
	}
}

// A real team file (TRF-2026: 310 team lines, 362 match points, a 320
// team bye scoring 2 match and 3 game points, 192 FIDE_TEAM_GP_MP: game
// points rank first), one round, worked by hand: A-B 1-2 (A's third
// board won by forfeit, B's absent), C-D 2½-½, E the bye.
func TestTeamTRFRealFile(t *testing.T) {
	tt, err := FromTeamTRF(readTeamTRF(t, "real/sharly-team-forfeit-win.trf"), false)
	if err != nil {
		t.Fatal(err)
	}
	if tt.Boards != 3 || tt.Primary != "GP" {
		t.Fatalf("%d boards, primary %q: want 3, GP", tt.Boards, tt.Primary)
	}
	tab := teamTable(t, tt, "MPTS,BH:MP,WIN,WON")
	if got := order(tab); got != "1:5 2:3 3:2 4:1 5:4" {
		t.Errorf("order %s, want E (3), C (2.5), B (2), A (1), D (0.5) by game points", got)
	}
	for _, c := range []struct {
		team     int
		tb, want string
		why      string
	}{
		{1, "PTS", "1", "game points: two boards lost, the third won by forfeit"},
		{5, "PTS", "3", "the team bye's game points, the 320 line's"},
		{5, "MPTS", "2", "the team bye's match points, the 320 line's"},
		{2, "MPTS", "2", "362: TW 2"},
		{1, "BH:MP", "2", "art. 8.1 on match points: B's 2"},
		{5, "BH:MP", "2", "art. 16.4: the bye against a dummy of E's own 2 match points"},
		{5, "WIN", "1", "art. 7.1: the bye scores a match won"},
		{5, "WON", "0", "art. 7.2: not won over the board"},
		{2, "WON", "1", "art. 7.2: the match was played, two boards over the board"},
	} {
		if got := get(t, tab, c.team, c.tb); got != c.want {
			t.Errorf("team %d %s = %s, want %s (%s)", c.team, c.tb, got, c.want, c.why)
		}
	}
}

// Team lines that do not fit the players are refused saying what is
// allowed; a file without team lines is no team event.
func TestTeamTRFRefused(t *testing.T) {
	for _, c := range []struct {
		name, change, says string
	}{
		{"no teams", "013 ", "no team lines"},
		{"two opponents", "013 Dovre                              7    8", "a team's boards play one team in a round"},
	} {
		f := readTeamTRF(t, "constructed/team-013-rr.trf")
		var hdr []string
		for _, h := range f.Header {
			switch {
			case c.name == "no teams" && strings.HasPrefix(h, "013"):
				continue
			case c.name == "two opponents" && strings.HasPrefix(h, "013 Dovre"):
				// Dovre's second board joins Caledon: round 1 pairs
				// Caledon's boards with both Dovre and Caledon.
				hdr = append(hdr, "013 Dovre                              7")
				continue
			case c.name == "two opponents" && strings.HasPrefix(h, "013 Caledon"):
				hdr = append(hdr, "013 Caledon                            5    6    8")
				continue
			}
			hdr = append(hdr, h)
		}
		f.Header = hdr
		_, err := FromTeamTRF(f, true)
		if err == nil || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%s: %v, want an error saying %q", c.name, err, c.says)
		}
	}
}
