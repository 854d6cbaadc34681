package rules

import (
	"sync"
	"testing"
)

// ValidateFEN is safe for concurrent use: the hall's boards and devices
// validate e-board positions at the same time, while the chess library's
// FEN parser keeps its ranks in a package-level buffer (chessFENMu).
// Under -race this test fails without the lock.
func TestValidateFENConcurrently(t *testing.T) {
	fens := []string{
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
		"r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
		"8/8/4k3/8/8/4K3/8/8 w - - 0 60",
		"4k3/8/8/8/8/8/4P3/4K3 b - - 0 1",
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 100 {
				if err := ValidateFEN(fens[(g+i)%len(fens)]); err != nil {
					t.Errorf("ValidateFEN(%q) = %v", fens[(g+i)%len(fens)], err)
					return
				}
			}
		}()
	}
	wg.Wait()
}
