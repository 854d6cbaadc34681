package server_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/chesshall/hallclock/formats/standings"
	"github.com/chesshall/hallclock/formats/trf"
	"github.com/chesshall/hallclock/internal/testkit/halltest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

func getStandings(t *testing.T, arb pb.ArbiterClient, ctx context.Context, req *pb.StandingsRequest) *pb.StandingsResponse {
	t.Helper()
	st, err := arb.Standings(ctx, req)
	if err != nil {
		t.Fatalf("Standings %v: %v", req, err)
	}
	return st
}

// sameAsComputed checks the hall's standings row by row against
// standings.Compute on the same file: rank, start number, points and each
// tie-break's value.
func sameAsComputed(t *testing.T, what string, got *pb.StandingsResponse, file []byte, after int) {
	t.Helper()
	f, err := trf.Read(bytes.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	model, err := standings.FromTRF(f, got.GetRoundRobin())
	if err != nil {
		t.Fatal(err)
	}
	if n := f.Rounds(); n > 0 {
		model.Rounds = n
	}
	want, err := standings.Compute(model, after, standings.Defaults(got.GetRoundRobin()))
	if err != nil {
		t.Fatal(err)
	}
	if len(got.GetRows()) != len(want.Rows) || int(got.GetAfterRound()) != after {
		t.Fatalf("%s: %d rows after round %d, want %d after %d", what, len(got.GetRows()), got.GetAfterRound(), len(want.Rows), after)
	}
	for i, w := range want.Rows {
		g := got.GetRows()[i]
		var vals []string
		for _, v := range w.Values {
			vals = append(vals, v.String())
		}
		if int(g.GetRank()) != w.Rank || int(g.GetStart()) != w.Start || g.GetPoints() != w.Points.String() || !slices.Equal(g.GetTieBreaks(), vals) {
			t.Errorf("%s row %d: rank %d start %d points %s %v; want rank %d start %d points %s %v", what, i+1,
				g.GetRank(), g.GetStart(), g.GetPoints(), g.GetTieBreaks(), w.Rank, w.Start, w.Points, vals)
		}
		if len(g.GetRounds()) != after {
			t.Errorf("%s row %d: %d crosstable cells, want %d", what, i+1, len(g.GetRounds()), after)
		}
	}
}

// Real tournaments (bbpPairings' test suite, Swisses, one scoring 3-1-0) come into the hall
// at its last round, paired: the standings after the rounds before it are
// the file's, before the hall has played a round of its own; during the
// round they are provisional (the games playing count as not yet played);
// played as recorded, they are those of the complete file. Each is checked
// against standings.Compute on the same data, with FIDE's Swiss defaults.
func TestStandingsOfARealTournament(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		file    string
		points  points
		scoring *pb.Scoring
	}{
		{"real/bbp-issue-7.trf", classicPoints, nil},
		{"real/bbp-generated-3-1-0.trf", threeOne, &pb.Scoring{Win: 3, Draw: 1}},
		{"real/lichess-j8rtJ5GL.trf", classicPoints, nil}, // 112 players, 20 rounds, absences
	} {
		t.Run(c.file, func(t *testing.T) {
			t.Parallel()
			standingsOfARealFile(t, realFile(c.file), c.points, c.scoring)
		})
	}
}

