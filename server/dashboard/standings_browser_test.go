package dashboard_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chesshall/hallclock/internal/testkit/browsertest"
	"github.com/chesshall/hallclock/internal/testkit/halltest"
	"github.com/chesshall/hallclock/internal/testkit/longtest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// realSwiss imports a real tournament's TRF (lichess, 112 players, 20
// rounds) at its last round, as a tournament program writes it, and
// returns the number of boards it made.
func realSwiss(t *testing.T, h *halltest.Hall) int {
	t.Helper()
	file, err := os.ReadFile(filepath.Join("..", "..", "formats", "trf", "testdata", "real", "lichess-j8rtJ5GL.trf"))
	if err != nil {
		t.Fatal(err)
	}
	arb, ctx := h.Arbiter(t)
	if _, err := arb.CreateTournament(ctx, &pb.CreateTournamentRequest{Name: "Real Swiss", DefaultConfig: &pb.ClockConfig{TimeControl: "5400+30"}}); err != nil {
		t.Fatal(err)
	}
	imp, err := arb.ImportRound(ctx, &pb.ImportRoundRequest{Tournament: "Real Swiss", Content: file})
	if err != nil {
		t.Fatalf("import: %v", err)
	}
	return len(imp.GetBoards())
}

// boardsRound is the id of the imported round 20.
func boardsRound(t *testing.T, h *halltest.Hall) string {
	t.Helper()
	arb, ctx := h.Arbiter(t)
	r, err := arb.GetRound(ctx, &pb.GetRoundRequest{Tournament: "Real Swiss", Number: 20})
	if err != nil {
		t.Fatal(err)
	}
	return r.GetRoundId()
}

// stRow is a row of the standings view as the page shows it.
type stRow struct {
	Start string
	Cells []string
}

const stRowsJS = `[...document.querySelectorAll("#st-table tbody tr")].map(r => ({ start: r.dataset.start, cells: [...r.cells].map(c => c.textContent) }))`

// wantCells is a row of the hall's answer as the view must show it: rank,
// start, title, name, rating, federation, each round, points, tie-breaks.
func wantCells(r *pb.StandingsRow) []string {
	blank := func(n int32) string {
		if n == 0 {
			return ""
		}
		return strconv.Itoa(int(n))
	}
	c := []string{blank(r.GetRank()), blank(r.GetStart()), r.GetTitle(), r.GetName(), blank(r.GetRating()), r.GetFederation()}
	for _, x := range r.GetRounds() {
		switch {
		case x.GetOpponent() == 0 && x.GetResult() == "":
			c = append(c, "–")
		case x.GetOpponent() == 0:
			c = append(c, x.GetResult())
		default:
			c = append(c, fmt.Sprint(x.GetOpponent())+x.GetColour()+x.GetResult())
		}
	}
	points := r.GetPoints()
	if points == "" {
		points = "0"
	}
	return append(append(c, points), r.GetTieBreaks()...)
}

// sameRows checks the view's rows against the hall's answer, in order.
func sameRows(t *testing.T, what string, got []stRow, want *pb.StandingsResponse) {
	t.Helper()
	if len(got) != len(want.GetRows()) {
		t.Fatalf("%s: %d rows, want %d", what, len(got), len(want.GetRows()))
	}
	for i, w := range want.GetRows() {
		if wc := wantCells(w); !slices.Equal(got[i].Cells, wc) {
			t.Errorf("%s row %d:\n got %q\nwant %q", what, i+1, got[i].Cells, wc)
		}
	}
}

// column reads one column of the shown rows.
func column(rows []stRow, i int) []string {
	var out []string
	for _, r := range rows {
		out = append(out, r.Cells[i])
	}
	return out
}

// widerThanView lists what reaches past the viewport, except the
// crosstable itself, which scrolls inside its own box (that box must fit).
func widerThanView(t *testing.T, p *page) []string {
	t.Helper()
	wider, err := browsertest.Wider(p.ctx)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, w := range wider {
		if !strings.HasPrefix(w, "table#st-table:") {
			out = append(out, w)
		}
	}
	return out
}

