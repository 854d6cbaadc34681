package trf

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/chesshall/hallclock/rules"
)

// PointSystem is what each result of a player line scores: a file's scoring
// system. The zero value scores nothing; Classic is 1, ½, 0.
//
// Three notations state it in a file, and a file may mix them; read in
// order, a later value overrides an earlier one:
//
//   - JaVaFo's XXS (TRF(x)): "XXS W=3 D=1", codes WW BW WD BD WL BL (win,
//     draw, loss with White, Black), FW FL (forfeit win, loss), FPB HPB
//     ZPB PAB (full-point, half-point, zero-point, pairing-allocated
//     bye), and the shortcuts W (WW BW FW FPB) and D (WD BD HPB).
//   - bbpPairings' TRF(bx): "BBW  3.0" one value a line: BBW win (and the
//     pairing-allocated bye unless BBU says otherwise), BBD draw, BBL
//     loss, BBZ zero-point bye, BBF forfeit loss, BBU pairing-allocated
//     bye.
//   - TRF-2026's 162: "162  W 3.0    D 1.0", a symbol in column 6 and
//     its points in 7-10, then every nine columns: W win (over the
//     board, by forfeit, full-point bye), D draw (and half-point bye), L
//     loss, A (or the older Z) absence (zero-point bye and forfeit loss),
//     P pairing-allocated bye, X unknown result (read, not used: a
//     player line has no code for it).
type PointSystem struct {
	WinWhite, WinBlack   float64 // 1 and W with each colour
	DrawWhite, DrawBlack float64 // = and D
	LossWhite, LossBlack float64 // 0 and L
	ForfeitWin           float64 // +
	ForfeitLoss          float64 // -
	FullBye              float64 // F
	HalfBye              float64 // H
	ZeroBye              float64 // Z, and a blank round
	PairingBye           float64 // U
}

// Classic is 1 for a win, ½ for a draw, 0 for a loss; byes and
// forfeits as FIDE counts them.
var Classic = PointSystemOf(rules.ClassicScoring)

// PointSystemOf returns the scoring that gives a game's win, draw and loss
// sc's values (the zero rules.Scoring is 1, ½, 0): a forfeit win, a
// full-point and a pairing-allocated bye score a win, a half-point bye a
// draw, a forfeit loss and a zero-point bye nothing.
func PointSystemOf(sc rules.Scoring) PointSystem {
	if sc == (rules.Scoring{}) {
		sc = rules.ClassicScoring
	}
	return PointSystem{
		WinWhite: sc.Win, WinBlack: sc.Win, DrawWhite: sc.Draw, DrawBlack: sc.Draw, LossWhite: sc.Loss, LossBlack: sc.Loss,
		ForfeitWin: sc.Win, FullBye: sc.Win, PairingBye: sc.Win, HalfBye: sc.Draw,
	}
}

// Scoring returns the win, draw and loss of a game played (with White):
// what a hall's tournament scores.
func (p PointSystem) Scoring() rules.Scoring {
	return rules.Scoring{Win: p.WinWhite, Draw: p.DrawWhite, Loss: p.LossWhite}
}

// String names the system: "1-0.5-0", "3-1-0", with the values that
// depart from it.
func (p PointSystem) String() string {
	s := fmt.Sprintf("%s-%s-%s", num(p.WinWhite), num(p.DrawWhite), num(p.LossWhite))
	base := PointSystemOf(p.Scoring())
	var extra []string
	for _, v := range []struct {
		name      string
		got, want float64
	}{
		{"win with Black", p.WinBlack, base.WinBlack}, {"draw with Black", p.DrawBlack, base.DrawBlack},
		{"loss with Black", p.LossBlack, base.LossBlack}, {"forfeit win", p.ForfeitWin, base.ForfeitWin},
		{"forfeit loss", p.ForfeitLoss, base.ForfeitLoss}, {"full-point bye", p.FullBye, base.FullBye},
		{"half-point bye", p.HalfBye, base.HalfBye}, {"zero-point bye", p.ZeroBye, base.ZeroBye},
		{"pairing-allocated bye", p.PairingBye, base.PairingBye},
	} {
		if v.got != v.want {
			extra = append(extra, v.name+" "+num(v.got))
		}
	}
	if len(extra) > 0 {
		s += " (" + strings.Join(extra, ", ") + ")"
	}
	return s
}