func standingsOfARealFile(t *testing.T, path string, pts points, scoring *pb.Scoring) {
	h := halltest.Start(t)
	arb, ctx := h.Arbiter(t)
	f, err := trf.Read(bytes.NewReader(realRound(t, path, 1, pts).orig))
	if err != nil {
		t.Fatal(err)
	}
	n, _ := f.PairedRounds()
	rf := realRound(t, path, n, pts)
	imp := realImport(t, arb, ctx, "Real Swiss", scoring, &pb.ImportRoundRequest{Content: rf.paired})
	before := getStandings(t, arb, ctx, &pb.StandingsRequest{Tournament: "Real Swiss", AfterRound: int32(n - 1)})
	if before.GetProvisional() || before.GetRoundRobin() {
		t.Errorf("after round %d (complete, a Swiss): provisional %v, round robin %v", n-1, before.GetProvisional(), before.GetRoundRobin())
	}
	if want := strings.Split(standings.Format(standings.Defaults(false)), ","); !slices.Equal(before.GetTieBreaks(), want) {
		t.Errorf("tie-breaks %v, want FIDE's Swiss defaults %v", before.GetTieBreaks(), want)
	}
	sameAsComputed(t, fmt.Sprintf("after round %d", n-1), before, rf.orig, n-1)

	live := getStandings(t, arb, ctx, &pb.StandingsRequest{Tournament: "Real Swiss"})
	if !live.GetProvisional() || int(live.GetAfterRound()) != n {
		t.Errorf("during round %d: provisional %v after %d, want provisional after %d", n, live.GetProvisional(), live.GetAfterRound(), n)
	}
	sameAsComputed(t, fmt.Sprintf("during round %d", n), live, rf.paired, n)
	playing := 0
	for _, row := range live.GetRows() {
		if c := row.GetRounds()[n-1]; c.GetResult() == "*" {
			playing++
		}
	}
	if playing != 2*len(imp.GetBoards()) {
		t.Errorf("during round %d: %d players shown still playing, want %d", n, playing, 2*len(imp.GetBoards()))
	}

	playAsRecorded(t, arb, ctx, rf, imp.GetBoards())
	done := getStandings(t, arb, ctx, &pb.StandingsRequest{Tournament: "Real Swiss"})
	if done.GetProvisional() {
		t.Errorf("round %d played: still provisional", n)
	}
	sameAsComputed(t, fmt.Sprintf("after round %d", n), done, rf.orig, n)
}

// addGame adds a board with its players by start number and records its
// result from a scoresheet ("" leaves it playing).
func addGame(t *testing.T, arb pb.ArbiterClient, ctx context.Context, round string, n int32, section string, white, black int32, result string, cfg *pb.ClockConfig) {
	t.Helper()
	b, err := arb.AddBoard(ctx, &pb.AddBoardRequest{RoundId: round, Number: n, Section: section, Config: cfg,
		White: &pb.Player{Name: fmt.Sprintf("Player %d", white), StartRank: white, Rating: 2400 - 10*white},
		Black: &pb.Player{Name: fmt.Sprintf("Player %d", black), StartRank: black, Rating: 2400 - 10*black}})
	if err != nil {
		t.Fatal(err)
	}
	if result == "" {
		return
	}
	if _, err := arb.UseVirtualClock(ctx, &pb.UseVirtualClockRequest{BoardId: b.GetBoardId(), Reason: "scoresheets"}); err != nil {
		t.Fatal(err)
	}
	act(t, arb, ctx, b.GetBoardId(), &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_RESULT, Result: result}, pb.CommandStatus_COMMAND_STATUS_APPLIED)
}

type rowWant struct {
	rank, start int32
	points      string
	tbs         []string
}

func checkRows(t *testing.T, what string, st *pb.StandingsResponse, want []rowWant) {
	t.Helper()
	var got []rowWant
	for _, r := range st.GetRows() {
		got = append(got, rowWant{r.GetRank(), r.GetStart(), r.GetPoints(), r.GetTieBreaks()})
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("%s:\n got %v\nwant %v", what, got, want)
	}
}

