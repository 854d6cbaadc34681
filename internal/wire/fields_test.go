package wire_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/chesshall/hallclock/internal/wire"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
)

func ms(v int64) *int64 { return &v }

// Every value the rules read and refuse is named by the field of the
// contract that held it.
func TestFieldOfNamesTheContractsField(t *testing.T) {
	newState := func(regs rules.Regulations, blind rules.BlindPlay) error {
		tc, err := rules.ParseTimeControl("90m+30s")
		if err != nil {
			t.Fatal(err)
		}
		_, err = rules.NewState(rules.Config{Ruleset: rules.FIDE2023, TimeControl: tc, Regulations: regs, Blind: blind})
		return err
	}
	second := func(_ any, err error) error { return err }
	for _, c := range []struct {
		err   error
		field string
	}{
		{second(rules.ParseResult("2-0")), "result"},
		{second(rules.ParseTermination("resigned")), "termination"},
		{rules.ValidateFEN("not a position"), "fen"},
		{second(rules.ParseDecision("maybe")), "decision"},
		{second(rules.ParseRuleset("fide-1999")), "ruleset"},
		{second(rules.ParseTimeControl("90x")), "time_control"},
		{second(wire.RulesSide(pb.Side(9))), "side"},
		{second(wire.Event(&pb.ClockAction{Kind: pb.ActionKind(99)}, false)), "kind"},
		{newState(rules.Regulations{DefaultTimeMs: ms(-1)}, rules.BlindPlay{}), "regulations.default_time_ms"},
		{newState(rules.Regulations{ResumptionDefaultMs: ms(-1)}, rules.BlindPlay{}), "regulations.resumption_default_ms"},
		{newState(rules.Regulations{IllegalMovePenaltyMs: ms(-1)}, rules.BlindPlay{}), "regulations.illegal_move_penalty_ms"},
		{newState(rules.Regulations{DrawClaimPenaltyMs: ms(-1)}, rules.BlindPlay{}), "regulations.draw_claim_penalty_ms"},
		{newState(rules.Regulations{}, rules.BlindPlay{Players: [2]rules.BlindPlayer{{Language: "not a tag!"}}}), "blind_play"},
		{newState(rules.Regulations{}, rules.BlindPlay{Players: [2]rules.BlindPlayer{{Assistant: true}}}), "blind_play"},
	} {
		if c.err == nil {
			t.Errorf("want an error for field %s; got none", c.field)
			continue
		}
		if got := wire.FieldOf(c.err); got != c.field {
			t.Errorf("FieldOf(%v) = %q, want %q", c.err, got, c.field)
		}
	}
}

func TestInField(t *testing.T) {
	_, bad := rules.ParseResult("2-0")
	for _, c := range []struct {
		prefix string
		err    error
		want   string // the message's beginning
	}{
		{"action", bad, `action.result: invalid result "2-0"`},
		{"event.action", bad, `event.action.result: invalid result "2-0"`},
		{"", bad, `result: invalid result "2-0"`},
		// Named once, by the innermost call.
		{"default_config", wire.InField("config", bad), `config.result: invalid result "2-0"`},
	} {
		err := wire.InField(c.prefix, c.err)
		if !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("InField(%q, %v) = %q, want it to begin %q", c.prefix, c.err, err, c.want)
		}
		var ie *rules.InputError
		if !errors.Is(err, rules.ErrInvalid) || !errors.As(err, &ie) {
			t.Errorf("InField(%q, %v) = %v hides the rules' input error", c.prefix, c.err, err)
		}
	}
	// An error that quotes no field's value is left as it is.
	other := errors.New("the clock has not been started")
	if err := wire.InField("action", other); err != other {
		t.Errorf("InField(action, %v) = %v, want it unchanged", other, err)
	}
}
