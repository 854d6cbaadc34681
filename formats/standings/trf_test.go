package standings

import (
	"cmp"
	"slices"
	"testing"

	"github.com/chesshall/hallclock/formats/trf"
)

// On every real file, PTS is the points column the pairing program wrote
// (columns 81-84: its own count, under the file's scoring — 3-1-0 for
// bbp-generated-3-1-0.trf, whose 162 line TieBreakServer cannot read),
// and the file's ranks never put fewer points above more.
func TestRealFilesPoints(t *testing.T) {
	for _, name := range []string{"lichess-QLMFFLBq", "lichess-j8rtJ5GL", "bbp-issue-7", "bbp-issue-15", "bbp-generated-3-1-0"} {
		t.Run(name, func(t *testing.T) {
			f := readTRF(t, name)
			tour, err := FromTRF(f, false)
			if err != nil {
				t.Fatal(err)
			}
			tab, err := Compute(tour, 0, DefaultSwiss)
			if err != nil {
				t.Fatal(err)
			}
			pts := map[int]Points{}
			for _, r := range tab.Rows {
				pts[r.Start] = r.Points
			}
			for _, p := range f.Players {
				want, err := PointsOf(p.Points)
				if err != nil {
					t.Fatal(err)
				}
				if pts[p.StartRank] != want {
					t.Errorf("player %d: PTS %s, the file says %s", p.StartRank, pts[p.StartRank], want)
				}
			}
			byRank := slices.Clone(f.Players)
			slices.SortFunc(byRank, func(a, b trf.Player) int { return cmp.Compare(a.Rank, b.Rank) })
			for k := 1; k < len(byRank); k++ {
				a, b := byRank[k-1], byRank[k]
				if a.Rank > 0 && pts[a.StartRank] < pts[b.StartRank] {
					t.Errorf("file rank %d (player %d, %s) above rank %d (player %d, %s)", a.Rank, a.StartRank, pts[a.StartRank], b.Rank, b.StartRank, pts[b.StartRank])
				}
			}
			// Our ranks follow points too.
			for k := 1; k < len(tab.Rows); k++ {
				if tab.Rows[k].Points > tab.Rows[k-1].Points || tab.Rows[k].Rank < tab.Rows[k-1].Rank {
					t.Fatalf("row %d out of order", k)
				}
			}
		})
	}
}

// The 3-1-0 file's point system reaches the standings: a win is 3.
func TestFromTRFScoring(t *testing.T) {
	tour, err := FromTRF(readTRF(t, "bbp-generated-3-1-0"), false)
	if err != nil {
		t.Fatal(err)
	}
	if tour.Scoring.Win != 300 || tour.Scoring.Draw != 100 || tour.Scoring.HalfBye != 100 {
		t.Errorf("scoring %+v, want 3-1-0 with a half-point bye worth a draw", tour.Scoring)
	}
}