// Four players over two rounds of the hall's own, worked out by hand with
// the tie-breaks the tournament lists (BH, SB, WIN). Round 1's board 2 is
// an Armageddon (draw odds for Black) drawn over the board: it counts as
// player 4's win. Had it counted as the draw, player 2 would be above
// player 4. During round 2, with board 2 playing, the standings are
// provisional and board 2's players show it as not yet played.
func TestStandingsByHandWithArmageddon(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t)
	arb, ctx := h.Arbiter(t)
	tr, err := arb.CreateTournament(ctx, &pb.CreateTournamentRequest{Name: "Hand", DefaultConfig: &pb.ClockConfig{TimeControl: "90m+30s"},
		TieBreaks: "bh, sb,WIN"})
	if err != nil {
		t.Fatal(err)
	}
	if tr.GetTieBreaks() != "BH,SB,WIN" {
		t.Errorf("tie-breaks stored as %q, want BH,SB,WIN", tr.GetTieBreaks())
	}
	round := func(n int32) string {
		r, err := arb.CreateRound(ctx, &pb.CreateRoundRequest{TournamentId: tr.GetTournamentId(), Number: n})
		if err != nil {
			t.Fatal(err)
		}
		return r.GetRoundId()
	}
	r1 := round(1)
	addGame(t, arb, ctx, r1, 1, "", 1, 2, "1-0", nil)
	addGame(t, arb, ctx, r1, 2, "", 3, 4, "1/2-1/2", &pb.ClockConfig{TimeControl: "white 60/5m:0+2s | black 60/4m:0+2s", Regulations: &pb.Regulations{DrawOdds: "black"}})
	r2 := round(2)
	addGame(t, arb, ctx, r2, 1, "", 1, 4, "1/2-1/2", nil)
	addGame(t, arb, ctx, r2, 2, "", 2, 3, "", nil)

	live := getStandings(t, arb, ctx, &pb.StandingsRequest{Tournament: "Hand"})
	if !live.GetProvisional() || live.GetAfterRound() != 2 || !slices.Equal(live.GetTieBreaks(), []string{"BH", "SB", "WIN"}) {
		t.Errorf("during round 2: provisional %v after %d tie-breaks %v", live.GetProvisional(), live.GetAfterRound(), live.GetTieBreaks())
	}
	// 1: beat 2, drew 4; 4: won the Armageddon against 3, drew 1; 2 and 3
	// still playing, so at 0 for now, and their pending round counts in
	// no tie-break: BH(1) = 0 (2) + 1.5 (4), SB(1) = 1·0 + ½·1.5, the
	// same as 4's — 1 and 4 share the lead.
	checkRows(t, "during round 2", live, []rowWant{
		{1, 1, "1.5", []string{"1.5", "0.75", "1"}},
		{1, 4, "1.5", []string{"1.5", "0.75", "1"}},
		{3, 2, "0", []string{"1.5", "0", "0"}},
		{3, 3, "0", []string{"1.5", "0", "0"}},
	})
	for _, row := range live.GetRows() {
		if row.GetStart() == 4 {
			if c := row.GetRounds()[0]; c.GetOpponent() != 3 || c.GetColour() != "b" || c.GetResult() != "1" || c.GetOpponentRank() != 3 {
				t.Errorf("player 4's Armageddon in the crosstable: %v, want a win with Black against 3 (ranked 3)", c)
			}
		}
		if (row.GetStart() == 2 || row.GetStart() == 3) && row.GetRounds()[1].GetResult() != "*" {
			t.Errorf("player %d's game in round 2 is playing, shown %q", row.GetStart(), row.GetRounds()[1].GetResult())
		}
	}
	after1 := getStandings(t, arb, ctx, &pb.StandingsRequest{Tournament: "Hand", AfterRound: 1})
	if after1.GetProvisional() {
		t.Error("after round 1 (complete): provisional")
	}

	for _, b := range mustBoards(t, arb, ctx, r2) {
		if b.GetNumber() == 2 {
			if _, err := arb.UseVirtualClock(ctx, &pb.UseVirtualClockRequest{BoardId: b.GetBoardId(), Reason: "scoresheets"}); err != nil {
				t.Fatal(err)
			}
			act(t, arb, ctx, b.GetBoardId(), &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_RESULT, Result: "1-0"}, pb.CommandStatus_COMMAND_STATUS_APPLIED)
		}
	}
	if _, err := arb.Standings(ctx, &pb.StandingsRequest{Tournament: "Hand", AfterRound: 3}); status.Code(err) != codes.InvalidArgument ||
		!strings.Contains(err.Error(), "up to round 2") {
		t.Errorf("standings after round 3 of 2: %v, want InvalidArgument saying the results go up to round 2", err)
	}
	done := getStandings(t, arb, ctx, &pb.StandingsRequest{Tournament: "Hand"})
	if done.GetProvisional() {
		t.Error("round 2 complete: provisional")
	}
	// BH(1) = 1 (2) + 1.5 (4); SB(1) = 1 + ½·1.5. BH(4) = 0 (3) + 1.5 (1);
	// SB(4) = 0 + ½·1.5. BH(2) = 1.5 + 0; BH(3) = 1.5 + 1.
	checkRows(t, "after round 2", done, []rowWant{
		{1, 1, "1.5", []string{"2.5", "1.75", "1"}},
		{2, 4, "1.5", []string{"1.5", "0.75", "1"}},
		{3, 2, "1", []string{"1.5", "0", "1"}},
		{4, 3, "0", []string{"2.5", "0", "0"}},
	})
}

