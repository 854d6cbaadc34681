package sim

import (
	"encoding/binary"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/corentings/chess/v2"

	hallv1 "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
)

// The e-board starts from the initial position without the chess
// library's FEN parser, and a board picked up from a clock's history
// reaches the same position as the one that played it.
func TestEBoardStartAndReplay(t *testing.T) {
	b := newEBoard()
	if got, want := b.fen(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"; got != want {
		t.Fatalf("initial position %q, want %q", got, want)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	var hist []*hallv1.ClockAction
	for ply := 0; ply < 60; ply++ {
		if _, ok := b.outcome(); ok {
			break
		}
		m, san, fen := b.pick(rng)
		if ply == 30 { // a move shown as a position (a sealed move)
			b.play(m)
			hist = append(hist, &hallv1.ClockAction{Kind: hallv1.ActionKind_ACTION_KIND_POSITION, Fen: fen})
			continue
		}
		b.play(m)
		if b.fen() != fen {
			t.Fatalf("ply %d: %s led to %s, pick said %s", ply, san, b.fen(), fen)
		}
		hist = append(hist, &hallv1.ClockAction{Kind: hallv1.ActionKind_ACTION_KIND_PRESS, San: san, Fen: fen})
		if ply == 10 { // an illegal move: a press without a move
			hist = append(hist, &hallv1.ClockAction{Kind: hallv1.ActionKind_ACTION_KIND_PRESS})
		}
	}
	r, err := replayEBoard(hist)
	if err != nil {
		t.Fatal(err)
	}
	if r.fen() != b.fen() {
		t.Errorf("replayed to %s, played to %s", r.fen(), b.fen())
	}
}

// Positions no series of legal moves can mate from are drawn (9.6).
func TestDeadPositions(t *testing.T) {
	for _, tc := range []struct {
		name   string
		pieces map[string]int // square → bitboard index (0 white king ... 11 black pawn)
		dead   bool
	}{
		{"K v K", map[string]int{"e1": 0, "e8": 6}, true},
		{"K+B v K", map[string]int{"e1": 0, "e8": 6, "c1": 3}, true},
		{"K+N v K", map[string]int{"e1": 0, "e8": 6, "b1": 4}, true},
		{"K+B v K+B, same colour", map[string]int{"e1": 0, "e8": 6, "c1": 3, "f8": 9}, true},
		{"K+B v K+B, opposite colours", map[string]int{"e1": 0, "e8": 6, "c1": 3, "c8": 9}, false},
		{"K+N+N v K", map[string]int{"e1": 0, "e8": 6, "b1": 4, "g1": 4}, false},
		{"K+R v K", map[string]int{"e1": 0, "e8": 6, "a1": 2}, false},
		{"K+P v K", map[string]int{"e1": 0, "e8": 6, "e2": 5}, false},
	} {
		b := positionOf(t, tc.pieces)
		if got := b.deadPosition(); got != tc.dead {
			t.Errorf("%s: deadPosition() = %v, want %v", tc.name, got, tc.dead)
		}
		if r, ok := b.outcome(); ok != tc.dead || ok && r != rules.Draw {
			t.Errorf("%s: outcome() = %q, %v; want a draw: %v", tc.name, r, ok, tc.dead)
		}
	}
	if newEBoard().deadPosition() {
		t.Errorf("the initial position is dead")
	}
}

// positionOf builds an e-board with the pieces, White to move, in the
// chess library's binary encoding (square a1 is the bitboard's top bit).
func positionOf(t *testing.T, pieces map[string]int) *eboard {
	t.Helper()
	var bbs [12]uint64
	for sq, i := range pieces {
		n := int(sq[0]-'a') + 8*int(sq[1]-'1')
		bbs[i] |= 1 << (63 - n)
	}
	var data []byte
	for _, bb := range bbs {
		data = binary.BigEndian.AppendUint64(data, bb)
	}
	data = append(data, 0, 0, 1, 0xff, 0) // no castling, White to move
	pos := &chess.Position{}
	if err := pos.UnmarshalBinary(data); err != nil {
		t.Fatal(err)
	}
	return &eboard{pos: pos, seen: map[string]int{}}
}

func TestParseChaos(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		err      bool
	}{
		{"", "none", false},
		{"none", "none", false},
		{"all", "cut,latency,dup,reorder,reboot,drift,die", false},
		{"cut, dup", "cut,dup", false},
		{"reboot,drift", "reboot,drift", false},
		{"flood", "", true},
	} {
		c, err := ParseChaos(tc.in)
		if (err != nil) != tc.err || err == nil && c.String() != tc.want {
			t.Errorf("ParseChaos(%q) = %v, %v; want %q (error %v)", tc.in, c, err, tc.want, tc.err)
		}
	}
}

func TestHistogramQuantiles(t *testing.T) {
	var h histogram
	for i := 1; i <= 1000; i++ {
		h.add(time.Duration(i) * time.Millisecond)
	}
	counts, maxd := h.snapshot(false)
	n, q := quantiles(counts, 0.5, 0.99)
	if n != 1000 || maxd != time.Second {
		t.Fatalf("count %d max %v, want 1000 and 1s", n, maxd)
	}
	for i, want := range []time.Duration{500 * time.Millisecond, 990 * time.Millisecond} {
		if q[i] < want || float64(q[i]) > float64(want)*1.13 {
			t.Errorf("quantile %d = %v, want %v within one bucket (13%%)", i, q[i], want)
		}
	}
	if counts, _ := h.snapshot(true); counts[histIndex(time.Second)] == 0 {
		t.Errorf("reset snapshot lost the counts")
	}
	if counts, _ := h.snapshot(false); counts[histIndex(time.Second)] != 0 {
		t.Errorf("snapshot(true) did not reset")
	}
}

// The summary reads as a few lines.
func TestSummaryText(t *testing.T) {
	s := Summary{Rounds: 1, Games: 2, Results: map[string]int{"1-0 normal": 1, "0-1 time": 1}, Speed: 10, Chaos: "cut",
		Hall: &HallStats{Gaps: 3}}
	out := s.String()
	for _, want := range []string{"1 rounds, 2 games", "0-1 time 1, 1-0 normal 1", "3 sequence gaps"} {
		if !strings.Contains(out, want) {
			t.Errorf("summary %q lacks %q", out, want)
		}
	}
}
