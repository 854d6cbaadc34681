package trf

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// playerLine writes a 001 line from its fields, each in its columns, and
// its round entries.
func playerLine(rank int, sex, title, name, rating, fed, id, birth, points, place string, rounds ...string) string {
	s := fmt.Sprintf("001 %4d %1s%3s %-33s %4s %-3s %11s %-10s %4s %4s", rank, sex, title, name, rating, fed, id, birth, points, place)
	for _, r := range rounds {
		s += "  " + r
	}
	return s
}

// The export is the file that was imported plus what the hall added —
// round 3's results and the points they move — and byte for byte the
// same elsewhere: a title right-aligned as an old program wrote it, an
// unrated player's "   0", an absence written "0000 - -", comments and
// blank lines where they were, lines after the players, trailing blanks,
// the line ends.
func TestExportIsTheFileWithTheRound(t *testing.T) {
	file := func(p1, p2, p3, p4 string, r3 [4]string) string {
		return strings.Join([]string{
			"012 Byte for Byte Open",
			"### the pairing program's comment, kept",
			"XXR 5",
			"",
			playerLine(1, "m", "g", "Alpha, Anna", "2400", "NOR", "12345678", "1990/01/01", p1, "1", "   4 w 1", "0000 - -", r3[0]),
			playerLine(2, "w", "WGM", "Beta, Berit", "2300", "SWE", "2345678", "1991/02/02", p2, "2", "   3 b 0", "   4 w 1", r3[1]),
			playerLine(3, "m", "IM", "Gamma, Gustav", "0", "DEN", "", "", p3, "3", "   2 w 1", "0000 - U", r3[2]),
			playerLine(4, "", "", "Delta, Dora", "", "FIN", "", "2001", p4, "4", "   1 b 0", "   2 b 0", r3[3]) + "   ",
			"",
			"### after the players",
			"XXC white1",
		}, "\n") + "\n"
	}
	in := file(" 1.0", " 1.0", " 2.0", " 0.0", [4]string{"   3 w", "   4 b", "   1 b", "   2 w  "})
	want := file(" 2.0", " 1.5", " 2.0", " 0.5", [4]string{"   3 w 1", "   4 b =", "   1 b 0", "   2 w ="})

	f, err := Read(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	r, err := f.Round(3)
	if err != nil {
		t.Fatal(err)
	}
	for i := range r.Boards {
		switch r.Boards[i].White {
		case 1:
			r.Boards[i].WhiteResult, r.Boards[i].BlackResult = Win, Loss
		case 4:
			r.Boards[i].WhiteResult, r.Boards[i].BlackResult = Draw, Draw
		}
	}
	if err := f.SetRound(3, r.Boards, r.Byes, Scoring{}); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := f.Write(&out); err != nil {
		t.Fatal(err)
	}
	if out.String() != want {
		t.Errorf("export:\n%s\nwant\n%s\n%s", out.String(), want, firstDiff(out.String(), want))
	}
	if err := sameOutside(in, out.String(), 3); err != nil {
		t.Error(err)
	}
}

// A 3-1-0 tournament exports with 3-1-0 points, in each of the three
// ways a file states it (TRF-2026's 162 as bbpPairings wrote it, JaVaFo's
// XXS, bbpPairings' BBW/BBD), the scoring lines kept where they were:
// what a pairing engine checks before it pairs the next round.
func TestExportScoresAsTheFileSays(t *testing.T) {
	gen := strings.ReplaceAll(string(readReal(t, "bbp-generated-3-1-0.trf")), "\r", "\n") // LF, as any reader reads
	const line162 = "162  W 3.0    D 1.0"
	if !strings.Contains(gen, "\n"+line162+"\n") {
		t.Fatalf("the generated file has no %q line", line162)
	}
	for _, c := range []struct {
		name, lines string
	}{
		{"162", line162},
		{"XXS", "XXS W=3 D=1 PAB=3"},
		{"XXS over two lines", "XXS W=3\nXXS D=1\nXXS PAB=3"},
		{"BBW and BBD", "BBW  3.0\nBBD  1.0"},
	} {
		orig := strings.Replace(gen, line162, c.lines, 1)
		ref := refRead(t, orig)
		ref.check(t, c.name)
		in := afterPairing(ref, 7)
		f, err := Read(strings.NewReader(in))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		r, err := f.Round(7)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if err := f.SetRound(7, play(ref, 7, r.Boards), r.Byes, Scoring{}); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		var out bytes.Buffer
		if err := f.Write(&out); err != nil {
			t.Fatal(err)
		}
		if out.String() != orig {
			t.Errorf("%s: round 7 played exports otherwise than the tournament:\n%s", c.name, firstDiff(out.String(), orig))
		}
	}

	// "XXS W=3 D=1" leaves the pairing-allocated bye at JaVaFo's 1: the
	// file's points, counted with 3, are then not what its rounds score.
	f, err := Read(strings.NewReader(strings.Replace(gen, line162, "XXS W=3 D=1", 1)))
	if err != nil {
		t.Fatal(err)
	}
	var got []int
	for _, m := range f.CheckPoints() {
		got = append(got, m.Player)
		if m.Points-m.Rounds != 2 {
			t.Errorf("player %d: %.1f points, rounds %.1f; want a bye counted 3 instead of 1", m.Player, m.Points, m.Rounds)
		}
	}
	if want := []int{37, 39, 41}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("CheckPoints() names players %v, want %v (the three pairing-allocated byes)", got, want)
	}
	f, _ = Read(strings.NewReader(gen))
	if m := f.CheckPoints(); len(m) != 0 {
		t.Errorf("CheckPoints() of the file as written = %v", m)
	}
}