func mustBoards(t *testing.T, arb pb.ArbiterClient, ctx context.Context, round string) []*pb.Board {
	t.Helper()
	r, err := arb.ListBoards(ctx, &pb.ListBoardsRequest{RoundId: round})
	if err != nil {
		t.Fatal(err)
	}
	return r.GetBoards()
}

// An arbiter of section A reads section A's players only, ranked among
// themselves, and is refused section B; the chief reads B with B's own
// tie-break list.
func TestStandingsBySection(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t)
	arb, ctx := h.Arbiter(t)
	tr, err := arb.CreateTournament(ctx, &pb.CreateTournamentRequest{Name: "Sections", DefaultConfig: &pb.ClockConfig{TimeControl: "90m+30s"},
		TieBreaks: "BH", SectionTieBreaks: map[string]string{"B": "SB,WIN"}})
	if err != nil {
		t.Fatal(err)
	}
	r, err := arb.CreateRound(ctx, &pb.CreateRoundRequest{TournamentId: tr.GetTournamentId(), Number: 1})
	if err != nil {
		t.Fatal(err)
	}
	addGame(t, arb, ctx, r.GetRoundId(), 1, "A", 1, 2, "0-1", nil)
	addGame(t, arb, ctx, r.GetRoundId(), 2, "B", 3, 4, "1-0", nil)

	anna := pb.NewArbiterClient(h.Conn(t))
	actx := halltest.Ctx(context.Background(), h.Token(t, pb.Role_ROLE_ARBITER, "Anna", "", "A"))
	a := getStandings(t, anna, actx, &pb.StandingsRequest{Tournament: "Sections"})
	checkRows(t, "section A as Anna reads it", a, []rowWant{{1, 2, "1", []string{"0"}}, {2, 1, "0", []string{"1"}}})
	if a.GetSection() != "A" {
		t.Errorf("Anna's standings are of section %q, want her only section A", a.GetSection())
	}
	bob := pb.NewArbiterClient(h.Conn(t))
	bctx := halltest.Ctx(context.Background(), h.Token(t, pb.Role_ROLE_ARBITER, "Bob", "", "B"))
	if b := getStandings(t, bob, bctx, &pb.StandingsRequest{Tournament: "Sections"}); !slices.Equal(b.GetTieBreaks(), []string{"SB", "WIN"}) || len(b.GetRows()) != 2 {
		t.Errorf("Bob (section B) reads tie-breaks %v and %d rows, want section B's own list SB,WIN and its 2 players", b.GetTieBreaks(), len(b.GetRows()))
	}
	_, err = anna.Standings(actx, &pb.StandingsRequest{Tournament: "Sections", Section: "B"})
	if status.Code(err) != codes.PermissionDenied {
		t.Errorf("Anna (section A) asking for section B: %v, want PermissionDenied", err)
	}
	b := getStandings(t, arb, ctx, &pb.StandingsRequest{Tournament: "Sections", Section: "B"})
	if !slices.Equal(b.GetTieBreaks(), []string{"SB", "WIN"}) {
		t.Errorf("section B's tie-breaks %v, want its own SB,WIN", b.GetTieBreaks())
	}
	checkRows(t, "section B", b, []rowWant{{1, 3, "1", []string{"0", "1"}}, {2, 4, "0", []string{"0", "0"}}})
	// The pages read the same through the JSON bridge, as Anna.
	code, body := newWeb(t, h).call("Standings", `{"tournament":"Sections"}`, map[string]string{"Authorization": "Bearer " + h.Token(t, pb.Role_ROLE_ARBITER, "Anna web", "", "A")})
	var viaWeb pb.StandingsResponse
	if err := protojson.Unmarshal([]byte(body), &viaWeb); code != http.StatusOK || err != nil {
		t.Fatalf("POST /api/arbiter/Standings as Anna: %d %s (%v)", code, body, err)
	}
	checkRows(t, "section A through the JSON bridge", &viaWeb, []rowWant{{1, 2, "1", []string{"0"}}, {2, 1, "0", []string{"1"}}})
	all := getStandings(t, arb, ctx, &pb.StandingsRequest{Tournament: "Sections"})
	if len(all.GetRows()) != 4 {
		t.Errorf("the chief reads %d rows of the whole tournament, want 4", len(all.GetRows()))
	}
}

