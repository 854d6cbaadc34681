package server_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/chesshall/hallclock/formats/roundcsv"
	"github.com/chesshall/hallclock/formats/trf"
	"github.com/chesshall/hallclock/internal/testkit/halltest"
	"github.com/chesshall/hallclock/internal/testkit/pgncheck"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
)

// The testdata of formats/trf: an open of 21 players, round 5 paired by
// JaVaFo (a half-point bye in the TRF's columns, an absent player on XXZ,
// the pairing-allocated bye in the output).
func javafoFiles(t *testing.T) (players, pairs []byte) {
	t.Helper()
	var err error
	if players, err = os.ReadFile("../formats/trf/testdata/nordic-open-r5.trfx"); err != nil {
		t.Fatal(err)
	}
	if pairs, err = os.ReadFile("../formats/trf/testdata/nordic-open-r5.pairs"); err != nil {
		t.Fatal(err)
	}
	return players, pairs
}

// openHall starts a hall with the open's tournament and a plan putting
// CLK-001.. at tables 1..n.
func openHall(t *testing.T, tables int) (*halltest.Hall, pb.ArbiterClient, context.Context) {
	t.Helper()
	h := halltest.Start(t)
	arb, ctx := h.Arbiter(t)
	if _, err := arb.CreateTournament(ctx, &pb.CreateTournamentRequest{Name: "Nordic Autumn Open 2025",
		DefaultConfig: &pb.ClockConfig{TimeControl: "5400+30"}}); err != nil {
		t.Fatal(err)
	}
	req := &pb.SetPlanRequest{}
	for i := 1; i <= tables; i++ {
		req.Tables = append(req.Tables, &pb.PlanTable{Table: int32(i), DeviceId: fmt.Sprintf("CLK-%03d", i)})
	}
	if _, err := arb.SetPlan(ctx, req); err != nil {
		t.Fatal(err)
	}
	return h, arb, ctx
}

func importRound(t *testing.T, arb pb.ArbiterClient, ctx context.Context) *pb.ImportRoundResponse {
	t.Helper()
	players, pairs := javafoFiles(t)
	r, err := arb.ImportRound(ctx, &pb.ImportRoundRequest{Tournament: "nordic autumn open 2025", Content: players, Pairings: pairs})
	if err != nil {
		t.Fatalf("ImportRound: %v", err)
	}
	return r
}