func num(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// Score returns what one round of a player line scores: a game by its
// result and colour, a forfeit, a bye. A "+" or "-" without an opponent
// scores a forfeit win or a zero-point bye; a blank round without an
// opponent is a zero-point bye (TRF-16); a game not played yet scores
// nothing.
func (p PointSystem) Score(g Game) float64 {
	black := g.Colour == Black
	pick := func(w, b float64) float64 {
		if black {
			return b
		}
		return w
	}
	switch g.Result {
	case Win, QuickWin:
		return pick(p.WinWhite, p.WinBlack)
	case Draw, QuickDraw:
		return pick(p.DrawWhite, p.DrawBlack)
	case Loss, QuickLoss:
		return pick(p.LossWhite, p.LossBlack)
	case ForfeitWin:
		return p.ForfeitWin
	case ForfeitLoss:
		if g.Opponent == 0 {
			return p.ZeroBye
		}
		return p.ForfeitLoss
	case FullBye:
		return p.FullBye
	case HalfBye:
		return p.HalfBye
	case PairingBye:
		return p.PairingBye
	case ZeroBye:
		return p.ZeroBye
	case NoCode:
		if g.Opponent == 0 {
			return p.ZeroBye
		}
	}
	return 0
}

// Total returns what a player's rounds 1 to upTo score.
func (p PointSystem) Total(pl *Player, upTo int) float64 {
	t := 0.0
	for r := 1; r <= upTo; r++ {
		t += p.Score(pl.Round(r))
	}
	return t
}

// scoringLine is a header line that states points.
type scoringLine struct {
	line int
	text string
}

// readPoints reads the scoring lines of a file in order, starting from
// Classic. It reports whether any line stated points.
func readPoints(lines []scoringLine) (PointSystem, bool, error) {
	p := Classic
	pabSet, stated := false, false
	for _, l := range lines {
		code := l.text[:3]
		var err error
		switch {
		case code == "XXS":
			err = readXXS(&p, l)
		case strings.HasPrefix(code, "BB"):
			err = readBB(&p, l, &pabSet)
		case code == "162":
			err = read162(&p, l, &pabSet)
		default:
			continue
		}
		if err != nil {
			return p, false, err
		}
		stated = true
	}
	return p, stated, nil
}

func isScoringLine(s string) bool {
	if len(s) < 3 {
		return false
	}
	switch s[:3] {
	case "XXS", "162", "BBW", "BBD", "BBL", "BBZ", "BBF", "BBU":
		return true
	}
	return false
}

// value reads a number of points ("3", "3.0", ".5").
func value(s string) (float64, bool) {
	v, err := strconv.ParseFloat(s, 64)
	return v, err == nil && v >= 0 && v < 1000
}

// set gives a class of results its points: W wins (over the board, by
// forfeit, the full-point bye, and the pairing-allocated bye unless a
// line gave it its own), D draws and the half-point bye, L losses, P the
// pairing-allocated bye.
func (p *PointSystem) set(class byte, f float64, pabSet *bool) {
	switch class {
	case 'W':
		p.WinWhite, p.WinBlack, p.ForfeitWin, p.FullBye = f, f, f, f
		if !*pabSet {
			p.PairingBye = f
		}
	case 'D':
		p.DrawWhite, p.DrawBlack, p.HalfBye = f, f, f
	case 'L':
		p.LossWhite, p.LossBlack = f, f
	case 'P':
		p.PairingBye, *pabSet = f, true
	}
}

func readXXS(p *PointSystem, l scoringLine) error {
	for _, w := range fieldsAt(l.text[3:]) {
		col := w.col + 3
		code, v, ok := strings.Cut(w.text, "=")
		f, good := value(v)
		if !ok || !good {
			return errorf(l.line, col, "XXS %q: want CODE=VALUE, e.g. W=3 or HPB=0.5", w.text)
		}
		targets := map[string][]*float64{
			"WW": {&p.WinWhite}, "BW": {&p.WinBlack}, "WD": {&p.DrawWhite}, "BD": {&p.DrawBlack},
			"WL": {&p.LossWhite}, "BL": {&p.LossBlack}, "FW": {&p.ForfeitWin}, "FL": {&p.ForfeitLoss},
			"ZPB": {&p.ZeroBye}, "HPB": {&p.HalfBye}, "FPB": {&p.FullBye}, "PAB": {&p.PairingBye},
			"W": {&p.WinWhite, &p.WinBlack, &p.ForfeitWin, &p.FullBye},
			"D": {&p.DrawWhite, &p.DrawBlack, &p.HalfBye},
		}[strings.ToUpper(code)]
		if targets == nil {
			return errorf(l.line, col, "XXS code %q: want one of WW BW WD BD WL BL FW FL ZPB HPB FPB PAB W D (JaVaFo)", code)
		}
		for _, t := range targets {
			*t = f
		}
	}
	return nil
}

func readBB(p *PointSystem, l scoringLine, pabSet *bool) error {
	rest := l.text[3:]
	s := strings.TrimSpace(rest)
	f, ok := value(s)
	if !ok || strings.ContainsAny(s, " \t") {
		return errorf(l.line, 4, "%s %q: want the points, e.g. \"%s  3.0\"", l.text[:3], s, l.text[:3])
	}
	switch l.text[:3] {
	case "BBW", "BBD", "BBL", "BBU":
		p.set(map[string]byte{"BBW": 'W', "BBD": 'D', "BBL": 'L', "BBU": 'P'}[l.text[:3]], f, pabSet)
	case "BBZ":
		p.ZeroBye = f
	case "BBF":
		p.ForfeitLoss = f
	}
	return nil
}

func read162(p *PointSystem, l scoringLine, pabSet *bool) error {
	chars := []rune(l.text)
	if len(chars) < 10 {
		return errorf(l.line, len(chars)+1, "162 is too short: want a symbol in column 6 and its points in 7-10, e.g. \"162  W 3.0\"")
	}
	if chars[4] != ' ' {
		return errorf(l.line, 5, "162 %q where a blank belongs: symbols stand in columns 6, 15, 24...", chars[4])
	}
	col := 6
	for ; col+4 <= len(chars); col += 9 {
		sym := chars[col-1]
		f, ok := value(strings.TrimSpace(string(chars[col : col+4])))
		if !ok {
			return errorf(l.line, col+1, "162: the points of %q (columns %d-%d) are %q: want a number like 3.0", sym, col+1, col+4, string(chars[col:col+4]))
		}
		switch sym {
		case 'W', 'D', 'L', 'P':
			p.set(byte(sym), f, pabSet)
		case 'A', 'Z':
			p.ZeroBye, p.ForfeitLoss = f, f
		case 'X':
		default:
			return errorf(l.line, col, "162 symbol %q: want W, D, L, A, P or X", sym)
		}
		for k := col + 4; k < col+8 && k < len(chars); k++ {
			if chars[k] != ' ' {
				return errorf(l.line, k+1, "162 %q where a blank belongs: each symbol and its points take nine columns", chars[k])
			}
		}
	}
	if col <= len(chars) && strings.TrimSpace(string(chars[col-1:])) != "" {
		return errorf(l.line, col, "162: %q is cut: want a symbol and four columns of points", string(chars[col-1:]))
	}
	return nil
}

// PointsMismatch is a player whose points (columns 81-84) are not what
// his rounds score with the file's point system.
type PointsMismatch struct {
	Player int
	Line   int
	Points float64 // what the line says
	Rounds float64 // what its paired rounds score
}

// CheckPoints returns the players whose points are not what their rounds
// score with the file's point system: the check bbpPairings and JaVaFo
// make before they pair ("the score for player 1 does not match"), and
// the sign of a point system the file does not state. Byes entered for
// rounds not yet paired may be counted or not (JaVaFo's input counts a
// bye of the round to pair).
func (f *File) CheckPoints() []PointsMismatch {
	ps, _ := f.PointSystem()
	paired, _ := f.PairedRounds()
	var out []PointsMismatch
	for i := range f.Players {
		p := &f.Players[i]
		played, all := ps.Total(p, paired), ps.Total(p, len(p.Rounds))
		if !near(p.Points, played) && !near(p.Points, all) {
			out = append(out, PointsMismatch{Player: p.StartRank, Line: p.Line, Points: p.Points, Rounds: played})
		}
	}
	return out
}

func near(a, b float64) bool { return a-b < 1e-9 && b-a < 1e-9 }
