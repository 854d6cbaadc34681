package server_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/chesshall/hallclock/formats/trf"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// The tests' own reader of TRF player lines, by their fixed columns
// (1-based, inclusive), independent of the trf package's writer: it
// makes the files a tournament program writes before a round is played
// from a real file that has it played, and checks the hall's exports
// against the real file byte for byte.

// fileLine is a line of a file: its text (bytes, or characters for a
// UTF-8 file) and its line end as written.
type fileLine struct {
	text []rune
	end  string
}

// splitLines splits a file at LF, CR LF and CR, keeping each line's end;
// a file that is not UTF-8 is read a byte a character (its code page is
// single-byte).
func splitLines(b []byte) []fileLine {
	var out []fileLine
	for len(b) > 0 {
		i := bytes.IndexAny(b, "\r\n")
		l := fileLine{}
		raw := b
		if i >= 0 {
			raw = b[:i]
			switch {
			case b[i] == '\r' && i+1 < len(b) && b[i+1] == '\n':
				l.end, b = "\r\n", b[i+2:]
			default:
				l.end, b = string(b[i]), b[i+1:]
			}
		} else {
			b = nil
		}
		if utf8.Valid(raw) {
			l.text = []rune(string(raw))
		} else {
			for _, c := range raw {
				l.text = append(l.text, rune(c))
			}
		}
		out = append(out, l)
	}
	return out
}

// joinLines writes lines back, as splitLines read them (utf8: the file
// was UTF-8).
func joinLines(ls []fileLine, utf bool) []byte {
	var b bytes.Buffer
	for _, l := range ls {
		if utf {
			b.WriteString(string(l.text))
		} else {
			for _, r := range l.text {
				b.WriteByte(byte(r))
			}
		}
		b.WriteString(l.end)
	}
	return b.Bytes()
}

func cols(l []rune, from, to int) string {
	if from > len(l) {
		return ""
	}
	return string(l[from-1 : min(to, len(l))])
}

// entry is a player's round n: opponent, colour, result code.
type entry struct {
	opp    int
	colour byte
	code   byte
}

func entryOf(l []rune, n int) entry {
	c := 92 + 10*(n-1)
	s := cols(l, c, c+7) + "        "
	opp, _ := strconv.Atoi(strings.TrimSpace(s[:4]))
	return entry{opp, s[5], s[7]}
}

// points is what a file's results score: a win (over the board, by
// forfeit, a full-point bye), a draw (and a half-point bye), the
// pairing-allocated bye.
type points struct{ win, draw, pab float64 }

var (
	classicPoints = points{1, 0.5, 1}
	threeOne      = points{3, 1, 3}
)

// score is what a result code scores.
func (p points) score(code byte) float64 {
	switch code {
	case '1', '+', 'W', 'w', 'F', 'f':
		return p.win
	case 'U', 'u':
		return p.pab
	case '=', 'D', 'd', 'H', 'h':
		return p.draw
	}
	return 0
}

func isPlayer(l fileLine) bool { return strings.HasPrefix(string(l.text), "001") }

func rank(l fileLine) int {
	n, _ := strconv.Atoi(strings.TrimSpace(cols(l.text, 5, 8)))
	return n
}

// setCols writes s into columns from.. of l, padding a short line.
func setCols(l []rune, from int, s string) []rune {
	for len(l) < from-1+len([]rune(s)) {
		l = append(l, ' ')
	}
	copy(l[from-1:], []rune(s))
	return l
}

// roundFiles are the files of a real file's round n as tournament
// programs write them before it is played, and what the file records of
// its games.
type roundFiles struct {
	orig     []byte
	paired   []byte // after pairing: round n's games without results, points without them
	before   []byte // given to the pairing program: round n's games and pairing-allocated byes taken out
	pairings []byte // the pairing program's output for round n
	utf      bool
	games    map[[2]int][2]byte // (White, Black) → the codes of both
}

func realRound(t *testing.T, path string, n int, pts points) roundFiles {
	t.Helper()
	orig, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rf := roundFiles{orig: orig, utf: utf8.Valid(orig), games: map[[2]int][2]byte{}}
	lines := splitLines(orig)
	paired := make([]fileLine, len(lines))
	before := make([]fileLine, len(lines))
	codes := map[int]byte{}
	var pairs []string
	c := 92 + 10*(n-1)
	for i, l := range lines {
		paired[i], before[i] = l, l
		if !isPlayer(l) {
			continue
		}
		e := entryOf(l.text, n)
		if e.opp == 0 && e.code != 'U' {
			continue // a bye asked for, an absence: the TRF says so before pairing
		}
		codes[rank(l)] = e.code
		had, err := strconv.ParseFloat(strings.TrimSpace(cols(l.text, 81, 84)), 64)
		if err != nil {
			t.Fatalf("%s line %d: points %q", path, i+1, cols(l.text, 81, 84))
		}
		without := fmt.Sprintf("%4.1f", had-pts.score(e.code))
		p := setCols(append([]rune(nil), l.text...), 81, without)
		b := append([]rune(nil), p...)
		if e.opp > 0 {
			p = setCols(p, c+7, " ") // the result is not known yet
			if e.colour == 'w' {
				pairs = append(pairs, fmt.Sprintf("%d %d", rank(l), e.opp))
			}
		} else {
			pairs = append(pairs, fmt.Sprintf("%d 0", rank(l)))
		}
		b = setCols(b, c, "        ")
		trim := func(r []rune) []rune {
			if len(l.text) > 0 && l.text[len(l.text)-1] != ' ' {
				return []rune(strings.TrimRight(string(r), " "))
			}
			return r
		}
		paired[i].text, before[i].text = trim(p), trim(b)
	}
	for _, l := range lines {
		if isPlayer(l) {
			if e := entryOf(l.text, n); e.opp > 0 && e.colour == 'w' {
				rf.games[[2]int{rank(l), e.opp}] = [2]byte{e.code, codes[e.opp]}
			}
		}
	}
	rf.paired, rf.before = joinLines(paired, rf.utf), joinLines(before, rf.utf)
	rf.pairings = []byte(fmt.Sprintf("%d\n%s\n", len(pairs), strings.Join(pairs, "\n")))
	return rf
}

