package mate

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/corentings/chess/v2"

	"github.com/chesshall/hallclock/internal/chesslib"
	"github.com/chesshall/hallclock/internal/testkit/longtest"
)

// mateCase is a position and whether each side can still checkmate.
type mateCase struct {
	name  string
	fen   string
	white bool // White can checkmate Black by some series of legal moves
	black bool // Black can checkmate White
}

// The positions of the conformance vectors (flag-fall.json,
// illegal-moves.json).
var mateConformanceCases = []mateCase{
	// FIDE 2023 Art. 6.9: lone king against K+Q — Black cannot mate, a flag of
	// White's is a draw.
	{name: "K+Q v K", fen: "4k3/8/8/8/8/8/8/3QK3 w - - 0 1", white: true, black: false},
	// FIDE 2023 Art. 6.9: K+N v K+P — White's own pawn can block a2, so
	// Black can mate; White's pawn can promote, so White can too.
	{name: "K+N v K+P", fen: "7k/8/8/8/8/5n2/P7/K7 w - - 0 1", white: true, black: true},
	// FIDE 2023 Art. 6.9: two knights can helpmate a lone king.
	{name: "K+NN v K", fen: "7k/8/8/8/8/5nn1/8/K7 w - - 0 1", white: false, black: true},
	// FIDE 2023 Art. 6.9: bishops all on dark squares — nobody can mate.
	{name: "K+B v K+B same colour", fen: "5b1k/8/8/8/8/8/8/K1B5 w - - 0 1", white: false, black: false},
}

var mateMaterialCases = []mateCase{
	// FIDE 2023 Art. 6.9 / 5.2.2: kings only.
	{name: "K v K", fen: "8/8/3k4/8/8/3K4/8/8 w - - 0 1"},
	// FIDE 2023 Art. 6.9: a lone king never mates, whatever the opponent has.
	{name: "K v K+Q+R+pawns", fen: "4k3/8/8/8/8/8/PPP5/RQ2K3 b - - 0 1", white: true, black: false},
	// FIDE 2023 Art. 6.9: K+B v K and K+N v K cannot mate.
	{name: "K+B v K", fen: "4k3/8/8/8/8/8/8/2B1K3 w - - 0 1"},
	{name: "K+N v K", fen: "4k3/8/8/8/8/8/8/1N2K3 b - - 0 1"},
	// FIDE 2023 Art. 6.9: K+NN v K can (a helpmate exists).
	{name: "K+NN v K", fen: "4k3/8/8/8/8/8/8/1NN1K3 w - - 0 1", white: true},
	// FIDE 2023 Art. 6.9: K+N v K+P — the pawn blocks or promotes to a blocker.
	{name: "K+N v K+P white", fen: "4k3/8/8/8/8/8/4p3/2N1K3 w - - 0 1", white: true, black: true},
	// FIDE 2023 Art. 6.9: K+N v K+B — the bishop blocks.
	{name: "K+N v K+B", fen: "4k3/4b3/8/8/8/8/8/2N1K3 w - - 0 1", white: true, black: true},
	// FIDE 2023 Art. 6.9: K+B v K+N.
	{name: "K+B v K+N", fen: "4k3/4n3/8/8/8/8/8/2B1K3 b - - 0 1", white: true, black: true},
	// FIDE 2023 Art. 6.9: K+B v K+B, bishops on the same colour: dead.
	{name: "K+B v K+B same colour", fen: "4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1"},
	// FIDE 2023 Art. 6.9: K+B v K+B, opposite colours: either side can mate
	// (the other bishop blocks).
	{name: "K+B v K+B opposite", fen: "4k1b1/8/8/8/8/8/8/2B1K3 w - - 0 1", white: true, black: true},
	// FIDE 2023 Art. 6.9: several bishops, all on light squares, both sides.
	{name: "BB v BBB all light", fen: "2b1k1b1/8/8/3B4/2B5/8/8/4KB2 w - - 0 1"},
	// FIDE 2023 Art. 6.9: two bishops of different colours mate.
	{name: "K+BB v K", fen: "4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1", white: true},
	// FIDE 2023 Art. 6.9: K+R v K, K+Q v K.
	{name: "K+R v K", fen: "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", white: true},
	{name: "K+R v K black to move", fen: "8/8/8/4k3/8/8/8/R3K3 b - - 0 1", white: true},
	{name: "K+Q v K", fen: "8/8/3k4/8/8/8/2Q5/6K1 b - - 0 1", white: true},
	{name: "K v K+R", fen: "8/8/4k3/8/8/2K5/8/6r1 w - - 0 1", black: true},
	// FIDE 2023 Art. 6.9: a knight cannot mate against queens alone (a queen
	// blocking a flight square always takes the knight).
	{name: "K+N v K+Q", fen: "4kq2/8/8/8/8/8/8/2N1K3 w - - 0 1", black: true},
	// FIDE 2023 Art. 6.9: but against a rook it can (the rook blocks).
	{name: "K+N v K+R", fen: "4kr2/8/8/8/8/8/8/2N1K3 w - - 0 1", white: true, black: true},
	// FIDE 2023 Art. 6.9: bishops of one colour cannot mate against rooks
	// and queens (they could always take the checker or step between).
	{name: "K+B v K+R", fen: "4kr2/8/8/8/8/8/8/2B1K3 w - - 0 1", black: true},
	{name: "K+B v K+R+Q", fen: "3qkr2/8/8/8/8/8/8/2B1K3 w - - 0 1", black: true},
	// FIDE 2023 Art. 6.9: K+B+N v K.
	{name: "K+B+N v K", fen: "4k3/8/8/8/8/8/8/2B1KN2 w - - 0 1", white: true},
	// FIDE 2023 Art. 6.9: K+P v K — the pawn promotes.
	{name: "K+P v K", fen: "8/5k2/8/8/3K4/8/3P4/8 w - - 0 1", white: true},
}

