package sim_test

import (
	"strings"
	"testing"
	"time"

	"github.com/corentings/chess/v2"

	"github.com/chesshall/hallclock/clockdev/sim"
	"github.com/chesshall/hallclock/internal/chesslib"
	"github.com/chesshall/hallclock/internal/testkit/longtest"
	"github.com/chesshall/hallclock/rules"
	"github.com/chesshall/hallclock/storage"
)

// E-boards: every move pressed is legal in the position the board's
// record reaches, its FEN is the position after it, illegal moves are
// ruled before the next move, and a game ending in checkmate has the
// result the position gives.
func TestEBoardGamesAreLegal(t *testing.T) {
	longtest.Skip(t)
	t.Parallel() // they wait on the scaled clock more than they compute
	// About one game in five ends in a mate. At 50x the round presses
	// ~250 times a second (each press checks its FEN on both sides): light
	// enough that a loaded machine (the whole suite, under -race) does not
	// starve the clocks into flag falls.
	const boards = 16
	h := startHall(t, 50)
	sum := h.run(t, h.config(sim.RoundSpec{TimeControl: "3m+2s", Boards: boards, EBoard: true, IllegalMoves: 0.01}), 2*time.Minute)
	rep := h.check(t)
	t.Logf("%v", rep)
	var mates, moves, illegal int
	for _, b := range rep.boards {
		m, i, mate := replayEBoard(t, b, rep.events[b.ID])
		moves, illegal = moves+m, illegal+i
		if mate {
			mates++
		}
	}
	t.Logf("%d moves replayed, %d illegal moves ruled, %d checkmates", moves, illegal, mates)
	if moves < sum.Presses/2 || mates == 0 || illegal == 0 {
		t.Errorf("%d legal moves replayed of %d presses, %d checkmates, %d illegal moves; want most presses, some mates, some illegal moves",
			moves, sum.Presses, mates, illegal)
	}
}

// replayEBoard replays a board's moves with the chess library. It returns
// the moves replayed, the illegal moves ruled, and whether the game ended
// by checkmate.
func replayEBoard(t *testing.T, b storage.BoardRecord, evs []storage.EventRecord) (moves, illegal int, mate bool) {
	t.Helper()
	g := chesslib.NewGame()
	var unruled *storage.EventRecord // a press without a move, waiting for its ruling
	for i := range evs {
		e := &evs[i]
		switch e.Event.Kind {
		case rules.KindPress:
			if unruled != nil {
				t.Errorf("board %d: press %d without a move was never ruled before the next press", b.Number, unruled.BoardSeq)
				return
			}
			if e.Event.SAN == "" {
				unruled = e
				continue
			}
			err := chesslib.PushSAN(g, e.Event.SAN)
			if err != nil {
				t.Errorf("board %d event %d: %s is not legal in %s: %v", b.Number, e.BoardSeq, e.Event.SAN, g.FEN(), err)
				return
			}
			if got := g.FEN(); got != e.Event.FEN {
				t.Errorf("board %d event %d: %s gives %s, the e-board sent %s", b.Number, e.BoardSeq, e.Event.SAN, got, e.Event.FEN)
			}
			moves++
		case rules.KindIllegalMove:
			if unruled == nil || unruled.Event.Side != e.Event.Side {
				t.Errorf("board %d event %d: an illegal move ruled against %s, who did not just press without a move", b.Number, e.BoardSeq, e.Event.Side)
			}
			unruled = nil
			illegal++
		case rules.KindPosition:
			// The e-board shows a move made without a press (a sealed move, or
			// an illegal move that stood): it must be one legal move away.
			found := false
			for _, m := range g.ValidMoves() {
				if g.Position().Update(&m).String() == e.Event.FEN {
					g.Move(&m, nil)
					found = true
					break
				}
			}
			if !found {
				t.Errorf("board %d event %d: position %s is not one legal move from %s", b.Number, e.BoardSeq, e.Event.FEN, g.FEN())
				return
			}
			unruled = nil
		}
	}
	final := evs[len(evs)-1].Event
	if g.Method() == chess.Checkmate {
		mate = true
		want := rules.WhiteWins
		if g.Outcome() == chess.BlackWon {
			want = rules.BlackWins
		}
		if final.Kind != rules.KindResult || final.Result != want || final.Termination != rules.TermNormal {
			t.Errorf("board %d: checkmate (%s) but the game ended with %s", b.Number, g.Outcome(), final)
		}
	}
	if final.Kind == rules.KindResult && final.Termination == rules.TermNormal && final.Result == rules.Draw &&
		g.Method() != chess.Stalemate && g.Method() != chess.InsufficientMaterial && !strings.Contains(g.Method().String(), "Repetition") &&
		g.Method() != chess.SeventyFiveMoveRule {
		t.Errorf("board %d: drawn (normal) in a position that is no draw: %s (%s)", b.Number, g.FEN(), g.Method())
	}
	return moves, illegal, mate
}
