package trf

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"
)

// The tests' own reader of TRF files: written from TRF-16's columns and
// the three notations of points (JaVaFo's XXS, bbpPairings' BB?,
// TRF-2026's 162), sharing no code with the package, so that what it
// finds in an export the package did not merely agree with itself about.

// refLine is a line of a file and the line end that followed it.
type refLine struct{ text, end string }

// refSplit splits text into lines, keeping each line's end: CR LF, CR
// or LF.
func refSplit(s string) []refLine {
	var out []refLine
	for s != "" {
		i := strings.IndexAny(s, "\r\n")
		if i < 0 {
			out = append(out, refLine{s, ""})
			break
		}
		n := 1
		if strings.HasPrefix(s[i:], "\r\n") {
			n = 2
		}
		out = append(out, refLine{s[:i], s[i : i+n]})
		s = s[i+n:]
	}
	return out
}

func refJoin(ls []refLine) string {
	var b strings.Builder
	for _, l := range ls {
		b.WriteString(l.text + l.end)
	}
	return b.String()
}

type refEntry struct {
	opp            int
	colour, result byte
}

type refPlayer struct {
	rank   int
	points float64
	rounds map[int]refEntry
	line   int // index in the file's lines
}

type refFile struct {
	lines   []refLine
	players map[int]*refPlayer
	value   map[string]float64 // points of WW BW WD BD WL BL FW FL FPB HPB ZPB PAB
}

// cols returns columns from..to (1-based, inclusive) of a line, blanks
// past its end.
func cols(s string, from, to int) string {
	r := []rune(s)
	for len(r) < to {
		r = append(r, ' ')
	}
	return string(r[from-1 : to])
}

func refRead(t *testing.T, s string) *refFile {
	t.Helper()
	f := &refFile{lines: refSplit(s), players: map[int]*refPlayer{}, value: map[string]float64{
		"WW": 1, "BW": 1, "WD": .5, "BD": .5, "WL": 0, "BL": 0, "FW": 1, "FL": 0, "FPB": 1, "HPB": .5, "ZPB": 0, "PAB": 1}}
	win := []string{"WW", "BW", "FW", "FPB"}
	draw := []string{"WD", "BD", "HPB"}
	pabSet := false
	setAll := func(codes []string, v float64) {
		for _, c := range codes {
			f.value[c] = v
		}
	}
	num := func(s string) float64 {
		v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil {
			t.Fatalf("reference reader: %q is no number", s)
		}
		return v
	}
	for i, l := range f.lines {
		code := cols(l.text, 1, 3)
		switch {
		case code == "001":
			p := &refPlayer{line: i, rounds: map[int]refEntry{}}
			p.rank, _ = strconv.Atoi(strings.TrimSpace(cols(l.text, 5, 8)))
			p.points = num(cols(l.text, 81, 84))
			for r := 1; 92+10*(r-1) <= len([]rune(l.text)); r++ {
				e := cols(l.text, 92+10*(r-1), 99+10*(r-1))
				opp, _ := strconv.Atoi(strings.TrimSpace(e[:4]))
				p.rounds[r] = refEntry{opp, e[5], strings.ToUpper(e[7:8])[0]}
			}
			f.players[p.rank] = p
		case code == "XXS":
			for _, w := range strings.Fields(l.text[3:]) {
				k, v, _ := strings.Cut(w, "=")
				switch k {
				case "W":
					setAll(win, num(v))
				case "D":
					setAll(draw, num(v))
				default:
					f.value[k] = num(v)
				}
			}
		case code == "BBW":
			setAll(win, num(l.text[3:]))
			if !pabSet {
				f.value["PAB"] = num(l.text[3:])
			}
		case code == "BBD":
			setAll(draw, num(l.text[3:]))
		case code == "BBL":
			setAll([]string{"WL", "BL"}, num(l.text[3:]))
		case code == "BBZ":
			f.value["ZPB"] = num(l.text[3:])
		case code == "BBF":
			f.value["FL"] = num(l.text[3:])
		case code == "BBU":
			f.value["PAB"], pabSet = num(l.text[3:]), true
		case code == "162":
			w := strings.Fields(l.text[3:])
			for k := 0; k+1 < len(w); k += 2 {
				v := num(w[k+1])
				switch w[k] {
				case "W":
					setAll(win, v)
					if !pabSet {
						f.value["PAB"] = v
					}
				case "D":
					setAll(draw, v)
				case "L":
					setAll([]string{"WL", "BL"}, v)
				case "A", "Z":
					setAll([]string{"ZPB", "FL"}, v)
				case "P":
					f.value["PAB"], pabSet = v, true
				}
			}
		}
	}
	return f
}

