package wire

import (
	"reflect"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
)

// The wire's enums are numbered like the rules' (both append-only), so a
// conversion is a cast; this keeps them from drifting apart.
func TestEnumsMatchTheRules(t *testing.T) {
	last := rules.KindStart
	for k := rules.KindStart; k.Valid(); k++ {
		last = k
		want := "ACTION_KIND_" + strings.ToUpper(k.String())
		if got := pb.ActionKind(k).String(); got != want {
			t.Errorf("ActionKind(%d) = %s, want %s", k, got, want)
		}
	}
	if n := len(pb.ActionKind_name); n != int(last)+1 {
		t.Errorf("the wire has %d action kinds, the rules %d", n, int(last)+1)
	}
	for s := rules.Waiting; s <= rules.Referred; s++ {
		if got, want := pb.BoardStatus(s).String(), "BOARD_STATUS_"+strings.ToUpper(s.String()); got != want {
			t.Errorf("BoardStatus(%d) = %s, want %s", s, got, want)
		}
	}
	if n := len(pb.BoardStatus_name); n != int(rules.Referred)+1 {
		t.Errorf("the wire has %d board statuses, the rules %d", n, int(rules.Referred)+1)
	}
	for d := rules.DecisionDraw; d <= rules.DecisionRefer; d++ {
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
		{Kind: rules.KindSetClock, T: 10, WhiteMs: 1, BlackMs: 2, ToMove: ptr(rules.White), FEN: "4k3/8/8/8/8/8/8/3QK3 w - - 0 1"},
		{Kind: rules.KindSetClock, T: 10, WhiteMs: 1, BlackMs: 2, BlackMoves: &seven, ToMove: ptr(rules.Black)},
		{Kind: rules.KindQuickplayClaim, T: 11, Side: rules.White, Decision: rules.DecisionPostpone, NoExtraTime: true},
		{Kind: rules.KindResult, T: 12, Result: rules.Draw, Termination: rules.TermAgreement, ByArbiter: true},
		{Kind: rules.KindResult, T: 12, Result: rules.WhiteWins, ByArbiter: true, Unplayed: true},
		{Kind: rules.KindFlag, T: 13, Side: rules.Black},
		{Kind: rules.KindQuickplayClaim, T: 14, Side: rules.Black, Decision: rules.DecisionRefer},
		{Kind: rules.KindIllegalMoveFound, T: 15, Side: rules.Black, Move: 23, WhiteMs: 60_000, BlackMs: 50_000, FEN: "4k3/8/8/8/8/8/8/3QK3 w - - 0 1"},
		{Kind: rules.KindFlagsUnordered, T: 16},
		{Kind: rules.KindDeclareLost, T: 17, Side: rules.White, Result: rules.BlackHalf},
		{Kind: rules.KindAdjourn, T: 18, SessionEndMs: 3_600_000},
		{Kind: rules.KindResume, T: 19, AbsentWhite: true},
		{Kind: rules.KindArbiterFlag, T: 20, Side: rules.Black},
		{Kind: rules.KindSealedMoveEnds, T: 21, Result: rules.WhiteWins},
		{Kind: rules.KindEnvelopeLost, T: 22, AbsentBlack: true},
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
			PeriodChange: pb.PeriodChange_PERIOD_CHANGE_FLAG, Scoring: &pb.Scoring{Win: 3, Draw: 1}, ResumptionDefaultMs: ptr(int64(1_800_000))}})
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

// A tournament's default that names no time control goes to the wire with
// none, not the "-" an empty control prints; one with odds by side (an
// Armageddon's, Black's own) with both.
func TestWireConfigOfNoTimeControl(t *testing.T) {
	if got := WireConfig(rules.Config{Ruleset: rules.FIDE2023}).GetTimeControl(); got != "" {
		t.Errorf("a configuration without a time control went out as %q, want none", got)
	}
	odds, err := rules.ParseTimeControl("white 5m | black 4m")
	if err != nil {
		t.Fatal(err)
	}
	if got := WireConfig(rules.Config{Ruleset: rules.FIDE2023, TimeControl: odds}).GetTimeControl(); got != odds.String() || got == "" {
		t.Errorf("odds by side went out as %q, want %q", got, odds.String())
	}
}

func ptr[T any](v T) *T { return &v }