var matePawnCases = []mateCase{
	// FIDE 2023 Art. 5.2.2 / 6.9: a locked chain with kings only; neither
	// king can cross or take a pawn.
	{name: "locked chain", fen: "8/8/1k6/p1p1p1p1/P1P1P1P1/8/3K4/8 w - - 0 1"},
	{name: "locked chain, black to move", fen: "4k3/8/8/1p1p1p1p/1P1P1P1P/8/4K3/8 b - - 0 1"},
	// FIDE 2023 Art. 6.9: the chain has a gap on the h-file: either king can
	// walk round and take a pawn, and then mate.
	{name: "chain with a way round", fen: "8/8/1k6/p1p1p3/P1P1P3/8/3K4/8 w - - 0 1", white: true, black: true},
	// FIDE 2023 Art. 5.2.2 / 6.9: locked pawns, both bishops on light squares
	// and walled in; the kings cannot reach a pawn.
	{name: "locked with same-coloured bishops", fen: "2b1k3/8/p1p1p1p1/P1P1p1p1/4P1P1/4P1P1/4P3/4KB2 w - - 0 1"},
	// FIDE 2023 Art. 6.9: the a-pawns can still meet each other, and a white
	// pawn can still walk up the c-file; nothing can ever be taken.
	{name: "pawns that walk into a lock", fen: "2k5/2p1p1p1/p1P1P1P1/P1p4K/8/8/2P5/8 w - - 0 1"},
	// FIDE 2023 Art. 6.9: pawns that can promote.
	{name: "passed pawns", fen: "8/5kp1/8/8/8/8/1P3K2/8 w - - 0 1", white: true, black: true},
	// FIDE 2023 Art. 6.9: ordinary positions.
	{name: "opening position", fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", white: true, black: true},
	{name: "middlegame", fen: "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", white: true, black: true},
	{name: "rook ending", fen: "8/5pk1/6p1/8/8/6P1/5PK1/3R4 w - - 0 1", white: true, black: true},
	{name: "pawn ending", fen: "6k1/5ppp/8/8/8/8/5PPP/6K1 w - - 0 1", white: true, black: true},
}

var mateBoardCases = []mateCase{
	// FIDE 2023 Art. 5.1.1: Black is checkmated — White has mated, Black
	// cannot any more.
	{name: "checkmate on the board", fen: "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1", white: true},
	// FIDE 2023 Art. 5.2.1: stalemate ends the game; nobody can mate.
	{name: "stalemate", fen: "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"},
	// FIDE 2023 Art. 5.2.1: stalemate with more material on the board.
	{name: "stalemate with pawns", fen: "8/8/8/8/8/2k5/2p5/2K5 w - - 0 1"},
	// FIDE 2023 Art. 6.9: Black is in check and Bxb6 is its only legal
	// move, which leaves White a lone king and Black K+B: neither can mate,
	// although K+N v K+B could (found by visiting every reachable position).
	{name: "forced capture of the last piece", fen: "k7/b1K5/1N6/8/8/8/8/8 b - - 0 1", black: false, white: false},
}

func mateAllCases() []mateCase {
	var all []mateCase
	for _, cs := range [][]mateCase{mateConformanceCases, mateMaterialCases, matePawnCases, mateBoardCases} {
		all = append(all, cs...)
	}
	return all
}

// canMate is Parse and CanMate.
func canMate(fen string, side Colour) (bool, error) {
	p, err := Parse(fen)
	if err != nil {
		return false, err
	}
	return CanMate(&p, side), nil
}

var sideNames = [2]string{"white", "black"}

func TestCanMate(t *testing.T) {
	for _, c := range mateAllCases() {
		t.Run(c.name, func(t *testing.T) {
			for _, side := range []Colour{White, Black} {
				want := c.white
				if side == Black {
					want = c.black
				}
				got, err := canMate(c.fen, side)
				if err != nil {
					t.Errorf("CanMate(%q, %s): %v", c.fen, sideNames[side], err)
					continue
				}
				if got != want {
					t.Errorf("CanMate(%q, %s) = %v, want %v", c.fen, sideNames[side], got, want)
				}
			}
		})
	}
}

// Every "can" of the tables is proven by a mate found, and every "cannot"
// by a proof: no answer there comes from the node budget.
func TestCanMateIsDecided(t *testing.T) {
	for _, c := range mateAllCases() {
		t.Run(c.name, func(t *testing.T) {
			p, err := parseMateFEN(c.fen)
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			for side := uint8(0); side < 2; side++ {
				v, nodes := mtDecide(&p, side)
				if v == mateUnknown {
					t.Errorf("%s: side %d undecided after %d positions", c.name, side, nodes)
				}
			}
		})
	}
}

// FIDE 2023 Art. 6.9: the answer is a function of the position — the same
// on every call, whatever was asked before.
func TestCanMateDeterministic(t *testing.T) {
	for _, c := range mateAllCases() {
		t.Run(c.name, func(t *testing.T) {
			a, _ := canMate(c.fen, White)
			b, _ := canMate(c.fen, Black)
			for i := 0; i < 3; i++ {
				a2, _ := canMate(c.fen, White)
				b2, _ := canMate(c.fen, Black)
				if a2 != a || b2 != b {
					t.Fatalf("%s: answers changed between calls", c.name)
				}
			}
		})
	}
}

// A position the side not to move is in check in cannot arise in a game
// (an e-board misreading, a move leaving the king in check): unknown, so
// "can" — unless the material can never mate.
func TestCanMateIllegalPosition(t *testing.T) {
	// FIDE 2023 Art. 6.9: White to move, but Black is in check.
	fen := "4k3/8/8/8/8/8/8/4RK2 w - - 0 1"
	if err := Validate(fen); err != nil {
		t.Fatalf("Validate: %v", err)
	}
	if got, err := canMate(fen, White); err != nil || !got {
		t.Errorf("White: got %v, %v; want true", got, err)
	}
	if got, err := canMate(fen, Black); err != nil || got {
		t.Errorf("Black (lone king): got %v, %v; want false", got, err)
	}
}

func TestValidate(t *testing.T) {
	valid := []string{
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
		"rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2",
		"  4k3/8/8/8/8/8/8/4K3 b - - 12 80 ", // surrounding spaces
		"4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1",   // castling rights without rooks: ignored
		"4k3/8/8/8/8/8/8/4K3 w - e3 0 1",     // en passant no pawn could use: ignored
		"4k3/8/8/8/8/8/8/4RK2 w - - 0 1",     // Black in check with White to move: accepted
		"kqK5/8/8/8/8/8/8/8 b - - 0 1",
	}
	for _, fen := range valid {
		if err := Validate(fen); err != nil {
			t.Errorf("Validate(%q) = %v, want nil", fen, err)
		}
	}
	invalid := []struct{ fen, problem string }{
		{"", "empty"},
		{"   ", "empty"},
		{"4k3/8/8/8/8/8/8/4K3 w - -", "has 4 space-separated fields, want 6"},
		{"4k3/8/8/8/8/8/8/4K3  w - - 0 1", "has 7 space-separated fields"},
		{"4k3/8/8/8/8/8/4K3 w - - 0 1", "placement has 7 ranks, want 8"},
		{"4k3/8/8/8/8/8/8/4K3/ w - - 0 1", "placement has 9 ranks"},
		{"4k3/8/8/8/8/8/8/4K2 w - - 0 1", `rank 1 ("4K2") does not have 8 squares`},
		{"4k3/8/8/8/8/8/8/4K4 w - - 0 1", `rank 1 ("4K4") does not have 8 squares`},
		{"4k3/8/8/8/8/8/8/4K2X w - - 0 1", `rank 1 has "X", which is neither a piece letter`},
		{"4k3/8/8/8/8/8/9/4K3 w - - 0 1", `rank 2 has "9"`},
		{"4k3/8/8/8/8/8/8/8 w - - 0 1", "white has 0 kings, want exactly 1"},
		{"4k3/8/8/8/8/8/8/3KK3 w - - 0 1", "white has 2 kings, want exactly 1"},
		{"8/8/8/8/8/8/8/4K3 w - - 0 1", "black has 0 kings, want exactly 1"},
		{"4k3/8/8/8/8/8/8/P3K3 w - - 0 1", "white pawn on a1: pawns cannot stand on rank 1 or 8"},
		{"3pk3/8/8/8/8/8/8/4K3 w - - 0 1", "black pawn on d8"},
		{"4k3/8/8/8/8/8/8/4K3 x - - 0 1", `side to move "x" is neither w nor b`},
		{"4k3/8/8/8/8/8/8/4K3 W - - 0 1", `side to move "W"`},
		{"4k3/8/8/8/8/8/8/4K3 w KX - 0 1", `castling rights "KX" are neither - nor letters from KQkq`},
		{"4k3/8/8/8/8/8/8/4K3 w KK - 0 1", `castling rights "KK" repeat a letter`},
		{"4k3/8/8/8/8/8/8/4K3 w - e4 0 1", `en passant square "e4" is neither - nor a square on rank 3 or 6`},
		{"4k3/8/8/8/8/8/8/4K3 w - i6 0 1", `en passant square "i6"`},
		{"4k3/8/8/8/8/8/8/4K3 w - - -1 1", `halfmove clock "-1" is not a whole number of 0 or more`},
		{"4k3/8/8/8/8/8/8/4K3 w - - x 1", `halfmove clock "x"`},
		{"4k3/8/8/8/8/8/8/4K3 w - - 0 0", `move number "0" is not a whole number of 1 or more`},
		{"4k3/8/8/8/8/8/8/4K3 w - - 0 one", `move number "one"`},
		{"4k3/8/8/8/8/8/8/4K3\tw - - 0 1", "space-separated fields"},
		{"4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra", "has 7 space-separated fields"},
		{"4k3/8/8/8/8/8/8/4K\xff2 w - - 0 1", `rank 1 has "\xff"`},
	}
	for _, c := range invalid {
		for name, f := range map[string]func(string) error{"Validate": Validate, "Parse": func(s string) error { _, err := Parse(s); return err }} {
			err := f(c.fen)
			if err == nil {
				t.Errorf("%s(%q): no error, want %q", name, c.fen, c.problem)
				continue
			}
			var fe *FENError
			if !errors.As(err, &fe) {
				t.Errorf("%s(%q) = %v, not a *FENError", name, c.fen, err)
				continue
			}
			if !strings.Contains(fe.Problem, c.problem) {
				t.Errorf("%s(%q): problem %q, want it to contain %q", name, c.fen, fe.Problem, c.problem)
			}
		}
	}
}

// ---------------------------------------------------------------------------
// The move generator behind the search (FIDE 2023 Art. 3, the moves of the
// pieces, and 3.9, a move may not leave the king in check).

// Perft counts of well-known test positions (the number of move sequences
// of the given length).
func TestMateMoveGeneratorPerft(t *testing.T) {
	cases := []struct {
		fen   string
		depth int
		want  int
	}{
		// FIDE 2023 Art. 3: the initial position.
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 4, 197281},
		// FIDE 2023 Art. 3.8.2 (castling), 3.7.3.1 (en passant), 3.7.5 (promotion).
		{"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 3, 97862},
		// FIDE 2023 Art. 3.9: en passant that would expose the king.
		{"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 4, 43238},
		{"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 3, 9467},
		{"rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 3, 62379},
	}
	var perft func(p *matePos, d int) int
	perft = func(p *matePos, d int) int {
		ms := p.genLegal(nil, false, false)
		if d == 1 {
			return len(ms)
		}
		n := 0
		for _, m := range ms {
			c := p.play(m)
			n += perft(&c, d-1)
		}
		return n
	}
	for _, c := range cases {
		t.Run(c.fen, func(t *testing.T) {
			if testing.Short() && c.want > 50000 {
				return
			}
			p, err := parseMateFEN(c.fen)
			if err != nil {
				t.Fatal(err)
			}
			if got := perft(&p, c.depth); got != c.want {
				t.Errorf("perft(%q, %d) = %d, want %d", c.fen, c.depth, got, c.want)
			}
		})
	}
}

func mateMoveNames(ms []mateMove) []string {
	var out []string
	for _, m := range ms {
		out = append(out, mateMoveName(m))
	}
	sort.Strings(out)
	return out
}

func mateMoveName(m mateMove) string {
	s := mtSqName(m.from()) + mtSqName(m.to())
	switch m.promo() {
	case mtQueen:
		s += "q"
	case mtRook:
		s += "r"
	case mtBishop:
		s += "b"
	case mtKnight:
		s += "n"
	}
	return s
}

func mateLibMoveName(m chess.Move) string {
	s := m.S1().String() + m.S2().String()
	if m.Promo() != chess.NoPieceType {
		s += m.Promo().String()
	}
	return s
}

// FIDE 2023 Art. 3: along pseudo-random games from several positions the
// generator agrees with the chess library on the legal moves, and its
// check and capture flags, incremental hash and occupancy are right.
func TestMateMoveGeneratorAgreesWithLibrary(t *testing.T) {
	fens := []string{
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
		"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
		"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
		"rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
		"rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2",
	}
	seed := uint64(7)
	rnd := func(n int) int {
		seed = seed*6364136223846793005 + 1442695040888963407
		return int(seed>>33) % n
	}
	games := longtest.Scale(3, 8)
	if testing.Short() {
		games = 2
	}
	for _, fen := range fens {
		for g := 0; g < games; g++ {
			my, err := parseMateFEN(fen)
			if err != nil {
				t.Fatal(err)
			}
			lib := fen
			for ply := 0; ply < 120; ply++ {
				var lp chess.Position
				if err := lp.UnmarshalText([]byte(lib)); err != nil {
					t.Fatalf("library rejects %q: %v", lib, err)
				}
				libMoves := lp.ValidMoves()
				var want []string
				for _, m := range libMoves {
					want = append(want, mateLibMoveName(m))
				}
				sort.Strings(want)
				mine := my.genLegal(nil, true, false)
				if got := mateMoveNames(mine); fmt.Sprint(got) != fmt.Sprint(want) {
					t.Fatalf("%s: moves\n got %v\nwant %v", lib, got, want)
				}
				for _, m := range mine {
					c := my.play(m)
					check := c.attacked(int(c.king[c.turn]), my.turn)
					capture := my.sq[m.to()] != 0 || (my.sq[m.from()]&7 == mtPawn && mtFile(m.from()) != mtFile(m.to()))
					if check != m.has(mtCheck) || capture != m.has(mtCapture) {
						t.Fatalf("%s: %s flags check %v capture %v, want %v %v", lib, mateMoveName(m), m.has(mtCheck), m.has(mtCapture), check, capture)
					}
				}
				if first := my.genLegal(nil, false, true); len(first) != min(1, len(want)) {
					t.Fatalf("%s: first-move mode gave %d moves", lib, len(first))
				}
				var occ uint64
				for s, pc := range my.sq {
					if pc != 0 {
						occ |= 1 << uint(s)
					}
				}
				if occ != my.occ || my.hash != my.computeHash() {
					t.Fatalf("%s: occupancy or hash out of step", lib)
				}
				if len(want) == 0 {
					break
				}
				pick := want[rnd(len(want))]
				for _, m := range libMoves {
					if mateLibMoveName(m) == pick {
						lib = lp.Update(&m).String()
					}
				}
				for _, m := range mine {
					if mateMoveName(m) == pick {
						my = my.play(m)
					}
				}
			}
		}
	}
}

// ---------------------------------------------------------------------------
// The dead-material rules checked by brute force for single pieces: no
// placement at all is a checkmate (FIDE 2023 Art. 6.9).

// mateCountMates counts the positions, Black to move, with the black king
// on any square, White's piece w checking it, White's king and Black's
// piece b anywhere, that are checkmate; it stops at the first if first.
//
// The black king is placed only on the ten squares of the triangle
// a1-d1-d4: every placement of kings and pieces (no pawns, no castling)
// is one of those turned or mirrored, which changes nothing about mate.
func mateCountMates(w, b uint8, first bool) int {
	n := 0
	for _, bk := range mateTriangle() {
		for ws := 0; ws < 64; ws++ {
			for wk := 0; wk < 64; wk++ {
				if wk == bk || wk == ws || ws == bk || mtDist(wk, bk) < 2 {
					continue
				}
				for bs := 0; bs < 64; bs++ {
					if bs == bk || bs == ws || bs == wk {
						continue
					}
					var p matePos
					p.ep = -1
					p.sq[bk], p.sq[wk], p.sq[ws], p.sq[bs] = mtKing|mtBlackBit, mtKing, w, b|mtBlackBit
					p.king = [2]int8{int8(wk), int8(bk)}
					p.occ = 1<<uint(bk) | 1<<uint(wk) | 1<<uint(ws) | 1<<uint(bs)
					p.turn = mtBlack
					if !p.attacked(bk, mtWhite) || p.attacked(wk, mtBlack) {
						continue
					}
					if !p.hasLegalMove() {
						n++
						if first {
							return n
						}
					}
				}
			}
		}
	}
	return n
}

// mateTriangle is the squares of files a-d with rank at most the file's
// (a1, b1, b2, c1, c2, c3, d1, ... d4).
func mateTriangle() []int {
	var sq []int
	for f := 0; f < 4; f++ {
		for r := 0; r <= f; r++ {
			sq = append(sq, r*8+f)
		}
	}
	return sq
}

func TestMateDeadMaterialBruteForce(t *testing.T) {
	longtest.Skip(t) // brute force, ~2 s under the race detector
	// FIDE 2023 Art. 6.9: K+N v K+Q and K+B v K+R, K+B v K+Q have no mate.
	for _, c := range []struct {
		name string
		w, b uint8
	}{{"K+N v K+Q", mtKnight, mtQueen}, {"K+B v K+R", mtBishop, mtRook}, {"K+B v K+Q", mtBishop, mtQueen}} {
		if n := mateCountMates(c.w, c.b, false); n != 0 {
			t.Errorf("%s: %d mates, want none", c.name, n)
		}
	}
	// The counting finds mates where they exist: K+N v K+R, K+B v K+N.
	for _, c := range []struct {
		name string
		w, b uint8
	}{{"K+N v K+R", mtKnight, mtRook}, {"K+B v K+N", mtBishop, mtKnight}} {
		if n := mateCountMates(c.w, c.b, true); n == 0 {
			t.Errorf("%s: no mate found, want some", c.name)
		}
	}
}

// ---------------------------------------------------------------------------

var mateFuzzSeeds = []string{
	"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
	"4k3/8/8/8/8/8/8/3QK3 w - - 0 1",
	"7k/8/8/8/8/5n2/P7/K7 w - - 0 1",
	"7k/8/8/8/8/5nn1/8/K7 w - - 0 1",
	"5b1k/8/8/8/8/8/8/K1B5 w - - 0 1",
	"8/8/1k6/p1p1p1p1/P1P1P1P1/8/3K4/8 w - - 0 1",
	"rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2",
	"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
}

// FuzzCanMate feeds arbitrary strings, and valid FENs with one byte
// replaced: never a panic; either a *FENError, or an answer for both
// sides, and then the chess library reads the FEN too.
func FuzzCanMate(f *testing.F) {
	for i, s := range mateFuzzSeeds {
		f.Add(s, uint8(i), uint8(3*i), byte('1'+i))
	}
	f.Add("", uint8(0), uint8(0), byte('/'))
	f.Add("8/8/8/8/8/8/8/8 w - - 0 1", uint8(5), uint8(60), byte('k'))
	f.Fuzz(func(t *testing.T, s string, base, at uint8, c byte) {
		b := []byte(mateFuzzSeeds[int(base)%len(mateFuzzSeeds)])
		b[int(at)%len(b)] = c
		for _, fen := range []string{s, string(b)} {
			verr := Validate(fen)
			for _, side := range []Colour{White, Black} {
				_, err := canMate(fen, side)
				if (err == nil) != (verr == nil) {
					t.Fatalf("%q: Validate %v but CanMate %v", fen, verr, err)
				}
				if err != nil {
					var fe *FENError
					if !errors.As(err, &fe) || fe.Problem == "" {
						t.Fatalf("%q: error %v is not a *FENError saying what is wrong", fen, err)
					}
				}
			}
			if verr == nil {
				if err := chesslib.CheckFEN(fen); err != nil {
					t.Fatalf("%q: accepted, but the chess library says %v", fen, err)
				}
			}
		}
	})
}

// ---------------------------------------------------------------------------

var mateBenchFENs = []struct{ name, fen string }{
	{"opening", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"},
	{"middlegame", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"},
	{"rook-ending", "8/5pk1/6p1/8/8/6P1/5PK1/3R4 w - - 0 1"},
	{"KQvK", "4k3/8/8/8/8/8/8/3QK3 w - - 0 1"},
	{"KNvKP", "7k/8/8/8/8/5n2/P7/K7 w - - 0 1"},
	{"KBvKB-same", "5b1k/8/8/8/8/8/8/K1B5 w - - 0 1"},
	{"locked-chain", "8/8/1k6/p1p1p1p1/P1P1P1P1/8/3K4/8 w - - 0 1"},
	{"locked-bishops", "2b1k3/8/p1p1p1p1/P1P1p1p1/4P1P1/4P1P1/4P3/4KB2 w - - 0 1"},
	{"chain-way-round", "8/8/1k6/p1p1p3/P1P1P3/8/3K4/8 w - - 0 1"},
	{"walk-into-lock", "2k5/2p1p1p1/p1P1P1P1/P1p4K/8/8/2P5/8 w - - 0 1"},
}

// BenchmarkCanMate times both sides of each position; "mix" runs them
// all in one op.
func BenchmarkCanMate(b *testing.B) {
	for _, c := range mateBenchFENs {
		b.Run(c.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				canMate(c.fen, White)
				canMate(c.fen, Black)
			}
		})
	}
	b.Run("mix", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			for _, c := range mateBenchFENs {
				canMate(c.fen, White)
				canMate(c.fen, Black)
			}
		}
	})
}
