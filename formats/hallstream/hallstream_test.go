package hallstream

import (
	"reflect"
	"strings"
	"testing"

	"github.com/chesshall/hallclock/rules"
)

var tokenTests = []struct{ id, tok string }{
	{"b-3f9a", "b-3f9a"},
	{"Open:5.12", "Open:5%2E12"},
	{"a*b>c", "a%2Ab%3Ec"},
	{"100%", "100%25"},
	{"two words", "two%20words"},
	{"tab\there", "tab%09here"},
	{"Ålesund", "Ålesund"}, // UTF-8 is allowed in subjects
}

func TestToken(t *testing.T) {
	for _, tt := range tokenTests {
		t.Run(tt.id, func(t *testing.T) {
			if got := SubjectToken(tt.id); got != tt.tok {
				t.Errorf("SubjectToken(%q) = %q, want %q", tt.id, got, tt.tok)
			}
			if got, err := FromSubjectToken(tt.tok); err != nil || got != tt.id {
				t.Errorf("FromSubjectToken(%q) = %q, %v; want %q", tt.tok, got, err, tt.id)
			}
		})
	}
	for _, bad := range []string{"a%", "a%2", "a%zz"} {
		if _, err := FromSubjectToken(bad); err == nil {
			t.Errorf("FromSubjectToken(%q) accepted", bad)
		}
	}
}

func FuzzToken(f *testing.F) {
	for _, tt := range tokenTests {
		f.Add(tt.id)
	}
	f.Fuzz(func(t *testing.T, id string) {
		tok := SubjectToken(id)
		if strings.ContainsAny(tok, ".*> \t\r\n") {
			t.Fatalf("SubjectToken(%q) = %q: not one subject token", id, tok)
		}
		back, err := FromSubjectToken(tok)
		if err != nil || back != id {
			t.Fatalf("FromSubjectToken(SubjectToken(%q)) = %q, %v", id, back, err)
		}
	})
}

func TestEncodeDecode(t *testing.T) {
	tc, err := rules.ParseTimeControl("180+2")
	if err != nil {
		t.Fatal(err)
	}
	msgs := []Message{
		{Hall: "bergen", Kind: KindHall, Settings: &Hall{DelayMs: 900000, AllPublic: true}},
		{Hall: "bergen", Kind: KindTournament, ID: "t-1", Tournament: &Tournament{ID: "t-1", Name: "Nordic Open", Venue: "Bergen NOR", CreatedUnixMs: 1}},
		{Hall: "bergen", Kind: KindRound, ID: "r.5", Round: &Round{ID: "r.5", TournamentID: "t-1", Number: 5, Public: true}},
		{Hall: "bergen", Kind: KindBoard, ID: "b-1", Board: &Board{ID: "b-1", RoundID: "r.5", Number: 12, Section: "A",
			White: Player{Name: "Carlsen, Magnus", Rating: 2830, FideID: "1503014", Title: "GM"}, Black: Player{Name: "Ding, Liren"},
			Config: rules.Config{Ruleset: rules.FIDE2023, TimeControl: tc}, TimeControl: "3m+2s", Virtual: true, Table: 7}},
		{Hall: "bergen", Kind: KindBoard, ID: "b-2", Board: &Board{ID: "b-2", Withdrawn: true}},
		{Hall: "bergen", Kind: KindToken, ID: "tok-1", Token: &Token{ID: "tok-1", Hash: "ab12", Revoked: true}},
		{Hall: "bergen", Kind: KindEvent, ID: "b-1", Event: &Event{Seq: 41, BoardID: "b-1", BoardSeq: 3,
			Event: rules.Event{Kind: rules.KindPress, Side: rules.Black, T: 5000, SAN: "e5"}, Actor: "device:clk-1", WallUnixMs: 1700000000000}},
	}
	subjects := []string{"hall.bergen.meta.hall", "hall.bergen.meta.tournament.t-1", "hall.bergen.meta.round.r%2E5",
		"hall.bergen.meta.board.b-1", "hall.bergen.meta.board.b-2", "hall.bergen.meta.token.tok-1", "hall.bergen.board.b-1"}
	for i, m := range msgs {
		subj, body, err := Encode(m)
		if err != nil {
			t.Fatalf("Encode(%s) = %v", m.Kind, err)
		}
		if subj != subjects[i] {
			t.Errorf("Encode(%s) subject = %q, want %q", m.Kind, subj, subjects[i])
		}
		got, err := Decode(subj, body)
		if err != nil {
			t.Fatalf("Decode(%q) = %v", subj, err)
		}
		if !reflect.DeepEqual(got, m) {
			t.Errorf("Decode(Encode(%+v))\n = %+v", m, got)
		}
	}
	if _, _, err := Encode(Message{Hall: "h", Kind: KindEvent, ID: "b"}); err == nil {
		t.Error("Encode of an event message without its event accepted")
	}
}

func TestParseSubjectRefuses(t *testing.T) {
	for _, s := range []string{"", "hall", "hall.x", "halls.x.board.b", "hall..board.b", "hall.x.board", "hall.x.board.b.c",
		"hall.x.meta.player.p", "hall.x.meta.round", "hall.x.meta.round.%zz", "hall.x.other.b"} {
		if m, err := ParseSubject(s); err == nil {
			t.Errorf("ParseSubject(%q) = %+v, want an error", s, m)
		}
	}
}

// Message ids of events depend only on the board and its sequence (a
// resend is recognised); ids of records on the outbox row; the two never
// meet.
func TestMsgID(t *testing.T) {
	ev := Message{Hall: "h", Kind: KindEvent, ID: "m", Event: &Event{BoardSeq: 5}}
	if got := MsgID(ev, 99); got != "h.b.m.5" {
		t.Errorf("MsgID(event 5 of board m) = %q", got)
	}
	if got := MsgID(Message{Hall: "h", Kind: KindBoard, ID: "m"}, 5); got != "h.m.5" {
		t.Errorf("MsgID(board record, row 5) = %q", got)
	}
}