// TestStateCarriesTheNewBoardStates: a referred claim and time trouble
// reach the wire (FIDE 2023 Guidelines III.6, Art. 8.4).
func TestStateCarriesTheNewBoardStates(t *testing.T) {
	cfg, err := Config(&pb.ClockConfig{TimeControl: "900", Regulations: &pb.Regulations{QuickplayFinish: true}})
	if err != nil {
		t.Fatal(err)
	}
	st, err := rules.Fold(cfg, []rules.Event{{Kind: rules.KindStart}, {Kind: rules.KindPause}, {Kind: rules.KindSetClock, WhiteMs: 100_000, BlackMs: 400_000},
		{Kind: rules.KindResume}, {Kind: rules.KindQuickplayClaim, T: 1000, Side: rules.White, Decision: rules.DecisionRefer}})
	if err != nil {
		t.Fatal(err)
	}
	b := State(st)
	if b.GetStatus() != pb.BoardStatus_BOARD_STATUS_REFERRED || b.GetClaimReferredBy() != pb.Side_SIDE_WHITE ||
		!b.GetWhite().GetTimeTrouble() || b.GetBlack().GetTimeTrouble() || b.GetResult() != "*" {
		t.Errorf("State() = %v, want referred by white, White in time trouble, Black not", b)
	}
}

// TestStateNamesTheSealer: while a sealed move can be ruled on — in its
// envelope, then made at the resumption until it is answered — the wire
// says who sealed it, so that the arbiters' tools offer "sealed move
// illegal" (FIDE 2023 Guidelines I.8) and "sealed move ends the game"
// (I.10); once answered, it says nobody.
func TestStateNamesTheSealer(t *testing.T) {
	cfg, err := Config(&pb.ClockConfig{TimeControl: "5400"})
	if err != nil {
		t.Fatal(err)
	}
	history := []rules.Event{{Kind: rules.KindStart}, {Kind: rules.KindPress, T: 1000, Side: rules.White},
		{Kind: rules.KindAdjourn, T: 2000}, {Kind: rules.KindResume, T: 9000}, {Kind: rules.KindPress, T: 10_000, Side: rules.White}}
	for n, want := range []pb.Side{pb.Side_SIDE_UNSPECIFIED, pb.Side_SIDE_UNSPECIFIED, pb.Side_SIDE_BLACK, pb.Side_SIDE_BLACK, pb.Side_SIDE_UNSPECIFIED} {
		st, err := rules.Fold(cfg, history[:n+1])
		if err != nil {
			t.Fatal(err)
		}
		if got := State(st).GetSealer(); got != want {
			t.Errorf("after %v: sealer %v, want %v", history[n], got, want)
		}
	}
}

// TestTimeControlInfo: what the API answers an arbiter who entered a time
// control (FIDE 2023 Art. 6.2, Appendix A.1).
func TestTimeControlInfo(t *testing.T) {
	tc, err := rules.ParseTimeControl("40/90m+30s:30m+30s")
	if err != nil {
		t.Fatal(err)
	}
	got, err := TimeControlInfo("", tc)
	want := &pb.TimeControlInfo{Canonical: "40/5400+30:1800+30", WithUnits: "40/90m+30s:30m+30s",
		Words: "90 min for 40 moves, then 30 min, +30 s per move from move 1", GameType: "standard",
		SixtyMoveMs: (5400 + 1800 + 60*30) * 1000, Ruleset: "fide-2023",
		Periods: []*pb.PeriodInfo{{Moves: 40, BaseMs: 5_400_000, Bonus: "increment", BonusMs: 30_000}, {BaseMs: 1_800_000, Bonus: "increment", BonusMs: 30_000}}}
	if err != nil || !proto.Equal(got, want) {
		t.Errorf("TimeControlInfo = %v, %v; want %v", got, err, want)
	}
	// What each period gives a move, for the dashboard's tiles.
	for _, c := range []struct {
		tc   string
		want *pb.PeriodInfo
	}{
		{"G/60;d5", &pb.PeriodInfo{BaseMs: 3_600_000, Bonus: "delay", BonusMs: 5000}},
		{"300b3", &pb.PeriodInfo{BaseMs: 300_000, Bonus: "bronstein", BonusMs: 3000}},
		{"G/15", &pb.PeriodInfo{BaseMs: 900_000}},
	} {
		tc, err := rules.ParseTimeControl(c.tc)
		if err != nil {
			t.Fatal(err)
		}
		got, err := TimeControlInfo("", tc)
		if err != nil || len(got.GetPeriods()) != 1 || !proto.Equal(got.GetPeriods()[0], c.want) {
			t.Errorf("TimeControlInfo(%q).Periods = %v, %v; want [%v]", c.tc, got.GetPeriods(), err, c.want)
		}
	}
	if _, err := TimeControlInfo("fide-1999", tc); err == nil {
		t.Error("TimeControlInfo with an unknown ruleset: no error")
	}
}