// A round imported from JaVaFo's input and output: boards in the output's
// order with the TRF's players, each at its table with the plan's clock;
// byes as results without a board. Played to the end, it exports as
// TRF-16 (read back: the same games and results, the points moved), CSV
// and a PGN archive pgn-extract reads; a later correction is counted.
func TestImportPlayExport(t *testing.T) {
	t.Parallel()
	h, arb, ctx := openHall(t, 9)
	imp := importRound(t, arb, ctx)
	if len(imp.GetWarnings()) > 0 {
		t.Errorf("warnings: %v", imp.GetWarnings())
	}
	r := imp.GetRound()
	if r.GetNumber() != 5 || r.GetSource() != "trf" || r.GetStatus() != pb.RoundStatus_ROUND_STATUS_PAIRED ||
		r.GetTally().GetWaiting() != 9 || r.GetTally().GetByes() != 3 {
		t.Errorf("round = %v", r)
	}
	byes := map[string]pb.ByeKind{}
	for _, b := range r.GetByes() {
		byes[b.GetPlayer().GetName()] = b.GetKind()
	}
	if want := map[string]pb.ByeKind{"Lindqvist, Erik": pb.ByeKind_BYE_KIND_HALF, "Dubois, Camille": pb.ByeKind_BYE_KIND_ZERO,
		"Larsen, Freja": pb.ByeKind_BYE_KIND_PAIRING}; !reflect.DeepEqual(byes, want) {
		t.Errorf("byes %v, want %v", byes, want)
	}
	pairs := [][2]int32{{1, 7}, {5, 9}, {11, 15}, {2, 18}, {3, 19}, {6, 14}, {8, 17}, {10, 21}, {12, 13}}
	for i, b := range imp.GetBoards() {
		if b.GetNumber() != int32(i+1) || b.GetTable() != int32(i+1) || b.GetDeviceId() != fmt.Sprintf("CLK-%03d", i+1) ||
			b.GetWhite().GetStartRank() != pairs[i][0] || b.GetBlack().GetStartRank() != pairs[i][1] || b.GetRoundNumber() != 5 {
			t.Errorf("board %d = %v", i+1, b)
		}
	}
	if w := imp.GetBoards()[0].GetWhite(); w.GetName() != "Berzins, Arturs" || w.GetRating() != 2587 || w.GetFideId() != "11604514" || w.GetTitle() != "GM" || w.GetFederation() != "LAT" {
		t.Errorf("board 1 White = %v", w)
	}

	// Play: every clock connected, started at once, every result through
	// the clocks.
	for _, b := range imp.GetBoards() {
		h.Device(t, b.GetDeviceId())
	}
	if _, err := arb.StartRound(ctx, &pb.StartRoundRequest{RoundId: r.GetRoundId()}); err != nil {
		t.Fatal(err)
	}
	results := []string{"1-0", "1/2-1/2", "0-1", "+-", "--", "0-0", "-+", "1-0", "1/2-1/2"}
	for i, b := range imp.GetBoards() {
		act(t, arb, ctx, b.GetBoardId(), &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_RESULT, Result: results[i], Termination: "arbiter"}, pb.CommandStatus_COMMAND_STATUS_APPLIED)
	}
	got, err := arb.GetRound(ctx, &pb.GetRoundRequest{Tournament: "Nordic Autumn Open 2025", Number: 5})
	if err != nil {
		t.Fatal(err)
	}
	if got.GetStatus() != pb.RoundStatus_ROUND_STATUS_COMPLETE || got.GetTally().GetFinished() != 9 || got.GetCompletedUnixMs() == 0 ||
		got.GetTally().GetWhitePoints() != 4 || got.GetTally().GetBlackPoints() != 3 {
		t.Errorf("after the results: %v", got)
	}

	// TRF-16: the same games with their results, the points moved.
	ex, err := arb.ExportRound(ctx, &pb.ExportRoundRequest{RoundId: r.GetRoundId(), Format: pb.ExportFormat_EXPORT_FORMAT_TRF})
	if err != nil {
		t.Fatal(err)
	}
	if !ex.GetFinal() || ex.GetFilename() != "nordic-autumn-open-2025-r5.trf" {
		t.Errorf("export: final %v, file %q", ex.GetFinal(), ex.GetFilename())
	}
	f, err := trf.Read(bytes.NewReader(ex.GetContent()))
	if err != nil {
		t.Fatalf("reading the exported TRF: %v", err)
	}
	tr, err := f.Round(5)
	if err != nil {
		t.Fatalf("round 5 of the exported TRF: %v", err)
	}
	for i, b := range tr.Boards {
		res, err := trf.ResultOf(b.WhiteResult, b.BlackResult)
		if b.White != int(pairs[i][0]) || b.Black != int(pairs[i][1]) || err != nil || string(res) != results[i] {
			t.Errorf("TRF board %d: %d-%d %s %v; want %v %s", i+1, b.White, b.Black, res, err, pairs[i], results[i])
		}
	}
	// Berzins had 4 points and won; Lindqvist's half-point bye counted
	// already in the JaVaFo input.
	for rank, want := range map[int]float64{1: 5, 7: 2, 4: 4, 20: 1.5, 16: 1.5} {
		if p := f.Player(rank); p.Points != want {
			t.Errorf("player %d (%s) has %.1f points, want %.1f", rank, p.Name, p.Points, want)
		}
	}

	// CSV.
	ex, err = arb.ExportRound(ctx, &pb.ExportRoundRequest{Tournament: "Nordic Autumn Open 2025", Number: 5, Format: pb.ExportFormat_EXPORT_FORMAT_CSV})
	if err != nil {
		t.Fatal(err)
	}
	cr, err := roundcsv.Read(bytes.NewReader(ex.GetContent()))
	if err != nil {
		t.Fatalf("reading the exported CSV: %v\n%s", err, ex.GetContent())
	}
	for i, g := range cr.Games {
		if string(g.Result) != results[i] || g.White.Number != int(pairs[i][0]) || g.Board != i+1 {
			t.Errorf("CSV board %d = %+v, want %s", i+1, g, results[i])
		}
	}
	if len(cr.Byes) != 3 || cr.Number != 5 {
		t.Errorf("CSV: round %d, byes %+v", cr.Number, cr.Byes)
	}

	// PGN: every game, read by pgn-extract.
	ex, err = arb.ExportRound(ctx, &pb.ExportRoundRequest{RoundId: r.GetRoundId(), Format: pb.ExportFormat_EXPORT_FORMAT_PGN})
	if err != nil {
		t.Fatal(err)
	}
	games := pgncheck.Read(t, ex.GetContent())
	wantTags := []string{"1-0", "1/2-1/2", "0-1", "1-0", "*", "*", "0-1", "1-0", "1/2-1/2"}
	if len(games) != 9 {
		t.Fatalf("pgn-extract read %d games, want 9", len(games))
	}
	for i, g := range games {
		if g.Tags["Result"] != wantTags[i] || g.Tags["Board"] != fmt.Sprint(i+1) || g.Tags["Round"] != "5" || g.Tags["TimeControl"] != "5400+30" {
			t.Errorf("PGN game %d tags %v, want Result %s", i+1, g.Tags, wantTags[i])
		}
	}

	// A correction after completion is audited and counted; the export
	// stays final and shows it.
	act(t, arb, ctx, imp.GetBoards()[0].GetBoardId(), &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_RESULT, Result: "0-1", Termination: "arbiter"}, pb.CommandStatus_COMMAND_STATUS_APPLIED)
	ex, err = arb.ExportRound(ctx, &pb.ExportRoundRequest{RoundId: r.GetRoundId(), Format: pb.ExportFormat_EXPORT_FORMAT_CSV})
	if err != nil {
		t.Fatal(err)
	}
	cr, _ = roundcsv.Read(bytes.NewReader(ex.GetContent()))
	if !ex.GetFinal() || ex.GetCorrections() != 1 || cr == nil || cr.Games[0].Result != rules.BlackWins {
		t.Errorf("after a correction: final %v, corrections %d, board 1 %v", ex.GetFinal(), ex.GetCorrections(), cr)
	}
}

