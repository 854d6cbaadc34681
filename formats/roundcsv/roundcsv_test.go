package roundcsv

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/chesshall/hallclock/rules"
)

func readTestdata(t *testing.T, name string) *Round {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Read(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("Read(%s): %v", name, err)
	}
	return r
}

// A Swiss-Manager pairing list saved from Excel: semicolons, a byte-order
// mark, CR LF, columns without a side ("No.", "Rtg", "Pts.": the first is
// White's), decimal commas, byes as rows with Black "bye".
func TestSwissManagerPairingList(t *testing.T) {
	r := readTestdata(t, "swiss-manager-round5.csv")
	if len(r.Games) != 9 || len(r.Byes) != 2 {
		t.Fatalf("%d games, %d byes; want 9 and 2", len(r.Games), len(r.Byes))
	}
	g := r.Games[2]
	want := Game{Board: 3, White: Player{Name: "Mäkinen, Ville", Number: 11, Rating: 2102},
		Black: Player{Name: "Kaya, Emre", Number: 15, Rating: 1932}, Result: rules.NoResult, WhitePoints: 3, BlackPoints: 1.5, Line: 4}
	if !reflect.DeepEqual(g, want) {
		t.Errorf("board 3 = %+v\nwant %+v", g, want)
	}
	byes := map[string]ByeKind{}
	for _, b := range r.Byes {
		byes[b.Player.Name] = b.Kind
	}
	if want := map[string]ByeKind{"Larsen, Freja": PairingBye, "Lindqvist, Erik": HalfPointBye}; !reflect.DeepEqual(byes, want) {
		t.Errorf("byes %v, want %v", byes, want)
	}
}

// Sections number their boards each from 1; a FIDE id and a rating may be
// missing.
func TestSections(t *testing.T) {
	r := readTestdata(t, "two-sections.csv")
	var got []string
	for _, g := range r.Games {
		got = append(got, g.Section+"/"+g.White.Name+"/"+g.White.FideID)
	}
	want := []string{"Open A/Haugen, Ingrid/1506544", "Open A/Petrov, Nikolai/2906155", "Open B/Larsen, Freja/", "Open B/Kaya, Emre/6305547"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("games %v, want %v", got, want)
	}
	if r.Games[2].Board != 1 || r.Games[3].Black.Rating != 1783 {
		t.Errorf("section B: %+v", r.Games[2:])
	}
}

// Header spellings of pairing programs and spreadsheets.
func TestHeaderSpellings(t *testing.T) {
	for _, c := range []struct {
		header string
		role   role
		side   int
	}{
		{"Bo.", roleBoard, -1}, {"Board", roleBoard, -1}, {"Table", roleBoard, -1}, {"Brett", roleBoard, -1},
		{"Group", roleSection, -1}, {"Rd.", roleRound, -1}, {"Res.", roleResult, -1}, {"Ergebnis", roleResult, -1},
		{"White", roleName, 0}, {"Name White", roleName, 0}, {"white_player", roleName, 0}, {"Weiß", roleName, 0},
		{"Schwarz", roleName, 1}, {"BLACK NAME", roleName, 1},
		{"White Rtg", roleRating, 0}, {"Elo Black", roleRating, 1}, {"W FIDE ID", roleFideID, 0}, {"Black FideID", roleFideID, 1},
		{"No.", roleNumber, -1}, {"White #", roleNumber, 0}, {"SNo", roleNumber, -1}, {"Rtg", roleRating, -1},
		{"FED", roleFederation, -1}, {"Black Title", roleTitle, 1}, {"Pts.", rolePoints, -1},
		{"Remarks", roleNone, -1}, {"", roleNone, -1},
	} {
		if got := classify(c.header); got.role != c.role || got.side != c.side {
			t.Errorf("classify(%q) = %s side %d, want %s side %d", c.header, roleNames[got.role], got.side, roleNames[c.role], c.side)
		}
	}
}

