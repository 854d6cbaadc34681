package server_test

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"google.golang.org/grpc/codes"

	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// What the pairing program's files say is checked before anything is
// imported: every player line by its columns (a cut line is blamed on
// itself, never on its opponent's), every round before the one imported,
// and the pairings against what the TRF says of the round — each
// disagreement with both files' lines. Lines may end in CR alone, as
// bbpPairings and TRF-16 end them.
func TestImportChecksTheFiles(t *testing.T) {
	t.Parallel()
	_, arb, ctx := openHall(t, 9)
	players, pairs := javafoFiles(t)
	crOnly := func(b []byte) []byte {
		return bytes.ReplaceAll(bytes.ReplaceAll(b, []byte("\r\n"), []byte("\r")), []byte("\n"), []byte("\r"))
	}
	cr := crOnly(players)
	lines := strings.SplitAfter(string(players), "\n")
	cut := strings.Join(lines[:21], "") + string([]rune(lines[21])[:60]) + "\r\n" + strings.Join(lines[22:], "") // player 7, line 22, cut at column 60
	if !strings.HasPrefix(lines[21], "001    7") {
		t.Fatalf("line 22 is %q, want player 7", lines[21])
	}
	earlier := strings.Replace(string(players), "  11 w 1    12 b 1", "  11 w 1    57 b 1", 1) // player 1's round 2
	withBye := "10\n1 7\n5 9\n11 15\n2 18\n3 19\n6 14\n8 17\n10 21\n12 13\n4 0\n"              // 4 asked for a half-point bye
	short := "9\n1 7\n5 9\n11 15\n2 18\n3 19\n6 14\n8 17\n10 21\n20 0\n"                       // 12 and 13 left out
	for _, c := range []struct {
		name     string
		req      *pb.ImportRoundRequest
		want     []string
		unwanted string
	}{
		{"a player line cut short", &pb.ImportRoundRequest{Content: []byte(cut), Pairings: pairs},
			[]string{"TRF: line 22, column 61", "is it cut short"}, "line 16"},
		{"a cut line, CR alone", &pb.ImportRoundRequest{Content: crOnly([]byte(cut)), Pairings: pairs},
			[]string{"TRF: line 22, column 61"}, "CSV"},
		{"an earlier round's opponent who does not exist", &pb.ImportRoundRequest{Content: []byte(earlier), Pairings: pairs},
			[]string{"TRF: line 16, column 102", "round 2", "57 is no player"}, ""},
		{"the pairing-allocated bye to a player who asked for a half point", &pb.ImportRoundRequest{Content: players, Pairings: []byte(withBye)},
			[]string{"player 4: the pairings give him the pairing-allocated bye, the TRF gives him a half-point bye", "[pairings line 11: \"4 0\"]",
				"[TRF line 19, column 132: \"0000 - H\"]", "1 left out", "20 Larsen, Freja (TRF line 35)", "allow absent players"}, ""},
		{"players left out", &pb.ImportRoundRequest{Content: players, Pairings: []byte(short)},
			[]string{"2 left out", "12 Rossi, Giulia (TRF line 27)", "13 Petrov, Nikolai (TRF line 28)"}, ""},
		{"allow_absent without pairings", &pb.ImportRoundRequest{Content: players, AllowAbsent: true}, []string{"allow_absent is for a TRF with pairings"}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.req.Tournament = "Nordic Autumn Open 2025"
			_, err := arb.ImportRound(ctx, c.req)
			for _, w := range c.want {
				if code(err) != codes.InvalidArgument || !strings.Contains(err.Error(), w) {
					t.Errorf("%v; want InvalidArgument saying %q", err, w)
				}
			}
			if c.unwanted != "" && err != nil && strings.Contains(err.Error(), c.unwanted) {
				t.Errorf("%v; it should not say %q", err, c.unwanted)
			}
		})
	}

	// Allowed absent: imported, the absent listed.
	imp, err := arb.ImportRound(ctx, &pb.ImportRoundRequest{Tournament: "Nordic Autumn Open 2025", Content: cr, Pairings: []byte(short), AllowAbsent: true})
	if err != nil {
		t.Fatalf("with allow_absent: %v", err)
	}
	var absent []string
	for _, p := range imp.GetAbsent() {
		absent = append(absent, p.GetName())
	}
	warned := false
	for _, w := range imp.GetWarnings() {
		warned = warned || strings.Contains(w, "2 players are neither paired nor given a bye in round 5") && strings.Contains(w, "12 Rossi, Giulia")
	}
	if strings.Join(absent, "; ") != "Rossi, Giulia; Petrov, Nikolai" || !warned || len(imp.GetBoards()) != 8 || imp.GetRound().GetSource() != "trf" {
		t.Errorf("absent %q, warnings %q, %d boards from %q; want Rossi and Petrov absent, said, 8 boards from the TRF (CR line ends)",
			absent, imp.GetWarnings(), len(imp.GetBoards()), imp.GetRound().GetSource())
	}
}

// Byes entered for rounds ahead ("0000 - H" in round 7 while round 6 is
// to be paired) pair nobody: the round imported is 6, and its export
// keeps them.
func TestImportByesAhead(t *testing.T) {
	t.Parallel()
	_, arb, ctx := openHall(t, 0)
	content, err := os.ReadFile(realFile("constructed/byes-ahead.trf"))
	if err != nil {
		t.Fatal(err)
	}
	pairs, err := os.ReadFile(realFile("constructed/byes-ahead-r6.pairs"))
	if err != nil {
		t.Fatal(err)
	}
	imp, err := arb.ImportRound(ctx, &pb.ImportRoundRequest{Tournament: "Nordic Autumn Open 2025", Content: content, Pairings: pairs})
	if err != nil {
		t.Fatal(err)
	}
	if imp.GetRound().GetNumber() != 6 || len(imp.GetBoards()) != 30 {
		t.Fatalf("imported round %d with %d boards, want round 6 with 30", imp.GetRound().GetNumber(), len(imp.GetBoards()))
	}
	got := exportTRF(t, arb, ctx, imp.GetRound().GetRoundId(), "")
	for _, l := range splitLines(got) {
		if isPlayer(l) && (rank(l) == 3 || rank(l) == 10) {
			if e := entryOf(l.text, 7); e != (entry{0, '-', 'H'}) {
				t.Errorf("player %d's round 7 in the export: %+v, want the half-point bye entered ahead", rank(l), e)
			}
		}
	}
}