func code(err error) codes.Code { return status.Code(err) }

// A bad file imports nothing and its error names the line and the column;
// a round imported twice is refused unless replaced before it starts.
func TestImportRefusals(t *testing.T) {
	t.Parallel()
	h, arb, ctx := openHall(t, 9)
	players, pairs := javafoFiles(t)
	shifted := strings.Replace(string(players), "001    1 mGM  Berzins, Arturs", "001    1 mGM   Berzins, Arturs", 1)
	for _, c := range []struct {
		name     string
		req      *pb.ImportRoundRequest
		contains string
	}{
		{"shifted columns", &pb.ImportRoundRequest{Content: []byte(shifted), Pairings: pairs}, "line 16, column 53"},
		{"unknown player", &pb.ImportRoundRequest{Content: players, Pairings: []byte("2\n1 7\n5 57\n")}, "line 3, column 3: 57 is no player"},
		{"player twice", &pb.ImportRoundRequest{Content: players, Pairings: []byte("2\n1 7\n7 9\n")}, "line 3, column 1: player 7 is paired twice"},
		{"duplicate boards", &pb.ImportRoundRequest{Number: 5, Content: []byte("Board,White,Black\n1,A,B\n1,C,D\n")}, "line 3, column 1 (Board): board 1 is also on line 2"},
		{"no round", &pb.ImportRoundRequest{Content: []byte("Board,White,Black\n1,A,B\n")}, "say which round"},
	} {
		c.req.Tournament = "Nordic Autumn Open 2025"
		_, err := arb.ImportRound(ctx, c.req)
		if code(err) != codes.InvalidArgument || !strings.Contains(err.Error(), c.contains) {
			t.Errorf("%s: %v; want InvalidArgument saying %q", c.name, err, c.contains)
		}
	}
	rs, err := arb.ListRounds(ctx, &pb.ListRoundsRequest{})
	if err != nil || len(rs.GetRounds()) != 0 {
		t.Fatalf("after bad files: rounds %v, %v; want none", rs, err)
	}

	first := importRound(t, arb, ctx)
	if _, err := arb.ImportRound(ctx, &pb.ImportRoundRequest{Tournament: "Nordic Autumn Open 2025", Content: players, Pairings: pairs}); code(err) != codes.AlreadyExists {
		t.Errorf("importing round 5 again: %v, want AlreadyExists", err)
	}
	// Replaced before it starts: the old boards are withdrawn.
	w := h.WatchHall(t)
	old := first.GetBoards()[0].GetBoardId()
	halltest.Eventually(t, 5*time.Second, func() error {
		if w.Last(old) == nil {
			return fmt.Errorf("the watcher has not seen board %s", old)
		}
		return nil
	})
	repl, err := arb.ImportRound(ctx, &pb.ImportRoundRequest{Tournament: "Nordic Autumn Open 2025", Content: players,
		Pairings: []byte("10\n7 1\n5 9\n11 15\n2 18\n3 19\n6 14\n8 17\n10 21\n12 13\n20 0\n"), Replace: true})
	if err != nil {
		t.Fatalf("replacing round 5: %v", err)
	}
	if repl.GetRound().GetRoundId() != first.GetRound().GetRoundId() || repl.GetBoards()[0].GetWhite().GetStartRank() != 7 ||
		repl.GetBoards()[0].GetDeviceId() != "CLK-001" {
		t.Errorf("replaced round: %v, board 1 %v", repl.GetRound(), repl.GetBoards()[0])
	}
	if _, err := arb.GetBoard(ctx, &pb.GetBoardRequest{BoardId: old}); code(err) != codes.NotFound {
		t.Errorf("GetBoard of a withdrawn board: %v, want NotFound", err)
	}
	halltest.Eventually(t, 5*time.Second, func() error {
		if !w.Last(old).GetWithdrawn() {
			return fmt.Errorf("the watcher has not seen board %s withdrawn", old)
		}
		return nil
	})
	bs, err := arb.ListBoards(ctx, &pb.ListBoardsRequest{Tournament: "Nordic Autumn Open 2025", Number: 5})
	if err != nil || len(bs.GetBoards()) != 9 {
		t.Errorf("ListBoards of round 5: %d boards, %v", len(bs.GetBoards()), err)
	}
	// Once a clock runs, the round stays.
	h.Device(t, "CLK-001")
	if _, err := arb.StartRound(ctx, &pb.StartRoundRequest{RoundId: repl.GetRound().GetRoundId(), BoardIds: []string{repl.GetBoards()[0].GetBoardId()}}); err != nil {
		t.Fatal(err)
	}
	_, err = arb.ImportRound(ctx, &pb.ImportRoundRequest{Tournament: "Nordic Autumn Open 2025", Content: players, Pairings: pairs, Replace: true})
	if code(err) != codes.FailedPrecondition {
		t.Errorf("replacing a started round: %v, want FailedPrecondition", err)
	}
	if _, err := arb.ListBoards(ctx, &pb.ListBoardsRequest{RoundId: "r-nonesuch"}); code(err) != codes.NotFound {
		t.Errorf("ListBoards of an unknown round: %v, want NotFound", err)
	}
}

