package trf

import (
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/chesshall/hallclock/rules"
)

// readText reads a testdata file as text.
func readText(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// editLine applies edit to line n (from 1) of a file, whatever its line
// ends.
func editLine(s string, n int, edit func(string) string) string {
	ls := refSplit(s)
	ls[n-1].text = edit(ls[n-1].text)
	return refJoin(ls)
}

// A player line cut short — a FIDE number that became "2", a round
// entry that stops after its opponent — is refused on its own line and
// column when the file is read: before any pairing file is looked at,
// and never blamed on its opponent's line.
func TestCutLinesRefused(t *testing.T) {
	in := readText(t, javafoIn) // player n is on line 15+n
	for _, c := range []struct {
		name      string
		text      string
		line, col int
		contains  string
	}{
		{"cut in the FIDE number", editLine(in, 35, func(s string) string { return s[:58] }), 35, 59, "in the FIDE number (58-68)"},
		{"cut in the name", editLine(in, 20, func(s string) string { return s[:30] }), 20, 31, "in the name (15-47)"},
		{"cut in the points", editLine(in, 25, func(s string) string { return s[:82] }), 25, 83, "in the points (81-84)"},
		// Player 4 (line 19) plays 18 (line 33) in round 4: the entry stops
		// after the opponent.
		{"cut in a round", editLine(in, 19, func(s string) string { return s[:125] }), 19, 126, "round 4: opponent 18"},
		{"a game without a colour", editLine(in, 19, func(s string) string { return s[:126] + "-" + s[127:] }), 19, 127, "a game needs w or b"},
	} {
		f, err := Read(strings.NewReader(c.text))
		if err == nil {
			// Where the old reader let the line through, its round is where
			// the trouble shows: then it must still be this line's.
			pairs, _ := ReadPairings(strings.NewReader(readText(t, javafoOut)))
			if _, err = f.Paired(5, pairs); err == nil {
				_, err = f.Round(4)
			}
		}
		var e *Error
		if !errors.As(err, &e) || e.Line != c.line || e.Column != c.col || !strings.Contains(e.Msg, c.contains) {
			t.Errorf("%s: %v; want line %d, column %d, saying %q", c.name, err, c.line, c.col, c.contains)
		}
	}
}

// The pairing output is checked against what the TRF says of the round:
// a half-point bye asked for in its columns ("0000 - H"), its XXZ line,
// TRF-2026's 240 lines, the round's columns of a TRF written after
// pairing. A conflict names both files; a player neither file places in
// the round is listed, and allowed only when asked.
func TestPairingsAgreeWithTheTRF(t *testing.T) {
	in := readText(t, javafoIn)     // player 4 asks a half-point bye (line 19), 16 is on XXZ (line 15)
	pairs := readText(t, javafoOut) // "20 0" on line 11: 20 gets the pairing-allocated bye
	mismatch := func(t *testing.T, trf, out string) *MismatchError {
		t.Helper()
		f, err := Read(strings.NewReader(trf))
		if err != nil {
			t.Fatal(err)
		}
		ps, err := ReadPairings(strings.NewReader(out))
		if err != nil {
			t.Fatal(err)
		}
		_, err = f.Paired(5, ps)
		var m *MismatchError
		if !errors.As(err, &m) {
			t.Fatalf("Paired = %v, want a *MismatchError", err)
		}
		if !errors.Is(err, rules.ErrInvalid) {
			t.Error("errors.Is(err, rules.ErrInvalid) is false")
		}
		return m
	}

	t.Run("the bye of the pairing for a player who asked a half point", func(t *testing.T) {
		// The pairing program gives 4 the bye and pairs 20 against nobody.
		m := mismatch(t, in, strings.Replace(pairs, "20 0", "4 0", 1))
		want := []Conflict{{Player: 4, Pairings: Source{Line: 11, Column: 1, Text: "4 0"}, TRF: Source{Line: 19, Column: 132, Text: "0000 - H"},
			Msg: "the pairings give him the pairing-allocated bye, the TRF gives him a half-point bye"}}
		if !reflect.DeepEqual(m.Conflicts, want) {
			t.Errorf("conflicts %+v\nwant %+v", m.Conflicts, want)
		}
		if len(m.Absent) != 1 || m.Absent[0].Player != 20 || m.Absent[0].Line != 35 {
			t.Errorf("absent %+v, want player 20 (line 35)", m.Absent)
		}
		for _, s := range []string{"pairings line 11", "TRF line 19, column 132", `"0000 - H"`, "20 Larsen, Freja (TRF line 35)", "allow absent"} {
			if !strings.Contains(m.Error(), s) {
				t.Errorf("%q does not say %q", m.Error(), s)
			}
		}
	})
	t.Run("a player left out", func(t *testing.T) {
		out := strings.Replace(strings.Replace(pairs, "10 21\n", "", 1), "10\n", "9\n", 1)
		m := mismatch(t, in, out)
		if len(m.Conflicts) != 0 || len(m.Absent) != 2 || m.Absent[0].Player != 10 || m.Absent[1].Player != 21 {
			t.Errorf("conflicts %+v, absent %+v; want 10 and 21 absent", m.Conflicts, m.Absent)
		}
		f, _ := Read(strings.NewReader(in))
		ps, _ := ReadPairings(strings.NewReader(out))
		r, err := f.Import(ImportOptions{Pairings: ps, AllowAbsent: true})
		if err != nil {
			t.Fatalf("Import allowing absent players: %v", err)
		}
		if r.Number != 5 || len(r.Boards) != 8 || len(r.Absent) != 2 || r.Absent[0] != (Absentee{Player: 10, Name: "O'Connor, Sean", Line: 25}) {
			t.Errorf("round %d, %d boards, absent %+v", r.Number, len(r.Boards), r.Absent)
		}
	})
	t.Run("a player on XXZ paired", func(t *testing.T) {
		m := mismatch(t, in, strings.Replace(strings.Replace(pairs, "20 0", "20 16", 1), "10\n", "10\n", 1))
		if len(m.Conflicts) != 1 || m.Conflicts[0].Player != 16 || m.Conflicts[0].TRF.Line != 15 || !strings.Contains(m.Conflicts[0].Msg, "XXZ") {
			t.Errorf("conflicts %+v, want 16 against XXZ on line 15", m.Conflicts)
		}
	})
	t.Run("a player with a half-point bye paired", func(t *testing.T) {
		m := mismatch(t, in, strings.Replace(pairs, "20 0", "20 4", 1))
		if len(m.Conflicts) != 1 || m.Conflicts[0].Player != 4 || m.Conflicts[0].Pairings.Line != 11 || m.Conflicts[0].TRF.Line != 19 {
			t.Errorf("conflicts %+v", m.Conflicts)
		}
	})
	t.Run("a bye requested on a 240 line", func(t *testing.T) {
		// TRF-2026: "240 H RRR  PPPP": player 9 asks a half point in round 5.
		with := strings.Replace(in, "XXZ 16\r\n", "XXZ 16\r\n240 H   5    9\r\n", 1)
		m := mismatch(t, with, pairs)
		if len(m.Conflicts) != 1 || m.Conflicts[0].Player != 9 || m.Conflicts[0].TRF != (Source{Line: 16, Column: 11, Text: "240 H   5    9"}) ||
			m.Conflicts[0].Pairings.Text != "5 9" {
			t.Errorf("conflicts %+v", m.Conflicts)
		}
	})
	t.Run("a TRF written after pairing that pairs otherwise", func(t *testing.T) {
		// The paired TRF has 1-7 on board 1; the pairings say 1-9 and 5-7.
		out := strings.Replace(strings.Replace(pairs, "1 7", "1 9", 1), "5 9", "5 7", 1)
		f, _ := Read(strings.NewReader(readText(t, pairedFile)))
		ps, _ := ReadPairings(strings.NewReader(out))
		_, err := f.Import(ImportOptions{Pairings: ps})
		var m *MismatchError
		if !errors.As(err, &m) || m.Round != 5 || len(m.Conflicts) != 4 {
			t.Fatalf("Import = %v; want 4 conflicts in round 5", err)
		}
		if c := m.Conflicts[0]; c.Player != 1 || c.TRF.Text != "7 w" || c.Pairings.Text != "1 9" {
			t.Errorf("first conflict %+v", c)
		}
	})
}

// The round to import is the first the TRF has not paired when the
// pairings come with it, the last it has paired when they do not: byes
// entered for rounds ahead pair nobody and move neither. The rounds
// before it are checked.
func TestRoundDetection(t *testing.T) {
	ahead := readText(t, "testdata/constructed/byes-ahead.trf") // rounds 1-5 played, "0000 - H" in round 7
	f, err := Read(strings.NewReader(ahead))
	if err != nil {
		t.Fatal(err)
	}
	if n, err := f.PairedRounds(); n != 5 || err != nil {
		t.Errorf("PairedRounds() = %d, %v; want 5", n, err)
	}
	r, err := f.Import(ImportOptions{})
	if err != nil || r.Number != 5 || len(r.Boards) != 30 {
		t.Errorf("Import from the columns: %v; want round 5's 30 boards", err)
	}
	ps, err := ReadPairings(strings.NewReader(readText(t, "testdata/constructed/byes-ahead-r6.pairs")))
	if err != nil {
		t.Fatal(err)
	}
	r, err = f.Import(ImportOptions{Pairings: ps})
	if err != nil {
		t.Fatalf("Import with round 6's pairings: %v", err)
	}
	if r.Number != 6 || len(r.Boards) != 30 || len(r.Byes) != 0 || len(r.Absent) != 0 {
		t.Errorf("round %d: %d boards, byes %v, absent %v; want round 6, 30 boards", r.Number, len(r.Boards), r.Byes, r.Absent)
	}

	if _, err := f.Import(ImportOptions{Round: 8, Pairings: ps}); err == nil || !strings.Contains(err.Error(), "need rounds 6 to 7 first") {
		t.Errorf("round 8's pairings for a TRF of 5 rounds: %v", err)
	}

	// The paired TRF of the nordic open: round 5 paired, no result yet —
	// with pairings, they are round 5's and must match its columns.
	f = readFile(t, pairedFile)
	pairs, _ := ReadPairings(strings.NewReader(readText(t, javafoOut)))
	if r, err := f.Import(ImportOptions{Pairings: pairs}); err != nil || r.Number != 5 {
		t.Errorf("paired TRF with its pairings: %v", err)
	}

	for _, c := range []struct {
		name      string
		text      string
		line, col int
		contains  string
	}{
		// Player 1 (line 2) plays 16 in round 3: make it 77, who is no one.
		{"an opponent who does not exist", editLine(ahead, 2, func(s string) string { return s[:111] + "  77" + s[115:] }), 2, 112, "round 3: opponent 77 is no player"},
		// A game in round 7 while round 6 pairs nobody.
		{"a game after an unpaired round", editLine(editLine(ahead, 5, func(s string) string { return s + strings.Repeat(" ", 10) + "     5 w" }), 6,
			func(s string) string { return s + strings.Repeat(" ", 10) + "     4 b" }), 5, 152, "round 6 pairs nobody"},
	} {
		f, err := Read(strings.NewReader(c.text))
		if err == nil {
			_, err = f.Import(ImportOptions{Pairings: ps})
		}
		var e *Error
		if !errors.As(err, &e) || e.Line != c.line || e.Column != c.col || !strings.Contains(e.Msg, c.contains) {
			t.Errorf("%s: %v; want line %d, column %d, saying %q", c.name, err, c.line, c.col, c.contains)
		}
	}
}