// A tie-break list that does not read is refused, saying which entry and
// what the regulations allow; nothing is created.
func TestTieBreakListRefused(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t)
	arb, ctx := h.Arbiter(t)
	for _, c := range []struct{ list, entry string }{{"BH-C1,XYZ", "XYZ"}, {"BH,BH", "BH"}, {"BH-C9", "BH-C9"}} {
		_, err := arb.CreateTournament(ctx, &pb.CreateTournamentRequest{Name: "Bad " + c.list, TieBreaks: c.list})
		if status.Code(err) != codes.InvalidArgument || !strings.Contains(status.Convert(err).Message(), c.entry) ||
			!strings.Contains(status.Convert(err).Message(), "BH") {
			t.Errorf("tie-breaks %q: %v, want InvalidArgument naming %q and the acronyms allowed", c.list, err, c.entry)
		}
	}
	_, err := arb.CreateTournament(ctx, &pb.CreateTournamentRequest{Name: "Bad section", SectionTieBreaks: map[string]string{"A": "SB,NOPE"}})
	if status.Code(err) != codes.InvalidArgument || !strings.Contains(err.Error(), "NOPE") {
		t.Errorf("a section's bad list: %v, want InvalidArgument naming NOPE", err)
	}
	l, err := arb.ListTournaments(ctx, &pb.ListTournamentsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if len(l.GetTournaments()) != 0 {
		t.Errorf("refused tournaments were created: %v", l.GetTournaments())
	}
}

// Standings are refused, saying why, for a tournament with no rounds yet,
// and for one whose rounds name players without start numbers (over
// several rounds a player is known by his number), rather than guessed.
func TestStandingsRefusedClearly(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t)
	arb, ctx := h.Arbiter(t)
	tr, err := arb.CreateTournament(ctx, &pb.CreateTournamentRequest{Name: "Unnumbered", DefaultConfig: &pb.ClockConfig{TimeControl: "90m+30s"}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = arb.Standings(ctx, &pb.StandingsRequest{Tournament: "Unnumbered"})
	if status.Code(err) != codes.InvalidArgument || !strings.Contains(err.Error(), "no rounds yet") {
		t.Errorf("standings of a tournament without rounds: %v, want InvalidArgument saying it has no rounds yet", err)
	}
	for n := int32(1); n <= 2; n++ {
		r, err := arb.CreateRound(ctx, &pb.CreateRoundRequest{TournamentId: tr.GetTournamentId(), Number: n})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := arb.AddBoard(ctx, &pb.AddBoardRequest{RoundId: r.GetRoundId(), Number: 1,
			White: &pb.Player{Name: "Anna"}, Black: &pb.Player{Name: "Bert"}}); err != nil {
			t.Fatal(err)
		}
	}
	_, err = arb.Standings(ctx, &pb.StandingsRequest{Tournament: "Unnumbered"})
	if status.Code(err) != codes.InvalidArgument || !strings.Contains(err.Error(), "without a start number") {
		t.Errorf("standings of rounds without start numbers: %v, want InvalidArgument saying a player has none", err)
	}
}

// Four players, three rounds, every one meeting every other: the hall
// counts it as a round robin and ranks with FIDE's round-robin defaults
// (DE, WIN, SB, KS). 1 and 2 tie on 2 points; 2 beat 1, so the direct
// encounter puts 2 first. SB by hand: 2 beat 4 (0.5) and 1 (2) = 2.5;
// 1 beat 4 and 3 (0.5 + 1.5) = 2; 3 beat 2 (2) and drew 4 (½·0.5) = 2.25;
// 4 drew 3 (½·1.5) = 0.75.
func TestStandingsOfARoundRobin(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t)
	arb, ctx := h.Arbiter(t)
	tr, err := arb.CreateTournament(ctx, &pb.CreateTournamentRequest{Name: "Quad", DefaultConfig: &pb.ClockConfig{TimeControl: "90m+30s"}})
	if err != nil {
		t.Fatal(err)
	}
	for n, games := range [][2][3]string{
		{{"1", "4", "1-0"}, {"2", "3", "0-1"}},
		{{"1", "3", "1-0"}, {"4", "2", "0-1"}},
		{{"2", "1", "1-0"}, {"3", "4", "1/2-1/2"}},
	} {
		r, err := arb.CreateRound(ctx, &pb.CreateRoundRequest{TournamentId: tr.GetTournamentId(), Number: int32(n + 1)})
		if err != nil {
			t.Fatal(err)
		}
		for i, g := range games {
			var w, b int32
			fmt.Sscan(g[0], &w)
			fmt.Sscan(g[1], &b)
			addGame(t, arb, ctx, r.GetRoundId(), int32(i+1), "", w, b, g[2], nil)
		}
	}
	st := getStandings(t, arb, ctx, &pb.StandingsRequest{Tournament: "Quad"})
	if !st.GetRoundRobin() || !slices.Equal(st.GetTieBreaks(), []string{"DE", "WIN", "SB", "KS"}) || st.GetProvisional() {
		t.Fatalf("round robin %v, tie-breaks %v, provisional %v; want a round robin with DE,WIN,SB,KS, final", st.GetRoundRobin(), st.GetTieBreaks(), st.GetProvisional())
	}
	var order []string
	for _, r := range st.GetRows() {
		order = append(order, fmt.Sprintf("%d:%d %s WIN %s SB %s", r.GetRank(), r.GetStart(), r.GetPoints(), r.GetTieBreaks()[1], r.GetTieBreaks()[2]))
	}
	want := []string{"1:2 2 WIN 2 SB 2.5", "2:1 2 WIN 2 SB 2", "3:3 1.5 WIN 1 SB 2.25", "4:4 0.5 WIN 0 SB 0.75"}
	if !slices.Equal(order, want) {
		t.Errorf("round robin standings:\n got %v\nwant %v", order, want)
	}
}

