package pgn

import (
	"bytes"
	"flag"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/chesshall/hallclock/internal/testkit/pgncheck"
	"github.com/chesshall/hallclock/rules"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// log builds a board's log.
type log []Entry

func (l *log) add(t int64, e rules.Event, reason ...string) *log {
	e.T = t
	en := Entry{Event: e}
	if len(reason) > 0 {
		en.Reason = reason[0]
	}
	*l = append(*l, en)
	return l
}

func press(side rules.Side, san string) rules.Event {
	return rules.Event{Kind: rules.KindPress, Side: side, SAN: san}
}

func config(t *testing.T, tc string) rules.Config {
	t.Helper()
	c, err := rules.ParseTimeControl(tc)
	if err != nil {
		t.Fatal(err)
	}
	return rules.Config{TimeControl: c}
}

var (
	berzins  = Player{Name: "Berzins, Arturs", Elo: 2587, FideID: "11604514", Title: "GM"}
	schroder = Player{Name: "Schröder, Lukas", Elo: 2288, FideID: "24651796", Title: "FM"}
	day      = time.Date(2025, 9, 15, 0, 0, 0, 0, time.UTC)
)

// scholarsMate is a blitz game (3 min + 2 s) on an e-board with a pause
// and time given by the arbiter: every clock comment below is worked out
// by hand in the comments.
func scholarsMate(t *testing.T) Game {
	var l log
	l.add(0, rules.Event{Kind: rules.KindStart}).
		add(5000, press(rules.White, "e4")).   // 180 - 5 + 2 = 177 s: 0:02:57, took 0:00:05
		add(12000, press(rules.Black, "e5")).  // 180 - 7 + 2 = 175: 0:02:55, 0:00:07
		add(15000, press(rules.White, "Qh5")). // 177 - 3 + 2 = 176: 0:02:56, 0:00:03
		add(31000, press(rules.Black, "Nc6")). // 175 - 16 + 2 = 161: 0:02:41, 0:00:16
		add(40000, rules.Event{Kind: rules.KindPause}, "toilet break").
		add(100000, rules.Event{Kind: rules.KindResume}).
		add(103000, press(rules.White, "Bc4")). // 9 s before the pause, 3 after: 176 - 12 + 2 = 166: 0:02:46, 0:00:12
		add(110000, rules.Event{Kind: rules.KindAddTime, Side: rules.Black, Ms: 60000}, "12.9: White's phone rang").
		add(120000, press(rules.Black, "Nf6")).   // 161 + 60 - 17 + 2 = 206: 0:03:26, 0:00:17
		add(121500, press(rules.White, "Qxf7#")). // 166 - 1.5 + 2 = 166.5: 0:02:46, 0:00:01
		add(121500, rules.Event{Kind: rules.KindResult, Result: rules.WhiteWins, Termination: rules.TermNormal})
	return Game{Event: "Nordic Autumn Open 2025", Site: "Bergen NOR", Date: day, Round: 5, Board: 1,
		White: berzins, Black: schroder, Config: config(t, "180+2"), Log: l}
}

func write(t *testing.T, opts Options, games ...Game) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := Write(&b, games, opts); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// golden compares with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := "testdata/" + name
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs:\n%s\nwant\n%s", name, got, want)
	}
}

// An e-board game with its clocks and the arbiter's rulings, checked
// against a file worked out by hand and read by pgn-extract.
func TestEBoardGame(t *testing.T) {
	out := write(t, Options{}, scholarsMate(t))
	golden(t, "eboard-game.pgn", out)
	games := pgncheck.Read(t, out)
	if len(games) != 1 {
		t.Fatalf("pgn-extract read %d games", len(games))
	}
	want := []string{"e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"}
	if !reflect.DeepEqual(games[0].Moves, want) {
		t.Errorf("pgn-extract read the moves %v, want %v", games[0].Moves, want)
	}
	for tag, want := range map[string]string{"Result": "1-0", "WhiteFideId": "11604514", "BlackElo": "2288", "TimeControl": "180+2", "Round": "5", "Board": "1"} {
		if got := games[0].Tags[tag]; got != want {
			t.Errorf("pgn-extract read %s %q, want %q", tag, got, want)
		}
	}
}

// Options: the Round tag as lichess broadcasts want it, no clocks.
func TestOptions(t *testing.T) {
	out := string(write(t, Options{Round: RoundAndBoard, NoClocks: true}, scholarsMate(t)))
	if !strings.Contains(out, `[Round "5.1"]`) || strings.Contains(out, "%clk") {
		t.Errorf("RoundAndBoard, NoClocks wrote\n%s", out)
	}
}

