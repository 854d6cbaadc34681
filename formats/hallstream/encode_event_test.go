package hallstream

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/chesshall/hallclock/rules"
)

// EncodeEvent, given the event as the hall stores it (json.Marshal of the
// rules.Event), writes the very bytes Encode writes of the event decoded
// back — the stream is the same whether the publisher read the event back
// from the database or was handed it in memory.
func TestEncodeEventIsEncode(t *testing.T) {
	two, side := 2, rules.White
	for _, ev := range []rules.Event{
		{Kind: rules.KindStart, T: 0, AbsentBlack: true},
		{Kind: rules.KindPress, Side: rules.Black, T: 5000, SAN: "e5", FEN: "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"},
		{Kind: rules.KindAddTime, Side: rules.White, T: 61000, Ms: -120000},
		{Kind: rules.KindSetClock, T: 7, WhiteMs: 1, BlackMs: 2, WhiteMoves: &two, BlackMoves: &two, ToMove: &side, ScheduleOverride: true},
		{Kind: rules.KindResult, T: 9, Result: rules.WhiteWins, Termination: rules.TermNormal, ByArbiter: true, Unplayed: true},
		{Kind: rules.KindQuickplayClaim, T: 10, Side: rules.Black, Decision: rules.DecisionDraw, NoExtraTime: true},
		{Kind: rules.KindAdjourn, T: 11, SessionEndMs: 99},
		{Kind: rules.KindIllegalMoveFound, T: 12, Side: rules.White, Move: 14, SAN: "Qh5\"<&>"},
	} {
		m := Message{Hall: "h1", Kind: KindEvent, ID: "Open:5.12", Event: &Event{Seq: 41, BoardID: "Open:5.12", BoardSeq: 7,
			Actor: "device:clk-1", CommandID: "cmd-9", WallUnixMs: 1700000000123}}
		stored, err := json.Marshal(ev)
		if err != nil {
			t.Fatal(err)
		}
		var back rules.Event // the publisher's way before: decoded from the database
		if err := json.Unmarshal(stored, &back); err != nil {
			t.Fatal(err)
		}
		m.Event.Event = back
		wantSubj, want, err := Encode(m)
		if err != nil {
			t.Fatal(err)
		}
		m.Event.Event = rules.Event{} // not read
		subj, got, err := EncodeEvent(m, stored)
		if err != nil {
			t.Fatal(err)
		}
		if subj != wantSubj || !bytes.Equal(got, want) {
			t.Errorf("%s:\n got %s %s\nwant %s %s", ev, subj, got, wantSubj, want)
		}
	}
	if _, _, err := EncodeEvent(Message{Hall: "h1", Kind: KindBoard, ID: "b"}, []byte(`{}`)); err == nil {
		t.Error("EncodeEvent of a board message: want an error")
	}
}