// The Standings view of a real Swiss imported from its TRF at its last
// round, round 20 playing: the chief sees every row as the hall's
// Standings answer has it (rank, start, title, name, rating, federation,
// each round's opponent, colour and result, points, tie-breaks), marked
// provisional; after round 19 they are final and the rows those of round
// 19. A click on Rtg sorts by rating, a second the other way; the search
// leaves the players whose name holds it. Nothing but the crosstable,
// inside its own scrolling box, is wider than a 1920 px screen or a
// 360 px phone.
func TestDashboardStandingsView(t *testing.T) {
	longtest.Skip(t)
	t.Parallel()
	h := halltest.Start(t, halltest.OnLoopback())
	base := h.HTTP(t)
	boards := realSwiss(t, h)
	arb, ctx := h.Arbiter(t)
	live, err := arb.Standings(ctx, &pb.StandingsRequest{Tournament: "Real Swiss"})
	if err != nil {
		t.Fatal(err)
	}
	final, err := arb.Standings(ctx, &pb.StandingsRequest{Tournament: "Real Swiss", AfterRound: live.GetAfterRound() - 1})
	if err != nil {
		t.Fatal(err)
	}
	if !live.GetProvisional() || final.GetProvisional() || len(live.GetRows()) != 112 {
		t.Fatalf("the hall's standings: provisional %v after %d (%d rows), then %v; want round 20 playing", live.GetProvisional(), live.GetAfterRound(), len(live.GetRows()), final.GetProvisional())
	}

	p := openPage(t, base, 1920, 1080)
	p.signIn(h.Chief)
	p.waitHall(boards)
	p.click("Standings", "#standings-open")
	p.poll("the standings", `document.querySelectorAll("#st-table tbody tr").length === 112`, 10*time.Second)
	sameRows(t, "during round 20", evalAs[[]stRow](p, stRowsJS), live)
	if says := p.text("#st-says"); !strings.HasPrefix(says, "PROVISIONAL") || !strings.Contains(says, "after round 20") {
		t.Errorf("during round 20 the view says %q; want PROVISIONAL, after round 20", says)
	}
	if !evalAs[bool](p, `document.getElementById("standings-view").classList.contains("provisional")`) {
		t.Error("the provisional table is not marked as such")
	}
	if w := widerThanView(t, p); len(w) != 0 {
		t.Errorf("at 1920×1080, wider than the screen: %v", w)
	}
	p.shot("dashboard-standings.png", "")
	links := evalAs[[]string](p, `["st-print", "st-pairings", "st-results"].map(id => document.getElementById(id).hidden ? "" : new URL(document.getElementById(id).href).pathname + new URL(document.getElementById(id).href).search)`)
	if round20 := "/" + boardsRound(t, h); !slices.Equal(links, []string{"/print/standings/Real%20Swiss?after=20", "/print/pairings" + round20, "/print/results" + round20}) {
		t.Errorf("the print links read %q", links)
	}

	// After round 19: final, as the hall counts them then.
	p.do("after round 19", setSelect(`#st-form select[name="after"]`, "19"))
	p.poll("after round 19", `document.getElementById("st-says").textContent.includes("after round 19")`, 10*time.Second)
	sameRows(t, "after round 19", evalAs[[]stRow](p, stRowsJS), final)
	if !evalAs[bool](p, `document.getElementById("st-pairings").hidden`) {
		t.Error("after round 19, which the hall holds no boards of, the view offers its pairings to print")
	}
	if says := p.text("#st-says"); strings.Contains(says, "PROVISIONAL") {
		t.Errorf("after round 19 the view says %q", says)
	}

	// Sorting by rating: up, then down; the same players.
	const rtg = 4
	p.click("sort by rating", `#st-table th[data-key="rating"]`)
	up := column(evalAs[[]stRow](p, stRowsJS), rtg)
	p.click("sort by rating again", `#st-table th[data-key="rating"]`)
	down := column(evalAs[[]stRow](p, stRowsJS), rtg)
	num := func(s []string) []int {
		var out []int
		for _, x := range s {
			n, _ := strconv.Atoi(x)
			out = append(out, n)
		}
		return out
	}
	var ratings []int
	for _, r := range final.GetRows() {
		ratings = append(ratings, int(r.GetRating()))
	}
	slices.Sort(ratings)
	if !slices.Equal(num(up), ratings) {
		t.Errorf("sorted by rating: %v; want %v", up, ratings)
	}
	slices.Reverse(ratings)
	if !slices.Equal(num(down), ratings) {
		t.Errorf("sorted by rating again: %v; want %v", down, ratings)
	}

	// The search, in any case: the players whose name holds the first
	// three letters of the eleventh's.
	needle := strings.ToLower(string([]rune(final.GetRows()[10].GetName())[:3]))
	var named []string
	for _, r := range final.GetRows() {
		if strings.Contains(strings.ToLower(r.GetName()), needle) {
			named = append(named, fmt.Sprint(r.GetStart()))
		}
	}
	if len(named) == 0 || len(named) == len(final.GetRows()) {
		t.Fatalf("the search would not narrow: %d of %d", len(named), len(final.GetRows()))
	}
	p.do("search", sendKeys(`#st-form input[name="search"]`, strings.ToUpper(needle)))
	p.poll("the search", fmt.Sprintf(`document.querySelectorAll("#st-table tbody tr").length === %d`, len(named)), 5*time.Second)
	var found []string
	for _, r := range evalAs[[]stRow](p, stRowsJS) {
		found = append(found, r.Start)
	}
	slices.Sort(found)
	slices.Sort(named)
	if !slices.Equal(found, named) {
		t.Errorf("searching %q shows start numbers %v; want %v", needle, found, named)
	}

	// A phone: the crosstable scrolls in its box, nothing else is wider.
	q := openPage(t, base, 360, 740)
	q.signIn(h.Chief)
	q.waitHall(boards)
	q.click("Standings", "#standings-open")
	q.poll("the standings on a phone", `document.querySelectorAll("#st-table tbody tr").length === 112`, 10*time.Second)
	if w := widerThanView(t, q); len(w) != 0 {
		t.Errorf("at 360 px, wider than the phone: %v", w)
	}
	q.shot("dashboard-standings-phone.png", "")
	if !evalAs[bool](q, `(() => { const b = document.getElementById("st-scroll"); return b.scrollWidth > b.clientWidth; })()`) {
		t.Error("on a phone the crosstable does not scroll in its box")
	}
}

