package hallv1

import (
	"errors"
	"testing"
)

// A clock's steady traffic — heartbeats and events — is validated without
// allocating: at 10,000 clocks that is some 15,000 messages a second, and
// every allocation there is the collector's work.
func TestValidatingSteadyTrafficAllocatesNothing(t *testing.T) {
	for name, m := range map[string]*DeviceMessage{
		"heartbeat": {Msg: &DeviceMessage_Heartbeat{Heartbeat: &Heartbeat{DeviceMs: 5_000, BoardTMs: 4_000, WhiteMs: 60_000, BlackMs: 59_000, BatteryPct: 80, DriftPpm: 3.5}}},
		"event":     {Msg: &DeviceMessage_Event{Event: &DeviceEvent{Seq: 7, BoardId: "b1"}}},
	} {
		if err := m.Validate(); err != nil {
			t.Fatalf("%s: Validate = %v, want nil", name, err)
		}
		if n := testing.AllocsPerRun(100, func() { _ = m.Validate() }); n != 0 {
			t.Errorf("%s: Validate allocates %.0f times, want 0", name, n)
		}
	}
}

// A bad heartbeat still names the field and what is allowed.
func TestBadHeartbeatNamesItsField(t *testing.T) {
	for field, hb := range map[string]*Heartbeat{
		"heartbeat.battery_pct": {BatteryPct: 101},
		"heartbeat.device_ms":   {DeviceMs: -1},
		"heartbeat.board_t_ms":  {BoardTMs: -5},
		"heartbeat.white_ms":    {WhiteMs: -1},
		"heartbeat.black_ms":    {BlackMs: maxDuration + 1},
	} {
		err := (&DeviceMessage{Msg: &DeviceMessage_Heartbeat{Heartbeat: hb}}).Validate()
		var fe *FieldError
		if !errors.As(err, &fe) || fe.Field != field {
			t.Errorf("Validate(%v) = %v, want a FieldError on %s", hb, err, field)
		}
	}
}

// The arbiter's rulings on a flag and a sealed move need what they act
// on: whose flag he calls (2023 Appendix A.5.5), and the result the sealed
// move gave (Guidelines I.10).
func TestRulingsNeedTheirFields(t *testing.T) {
	for field, a := range map[string]*ClockAction{
		"action.side":   {Kind: ActionKind_ACTION_KIND_ARBITER_FLAG},
		"action.result": {Kind: ActionKind_ACTION_KIND_SEALED_MOVE_ENDS},
	} {
		var fe *FieldError
		if err := a.Validate(); !errors.As(err, &fe) || fe.Field != field {
			t.Errorf("Validate(%v) = %v, want a FieldError on %s", a, err, field)
		}
	}
	for _, a := range []*ClockAction{
		{Kind: ActionKind_ACTION_KIND_ARBITER_FLAG, Side: Side_SIDE_BLACK},
		{Kind: ActionKind_ACTION_KIND_SEALED_MOVE_ENDS, Result: "1-0"},
		{Kind: ActionKind_ACTION_KIND_ENVELOPE_LOST, AbsentWhite: true},
	} {
		if err := a.Validate(); err != nil {
			t.Errorf("Validate(%v) = %v, want nil", a, err)
		}
	}
}

// Only a clock setting hands the move to a side (a retrace, 2018
// Appendix D.2.9), and only to a side that exists.
func TestToMoveOnlyOnSetClock(t *testing.T) {
	for field, a := range map[string]*ClockAction{
		"action.to_move": {Kind: ActionKind_ACTION_KIND_ADD_TIME, Side: Side_SIDE_WHITE, Ms: 1000, ToMove: Side_SIDE_BLACK},
	} {
		var fe *FieldError
		if err := a.Validate(); !errors.As(err, &fe) || fe.Field != field {
			t.Errorf("Validate(%v) = %v, want a FieldError on %s", a, err, field)
		}
	}
	bad := &ClockAction{Kind: ActionKind_ACTION_KIND_SET_CLOCK, WhiteMs: 1, BlackMs: 1, ToMove: Side(7)}
	var fe *FieldError
	if err := bad.Validate(); !errors.As(err, &fe) || fe.Field != "action.to_move" {
		t.Errorf("Validate(%v) = %v, want a FieldError on action.to_move", bad, err)
	}
	ok := &ClockAction{Kind: ActionKind_ACTION_KIND_SET_CLOCK, WhiteMs: 1, BlackMs: 1, ToMove: Side_SIDE_BLACK}
	if err := ok.Validate(); err != nil {
		t.Errorf("Validate(%v) = %v, want nil", ok, err)
	}
}
