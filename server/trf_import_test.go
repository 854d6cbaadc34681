package server_test

import (
	"bytes"
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
	"google.golang.org/grpc/codes"

	"github.com/chesshall/hallclock/formats/trf"
	"github.com/chesshall/hallclock/internal/testkit/halltest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// realImport imports a round's files into a new tournament.
func realImport(t *testing.T, arb pb.ArbiterClient, ctx context.Context, tournament string, scoring *pb.Scoring, req *pb.ImportRoundRequest) *pb.ImportRoundResponse {
	t.Helper()
	cfg := &pb.ClockConfig{TimeControl: "5400+30"}
	if scoring != nil {
		cfg.Regulations = &pb.Regulations{Scoring: scoring}
	}
	if _, err := arb.CreateTournament(ctx, &pb.CreateTournamentRequest{Name: tournament, DefaultConfig: cfg}); err != nil {
		t.Fatal(err)
	}
	req.Tournament = tournament
	imp, err := arb.ImportRound(ctx, req)
	if err != nil {
		t.Fatalf("ImportRound into %s: %v", tournament, err)
	}
	return imp
}

// Real files, as the programs that made them wrote them (bbpPairings'
// test suite, CR-only; a bbpPairings tournament scoring 3-1-0; the same
// 60 players in Windows-1250 with CR LF), come into the hall at their
// last round — as a tournament program writes the file after pairing,
// and as a pairing program is given it with its output — are played
// with the results the file records, on scoresheets, and go out again:
// from after pairing, the file itself, byte for byte; from the pairing
// output, the file but round n's columns and the points, which say what
// the file says.
func TestRealFilesThroughTheHall(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		file     string
		points   points
		scoring  *pb.Scoring
		encoding string
	}{
		{"real/bbp-issue-7.trf", classicPoints, nil, ""},
		{"real/bbp-generated-3-1-0.trf", threeOne, &pb.Scoring{Win: 3, Draw: 1}, ""},
		{"constructed/windows-1250.trf", classicPoints, nil, "windows-1250"},
	} {
		t.Run(c.file, func(t *testing.T) {
			t.Parallel()
			h := halltest.Start(t)
			arb, ctx := h.Arbiter(t)
			orig := realRound(t, realFile(c.file), 1, c.points).orig
			f, err := trf.ReadWith(bytes.NewReader(orig), trf.ReadOptions{Encoding: c.encoding})
			if err != nil {
				t.Fatal(err)
			}
			n, _ := f.PairedRounds()
			rf := realRound(t, realFile(c.file), n, c.points)

			imp := realImport(t, arb, ctx, "after pairing", c.scoring, &pb.ImportRoundRequest{Content: rf.paired, Encoding: c.encoding})
			if imp.GetRound().GetNumber() != int32(n) || len(imp.GetBoards()) != len(rf.games) || imp.GetRound().GetSource() != "trf" {
				t.Fatalf("imported round %d with %d boards from %s; want round %d, %d boards, from the TRF", imp.GetRound().GetNumber(),
					len(imp.GetBoards()), imp.GetRound().GetSource(), n, len(rf.games))
			}
			playAsRecorded(t, arb, ctx, rf, imp.GetBoards())
			if got := exportTRF(t, arb, ctx, imp.GetRound().GetRoundId(), ""); !bytes.Equal(got, rf.orig) {
				t.Errorf("round %d imported after pairing and played exports otherwise than the file: %s", n, firstDifference(got, rf.orig))
			}

			imp = realImport(t, arb, ctx, "pairing output", c.scoring, &pb.ImportRoundRequest{Content: rf.before, Pairings: rf.pairings, Encoding: c.encoding})
			if imp.GetRound().GetNumber() != int32(n) || len(imp.GetBoards()) != len(rf.games) {
				t.Fatalf("imported round %d with %d boards; want round %d, %d boards", imp.GetRound().GetNumber(), len(imp.GetBoards()), n, len(rf.games))
			}
			if imp.GetEncoding() != or(c.encoding, "utf-8") {
				t.Errorf("read in %q, want %q", imp.GetEncoding(), or(c.encoding, "utf-8"))
			}
			for _, w := range imp.GetWarnings() {
				if !strings.Contains(w, "has no clock in the hall plan") {
					t.Errorf("warning: %s", w)
				}
			}
			playAsRecorded(t, arb, ctx, rf, imp.GetBoards())
			got := exportTRF(t, arb, ctx, imp.GetRound().GetRoundId(), "")
			if err := sameOutside(rf.orig, got, n); err != nil {
				t.Errorf("round %d imported with the pairing output exports otherwise than the file: %v", n, err)
			}
			back, err := trf.ReadWith(bytes.NewReader(got), trf.ReadOptions{Encoding: c.encoding})
			if err != nil {
				t.Fatalf("the export does not read: %v", err)
			}
			if bad := back.CheckPoints(); len(bad) > 0 {
				t.Errorf("the export's points are not what its rounds score: %+v", bad)
			}
		})
	}
}

