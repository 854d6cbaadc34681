package hallv1

import (
	"errors"
	"strings"
	"testing"
)

// spoofs are names that read as other names: invisible controls of text
// direction, and control characters.
var spoofs = map[string]string{
	"70 right-to-left overrides": strings.Repeat("\u202e", 70),
	"override mid-name":          "Carlsen\u202e nesnaM",
	"left-to-right embedding":    "\u202aKasparov",
	"pop directional formatting": "Kasparov\u202c",
	"right-to-left isolate":      "\u2067Anand\u2069",
	"first strong isolate":       "\u2068Anand",
	"right-to-left mark":         "Anand\u200f",
	"left-to-right mark":         "\u200eAnand",
	"Arabic letter mark":         "Anand\u061c",
	"C0 escape":                  "Anand\x1b[2J",
	"C1 control":                 "Anand\u0085",
	"DEL":                        "Anand\x7f",
}

// A name of direction controls or control characters is refused wherever
// names enter: tournaments, players, boards' tournaments (a clock's Hello),
// tokens' labels; names in right-to-left scripts pass.
func TestNamesThatSpoofAreRefused(t *testing.T) {
	for what, name := range spoofs {
		for field, m := range map[string]interface{ Validate() error }{
			"name":       &CreateTournamentRequest{Name: name},
			"white.name": &AddBoardRequest{RoundId: "r", Number: 1, White: &Player{Name: name}, Black: &Player{Name: "B"}},
			"label":      &IssueTokenRequest{Role: Role_ROLE_BROADCAST, Label: name},
			"tournament": &ImportRoundRequest{Tournament: name, Content: []byte("x")},
		} {
			err := m.Validate()
			var fe *FieldError
			if !errors.As(err, &fe) || fe.Field != field {
				t.Errorf("%s as %s: %v; want a FieldError on %s", what, field, err, field)
			}
		}
		a := &Assignment{BoardId: "b", Round: 1, BoardNumber: 1, Tournament: name, White: &Player{Name: "W"}, Black: &Player{Name: "B"}}
		if err := a.ValidateHeld(); err == nil {
			t.Errorf("%s as a held board's tournament: accepted", what)
		}
	}
	for _, name := range []string{"אלכסנדר פולק", "محمد عبد الله", "Ivanchuk, Vassily", "Nguyễn Ngọc Trường Sơn", "李超"} {
		if err := (&CreateTournamentRequest{Name: name}).Validate(); err != nil {
			t.Errorf("%q: %v; want it accepted", name, err)
		}
	}
}

// Rounds, boards and tables are numbered 1 to 10,000: no real hall has
// more, and 2147483647 was once accepted.
func TestNumbersBeyondAnyHallAreRefused(t *testing.T) {
	for _, c := range []struct {
		m     interface{ Validate() error }
		field string
		want  string
	}{
		{&AddBoardRequest{RoundId: "r", Number: 2147483647, White: &Player{Name: "W"}, Black: &Player{Name: "B"}}, "number", "board number 2147483647 is out of range: 1–10000"},
		{&AddBoardRequest{RoundId: "r", Number: 0, White: &Player{Name: "W"}, Black: &Player{Name: "B"}}, "number", "board number 0 is out of range: 1–10000"},
		{&CreateRoundRequest{TournamentId: "t", Number: 10_001}, "number", "round number 10001 is out of range: 1–10000"},
		{&ImportRoundRequest{Tournament: "T", Content: []byte("x"), Number: 2147483647}, "number", "round number 2147483647 is out of range: 0–10000"},
		{&ImportRoundRequest{Tournament: "T", Content: []byte("x"), FirstTable: 99_999}, "first_table", "table number 99999 is out of range: 0–10000"},
		{&SetPlanRequest{Tables: []*PlanTable{{Table: 2147483647}}}, "tables[0].table", "table number 2147483647 is out of range: 1–10000"},
	} {
		err := c.m.Validate()
		var fe *FieldError
		if !errors.As(err, &fe) || fe.Field != c.field || !strings.Contains(fe.Msg, c.want) {
			t.Errorf("%T: %v; want a FieldError on %s saying %q", c.m, err, c.field, c.want)
		}
	}
	if err := (&AddBoardRequest{RoundId: "r", Number: 10_000, White: &Player{Name: "W"}, Black: &Player{Name: "B"}}).Validate(); err != nil {
		t.Errorf("board 10000: %v; want it accepted", err)
	}
}
