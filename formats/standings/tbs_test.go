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

// parseValue reads a decimal as TieBreakServer prints it ("35.25").
func parseValue(t *testing.T, s string) Value {
	t.Helper()
	whole, frac, _ := strings.Cut(s, ".")
	n, err := strconv.Atoi(whole)
	if err != nil {
		t.Fatalf("value %q", s)
	}
	v := Int(n)
	frac = (frac + "0000")[:4]
	f, err := strconv.Atoi(frac)
	if err != nil {
		t.Fatalf("value %q", s)
	}
	return v + Value(f)
}

func readTRF(t *testing.T, name string) *trf.File {
	t.Helper()
	fh, err := os.Open(filepath.Join("..", "trf", "testdata", "real", name+".trf"))
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

// The standings of real files against the FIDE Technical Commission's
// reference implementation, TieBreakServer (github.com/TEC-FIDE/
// TieBreakServer): every value of every tie-break, and the rank, as it
// printed them for the file (see testdata/tiebreakserver/README.md).
func TestAgainstTieBreakServer(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "tiebreakserver", "*.csv"))
	if err != nil || len(files) < 3 {
		t.Fatalf("reference files: %v %v", files, err)
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".csv")
		t.Run(name, func(t *testing.T) {
			// <file>-rN.csv: the standings after round N
			src, after := name, 0
			if i := strings.LastIndex(name, "-r"); i > 0 {
				if n, err := strconv.Atoi(name[i+2:]); err == nil {
					src, after = name[:i], n
				}
			}
			tour, err := FromTRF(readTRF(t, src), false)
			if err != nil {
				t.Fatal(err)
			}
			fh, err := os.Open(file)
			if err != nil {
				t.Fatal(err)
			}
			defer fh.Close()
			recs, err := csv.NewReader(fh).ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			head := recs[0][2:] // StartNo, Rank, then the tie-breaks
			tbs, err := Parse(strings.Join(head, ","))
			if err != nil {
				t.Fatal(err)
			}
			tab, err := Compute(tour, after, tbs)
			if err != nil {
				t.Fatal(err)
			}
			row := map[int]int{}
			for k, r := range tab.Rows {
				row[r.Start] = k
			}
			bad := 0
			for _, rec := range recs[1:] {
				start, _ := strconv.Atoi(rec[0])
				rank, _ := strconv.Atoi(rec[1])
				k, ok := row[start]
				if !ok {
					t.Fatalf("player %d missing", start)
				}
				if got := tab.Rows[k].Rank; got != rank {
					t.Errorf("player %d: rank %d, TieBreakServer %d", start, got, rank)
					bad++
				}
				for c, h := range head {
					want := parseValue(t, rec[2+c])
					got, ok := tab.Value(k, strings.ReplaceAll(strings.ToUpper(h), "/", "-"))
					if !ok {
						t.Fatalf("no %s", h)
					}
					if got != want {
						t.Errorf("player %d %s: %s, TieBreakServer %s", start, h, got, rec[2+c])
						bad++
					}
				}
				if bad > 20 {
					t.Fatal("too many differences")
				}
			}
		})
	}
}
