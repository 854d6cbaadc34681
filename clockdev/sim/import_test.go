package sim_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/chesshall/hallclock/clockdev/sim"
	"github.com/chesshall/hallclock/formats/roundcsv"
	"github.com/chesshall/hallclock/formats/trf"
	"github.com/chesshall/hallclock/internal/testkit/longtest"
	"github.com/chesshall/hallclock/internal/testkit/pgncheck"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
)

// The round trip of a hall's day: a TRF-16 and JaVaFo's pairings
// imported, the round played by the simulated fleet on e-boards, its
// results exported as TRF-16, CSV and PGN and read back — by the formats'
// readers and by pgn-extract — as the same games with the same results
// and moves.
func TestTRFRoundTrip(t *testing.T) {
	longtest.Skip(t)
	t.Parallel() // they wait on the scaled clock more than they compute
	players, err := os.ReadFile("../../formats/trf/testdata/nordic-open-r5.trfx")
	if err != nil {
		t.Fatal(err)
	}
	pairings, err := os.ReadFile("../../formats/trf/testdata/nordic-open-r5.pairs")
	if err != nil {
		t.Fatal(err)
	}
	speed := 60.0
	if raceDetector {
		speed = 30
	}
	h := startHall(t, speed)
	h.run(t, h.config(sim.RoundSpec{Tournament: "Nordic Autumn Open 2025", TimeControl: "60+1", Boards: 9, EBoard: true,
		TRF: players, Pairings: pairings}), 2*time.Minute)
	arb, ctx := h.Arbiter(t)
	export := func(f pb.ExportFormat) []byte {
		t.Helper()
		ex, err := arb.ExportRound(ctx, &pb.ExportRoundRequest{Tournament: "Nordic Autumn Open 2025", Number: 5, Format: f})
		if err != nil {
			t.Fatalf("ExportRound(%s): %v", f, err)
		}
		if !ex.GetFinal() {
			t.Errorf("ExportRound(%s): not final after every game ended", f)
		}
		return ex.GetContent()
	}
	bs, err := arb.ListBoards(ctx, &pb.ListBoardsRequest{Tournament: "Nordic Autumn Open 2025", Number: 5})
	if err != nil || len(bs.GetBoards()) != 9 {
		t.Fatalf("ListBoards: %d boards, %v", len(bs.GetBoards()), err)
	}
	hall := map[int]string{} // board number → result, as the hall has it
	for _, b := range bs.GetBoards() {
		hall[int(b.GetNumber())] = b.GetState().GetResult()
	}

	f, err := trf.Read(bytes.NewReader(export(pb.ExportFormat_EXPORT_FORMAT_TRF)))
	if err != nil {
		t.Fatal(err)
	}
	r5, err := f.Round(5)
	if err != nil {
		t.Fatalf("the exported TRF's round 5: %v", err)
	}
	want := [][2]int{{1, 7}, {5, 9}, {11, 15}, {2, 18}, {3, 19}, {6, 14}, {8, 17}, {10, 21}, {12, 13}}
	for i, b := range r5.Boards {
		res, err := trf.ResultOf(b.WhiteResult, b.BlackResult)
		if [2]int{b.White, b.Black} != want[i] || err != nil || string(res) != hall[i+1] {
			t.Errorf("TRF board %d: %d-%d %q (%v); want %v %q", i+1, b.White, b.Black, res, err, want[i], hall[i+1])
		}
	}
	if got := len(r5.Byes); got != 3 {
		t.Errorf("TRF round 5 byes: %d, want 3", got)
	}

	cr, err := roundcsv.Read(bytes.NewReader(export(pb.ExportFormat_EXPORT_FORMAT_CSV)))
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range cr.Games {
		if string(g.Result) != hall[g.Board] {
			t.Errorf("CSV board %d: %s, want %s", g.Board, g.Result, hall[g.Board])
		}
	}

	archive := export(pb.ExportFormat_EXPORT_FORMAT_PGN)
	if bytes.Count(archive, []byte("[%clk ")) < 50 || bytes.Count(archive, []byte("[%emt ")) < 50 {
		t.Errorf("the PGN has %d [%%clk] comments: want the clock after every move", bytes.Count(archive, []byte("[%clk ")))
	}
	games := pgncheck.Read(t, archive)
	if len(games) != 9 {
		t.Fatalf("pgn-extract read %d games, want 9", len(games))
	}
	for _, b := range bs.GetBoards() {
		g := games[b.GetNumber()-1]
		evs, err := h.Store.Events(context.Background(), b.GetBoardId(), 0)
		if err != nil {
			t.Fatal(err)
		}
		var sans []string
		for _, e := range evs {
			if e.Event.Kind == rules.KindPress && e.Event.SAN != "" {
				// Check marks as pgn-extract writes them: the simulated
				// e-board's SANs come from the chess library, which marks an
				// under-promotion as if it were to a queen.
				sans = append(sans, strings.TrimRight(e.Event.SAN, "+#"))
			}
		}
		res := b.GetState().GetResult()
		switch res {
		case "+-":
			res = "1-0"
		case "-+":
			res = "0-1"
		case "--":
			res = "0-0"
		}
		moves := make([]string, len(g.Moves))
		for i, m := range g.Moves {
			moves[i] = strings.TrimRight(m, "+#")
		}
		if g.Tags["Result"] != res || g.Tags["White"] != b.GetWhite().GetName() || !reflect.DeepEqual(moves, sans) || len(sans) == 0 {
			t.Errorf("PGN board %d: %s %s, %d moves; want %s %s, %d moves%s", b.GetNumber(), g.Tags["White"], g.Tags["Result"],
				len(g.Moves), b.GetWhite().GetName(), res, len(sans), firstDifference(moves, sans))
		}
	}
}