// The hall's scoring of a round must be the file's: the points of its
// earlier rounds were counted with it. A TRF the hall builds itself
// states a scoring that is not 1, ½, 0 in a 162 line.
func TestSetRoundScoring(t *testing.T) {
	gen := readReal(t, "bbp-generated-3-1-0.trf")
	f, err := Read(bytes.NewReader(gen))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.SetRound(7, nil, nil, Scoring{Win: 1, Draw: 0.5}); err == nil || !strings.Contains(err.Error(), "scores 3-1-0") {
		t.Errorf("SetRound with 1-0.5-0 on a 3-1-0 file = %v, want an error", err)
	}
	if err := f.SetRound(7, nil, nil, Scoring{Win: 3, Draw: 1}); err != nil {
		t.Errorf("SetRound with the file's own scoring: %v", err)
	}
	f = readFile(t, pairedFile)
	if err := f.SetRound(5, nil, nil, Scoring{Win: 3, Draw: 1}); err == nil {
		t.Error("SetRound with 3-1-0 on a file that states no scoring succeeded")
	}

	built := &File{Header: []string{"012 Built"}, Players: []Player{{StartRank: 1, Name: "A, A"}, {StartRank: 2, Name: "B, B"}}}
	if err := built.SetRound(1, []Board{{White: 1, Black: 2, WhiteResult: Win, BlackResult: Loss}}, nil, Scoring{Win: 3, Draw: 1}); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := built.Write(&out); err != nil {
		t.Fatal(err)
	}
	back, err := Read(&out)
	if err != nil {
		t.Fatal(err)
	}
	if ps, stated := back.PointSystem(); !stated || ps.Scoring() != (Scoring{Win: 3, Draw: 1}) || back.Player(1).Points != 3 {
		t.Errorf("built file read back: %s (stated %v), player 1 %.1f points\n%s", ps, stated, back.Player(1).Points, out.String())
	}
}

