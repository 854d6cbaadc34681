package dashboard_test

import (
	"fmt"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/chesshall/hallclock/internal/testkit/browsertest"
	"github.com/chesshall/hallclock/internal/testkit/halltest"
	"github.com/chesshall/hallclock/internal/testkit/longtest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// printed is a print page as Chromium prints it to PDF, read back by
// poppler's pdfinfo and pdftotext.
type printed struct {
	pages         int
	width, height float64 // points, of the first page
	lines         []string
}

// printPage opens path on the hall, waits until the page has what it
// prints, and prints it to PDF at the size its stylesheet asks for.
func (p *page) printPage(name, path string) printed {
	p.t.Helper()
	p.do("open "+path, navigate(p.base+path))
	p.poll(path+" ready", `document.body.dataset.ready === "1"`, 10*time.Second)
	pdf, err := chromedp.Run(p.ctx, chromedp.PrintToPDF(func(q *cdppage.PrintToPDFParams) { yes := true; q.PreferCSSPageSize = &yes }))
	if err != nil {
		p.t.Fatalf("print %s: %v", path, err)
	}
	file := browsertest.Artifact(p.t, name, pdf)
	info, err := exec.Command("pdfinfo", file).Output()
	if err != nil {
		p.t.Fatalf("pdfinfo %s: %v", file, err)
	}
	var out printed
	if m := regexp.MustCompile(`(?m)^Pages:\s+(\d+)`).FindSubmatch(info); m != nil {
		out.pages, _ = strconv.Atoi(string(m[1]))
	}
	if m := regexp.MustCompile(`(?m)^Page size:\s+([\d.]+) x ([\d.]+) pts`).FindSubmatch(info); m != nil {
		out.width, _ = strconv.ParseFloat(string(m[1]), 64)
		out.height, _ = strconv.ParseFloat(string(m[2]), 64)
	}
	text, err := exec.Command("pdftotext", "-layout", file, "-").Output()
	if err != nil {
		p.t.Fatalf("pdftotext %s: %v", file, err)
	}
	out.lines = strings.Split(string(text), "\n")
	return out
}

// count is how many lines hold want as a word of their own.
func (pr printed) count(want string) int {
	n := 0
	for _, l := range pr.lines {
		for _, w := range strings.Fields(l) {
			if w == want {
				n++
			}
		}
	}
	return n
}

// lineOf is the first line holding every one of words as words, in order.
func (pr printed) lineOf(words ...string) string {
	for _, l := range pr.lines {
		f, i := strings.Fields(l), 0
		for _, w := range f {
			if i < len(words) && w == words[i] {
				i++
			}
		}
		if i == len(words) {
			return l
		}
	}
	return ""
}

// Paper in points (pdfinfo), within a point.
const a4W, a4H, letterW, letterH = 595.3, 841.9, 612.0, 792.0

func near(a, b float64) bool { return a > b-1 && a < b+1 }

// The print pages of a real Swiss (112 players) as Chromium prints them:
// the standings after round 19 on A4 across the sheet, on as many pages
// as it takes, each with the table's head, every player once with his
// points and last tie-break on his line (nothing cut at the edge); on
// Letter when asked. Round 20's pairings on A4 upright, every board with
// both players; its results sheet with the result the hall has. On a
// phone, nothing but the sheet's table (in its own scrolling box) is wider
// than the screen. Nobody signed in is sent to sign in.
func TestDashboardPrintPages(t *testing.T) {
	longtest.Skip(t)
	if _, err := exec.LookPath("pdftotext"); err != nil {
		t.Skip("pdftotext (poppler-utils) is not installed")
	}
	t.Parallel()
	h := halltest.Start(t, halltest.OnLoopback())
	base := h.HTTP(t)
	realSwiss(t, h)
	arb, ctx := h.Arbiter(t)
	final, err := arb.Standings(ctx, &pb.StandingsRequest{Tournament: "Real Swiss", AfterRound: 19})
	if err != nil {
		t.Fatal(err)
	}
	boards, err := arb.ListBoards(ctx, &pb.ListBoardsRequest{Tournament: "Real Swiss", Number: 20})
	if err != nil {
		t.Fatal(err)
	}
	b1 := boards.GetBoards()[0]
	if _, err := arb.UseVirtualClock(ctx, &pb.UseVirtualClockRequest{BoardId: b1.GetBoardId(), Reason: "scoresheet"}); err != nil {
		t.Fatal(err)
	}
	if r, err := arb.BoardAction(ctx, &pb.BoardActionRequest{BoardId: b1.GetBoardId(), Reason: "scoresheet", WaitMs: 5000,
		Action: &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_RESULT, Result: "0-1"}}); err != nil || r.GetStatus() != pb.CommandStatus_COMMAND_STATUS_APPLIED {
		t.Fatalf("board 1's result: %v %v", r, err)
	}

	// On a phone, before printing: the sheet's table scrolls in its box.
	phone := openPage(t, base, 360, 740)
	phone.signIn(h.Chief)
	phone.poll("signed in", `location.pathname === "/"`, 10*time.Second)
	for _, path := range []string{"/print/standings/Real%20Swiss", "/print/results/Real%20Swiss:20"} {
		phone.do("open "+path, navigate(base+path))
		phone.poll(path+" ready", `document.body.dataset.ready === "1"`, 10*time.Second)
		wider, err := browsertest.Wider(phone.ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range wider {
			if !strings.HasPrefix(w, "table#sheet-table.") {
				t.Errorf("%s at 360 px: wider than the phone: %s", path, w)
			}
		}
	}

	anon := openPage(t, base, 1280, 800)
	anon.do("open the standings signed out", navigate(base+"/print/standings/Real%20Swiss"))
	anon.poll("sent to sign in", `location.pathname === "/signin"`, 10*time.Second)

	p := openPage(t, base, 1280, 800)
	p.signIn(h.Chief)
	p.poll("signed in", `location.pathname === "/"`, 10*time.Second)

	st := p.printPage("standings-a4.pdf", "/print/standings/Real%20Swiss?after=19")
	if !near(st.width, a4H) || !near(st.height, a4W) {
		t.Errorf("the standings print on %.1f×%.1f pt; want A4 across (%.1f×%.1f)", st.width, st.height, a4H, a4W)
	}
	if heads := st.count("Rk"); st.pages < 2 || heads != st.pages {
		t.Errorf("the standings print on %d pages with the table's head %d times; want more than one page, each with the head", st.pages, heads)
	}
	if !strings.Contains(strings.Join(st.lines, " "), "standings after round 19") {
		t.Errorf("the standings' title is not printed:\n%s", strings.Join(st.lines[:min(5, len(st.lines))], "\n"))
	}
	for _, r := range final.GetRows() {
		tbs := r.GetTieBreaks()
		if n := st.count(r.GetName()); n != 1 {
			t.Errorf("%s is printed %d times", r.GetName(), n)
			continue
		}
		if l := st.lineOf(fmt.Sprint(r.GetRank()), fmt.Sprint(r.GetStart()), r.GetName(), r.GetPoints(), tbs[len(tbs)-1]); l == "" {
			t.Errorf("no line reads rank %d, start %d, %s, … %s … %s", r.GetRank(), r.GetStart(), r.GetName(), r.GetPoints(), tbs[len(tbs)-1])
		}
	}

	letter := p.printPage("standings-letter.pdf", "/print/standings/Real%20Swiss?after=19&paper=letter")
	if !near(letter.width, letterH) || !near(letter.height, letterW) {
		t.Errorf("the standings on Letter print on %.1f×%.1f pt; want Letter across", letter.width, letter.height)
	}

	pairings := p.printPage("pairings-a4.pdf", "/print/pairings/Real%20Swiss:20")
	if !near(pairings.width, a4W) || !near(pairings.height, a4H) {
		t.Errorf("the pairings print on %.1f×%.1f pt; want A4 upright", pairings.width, pairings.height)
	}
	if heads := pairings.count("White"); heads != pairings.pages {
		t.Errorf("the pairings print on %d pages with the table's head %d times", pairings.pages, heads)
	}
	for _, b := range boards.GetBoards() {
		if l := pairings.lineOf(fmt.Sprint(b.GetNumber()), b.GetWhite().GetName(), b.GetBlack().GetName()); l == "" {
			t.Errorf("the pairings have no line for board %d: %s – %s", b.GetNumber(), b.GetWhite().GetName(), b.GetBlack().GetName())
		}
	}

	results := p.printPage("results-a4.pdf", "/print/results/Real%20Swiss:20")
	if l := results.lineOf("1", b1.GetWhite().GetName(), "0-1", b1.GetBlack().GetName()); l == "" {
		t.Errorf("the results sheet does not give board 1 its 0-1:\n%s", strings.Join(results.lines[:min(12, len(results.lines))], "\n"))
	}
	if l := results.lineOf("2", boards.GetBoards()[1].GetWhite().GetName(), boards.GetBoards()[1].GetBlack().GetName()); l == "" || strings.Contains(l, "0-1") || strings.Contains(l, "1-0") {
		t.Errorf("the results sheet's board 2, still playing, reads %q; want both players and no result", l)
	}
}