// The chief changes a tournament's tie-break list after it was created
// (an imported tournament, a decision of the organiser), and a section's;
// the standings follow, the change is audited with what it was, it
// survives a restart; an arbiter may not, and a bad list is refused.
func TestSetTieBreaks(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t)
	arb, ctx := h.Arbiter(t)
	tr, err := arb.CreateTournament(ctx, &pb.CreateTournamentRequest{Name: "Later", DefaultConfig: &pb.ClockConfig{TimeControl: "90m+30s"}})
	if err != nil {
		t.Fatal(err)
	}
	r, err := arb.CreateRound(ctx, &pb.CreateRoundRequest{TournamentId: tr.GetTournamentId(), Number: 1})
	if err != nil {
		t.Fatal(err)
	}
	addGame(t, arb, ctx, r.GetRoundId(), 1, "A", 1, 2, "1-0", nil)
	tbs := func(section string) []string {
		t.Helper()
		return getStandings(t, arb, ctx, &pb.StandingsRequest{Tournament: "Later", Section: section}).GetTieBreaks()
	}
	if got := tbs(""); !slices.Equal(got, strings.Split(standings.Format(standings.Defaults(false)), ",")) {
		t.Errorf("before: %v, want FIDE's Swiss defaults", got)
	}
	set, err := arb.SetTieBreaks(ctx, &pb.SetTieBreaksRequest{Tournament: "later", TieBreaks: "sb, bh-m1", Reason: "the regulations say so"})
	if err != nil || set.GetTieBreaks() != "SB,BH-M1" {
		t.Fatalf("SetTieBreaks: %v %v, want SB,BH-M1", set.GetTieBreaks(), err)
	}
	if _, err := arb.SetTieBreaks(ctx, &pb.SetTieBreaksRequest{Tournament: "Later", Section: "A", TieBreaks: "WIN"}); err != nil {
		t.Fatal(err)
	}
	if got := tbs(""); !slices.Equal(got, []string{"SB", "BH-M1"}) {
		t.Errorf("the tournament's list after SetTieBreaks: %v, want SB,BH-M1", got)
	}
	if got := tbs("A"); !slices.Equal(got, []string{"WIN"}) {
		t.Errorf("section A's list: %v, want WIN", got)
	}
	log, err := arb.AuditLog(ctx, &pb.AuditLogRequest{Kinds: []string{"set_tie_breaks"}})
	if err != nil {
		t.Fatal(err)
	}
	var whats []string
	for _, e := range log.GetEntries() {
		whats = append(whats, e.GetWhat()+" / "+e.GetReason())
	}
	if want := []string{"set_tie_breaks Later: SB,BH-M1 (was FIDE's defaults) / the regulations say so",
		"set_tie_breaks Later section A: WIN (was the tournament's) / "}; !slices.Equal(whats, want) {
		t.Errorf("audit:\n got %q\nwant %q", whats, want)
	}

	h.Restart(t)
	if got := tbs("A"); !slices.Equal(got, []string{"WIN"}) {
		t.Errorf("section A's list after a restart: %v, want WIN", got)
	}
	if _, err := arb.SetTieBreaks(ctx, &pb.SetTieBreaksRequest{Tournament: "Later", Section: "A"}); err != nil {
		t.Fatal(err)
	}
	if got := tbs("A"); !slices.Equal(got, []string{"SB", "BH-M1"}) {
		t.Errorf("section A's list cleared: %v, want the tournament's SB,BH-M1", got)
	}

	anna := pb.NewArbiterClient(h.Conn(t))
	actx := halltest.Ctx(context.Background(), h.Token(t, pb.Role_ROLE_ARBITER, "Anna", "", "A"))
	if _, err := anna.SetTieBreaks(actx, &pb.SetTieBreaksRequest{Tournament: "Later", TieBreaks: "BH"}); status.Code(err) != codes.PermissionDenied {
		t.Errorf("an arbiter setting tie-breaks: %v, want PermissionDenied", err)
	}
	_, err = arb.SetTieBreaks(ctx, &pb.SetTieBreaksRequest{Tournament: "Later", Section: "A", TieBreaks: "BH-C7"})
	if status.Code(err) != codes.InvalidArgument || !strings.Contains(err.Error(), "section A") || !strings.Contains(err.Error(), "BH-C7") {
		t.Errorf("a bad list: %v, want InvalidArgument naming the section and the entry", err)
	}
}