func or(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// A file in Windows-1250, named as such, comes in with its names as
// written and goes out in its own encoding (above) or in UTF-8 if asked;
// not named, it is refused asking for its encoding, since Windows-1252
// has no character for some of its bytes. An unknown encoding is refused
// with the known ones. A Windows-1252 file not named is read as such,
// and the import says so.
func TestImportEncodings(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t)
	arb, ctx := h.Arbiter(t)
	rf := realRound(t, realFile("constructed/windows-1250.trf"), 14, classicPoints)
	if _, err := arb.CreateTournament(ctx, &pb.CreateTournamentRequest{Name: "Memoriał", DefaultConfig: &pb.ClockConfig{TimeControl: "5400+30"}}); err != nil {
		t.Fatal(err)
	}
	req := &pb.ImportRoundRequest{Tournament: "Memoriał", Content: rf.before, Pairings: rf.pairings}
	for _, c := range []struct{ encoding, want string }{
		{"", "windows-1250"}, // asked for
		{"klingon", "unknown encoding \"klingon\" (known: utf-8, windows-1252, windows-1250"}, // the known ones
		{"utf-8", "not UTF-8"},
	} {
		req.Encoding = c.encoding
		_, err := arb.ImportRound(ctx, req)
		if code(err) != codes.InvalidArgument || !strings.Contains(err.Error(), c.want) {
			t.Errorf("encoding %q: %v; want InvalidArgument saying %q", c.encoding, err, c.want)
		}
	}
	req.Encoding = "CP1250"
	imp, err := arb.ImportRound(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, b := range imp.GetBoards() {
		names[b.GetWhite().GetName()], names[b.GetBlack().GetName()] = true, true
	}
	if !names["Łukasiewicz, Łucja"] || imp.GetEncoding() != "windows-1250" {
		t.Errorf("read in %s; players %v; want Łukasiewicz, Łucja among them", imp.GetEncoding(), names)
	}
	playAsRecorded(t, arb, ctx, rf, imp.GetBoards())
	id := imp.GetRound().GetRoundId()
	if own := exportTRF(t, arb, ctx, id, ""); sameOutside(rf.orig, own, 14) != nil || utf8.Valid(own) {
		t.Errorf("the export in the file's own encoding: %v", sameOutside(rf.orig, own, 14))
	}
	u := exportTRF(t, arb, ctx, id, "utf-8")
	if !utf8.Valid(u) || !bytes.Contains(u, []byte("Łukasiewicz, Łucja")) || !bytes.Contains(u, []byte("Memoriał Środkowoeuropejski")) {
		t.Errorf("the export in UTF-8:\n%s", u[:min(400, len(u))])
	}
	csv, err := arb.ExportRound(ctx, &pb.ExportRoundRequest{RoundId: id, Format: pb.ExportFormat_EXPORT_FORMAT_CSV, Encoding: "windows-1250"})
	if err != nil || utf8.Valid(csv.GetContent()) || !bytes.Contains(csv.GetContent(), []byte("\xa3ukasiewicz")) {
		t.Errorf("the CSV in Windows-1250: %v", err)
	}
	if _, err := arb.ExportRound(ctx, &pb.ExportRoundRequest{RoundId: id, Encoding: "klingon"}); code(err) != codes.InvalidArgument || !strings.Contains(err.Error(), "windows-1250") {
		t.Errorf("an export in klingon: %v, want InvalidArgument listing the known encodings", err)
	}

	// Windows-1252, not named: read so, with a warning.
	players, pairs := javafoFiles(t)
	// Its one name Windows-1252 cannot write, written as a Western
	// program would have had it.
	latin, err := charmap.Windows1252.NewEncoder().Bytes(bytes.ReplaceAll(players, []byte("ą"), []byte("a")))
	if err != nil {
		t.Fatal(err)
	}
	imp = realImport(t, arb, ctx, "Nordic", nil, &pb.ImportRoundRequest{Content: latin, Pairings: pairs})
	warned := false
	for _, w := range imp.GetWarnings() {
		warned = warned || strings.Contains(w, "read as windows-1252") && strings.Contains(w, "-encoding")
	}
	if !warned || imp.GetEncoding() != "windows-1252" {
		t.Errorf("a Windows-1252 file not named: encoding %q, warnings %q", imp.GetEncoding(), imp.GetWarnings())
	}
	if got := exportTRF(t, arb, ctx, imp.GetRound().GetRoundId(), ""); !bytes.Contains(got, []byte("Schr\xf6der")) {
		t.Errorf("the export is not in Windows-1252 as the file was")
	}
}

// A tournament scores as it was created (3-1-0 here); a TRF whose point
// system says otherwise — its 162 line, or none at all (1-0.5-0) — is
// refused naming both. The round's tally and byes count with it: a
// pairing-allocated bye worth nothing where the file says so. Players
// whose points are not what their rounds score are named in a warning.
func TestImportScoring(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t)
	arb, ctx := h.Arbiter(t)
	three := &pb.Scoring{Win: 3, Draw: 1}
	for name, sc := range map[string]*pb.Scoring{"Classic": nil, "Three": three} {
		if _, err := arb.CreateTournament(ctx, &pb.CreateTournamentRequest{Name: name,
			DefaultConfig: &pb.ClockConfig{TimeControl: "5400+30", Regulations: &pb.Regulations{Scoring: sc}}}); err != nil {
			t.Fatal(err)
		}
	}
	tr := realRound(t, realFile("real/bbp-generated-3-1-0.trf"), 7, threeOne)
	classic := realRound(t, realFile("real/bbp-issue-7.trf"), 14, classicPoints)
	for _, c := range []struct {
		tournament string
		rf         roundFiles
		want       []string
	}{
		{"Classic", tr, []string{"the TRF scores 3-1-0", "the tournament Classic scores 1-0.5-0", "-scoring 3-1-0"}},
		{"Three", classic, []string{"the TRF states no point system", "so it scores 1-0.5-0", "the tournament Three scores 3-1-0", "XXS W=3 D=1"}},
	} {
		_, err := arb.ImportRound(ctx, &pb.ImportRoundRequest{Tournament: c.tournament, Content: c.rf.before, Pairings: c.rf.pairings})
		for _, w := range c.want {
			if code(err) != codes.InvalidArgument || !strings.Contains(err.Error(), w) {
				t.Errorf("into %s: %v; want InvalidArgument saying %q", c.tournament, err, w)
			}
		}
	}

	imp, err := arb.ImportRound(ctx, &pb.ImportRoundRequest{Tournament: "Three", Content: tr.before, Pairings: tr.pairings})
	if err != nil {
		t.Fatal(err)
	}
	playAsRecorded(t, arb, ctx, tr, imp.GetBoards())
	var white, black float64
	for _, cs := range tr.games {
		white += threeOne.score(cs[0])
		black += threeOne.score(cs[1])
	}
	r, err := arb.GetRound(ctx, &pb.GetRoundRequest{RoundId: imp.GetRound().GetRoundId()})
	if err != nil || r.GetTally().GetWhitePoints() != white || r.GetTally().GetBlackPoints() != black || white+black < 50 {
		t.Errorf("tally %v, %v; want %v–%v", r.GetTally(), err, white, black)
	}

	// The scoring is the tournament's, kept: after a restart the round
	// still counts 3-1-0, and exports as before.
	before := exportTRF(t, arb, ctx, imp.GetRound().GetRoundId(), "")
	h.Restart(t)
	ts, err := arb.ListTournaments(ctx, &pb.ListTournamentsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range ts.GetTournaments() {
		if sc := tr.GetDefaultConfig().GetRegulations().GetScoring(); tr.GetName() == "Three" && (sc.GetWin() != 3 || sc.GetDraw() != 1) {
			t.Errorf("after a restart Three scores %v", sc)
		}
	}
	r, err = arb.GetRound(ctx, &pb.GetRoundRequest{Tournament: "three", Number: 7})
	if err != nil || r.GetTally().GetWhitePoints() != white {
		t.Errorf("after a restart: tally %v, %v; want %v for White", r.GetTally(), err, white)
	}
	if after := exportTRF(t, arb, ctx, imp.GetRound().GetRoundId(), ""); !bytes.Equal(after, before) {
		t.Errorf("after a restart the export differs: %s", firstDifference(after, before))
	}

	// bbpPairings' team fork: "162  P 0.0", a pairing-allocated bye scores
	// nothing; a full-point bye one.
	team := realRound(t, realFile("real/sharly-team-forfeit-win.trf"), 1, points{1, 0.5, 0})
	imp = realImport(t, arb, ctx, "Teams", nil, &pb.ImportRoundRequest{Content: team.paired})
	pts := map[pb.ByeKind][]float64{}
	for _, b := range imp.GetRound().GetByes() {
		pts[b.GetKind()] = append(pts[b.GetKind()], b.GetPoints())
	}
	if fmt.Sprint(pts[pb.ByeKind_BYE_KIND_PAIRING]) != "[0 0 0]" || fmt.Sprint(pts[pb.ByeKind_BYE_KIND_FULL]) != "[1]" || fmt.Sprint(pts[pb.ByeKind_BYE_KIND_ZERO]) != "[0]" {
		t.Errorf("byes score %v; want the pairing-allocated ones 0, the full-point one 1, the zero-point one 0", pts)
	}
	ex, err := arb.ExportRound(ctx, &pb.ExportRoundRequest{RoundId: imp.GetRound().GetRoundId(), Format: pb.ExportFormat_EXPORT_FORMAT_CSV})
	if err != nil || !bytes.Contains(ex.GetContent(), []byte(",bye,,,,,U,,0,\n")) {
		t.Errorf("the CSV's pairing-allocated byes: %v\n%s", err, ex.GetContent())
	}

	// Points that are not what the rounds score: player 1's, ten more.
	ls := splitLines(classic.paired)
	var had string
	for i, l := range ls {
		if isPlayer(l) && rank(l) == 1 {
			had = strings.TrimSpace(cols(l.text, 81, 84))
			v, _ := strconv.ParseFloat(had, 64)
			ls[i].text = setCols(l.text, 81, fmt.Sprintf("%4.1f", v+10))
		}
	}
	wrong := joinLines(ls, true)
	imp = realImport(t, arb, ctx, "Wrong points", nil, &pb.ImportRoundRequest{Content: wrong})
	warned := false
	for _, w := range imp.GetWarnings() {
		warned = warned || strings.Contains(w, "the points of 1 players are not what their rounds score 1-0.5-0") && strings.Contains(w, "1 (line 2) has "+strconv.FormatFloat(mustFloat(t, had)+10, 'f', -1, 64)+", its rounds score "+had)
	}
	if !warned {
		t.Errorf("warnings %q; want one naming the player with 19.5 points", imp.GetWarnings())
	}
}

func mustFloat(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}