// Result spellings, Swiss-Manager's spaced ones included.
func TestResults(t *testing.T) {
	for in, want := range map[string]rules.Result{
		"1-0": "1-0", "1 - 0": "1-0", "0-1": "0-1", "½-½": "1/2-1/2", "1/2-1/2": "1/2-1/2", "0.5-0.5": "1/2-1/2",
		"+ - -": "+-", "+-": "+-", "- - +": "-+", "- - -": "--", "--": "--", "0-0": "0-0", "½-0": "1/2-0", "0-1/2": "0-1/2", "1:0": "1-0",
	} {
		got, err := parseResult(cell{text: in})
		if err != nil || got != want {
			t.Errorf("result %q = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"2-0", "1-1", "win", "1"} {
		if got, err := parseResult(cell{text: in}); err == nil {
			t.Errorf("result %q = %q, want an error", in, got)
		}
	}
}

// Write writes what Read reads back: every result of the hall, byes of
// every kind, sections, points.
func TestWriteReadBack(t *testing.T) {
	p := func(n int, name string) Player {
		return Player{Name: name, Number: n, Title: "FM", Federation: "NOR", Rating: 2000 + n, FideID: fmt.Sprintf("1500%03d", n)}
	}
	in := &Round{Number: 5, Encoding: "utf-8"}
	results := []rules.Result{"1-0", "0-1", "1/2-1/2", "+-", "-+", "--", "0-0", "1/2-0", "0-1/2", "*"}
	for i, res := range results {
		wp, bp := res.Score(rules.Scoring{})
		switch res {
		case "1/2-0":
			wp, bp = 0.5, 0
		case "0-1/2":
			wp, bp = 0, 0.5
		}
		in.Games = append(in.Games, Game{Section: "A", Board: i + 1, White: p(2*i+1, "White, Player "+string(rune('A'+i))),
			Black: p(2*i+2, "Black, Player "+string(rune('A'+i))), Result: res, Termination: "normal", WhitePoints: wp, BlackPoints: bp})
	}
	for i, k := range []ByeKind{HalfPointBye, FullPointBye, PairingBye, ZeroPointBye} {
		in.Byes = append(in.Byes, Bye{Section: "A", Player: p(30+i, "Bye, Player "+k.String()), Kind: k, Points: []float64{0.5, 1, 1, 0}[i]})
	}
	var buf bytes.Buffer
	if err := Write(&buf, in); err != nil {
		t.Fatal(err)
	}
	out, err := Read(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatalf("reading back: %v\n%s", err, buf.String())
	}
	for i := range out.Games {
		out.Games[i].Line = 0
	}
	for i := range out.Byes {
		out.Byes[i].Line = 0
	}
	if !reflect.DeepEqual(out, in) {
		t.Errorf("read back\n%+v\nwant\n%+v\nfile:\n%s", out, in, buf.String())
	}
}

// Bad content is refused with the line and the column; nothing is half read.
func TestBadFiles(t *testing.T) {
	const head = "Board,White,White Rating,White FIDE ID,Black,Black Rating,Result\n"
	for _, c := range []struct {
		name, text string
		line, col  int
		contains   string
	}{
		{"duplicate board", head + "1,A,2000,,B,1900,\n1,C,1800,,D,1700,\n", 3, 1, "board 1 is also on line 2"},
		{"board not a number", head + "one,A,2000,,B,1900,\n", 2, 1, "board"},
		{"player twice", head + "1,A,2000,,B,1900,\n2,C,1800,,a,1700,\n", 3, 0, "a plays twice"},
		{"same FIDE id twice", head + "1,A,2000,123,B,1900,\n2,C,1800,123,D,1700,\n", 3, 0, "plays twice"},
		{"against himself", head + "1,A,2000,,A,1900,\n", 2, 5, "against himself"},
		{"no White", head + "1,,2000,,B,1900,\n", 2, 2, "no White player"},
		{"letters in a rating", head + "1,A,2x00,,B,1900,\n", 2, 3, "rating"},
		{"FIDE id not digits", head + "1,A,2000,12a4,B,1900,\n", 2, 4, "FIDE id"},
		{"unknown result", head + "1,A,2000,,B,1900,2-0\n", 2, 7, "result"},
		{"two rounds", "Round,Board,White,Black\n4,1,A,B\n5,2,C,D\n", 3, 1, "one round at a time"},
		{"no Black column", "Board,White,Rating\n1,A,2000\n", 1, 0, "Black"},
		{"same column twice", "Board,White,Black,White Rating,Elo White\n", 1, 5, "same column as column 4"},
		{"only a header", head, 0, 0, "no boards"},
		{"bad bye", head + "1,A,2000,,bye,,W\n", 2, 7, "bye"},
	} {
		_, err := Read(strings.NewReader(c.text))
		var e *Error
		if !errors.As(err, &e) || e.Line != c.line || e.Column != c.col || !strings.Contains(e.Error(), c.contains) {
			t.Errorf("%s: %v; want line %d, column %d, saying %q", c.name, err, c.line, c.col, c.contains)
		}
		if err != nil && !errors.Is(err, rules.ErrInvalid) {
			t.Errorf("%s: errors.Is(err, rules.ErrInvalid) is false", c.name)
		}
	}
}