// Every notation of points, alone and mixed, a later value overriding
// an earlier one; a malformed line is refused where it is wrong.
func TestPointSystems(t *testing.T) {
	std := Classic
	with := func(edit func(*PointSystem)) PointSystem { p := std; edit(&p); return p }
	for _, c := range []struct {
		lines string
		want  PointSystem
	}{
		{"", std},
		{"XXS W=3 D=1", with(func(p *PointSystem) {
			p.WinWhite, p.WinBlack, p.ForfeitWin, p.FullBye, p.DrawWhite, p.DrawBlack, p.HalfBye = 3, 3, 3, 3, 1, 1, 1
		})},
		{"XXS PAB=3 D=1 W=3", with(func(p *PointSystem) {
			p.WinWhite, p.WinBlack, p.ForfeitWin, p.FullBye, p.DrawWhite, p.DrawBlack, p.HalfBye, p.PairingBye = 3, 3, 3, 3, 1, 1, 1, 3
		})},
		// JaVaFo's example 5: W=3 after FPB=0 gives the full-point bye 3 again.
		{"XXS PAB=3\nXXS FPB=0 HPB=0 ZPB=0\nXXS W=3 D=2 WL=1 BL=1", with(func(p *PointSystem) {
			p.WinWhite, p.WinBlack, p.ForfeitWin, p.FullBye, p.DrawWhite, p.DrawBlack, p.HalfBye, p.PairingBye = 3, 3, 3, 3, 2, 2, 2, 3
			p.LossWhite, p.LossBlack = 1, 1
		})},
		{"XXS WW=1.5 BW=1", with(func(p *PointSystem) { p.WinWhite = 1.5 })},
		{"BBW  3.0\nBBD  1.0", with(func(p *PointSystem) {
			p.WinWhite, p.WinBlack, p.ForfeitWin, p.FullBye, p.PairingBye, p.DrawWhite, p.DrawBlack, p.HalfBye = 3, 3, 3, 3, 3, 1, 1, 1
		})},
		{"BBU  1.0\nBBW  3.0\nBBL  0.5\nBBZ  0.2\nBBF  0.1", with(func(p *PointSystem) {
			p.WinWhite, p.WinBlack, p.ForfeitWin, p.FullBye, p.PairingBye, p.LossWhite, p.LossBlack, p.ZeroBye, p.ForfeitLoss = 3, 3, 3, 3, 1, .5, .5, .2, .1
		})},
		{"162  W 3.0    D 1.0    L 0.0    A 0.0    P 1.5    X 0.0", with(func(p *PointSystem) {
			p.WinWhite, p.WinBlack, p.ForfeitWin, p.FullBye, p.PairingBye, p.DrawWhite, p.DrawBlack, p.HalfBye = 3, 3, 3, 3, 1.5, 1, 1, 1
		})},
		{"162  P 0.0", with(func(p *PointSystem) { p.PairingBye = 0 })},
		{"162  Z 0.5", with(func(p *PointSystem) { p.ZeroBye, p.ForfeitLoss = .5, .5 })},
	} {
		text := c.lines
		if text != "" {
			text += "\n"
		}
		f, err := Read(strings.NewReader("012 T\n" + text + playerLine(1, "", "", "A, A", "", "", "", "", "0.0", "")))
		if err != nil {
			t.Errorf("%q: %v", c.lines, err)
			continue
		}
		if got, stated := f.PointSystem(); got != c.want || stated != (c.lines != "") {
			t.Errorf("%q: %+v (stated %v)\nwant %+v", c.lines, got, stated, c.want)
		}
	}
	for _, c := range []struct {
		line     string
		col      int
		contains string
	}{
		{"XXS W3", 5, "CODE=VALUE"},
		{"XXS W=3 Q=1", 9, `code "Q"`},
		{"BBW three", 4, "want the points"},
		{"162  W 3.0    Q 1.0", 15, `symbol 'Q'`},
		{"162  W 3.0    D 1.", 15, "is cut"},
		{"162  W x.0", 7, "want a number"},
	} {
		_, err := Read(strings.NewReader("012 T\n" + c.line + "\n" + playerLine(1, "", "", "A, A", "", "", "", "", "0.0", "")))
		e, ok := err.(*Error)
		if !ok || e.Line != 2 || e.Column != c.col || !strings.Contains(e.Msg, c.contains) {
			t.Errorf("%q: %v; want line 2, column %d, saying %q", c.line, err, c.col, c.contains)
		}
	}
}