// Rounds that do not fit together (two players given the same start
// number, an arbiter's slip on a round entered by hand) cannot be ranked:
// the hall says so as FAILED_PRECONDITION — the request is right, the
// tournament's rounds are not — naming the number and what is allowed,
// never as an internal error.
func TestStandingsOfInconsistentRounds(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t)
	arb, ctx := h.Arbiter(t)
	tr, err := arb.CreateTournament(ctx, &pb.CreateTournamentRequest{Name: "Twice", DefaultConfig: &pb.ClockConfig{TimeControl: "90m+30s"}})
	if err != nil {
		t.Fatal(err)
	}
	r, err := arb.CreateRound(ctx, &pb.CreateRoundRequest{TournamentId: tr.GetTournamentId(), Number: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range []struct {
		n            int32
		white, black *pb.Player
	}{
		{1, &pb.Player{Name: "Anna", StartRank: 1}, &pb.Player{Name: "Bert", StartRank: 2}},
		{2, &pb.Player{Name: "Cleo", StartRank: 1}, &pb.Player{Name: "Dan", StartRank: 3}},
	} {
		if _, err := arb.AddBoard(ctx, &pb.AddBoardRequest{RoundId: r.GetRoundId(), Number: b.n, White: b.white, Black: b.black}); err != nil {
			t.Fatalf("board %d: %v", b.n, err)
		}
	}
	_, err = arb.Standings(ctx, &pb.StandingsRequest{Tournament: "Twice"})
	if status.Code(err) != codes.FailedPrecondition || !strings.Contains(err.Error(), "start number 1") || !strings.Contains(err.Error(), "of his own") {
		t.Errorf("standings of two players numbered 1: %v, want FailedPrecondition naming start number 1 and that each player needs his own", err)
	}
}
