package standings

import "fmt"

// Result is what one round gave a player: a game played, a forfeit, a
// bye, an absence — the cases the regulations tell apart.
type Result uint8

const (
	// Pending is a game paired and not finished: it scores nothing and
	// counts in no tie-break (a round not yet complete).
	Pending     Result = iota
	Win                // a game won over the board
	Draw               // a game drawn
	Loss               // a game lost
	ForfeitWin         // the opponent did not come: not played, scores a win
	ForfeitLoss        // did not come to a paired game: not played
	FullBye            // a full-point bye (asked for, or given by the regulations)
	HalfBye            // a half-point bye
	ZeroBye            // a zero-point bye: absent, withdrawn, not paired
	PairingBye         // the pairing-allocated bye (PAB)
)

var resultNames = [...]string{"pending", "win", "draw", "loss", "forfeit win", "forfeit loss", "full-point bye", "half-point bye", "zero-point bye", "pairing-allocated bye"}

func (r Result) String() string {
	if int(r) < len(resultNames) {
		return resultNames[r]
	}
	return fmt.Sprintf("Result(%d)", r)
}

// Played reports whether the round was a game played over the board.
func (r Result) Played() bool { return r == Win || r == Draw || r == Loss }

// Colour is the colour a player had in a round.
type Colour uint8

const (
	NoColour Colour = iota
	White
	Black
)

func (c Colour) String() string { return [...]string{"-", "w", "b"}[c%3] }

// Round is one round of one player. A game (played or forfeited) names
// its opponent's start number; a bye names none (0). A forfeit may name
// none (TRF's "0000 - +": won against nobody).
type Round struct {
	Opponent int
	Colour   Colour
	Result   Result
}

// Player is a participant: start number (the pairing number), who they
// are, and their rounds from round 1 (Rounds[r-1]); a round beyond the
// slice is a zero-point bye (not paired).
type Player struct {
	Start      int
	Name       string
	Title      string
	Federation string
	Rating     int // 0: unrated
	Rounds     []Round
}

// Round returns the player's entry for round r (a zero-point bye if none).
func (p *Player) Round(r int) Round {
	if r >= 1 && r <= len(p.Rounds) {
		return p.Rounds[r-1]
	}
	return Round{Result: ZeroBye}
}

// Scoring is what each kind of round scores: the tournament's own
// system. Classic is FIDE's 1-½-0, ThreeOneZero football scoring.
type Scoring struct {
	Win, Draw, Loss         Points
	ForfeitWin, ForfeitLoss Points
	FullBye, HalfBye        Points
	ZeroBye, PairingBye     Points
}

// ScoringOf returns the system that scores a game's win, draw and loss
// so, a forfeit win and the full-point and pairing-allocated byes as a
// win, the half-point bye as a draw, a forfeit loss and a zero-point bye
// nothing.
func ScoringOf(win, draw, loss Points) Scoring {
	return Scoring{Win: win, Draw: draw, Loss: loss, ForfeitWin: win, FullBye: win, PairingBye: win, HalfBye: draw}
}

var (
	Classic      = ScoringOf(100, 50, 0)
	ThreeOneZero = ScoringOf(300, 100, 0)
)

// Score returns what the result scores.
func (s Scoring) Score(r Result) Points {
	switch r {
	case Win:
		return s.Win
	case Draw:
		return s.Draw
	case Loss:
		return s.Loss
	case ForfeitWin:
		return s.ForfeitWin
	case ForfeitLoss:
		return s.ForfeitLoss
	case FullBye:
		return s.FullBye
	case HalfBye:
		return s.HalfBye
	case ZeroBye:
		return s.ZeroBye
	case PairingBye:
		return s.PairingBye
	}
	return 0
}

// Tournament is what standings are computed from.
type Tournament struct {
	Players []Player
	// Scoring is the tournament's point system; the zero value is Classic.
	Scoring Scoring
	// RoundRobin says the pairings were pre-determined (all-play-all):
	// the regulations then count a forfeit as a game played against its
	// opponent and a round without opponent in no opponent-based tie-break.
	RoundRobin bool
	// Rounds is the number of rounds of the tournament (for KS's 50 %,
	// for the rounds a withdrawn player did not play); 0: the longest
	// player's rounds.
	Rounds int
}