// sameOutside reports where export differs from orig other than in round
// n's columns and the points; it compares round n's entries and the
// points apart, by what they say (a pairing-allocated bye written
// "0000 - U" for "         U").
func sameOutside(orig, export []byte, n int) error {
	a, b := splitLines(orig), splitLines(export)
	if len(a) != len(b) {
		return fmt.Errorf("%d lines, the file has %d", len(b), len(a))
	}
	c := 92 + 10*(n-1)
	blank := func(l []rune) string {
		l = append([]rune(nil), l...)
		for k := range l {
			if (k+1 >= 81 && k+1 <= 84) || (k+1 >= c && k+1 <= c+7) {
				l[k] = ' '
			}
		}
		return strings.TrimRight(string(l), " ")
	}
	for i := range a {
		if a[i].end != b[i].end {
			return fmt.Errorf("line %d ends in %q, the file's in %q", i+1, b[i].end, a[i].end)
		}
		if !isPlayer(a[i]) {
			if string(a[i].text) != string(b[i].text) {
				return fmt.Errorf("line %d is %q, the file's %q", i+1, string(b[i].text), string(a[i].text))
			}
			continue
		}
		if blank(a[i].text) != blank(b[i].text) {
			return fmt.Errorf("line %d is\n%q, the file's\n%q", i+1, string(b[i].text), string(a[i].text))
		}
		ea, eb := entryOf(a[i].text, n), entryOf(b[i].text, n)
		if ea != eb && !(ea.opp == 0 && ea.code == 'U' && eb == entry{0, '-', 'U'}) {
			return fmt.Errorf("line %d: round %d is %+v, the file's %+v", i+1, n, eb, ea)
		}
		pa, _ := strconv.ParseFloat(strings.TrimSpace(cols(a[i].text, 81, 84)), 64)
		pb, _ := strconv.ParseFloat(strings.TrimSpace(cols(b[i].text, 81, 84)), 64)
		if pa != pb {
			return fmt.Errorf("line %d: %v points, the file's %v", i+1, pb, pa)
		}
	}
	return nil
}

// firstDifference shows the first line where two files differ.
func firstDifference(got, want []byte) string {
	a, b := splitLines(got), splitLines(want)
	for i := range min(len(a), len(b)) {
		if string(a[i].text) != string(b[i].text) || a[i].end != b[i].end {
			return fmt.Sprintf("line %d: %q\nwant     %q", i+1, string(a[i].text)+a[i].end, string(b[i].text)+b[i].end)
		}
	}
	return fmt.Sprintf("%d lines, want %d", len(a), len(b))
}

// playAsRecorded gives every board of an imported round the result the
// real file records, on a virtual clock nobody presses (a result from
// the scoresheet): a game the file says lasted less than one move (W, D,
// L) marked unplayed by the arbiter.
func playAsRecorded(t *testing.T, arb pb.ArbiterClient, ctx context.Context, rf roundFiles, boards []*pb.Board) {
	t.Helper()
	for _, b := range boards {
		codes, ok := rf.games[[2]int{int(b.GetWhite().GetStartRank()), int(b.GetBlack().GetStartRank())}]
		if !ok {
			t.Fatalf("board %d: %d-%d is no game of the file", b.GetNumber(), b.GetWhite().GetStartRank(), b.GetBlack().GetStartRank())
		}
		res, err := trf.ResultOf(trf.Code(upper(codes[0])), trf.Code(upper(codes[1])))
		if err != nil {
			t.Fatalf("board %d: %v", b.GetNumber(), err)
		}
		if _, err := arb.UseVirtualClock(ctx, &pb.UseVirtualClockRequest{BoardId: b.GetBoardId(), Reason: "scoresheets"}); err != nil {
			t.Fatal(err)
		}
		unplayed := strings.ContainsRune("WDL", rune(upper(codes[0])))
		act(t, arb, ctx, b.GetBoardId(), &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_RESULT, Result: string(res), Unplayed: unplayed},
			pb.CommandStatus_COMMAND_STATUS_APPLIED)
	}
}

func upper(c byte) byte {
	if c >= 'a' && c <= 'z' {
		return c - 'a' + 'A'
	}
	return c
}

func exportTRF(t *testing.T, arb pb.ArbiterClient, ctx context.Context, roundID, encoding string) []byte {
	t.Helper()
	ex, err := arb.ExportRound(ctx, &pb.ExportRoundRequest{RoundId: roundID, Format: pb.ExportFormat_EXPORT_FORMAT_TRF, Encoding: encoding})
	if err != nil {
		t.Fatalf("ExportRound: %v", err)
	}
	return ex.GetContent()
}

func realFile(name string) string { return filepath.Join("..", "formats", "trf", "testdata", name) }