// The fleet pairs its own rounds with its simple Swiss stand-in (not FIDE
// Dutch) and imports them: nobody plays twice in a round or against
// himself, and nobody meets the same opponent twice.
func TestFleetPairsRealRounds(t *testing.T) {
	longtest.Skip(t)
	t.Parallel() // they wait on the scaled clock more than they compute
	speed := 120.0
	if raceDetector {
		speed = 60
	}
	h := startHall(t, speed)
	spec := sim.RoundSpec{Tournament: "Blitz Night", TimeControl: "60+1", Boards: 6}
	h.run(t, h.config(spec, spec, spec), 2*time.Minute)
	arb, ctx := h.Arbiter(t)
	met := map[[2]int32]int{}
	for n := int32(1); n <= 3; n++ {
		bs, err := arb.ListBoards(ctx, &pb.ListBoardsRequest{Tournament: "Blitz Night", Number: n})
		if err != nil || len(bs.GetBoards()) != 6 {
			t.Fatalf("round %d: %d boards, %v", n, len(bs.GetBoards()), err)
		}
		seen := map[int32]bool{}
		for _, b := range bs.GetBoards() {
			w, k := b.GetWhite().GetStartRank(), b.GetBlack().GetStartRank()
			if w == 0 || k == 0 || w == k || seen[w] || seen[k] {
				t.Errorf("round %d board %d: %d (%s) against %d (%s)", n, b.GetNumber(), w, b.GetWhite().GetName(), k, b.GetBlack().GetName())
			}
			seen[w], seen[k] = true, true
			pair := [2]int32{min(w, k), max(w, k)}
			if r, again := met[pair]; again {
				t.Errorf("round %d: %d and %d meet again (round %d)", n, w, k, r)
			}
			met[pair] = int(n)
		}
		r, err := arb.GetRound(ctx, &pb.GetRoundRequest{Tournament: "Blitz Night", Number: n})
		if err != nil || r.GetSource() != "trf" || r.GetStatus() != pb.RoundStatus_ROUND_STATUS_COMPLETE {
			t.Errorf("round %d: %v, %v", n, r, err)
		}
	}
}

func firstDifference(got, want []string) string {
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			return fmt.Sprintf(" (ply %d: %s, want %s)", i+1, got[i], want[i])
		}
	}
	return ""
}
