package chesslib

import (
	"sync"
	"testing"

	"github.com/corentings/chess/v2"
)

// The hall's boards and devices check e-board positions and replay moves
// at the same time, while the library's FEN parser keeps its ranks in a
// package-level buffer and its SAN decoder hands back a pooled slice.
// Under -race this test fails without the lock.
func TestConcurrentDecoding(t *testing.T) {
	fens := []string{
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
		"r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
		"8/8/4k3/8/8/4K3/8/8 w - - 0 60",
		"4k3/8/8/8/8/8/4P3/4K3 b - - 0 1",
	}
	line := []string{"e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O"}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 50 {
				if err := CheckFEN(fens[(g+i)%len(fens)]); err != nil {
					t.Errorf("CheckFEN(%q) = %v", fens[(g+i)%len(fens)], err)
					return
				}
			}
			game := NewGame()
			pos := game.Position()
			for _, san := range line {
				m, err := DecodeSAN(pos, san)
				if err != nil {
					t.Errorf("DecodeSAN(%s, %q) = %v", pos, san, err)
					return
				}
				pos = pos.Update(m)
				if err := PushSAN(game, san); err != nil {
					t.Errorf("PushSAN(%q) = %v", san, err)
					return
				}
			}
			if got, want := game.Position().String(), pos.String(); got != want {
				t.Errorf("the game after PushSAN is %s, the position after DecodeSAN %s", got, want)
			}
		}()
	}
	wg.Wait()
}

// A FEN the library cannot read is refused with its error; a move that
// does not fit the position is refused by DecodeSAN and PushSAN.
func TestRefusals(t *testing.T) {
	if err := CheckFEN("4k3/8/8/8/8/8/8/4K3 w - -"); err == nil {
		t.Error("CheckFEN of a FEN with 4 fields: no error")
	}
	game := NewGame()
	if _, err := DecodeSAN(game.Position(), "e5"); err == nil {
		t.Error("DecodeSAN(e5) in the initial position: no error")
	}
	if err := PushSAN(game, "Ke2"); err == nil {
		t.Error("PushSAN(Ke2) in the initial position: no error")
	}
	if game.Position().Turn() != chess.White {
		t.Error("a refused PushSAN moved the game on")
	}
}
