package publish

import (
	"strings"
	"testing"

	"github.com/chesshall/hallclock/formats/hallstream"
	"github.com/chesshall/hallclock/rules"
	"github.com/chesshall/hallclock/storage"
)

// A board played under the rules for visually disabled players goes to
// the stream without saying so: followers serve audiences, and who is
// visually disabled is the arbiters' to know (it changes how no event is
// applied). The rest of its configuration goes as it is.
func TestBoardMessageLeavesOutBlindPlay(t *testing.T) {
	tc, err := rules.ParseTimeControl("90m+30s")
	if err != nil {
		t.Fatal(err)
	}
	cfg := rules.Config{Ruleset: rules.FIDE2018, TimeControl: tc}
	cfg.Blind.Players[rules.White] = rules.BlindPlayer{VisuallyDisabled: true, Assistant: true, Language: "de"}
	b := storage.BoardRecord{ID: "b1", RoundID: "r1", Number: 1, Config: cfg}
	m, err := message("bergen", storage.OutboxEntry{Kind: storage.OutboxBoard, Ref: "b1", Board: &b})
	if err != nil {
		t.Fatal(err)
	}
	if m.Board.Config.Blind != (rules.BlindPlay{}) {
		t.Errorf("the stream's board says %+v of play with visually disabled players, want nothing", m.Board.Config.Blind)
	}
	if m.Board.Config.Ruleset != rules.FIDE2018 || m.Board.Config.TimeControl.String() != tc.String() {
		t.Errorf("the stream's board config = %+v, want the board's ruleset and time control", m.Board.Config)
	}
	if b.Config.Blind.Players[rules.White].Language != "de" {
		t.Errorf("message changed the board record it was given")
	}
}

// An arbiter's reason goes to the stream without its free text: the
// stream's followers serve the public, and a reason ("phone rang") is for
// the audit and the arbiters. What happened, who did it and the command
// go as they are.
func TestEventMessageLeavesOutTheReason(t *testing.T) {
	ev := storage.EventRecord{Seq: 7, BoardID: "b1", BoardSeq: 3, Event: rules.Event{Kind: rules.KindPause, T: 61_000},
		CommandID: "cmd-1", Actor: "arbiter:Anna", Reason: "phone rang"}
	m, err := message("bergen", storage.OutboxEntry{Kind: storage.OutboxEvent, Ref: "b1", Event: &ev})
	if err != nil {
		t.Fatal(err)
	}
	_, body, err := hallstream.Encode(m)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(body), "phone rang") {
		t.Errorf("the stream's message carries the arbiter's reason: %s", body)
	}
	if m.Event.Event.Kind != rules.KindPause || m.Event.Actor != "arbiter:Anna" || m.Event.CommandID != "cmd-1" {
		t.Errorf("the stream's event = %+v, want the pause, its actor and command", m.Event)
	}
}
