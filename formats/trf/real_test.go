package trf

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// realFiles are the files of testdata/real (see its README): as the
// programs that made them wrote them.
var realFiles = []string{
	"bbp-issue-7.trf",             // CR-only, forfeits
	"bbp-issue-15.trf",            // CR-only, 180 players
	"bbp-generated-3-1-0.trf",     // 162: 3-1-0, byes, a withdrawal
	"sharly-team-forfeit-win.trf", // a team tournament, TRF-2026
	"lichess-j8rtJ5GL.trf",        // a lichess export, absences "-"
	"lichess-QLMFFLBq.trf",        // a lichess export, byes without an opponent
}

func readReal(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "real", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// afterPairing returns a file as a tournament program writes it once
// round n is paired, before it is played: every game of round n without
// its result, the points without it.
func afterPairing(ref *refFile, n int) string {
	ls := slices.Clone(ref.lines)
	for _, p := range ref.players {
		e := p.rounds[n]
		if e.opp == 0 {
			continue
		}
		r := []rune(ls[p.line].text)
		r[99+10*(n-1)-1] = ' '
		ls[p.line].text = setPoints(string(r), p.points-ref.score(e))
	}
	return refJoin(ls)
}

// beforePairing returns a file as it is given to a pairing program for
// round n — its games and pairing-allocated byes taken out, the byes
// players asked for left in (JaVaFo's "0000 - H"), the points without
// them — and the pairing program's output for the round.
func beforePairing(ref *refFile, n int) (trf, pairs string) {
	ls := slices.Clone(ref.lines)
	var out []string
	ranks := make([]int, 0, len(ref.players))
	for r := range ref.players {
		ranks = append(ranks, r)
	}
	slices.Sort(ranks)
	for _, rank := range ranks {
		p := ref.players[rank]
		e := p.rounds[n]
		if e.opp == 0 && e.result != 'U' {
			continue
		}
		switch {
		case e.result == 'U':
			out = append(out, fmt.Sprintf("%d 0", rank))
		case e.colour == 'w':
			out = append(out, fmt.Sprintf("%d %d", rank, e.opp))
		}
		text := ls[p.line].text
		r := []rune(text)
		for c := 92 + 10*(n-1); c <= 99+10*(n-1) && c <= len(r); c++ {
			r[c-1] = ' '
		}
		s := string(r)
		if !strings.HasSuffix(text, " ") {
			s = strings.TrimRight(s, " ")
		}
		ls[p.line].text = setPoints(s, p.points-ref.score(e))
	}
	return refJoin(ls), fmt.Sprintf("%d\n%s\n", len(out), strings.Join(out, "\n"))
}

func setPoints(line string, v float64) string {
	r := []rune(line)
	copy(r[80:84], []rune(fmt.Sprintf("%4.1f", v)))
	return string(r)
}

// play gives the boards of round n the results the original file records.
func play(ref *refFile, n int, bs []Board) []Board {
	out := slices.Clone(bs)
	for i, b := range out {
		out[i].WhiteResult = Code(ref.players[b.White].rounds[n].result)
		out[i].BlackResult = Code(ref.players[b.Black].rounds[n].result)
	}
	return out
}

// Each real file reads and writes back byte for byte; its last round,
// imported as a tournament program writes it after pairing (results
// blank) and as a pairing program is given it (with the pairing
// program's output), then played with the results the file records,
// exports as the file again: the same bytes after pairing; the same
// bytes but round n's columns, which the same games fill, from the
// pairing output. The tests' own reader finds every player's points to
// be what his rounds score, in the file and in the exports.
//
// TRF_EXPORT_DIR=dir writes the inputs, pairing outputs and exports
// there, for a pairing engine's checker (bbpPairings -c).
func TestRealFiles(t *testing.T) {
	dir := os.Getenv("TRF_EXPORT_DIR")
	for _, name := range realFiles {
		t.Run(name, func(t *testing.T) {
			orig := readReal(t, name)
			ref := refRead(t, string(orig))
			ref.check(t, name) // the reader agrees with the program that wrote the file

			f, err := Read(bytes.NewReader(orig))
			if err != nil {
				t.Fatalf("Read: %v", err)
			}
			var back bytes.Buffer
			if err := f.Write(&back); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(back.Bytes(), orig) {
				t.Errorf("Write(Read(file)) is not the file:\n%q\nwant\n%q", head(back.String()), head(string(orig)))
			}
			n := ref.lastPaired()
			export := func(input string, opt ImportOptions) string {
				t.Helper()
				f, err := Read(strings.NewReader(input))
				if err != nil {
					t.Fatalf("Read: %v", err)
				}
				r, err := f.Import(opt)
				if err != nil {
					t.Fatalf("Import: %v", err)
				}
				if r.Number != n {
					t.Errorf("Import read round %d, want %d", r.Number, n)
				}
				games := 0
				for _, p := range ref.players {
					if p.rounds[n].opp > 0 {
						games++
					}
				}
				if len(r.Boards)*2 != games {
					t.Errorf("round %d: %d boards, the file has %d games", n, len(r.Boards), games/2)
				}
				if err := f.SetRound(n, play(ref, n, r.Boards), r.Byes, Scoring{}); err != nil {
					t.Fatalf("SetRound: %v", err)
				}
				var out bytes.Buffer
				if err := f.Write(&out); err != nil {
					t.Fatal(err)
				}
				if err := sameOutside(input, out.String(), n); err != nil {
					t.Errorf("the export differs from its input outside round %d and the points: %v", n, err)
				}
				refRead(t, out.String()).check(t, name+" exported")
				return out.String()
			}

			paired := afterPairing(ref, n)
			if got := export(paired, ImportOptions{}); got != string(orig) {
				t.Errorf("round %d imported after pairing and played exports otherwise than the file:\n%s", n, firstDiff(got, string(orig)))
			}

			before, pairs := beforePairing(ref, n)
			ps, err := ReadPairings(strings.NewReader(pairs))
			if err != nil {
				t.Fatal(err)
			}
			got := export(before, ImportOptions{Pairings: ps, AllowAbsent: true})
			if err := sameOutside(string(orig), got, n); err != nil {
				t.Errorf("round %d imported with the pairing output exports otherwise than the file: %v", n, err)
			}
			want, have := refRead(t, string(orig)), refRead(t, got)
			for rank, p := range want.players {
				if e, g := p.rounds[n], have.players[rank].rounds[n]; e != g && !(e.opp == 0 && e.result == 'U' && g == refEntry{0, '-', 'U'}) {
					t.Errorf("round %d of player %d exported as %v, the file has %v", n, rank, g, e)
				}
			}
			if dir != "" {
				base := filepath.Join(dir, strings.TrimSuffix(name, ".trf"))
				for suffix, content := range map[string]string{"-paired.trf": paired, "-before.trf": before, "-pairs.txt": pairs, "-export.trf": got} {
					if err := os.WriteFile(base+suffix, []byte(content), 0o644); err != nil {
						t.Fatal(err)
					}
				}
			}
		})
	}
}

func head(s string) string {
	if len(s) > 400 {
		return s[:400] + "…"
	}
	return s
}

// firstDiff shows the first line where got and want differ.
func firstDiff(got, want string) string {
	a, b := refSplit(got), refSplit(want)
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return fmt.Sprintf("line %d: %q\nwant     %q", i+1, a[i].text+a[i].end, b[i].text+b[i].end)
		}
	}
	return fmt.Sprintf("%d lines, want %d", len(a), len(b))
}
