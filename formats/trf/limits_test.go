package trf

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// LF, CR LF and CR all end a line, in a TRF and in a pairing output, and
// a file that mixes them is written back with each line's own.
func TestLineEnds(t *testing.T) {
	lf := readText(t, javafoIn)
	lf = strings.ReplaceAll(lf, "\r\n", "\n")
	for name, end := range map[string]string{"LF": "\n", "CR LF": "\r\n", "CR": "\r"} {
		in := strings.ReplaceAll(lf, "\n", end)
		f, err := Read(strings.NewReader(in))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if len(f.Players) != 21 || f.Player(21).Name != "Brown, Michael" || f.Rounds() != 9 {
			t.Errorf("%s: %d players", name, len(f.Players))
		}
		pairs, err := ReadPairings(strings.NewReader(strings.ReplaceAll(readText(t, javafoOut), "\n", end)))
		if err != nil || len(pairs) != 10 || pairs[9].Line != 11 {
			t.Errorf("%s: pairings %v, %v", name, pairs, err)
		}
		if !IsTRF([]byte(in)) {
			t.Errorf("%s: IsTRF is false", name)
		}
	}
	mixed := strings.Replace(strings.Replace(lf, "\n", "\r", 3), "\n", "\r\n", 5)
	f, err := Read(strings.NewReader(mixed))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := f.Write(&out); err != nil || out.String() != mixed {
		t.Errorf("mixed line ends written back as %q, %v", head(out.String()), err)
	}
	if IsTRF([]byte("Bo.;White;Black\r1;A;B\r")) {
		t.Error("IsTRF of a CSV is true")
	}
}

// A line longer than any tournament program writes is refused with its
// number and the limit, in a TRF and in a pairing output, instead of a
// scanner's "token too long".
func TestLongLine(t *testing.T) {
	long := "012 " + strings.Repeat("x", 100_000)
	_, err := Read(strings.NewReader("### ok\n" + long + "\n" + playerLine(1, "", "", "A, A", "", "", "", "", "0.0", "")))
	var e *Error
	if !errors.As(err, &e) || e.Line != 2 || e.Column != 65537 || !strings.Contains(e.Msg, "65536 bytes") {
		t.Errorf("Read: %v; want line 2 refused, saying the limit", err)
	}
	_, err = ReadPairings(strings.NewReader("1\n1 2" + strings.Repeat(" ", 70_000) + "\n"))
	if !errors.As(err, &e) || e.Line != 2 || !strings.Contains(e.Msg, "65536 bytes") {
		t.Errorf("ReadPairings: %v; want line 2 refused, saying the limit", err)
	}
}

// A tournament of 9,999 players — every starting rank TRF-16 has —
// imports, plays and exports.
func TestNineThousandPlayers(t *testing.T) {
	const n = 9999
	var b strings.Builder
	b.WriteString("012 Everyone\r\nXXR 9\r\n")
	for rank := 1; rank <= n; rank++ {
		r1, pts := fmt.Sprintf("%4d w 1", rank+1), "1.0"
		switch {
		case rank == n:
			r1 = "0000 - U"
		case rank%2 == 0:
			r1, pts = fmt.Sprintf("%4d b 0", rank-1), "0.0"
		}
		b.WriteString(playerLine(rank, "m", "", fmt.Sprintf("Player %04d, P", rank), fmt.Sprint(2800-rank/10), "NOR", "", "", pts, "", r1))
		b.WriteString("\r\n")
	}
	in := b.String()
	f, err := Read(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Players) != n || len(f.CheckPoints()) != 0 {
		t.Fatalf("%d players; points wrong for %v", len(f.Players), f.CheckPoints())
	}
	r, err := f.Import(ImportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Number != 1 || len(r.Boards) != n/2 || len(r.Byes) != 1 {
		t.Fatalf("round %d: %d boards, %d byes", r.Number, len(r.Boards), len(r.Byes))
	}
	for i := range r.Boards {
		r.Boards[i].WhiteResult, r.Boards[i].BlackResult = Draw, Draw
	}
	if err := f.SetRound(1, r.Boards, r.Byes, Scoring{}); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := f.Write(&out); err != nil {
		t.Fatal(err)
	}
	if err := sameOutside(in, out.String(), 1); err != nil {
		t.Error(err)
	}
	back := refRead(t, out.String())
	back.check(t, "9,999 players exported")
	if p := back.players[1]; p.points != 0.5 || p.rounds[1].result != '=' {
		t.Errorf("player 1 exported with %.1f points, round 1 %v", p.points, p.rounds[1])
	}
	if p := back.players[n]; p.points != 1 {
		t.Errorf("player %d (the bye) exported with %.1f points", n, p.points)
	}
}