// What one round scores, for every code, with each colour, with and
// without an opponent.
func TestPointSystemScore(t *testing.T) {
	ps := PointSystem{WinWhite: 3, WinBlack: 3.5, DrawWhite: 1, DrawBlack: 1.25, LossWhite: .1, LossBlack: .2, ForfeitWin: 2.5,
		ForfeitLoss: -1, FullBye: 2, HalfBye: .75, ZeroBye: .05, PairingBye: 1.5}
	for _, c := range []struct {
		g    Game
		want float64
	}{
		{Game{3, White, Win}, 3}, {Game{3, Black, Win}, 3.5}, {Game{3, White, QuickWin}, 3},
		{Game{3, White, Draw}, 1}, {Game{3, Black, QuickDraw}, 1.25},
		{Game{3, White, Loss}, .1}, {Game{3, Black, QuickLoss}, .2},
		{Game{3, White, ForfeitWin}, 2.5}, {Game{0, NoColour, ForfeitWin}, 2.5},
		{Game{3, Black, ForfeitLoss}, -1}, {Game{0, NoColour, ForfeitLoss}, .05}, // "0000 - -" is an absence
		{Game{0, NoColour, FullBye}, 2}, {Game{0, NoColour, HalfBye}, .75}, {Game{0, NoColour, PairingBye}, 1.5},
		{Game{0, NoColour, ZeroBye}, .05}, {Game{0, NoColour, NoCode}, .05}, // blank is Z
		{Game{3, White, NoCode}, 0}, // not played yet
	} {
		if got := ps.Score(c.g); got != c.want {
			t.Errorf("Score(%+v) = %v, want %v", c.g, got, c.want)
		}
	}
	if got := Classic.String(); got != "1-0.5-0" {
		t.Errorf("Classic = %q", got)
	}
	if got := PointSystemOf(Scoring{Win: 3, Draw: 1}).String(); got != "3-1-0" {
		t.Errorf("3-1-0 = %q", got)
	}
	f, _ := Read(strings.NewReader("162  P 0.0\n" + playerLine(1, "", "", "A, A", "", "", "", "", "0.0", "")))
	if ps, _ := f.PointSystem(); ps.String() != "1-0.5-0 (pairing-allocated bye 0)" {
		t.Errorf("162  P 0.0 = %q", ps)
	}
}

// A header line changed is rewritten where it was; header lines and
// players added follow the last of their kind, with the file's line end;
// a player line changed in a field other than the round's is rewritten
// in that field's columns only.
func TestExportAddsLinesAfterTheirKind(t *testing.T) {
	in := "012 Small\r### note\r" + playerLine(1, "m", "", "A, A", "2000", "NOR", "", "", "0.0", "1") + "\r### tail\r"
	f, err := Read(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	f.SetTag("012", "Small Open")
	f.SetTag("XXR", "7")
	f.Players = append(f.Players, Player{StartRank: 2, Name: "B, B", Rating: 1900, Federation: "SWE"})
	f.Player(1).Rating = 2010
	var out bytes.Buffer
	if err := f.Write(&out); err != nil {
		t.Fatal(err)
	}
	want := "012 Small Open\r### note\r" + playerLine(1, "m", "", "A, A", "2010", "NOR", "", "", "0.0", "1") + "\r" +
		strings.TrimRight(playerLine(2, "", "", "B, B", "1900", "SWE", "", "", "0.0", ""), " ") + "\r### tail\rXXR 7\r"
	if out.String() != want {
		t.Errorf("export:\n%q\nwant\n%q", out.String(), want)
	}
}
