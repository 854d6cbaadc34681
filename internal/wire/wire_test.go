package wire

import (
	"reflect"
	"strings"
	"testing"

	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
)

// The wire's enums are numbered like the rules' (both append-only), so a
// conversion is a cast; this keeps them from drifting apart.
func TestEnumsMatchTheRules(t *testing.T) {
	for k := rules.KindStart; k <= rules.KindFlag; k++ {
		want := "ACTION_KIND_" + strings.ToUpper(k.String())
		if got := pb.ActionKind(k).String(); got != want {
			t.Errorf("ActionKind(%d) = %s, want %s", k, got, want)
		}
	}
	if n := len(pb.ActionKind_name); n != int(rules.KindFlag)+1 {
		t.Errorf("the wire has %d action kinds, the rules %d", n, int(rules.KindFlag)+1)
	}
	for s := rules.Waiting; s <= rules.Finished; s++ {
		if got, want := pb.BoardStatus(s).String(), "BOARD_STATUS_"+strings.ToUpper(s.String()); got != want {
			t.Errorf("BoardStatus(%d) = %s, want %s", s, got, want)
		}
	}
	for d := rules.DecisionDraw; d <= rules.DecisionReject; d++ {
		if got, want := pb.QuickplayDecision(d).String(), "QUICKPLAY_DECISION_"+strings.ToUpper(d.String()); got != want {
			t.Errorf("QuickplayDecision(%d) = %s, want %s", d, got, want)
		}
	}
}

func TestEventRoundTrip(t *testing.T) {
	seven := 7
	for _, e := range []rules.Event{
		{Kind: rules.KindStart, T: 0, AbsentBlack: true},
		{Kind: rules.KindPress, T: 1500, Side: rules.Black, SAN: "Nf6", FEN: "rnbqkb1r/pppppppp/5n2/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1 2"},
		{Kind: rules.KindAddTime, T: 9, Side: rules.White, Ms: -30_000},
		{Kind: rules.KindSetClock, T: 10, WhiteMs: 1, BlackMs: 2, WhiteMoves: &seven, ScheduleOverride: true},
		{Kind: rules.KindQuickplayClaim, T: 11, Side: rules.White, Decision: rules.DecisionPostpone, NoExtraTime: true},
		{Kind: rules.KindResult, T: 12, Result: rules.Draw, Termination: rules.TermAgreement, ByArbiter: true},
		{Kind: rules.KindFlag, T: 13, Side: rules.Black},
	} {
		got, err := Event(Action(e), e.ByArbiter)
		if err != nil {
			t.Errorf("Event(Action(%v)): %v", e, err)
			continue
		}
		if !reflect.DeepEqual(got, e) {
			t.Errorf("Event(Action(%+v)) = %+v", e, got)
		}
	}
	if _, err := Event(&pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_PRESS}, false); err == nil {
		t.Error("a press without a side converted without error")
	}
}

func TestConfigRoundTrip(t *testing.T) {
	c, err := Config(&pb.ClockConfig{Ruleset: "fide-2009", TimeControl: "40/5400+30:1800+30",
		Regulations: &pb.Regulations{Supervision: pb.Supervision_SUPERVISION_INSUFFICIENT, DefaultTimeMs: ptr(int64(0)),
			PeriodChange: pb.PeriodChange_PERIOD_CHANGE_FLAG, Scoring: &pb.Scoring{Win: 3, Draw: 1}}})
	if err != nil {
		t.Fatal(err)
	}
	back, err := Config(WireConfig(c))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, c) {
		t.Errorf("Config(WireConfig(c)) = %+v, want %+v", back, c)
	}
	if _, err := Config(&pb.ClockConfig{TimeControl: "40/"}); err == nil || !strings.Contains(err.Error(), "move count without a time") {
		t.Errorf("Config with time control 40/ = %v, want the parser's message", err)
	}
}

func ptr[T any](v T) *T { return &v }