// A game on a clock without an e-board: no moves, but every ruling and
// how it ended, in comments, and the position the arbiter entered.
func TestRulingsWithoutMoves(t *testing.T) {
	var l log
	l.add(0, rules.Event{Kind: rules.KindStart, AbsentBlack: true}).
		add(1000, rules.Event{Kind: rules.KindArrive, Side: rules.Black}).
		add(3000, press(rules.White, "")).
		add(4000, rules.Event{Kind: rules.KindIllegalMove, Side: rules.White}, "castled with the queen").
		add(9000, press(rules.White, "")).
		add(10000, press(rules.Black, "")).
		add(20000, rules.Event{Kind: rules.KindPause}).
		add(21000, rules.Event{Kind: rules.KindSetClock, WhiteMs: 5000000, BlackMs: 5100000}).
		add(22000, rules.Event{Kind: rules.KindResume}).
		add(25000, rules.Event{Kind: rules.KindDrawClaimRejected, Side: rules.White}).
		add(26000, rules.Event{Kind: rules.KindPosition, FEN: "4k3/8/8/8/8/8/4P3/4K3 w - - 0 40"}).
		add(30000, rules.Event{Kind: rules.KindResult, Result: rules.BlackWins, Termination: rules.TermArbiter, ByArbiter: true}, "refused to continue")
	cfg := config(t, "5400+30")
	cfg.Regulations.DefaultTimeMs = rules.Ms(30 * 60 * 1000)
	g := Game{Event: "Open", Round: 2, Board: 7, White: berzins, Black: schroder, Config: cfg, Log: l}
	out := write(t, Options{}, g)
	for _, want := range []string{
		"{Black not at the board at the start}", "{Black arrives}",
		"{Illegal move by White (7.5): Black +2:00 — castled with the queen}",
		"{Arbiter sets the clocks: White 1:23:20, Black 1:25:00}", "{Clock restarted}",
		"{Incorrect draw claim by White (9.5.3): Black +2:00}",
		"{Result by the arbiter: 0-1 — refused to continue}",
		`[SetUp "1"]`, `[FEN "4k3/8/8/8/8/8/4P3/4K3 w - - 0 40"]`, `[Termination "adjudication"]`,
	} {
		if !strings.Contains(strings.ReplaceAll(string(out), "\n", " "), want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	if gs := pgncheck.Read(t, out); len(gs) != 1 || len(gs[0].Moves) != 0 {
		t.Errorf("pgn-extract read %+v", gs)
	}
}

// A public feed's games (NoReasons) say what the arbiter did without the
// arbiter's words: the same comments, no reason.
func TestRulingsWithoutReasons(t *testing.T) {
	out := strings.ReplaceAll(string(write(t, Options{NoReasons: true}, scholarsMate(t))), "\n", " ")
	if strings.Contains(out, "toilet break") || !strings.Contains(out, "{Clock paused}") {
		t.Errorf("NoReasons wrote\n%s\nwant the pause without its reason", out)
	}
	if archive := string(write(t, Options{}, scholarsMate(t))); !strings.Contains(archive, "toilet break") {
		t.Errorf("an archive (Options{}) wrote\n%s\nwant the pause with its reason", archive)
	}
}

// Every result of the hall becomes a Result tag of PGN's four, a
// termination marker and a Termination tag that PGN readers take; a
// forfeit and a double forfeit say so in the Termination tag and a
// comment (PGN spec 8.1.1.7, 9.8.1).
func TestResults(t *testing.T) {
	for _, c := range []struct {
		result      rules.Result
		term        rules.Termination
		tag, marker string
		termination string
		note        string
	}{
		{rules.WhiteWins, rules.TermNormal, "1-0", "1-0", "normal", ""},
		{rules.BlackWins, rules.TermTime, "0-1", "0-1", "time forfeit", ""},
		{rules.Draw, rules.TermAgreement, "1/2-1/2", "1/2-1/2", "normal", ""},
		{rules.BlackForfeit, rules.TermDefault, "1-0", "1-0", "abandoned", "White wins by forfeit"},
		{rules.WhiteForfeit, rules.TermDefault, "0-1", "0-1", "abandoned", "Black wins by forfeit"},
		{rules.DoubleForfeit, rules.TermDefault, "*", "*", "abandoned", "Double forfeit"},
		{rules.BothLose, rules.TermArbiter, "*", "*", "rules infraction", "Both players lose"},
		{rules.WhiteWins, rules.TermIllegalMove, "1-0", "1-0", "rules infraction", ""},
		{rules.Draw, rules.TermQuickplayClaim, "1/2-1/2", "1/2-1/2", "adjudication", ""},
	} {
		var l log
		l.add(0, rules.Event{Kind: rules.KindResult, Result: c.result, Termination: c.term, ByArbiter: true})
		out := string(write(t, Options{}, Game{Event: "E", Round: 1, Board: 1, White: berzins, Black: schroder, Config: config(t, "180+2"), Log: l}))
		if !strings.Contains(out, `[Result "`+c.tag+`"]`) || !strings.HasSuffix(out, " "+c.marker+"\n") ||
			!strings.Contains(out, `[Termination "`+c.termination+`"]`) || !strings.Contains(out, c.note) {
			t.Errorf("%s (%s) wrote\n%s\nwant Result %q, marker %q, Termination %q, a note %q", c.result, c.term, out, c.tag, c.marker, c.termination, c.note)
		}
		pgncheck.Read(t, []byte(out))
	}
	// The results the rules engine will give for asymmetric scores.
	for r, want := range map[rules.Result][3]string{
		"1/2-0": {"*", "*", "White 1/2, Black 0"},
		"0-1/2": {"*", "*", "White 0, Black 1/2"},
		"*":     {"*", "*", ""},
	} {
		if tag, marker, note := pgnResult(r, false); [3]string{tag, marker, note} != want {
			t.Errorf("pgnResult(%q) = %q, %q, %q; want %q", r, tag, marker, note, want)
		}
	}
}

// Asked for lichess's forms, the results PGN cannot write go into the
// Result tag as lichess broadcasts score them; the marker stays "*" and
// the file stays one pgn-extract reads. The four results of PGN do not
// change.
func TestLichessResults(t *testing.T) {
	for r, want := range map[rules.Result]string{
		rules.DoubleForfeit: "0-0", rules.BothLose: "0-0", "1/2-0": "1/2-0", "0-1/2": "0-1/2",
		rules.WhiteWins: "1-0", rules.BlackForfeit: "1-0", rules.Draw: "1/2-1/2",
	} {
		var l log
		l.add(0, rules.Event{Kind: rules.KindResult, Result: r, Termination: rules.TermArbiter, ByArbiter: true})
		out := string(write(t, Options{LichessResults: true}, Game{Event: "E", Round: 1, Board: 1, White: berzins, Black: schroder, Config: config(t, "180+2"), Log: l}))
		if !strings.Contains(out, `[Result "`+want+`"]`) {
			t.Errorf("%s with lichess's results wrote\n%s\nwant Result %q", r, out, want)
		}
		pgncheck.Read(t, []byte(out))
	}
}

// A game still going ends with "*" and no Termination; a move that does
// not fit the position stops the moves with a comment and the file stays
// readable.
func TestLiveAndBrokenMoves(t *testing.T) {
	var l log
	l.add(0, rules.Event{Kind: rules.KindStart}).
		add(1000, press(rules.White, "d4")).
		add(2000, press(rules.Black, "Nf6")).
		add(3000, press(rules.White, "Nf6")) // not a legal move for White
	out := write(t, Options{}, Game{Event: "E", Round: 1, White: berzins, Black: schroder, Config: config(t, "180+2"), Log: l})
	s := string(out)
	if !strings.Contains(s, `[Result "*"]`) || strings.Contains(s, "Termination") || !strings.Contains(s, "the moves stop here") {
		t.Errorf("wrote\n%s", s)
	}
	if gs := pgncheck.Read(t, out); len(gs) != 1 || !reflect.DeepEqual(gs[0].Moves, []string{"d4", "Nf6"}) {
		t.Errorf("pgn-extract read %+v", gs)
	}
}

// A sealed move, reported as the position after it when play resumes, is
// written as the move it was.
func TestSealedMove(t *testing.T) {
	var l log
	l.add(0, rules.Event{Kind: rules.KindStart}).
		add(1000, press(rules.White, "e4")).
		add(2000, rules.Event{Kind: rules.KindAdjourn}).
		add(60000, rules.Event{Kind: rules.KindResume}).
		add(60000, rules.Event{Kind: rules.KindPosition, FEN: "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2"}).
		add(65000, press(rules.White, "Nf3"))
	out := write(t, Options{}, Game{Event: "E", Round: 1, White: berzins, Black: schroder, Config: config(t, "5400+30"), Log: l})
	if !strings.Contains(string(out), "{Adjourned: Black seals a move}") {
		t.Errorf("wrote\n%s", out)
	}
	if gs := pgncheck.Read(t, out); len(gs) != 1 || !reflect.DeepEqual(gs[0].Moves, []string{"e4", "e5", "Nf3"}) {
		t.Errorf("pgn-extract read %+v", gs)
	}
}

// The sealed move's rulings and the arbiter's call of a flag are said in
// comments (FIDE 2023 Guidelines I.8, I.12; Appendix A.5.5).
func TestSealedMoveRulings(t *testing.T) {
	var l log
	l.add(0, rules.Event{Kind: rules.KindStart}).
		add(1000, press(rules.White, "e4")).
		add(2000, rules.Event{Kind: rules.KindAdjourn}).
		add(60000, rules.Event{Kind: rules.KindResume}).
		add(61000, rules.Event{Kind: rules.KindIllegalMove, Side: rules.Black})
	out := oneLine(write(t, Options{}, Game{Event: "E", Round: 1, White: berzins, Black: schroder, Config: config(t, "5400+30"), Log: l}))
	if !strings.Contains(out, "{Black's sealed move is illegal (Guidelines I.8)}") || strings.Contains(out, "7.5") || !strings.Contains(out, `[Result "1-0"]`) {
		t.Errorf("an illegal sealed move wrote\n%s", out)
	}
	l = nil
	l.add(0, rules.Event{Kind: rules.KindStart}).
		add(1000, press(rules.White, "e4")).
		add(2000, rules.Event{Kind: rules.KindAdjourn}).
		add(60000, rules.Event{Kind: rules.KindEnvelopeLost})
	out = oneLine(write(t, Options{}, Game{Event: "E", Round: 1, White: berzins, Black: schroder, Config: config(t, "5400+30"), Log: l}))
	if !strings.Contains(out, "{Play resumes without the envelope, lost: Black makes the move he sealed}") {
		t.Errorf("a lost envelope wrote\n%s", out)
	}
	cfg := config(t, "900")
	cfg.Regulations.Supervision = rules.Insufficient
	l = nil
	l.add(0, rules.Event{Kind: rules.KindStart}).
		add(1000, press(rules.White, "e4")).
		add(905000, rules.Event{Kind: rules.KindArbiterFlag, Side: rules.Black})
	out = oneLine(write(t, Options{}, Game{Event: "E", Round: 1, White: berzins, Black: schroder, Config: cfg, Log: l}))
	if !strings.Contains(out, "{The arbiter calls Black's flag}") || !strings.Contains(out, `[Result "1-0"]`) {
		t.Errorf("the arbiter's call of a flag wrote\n%s", out)
	}
}

// oneLine is a PGN with its wrapped lines joined, to find a comment in it.
func oneLine(pgn []byte) string { return strings.ReplaceAll(string(pgn), "\n", " ") }

// Many games in one file, as a round's archive.
func TestArchive(t *testing.T) {
	g := scholarsMate(t)
	g2 := g
	g2.Board, g2.White, g2.Black = 2, schroder, berzins
	out := write(t, Options{}, g, g2)
	if gs := pgncheck.Read(t, out); len(gs) != 2 || gs[1].Tags["Board"] != "2" {
		t.Errorf("pgn-extract read %d games: %+v", len(gs), gs)
	}
}

// An under-promotion's check mark comes from the position: the chess
// library marks it as if the pawn had become a queen.
func TestUnderPromotionCheck(t *testing.T) {
	// With b8, c8 and d8 empty, a queen on a8 would check the king on e8;
	// the knight does not.
	var l log
	l.add(0, rules.Event{Kind: rules.KindStart})
	moves := []string{"e4", "d5", "exd5", "c6", "dxc6", "Qc7", "cxb7", "Bf5", "Nf3", "Nd7", "bxa8=N"}
	for i, san := range moves {
		side := rules.White
		if i%2 == 1 {
			side = rules.Black
		}
		l.add(int64(1000*(i+1)), press(side, san))
	}
	out := write(t, Options{NoClocks: true}, Game{Event: "E", Round: 1, White: berzins, Black: schroder, Config: config(t, "180+2"), Log: l})
	if !strings.Contains(string(out), "bxa8=N *") {
		t.Errorf("wrote\n%s\nwant bxa8=N without a check mark", out)
	}
	gs := pgncheck.Read(t, out)
	if len(gs) != 1 || len(gs[0].Moves) != len(moves) || gs[0].Moves[10] != "bxa8=N" {
		t.Errorf("pgn-extract read %+v", gs)
	}
}
