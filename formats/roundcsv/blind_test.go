package roundcsv

import (
	"errors"
	"strings"
	"testing"

	"github.com/chesshall/hallclock/rules"
)

// A Blind column says which boards are played under the rules for
// visually disabled players (FIDE 2018 Appendix D): who is visually
// disabled, who has an assistant (D.2.10, D.2.11), the language his
// clock speaks (D.2.6.1); an empty cell leaves the round's setting.
func TestBlindColumn(t *testing.T) {
	const file = "Board;White;Black;Blind\n1;Anna;Boris;W+A:de\n2;Carl;Dora;\n3;Emil;Fay;-\n4;Gus;Hal;W,B=A\n"
	r, err := Read(strings.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	var wantFirst, wantFourth rules.BlindPlay
	wantFirst.Players[rules.White] = rules.BlindPlayer{VisuallyDisabled: true, Assistant: true, Language: "de"}
	wantFourth.Players[rules.White].VisuallyDisabled = true
	wantFourth.Players[rules.Black].Assistant = true
	want := []*rules.BlindPlay{&wantFirst, nil, {}, &wantFourth}
	for i, g := range r.Games {
		switch w := want[i]; {
		case w == nil && g.Blind != nil:
			t.Errorf("board %d: Blind = %+v, want nil (the round's setting)", g.Board, *g.Blind)
		case w != nil && (g.Blind == nil || *g.Blind != *w):
			t.Errorf("board %d: Blind = %v, want %+v", g.Board, g.Blind, *w)
		}
	}
	for _, h := range []string{"Blind Play", "Visually disabled", "APPENDIX D"} {
		r, err := Read(strings.NewReader("White,Black," + h + "\nAnna,Boris,B\n"))
		if err != nil || r.Games[0].Blind == nil || !r.Games[0].Blind.Players[rules.Black].VisuallyDisabled {
			t.Errorf("header %q: %v, %v; want Black visually disabled", h, r, err)
		}
	}
}

// A cell that is no notation names its line and column.
func TestBlindColumnRefusesWhatItCannotRead(t *testing.T) {
	_, err := Read(strings.NewReader("Board,White,Black,Blind\n1,Anna,Boris,W\n2,Carl,Dora,left\n"))
	var e *Error
	if !errors.As(err, &e) || e.Line != 3 || e.Column != 4 || !strings.Contains(e.Error(), "visually disabled") {
		t.Errorf("Read(a Blind cell %q) = %v; want an error on line 3, column 4", "left", err)
	}
}