// score returns what an entry scores.
func (f *refFile) score(e refEntry) float64 {
	side := "W"
	if e.colour == 'b' || e.colour == 'B' {
		side = "B"
	}
	switch e.result {
	case '1', 'W':
		return f.value[side+"W"]
	case '=', 'D':
		return f.value[side+"D"]
	case '0', 'L':
		return f.value[side+"L"]
	case '+':
		return f.value["FW"]
	case '-':
		if e.opp == 0 {
			return f.value["ZPB"]
		}
		return f.value["FL"]
	case 'F':
		return f.value["FPB"]
	case 'H':
		return f.value["HPB"]
	case 'U':
		return f.value["PAB"]
	}
	if e.opp == 0 { // Z, or blank: absent
		return f.value["ZPB"]
	}
	return 0 // a game not played yet
}

// lastPaired returns the last round in which someone has an opponent.
func (f *refFile) lastPaired() int {
	n := 0
	for _, p := range f.players {
		for r, e := range p.rounds {
			if e.opp > 0 {
				n = max(n, r)
			}
		}
	}
	return n
}

// check reports every player whose points are not what his rounds score,
// and every game not recorded alike on both lines.
func (f *refFile) check(t *testing.T, name string) {
	t.Helper()
	for _, p := range f.players {
		sum := 0.0
		for _, e := range p.rounds {
			sum += f.score(e)
		}
		if math.Abs(sum-p.points) > 1e-9 {
			t.Errorf("%s: player %d has %.1f points, his rounds score %.1f", name, p.rank, p.points, sum)
		}
		for r, e := range p.rounds {
			if e.opp == 0 {
				continue
			}
			o := f.players[e.opp]
			if o == nil {
				t.Errorf("%s: round %d: player %d plays %d, who is no player", name, r, p.rank, e.opp)
				continue
			}
			oe := o.rounds[r]
			if oe.opp != p.rank || oe.colour == e.colour {
				t.Errorf("%s: round %d: player %d plays %d with %c, whose line says %d with %c", name, r, p.rank, e.opp, e.colour, oe.opp, oe.colour)
			}
		}
	}
}

// sameOutside reports where out differs from in other than in the
// points (columns 81-84) and round n's columns of player lines: every
// other byte of every line, every line end, every line, the same.
func sameOutside(in, out string, n int) error {
	a, b := refSplit(in), refSplit(out)
	if len(a) != len(b) {
		return fmt.Errorf("%d lines, the input has %d", len(b), len(a))
	}
	from, to := 92+10*(n-1), 99+10*(n-1)
	for i := range a {
		if a[i].end != b[i].end {
			return fmt.Errorf("line %d ends in %q, the input's in %q", i+1, b[i].end, a[i].end)
		}
		if !strings.HasPrefix(a[i].text, "001") {
			if a[i].text != b[i].text {
				return fmt.Errorf("line %d is %q, the input's %q", i+1, b[i].text, a[i].text)
			}
			continue
		}
		ra, rb := []rune(a[i].text), []rune(b[i].text)
		if len(ra) != len(rb) && max(len(ra), len(rb)) > to {
			return fmt.Errorf("line %d is %d characters long, the input's %d", i+1, len(rb), len(ra))
		}
		mask := func(r []rune) string {
			r = []rune(cols(string(r), 1, max(len(ra), len(rb), to)))
			for c := range r {
				if c+1 >= 81 && c+1 <= 84 || c+1 >= from && c+1 <= to {
					r[c] = '#'
				}
			}
			return string(r)
		}
		if mask(ra) != mask(rb) {
			return fmt.Errorf("line %d is\n%q, the input's\n%q", i+1, b[i].text, a[i].text)
		}
	}
	return nil
}