// The hall plan gives an imported round its clocks by table; replacing a
// clock puts the replacement in the plan; a clock still keeping a game
// stays there, with a warning.
func TestPlanFollowsTheHall(t *testing.T) {
	t.Parallel()
	h, arb, ctx := openHall(t, 9)
	imp := importRound(t, arb, ctx)
	b1 := imp.GetBoards()[0]
	h.Device(t, "CLK-001")
	if _, err := arb.AssignDevice(ctx, &pb.AssignDeviceRequest{BoardId: b1.GetBoardId(), DeviceId: "CLK-099", Reason: "battery"}); err != nil {
		t.Fatal(err)
	}
	plan, err := arb.GetPlan(ctx, &pb.GetPlanRequest{})
	if err != nil || plan.GetTables()[0].GetDeviceId() != "CLK-099" || plan.GetTables()[0].GetBoardId() != b1.GetBoardId() {
		t.Errorf("plan after replacing table 1's clock: %v, %v", plan, err)
	}
	// Round 6 while round 5's boards are waiting: their clocks stay.
	csv := "Round,Board,White,Black\n6,1,Berzins,Haugen\n6,2,Ottesen,Nguyen\n"
	r6, err := arb.ImportRound(ctx, &pb.ImportRoundRequest{Tournament: "Nordic Autumn Open 2025", Content: []byte(csv), FirstTable: 8})
	if err != nil {
		t.Fatal(err)
	}
	if len(r6.GetWarnings()) != 2 || !strings.Contains(r6.GetWarnings()[0], "table 8's clock CLK-008 still keeps board 8 of round 5") {
		t.Errorf("warnings %v", r6.GetWarnings())
	}
	if b := r6.GetBoards(); b[0].GetTable() != 8 || b[0].GetDeviceId() != "" || b[1].GetTable() != 9 {
		t.Errorf("round 6 boards %v", b)
	}
	ts, err := arb.ListTournaments(ctx, &pb.ListTournamentsRequest{})
	if err != nil || len(ts.GetTournaments()) != 1 || !reflect.DeepEqual(ts.GetTournaments()[0].GetRounds(), []int32{5, 6}) {
		t.Errorf("tournaments %v, %v", ts, err)
	}
}