// The Standings view of an arbiter limited to section B, open while round
// 3 plays: section B's players only, as the hall answers him, provisional;
// a result entered on section B's board moves his open view (the hall's
// feed, no reload, no click) to the final standings the hall then has.
func TestDashboardStandingsSectionLive(t *testing.T) {
	longtest.Skip(t)
	t.Parallel()
	h := halltest.Start(t, halltest.OnLoopback())
	base := h.HTTP(t)
	tb := newTable(t, h, "90m+30s", []boardSpec{{section: "A"}, {section: "A"}, {section: "B"}})
	tb.start(t)
	a1, a2, b1 := tb.boards[0].GetBoardId(), tb.boards[1].GetBoardId(), tb.boards[2].GetBoardId()
	tb.act(t, a1, &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_RESULT, Result: "1-0"})
	tb.act(t, a2, &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_RESULT, Result: "1/2-1/2"})
	bo := h.Token(t, pb.Role_ROLE_ARBITER, "Bo", "", "B")
	arb, _ := h.Arbiter(t)
	asBo := func() *pb.StandingsResponse {
		t.Helper()
		st, err := arb.Standings(halltest.Ctx(context.Background(), bo), &pb.StandingsRequest{Tournament: "Nordic Open"})
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	before := asBo()
	if !before.GetProvisional() || len(before.GetRows()) != 2 {
		t.Fatalf("Bo's standings during round 3: provisional %v, %d rows; want provisional, section B's 2 players", before.GetProvisional(), len(before.GetRows()))
	}

	p := openPage(t, base, 1280, 800)
	p.signIn(bo)
	p.waitHall(1)
	p.click("Standings", "#standings-open")
	p.poll("Bo's standings", `document.querySelectorAll("#st-table tbody tr").length === 2 && document.getElementById("st-says").textContent.includes("after round 3")`, 10*time.Second)
	sameRows(t, "Bo's, board B1 playing", evalAs[[]stRow](p, stRowsJS), before)
	if says := p.text("#st-says"); !strings.HasPrefix(says, "PROVISIONAL") {
		t.Errorf("with board B1 playing the view says %q", says)
	}

	tb.act(t, b1, &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_RESULT, Result: "0-1"})
	p.poll("the standings moved", `(s => s.includes("after round 3") && !s.includes("PROVISIONAL"))(document.getElementById("st-says").textContent)`, 5*time.Second)
	after := asBo()
	if after.GetProvisional() || after.GetRows()[0].GetStart() != 6 {
		t.Fatalf("Bo's standings after B1's 0-1: provisional %v, first %d; want final, player 6 first", after.GetProvisional(), after.GetRows()[0].GetStart())
	}
	sameRows(t, "Bo's, board B1 played", evalAs[[]stRow](p, stRowsJS), after)
}
