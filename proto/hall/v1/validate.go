package hallv1

// Hand-written validation of requests, run by the server's validation
// interceptor before any handler (go-grpc-middleware's validator calls
// Validate). Each error says what was wrong and what is allowed; the
// server answers it with InvalidArgument. The rules engine checks meaning
// (time controls, FENs, results); this checks shape.

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

const maxText = 200 // names, labels, reasons, ids

func text(field, v string, required bool) error {
	if required && strings.TrimSpace(v) == "" {
		return fmt.Errorf("%s is required", field)
	}
	if len(v) > maxText*4 || utf8.RuneCountInString(v) > maxText {
		return fmt.Errorf("%s is %d characters long; at most %d are allowed", field, utf8.RuneCountInString(v), maxText)
	}
	if !utf8.ValidString(v) {
		return fmt.Errorf("%s is not valid UTF-8", field)
	}
	return nil
}

func first(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

// Validate checks a clock action's shape: a known kind, a side where the
// kind needs one, and sane numbers.
func (a *ClockAction) Validate() error {
	if a == nil {
		return fmt.Errorf("action is required")
	}
	k := a.GetKind()
	if k == ActionKind_ACTION_KIND_UNSPECIFIED {
		return fmt.Errorf("action.kind is required (one of %s)", actionKinds())
	}
	if _, ok := ActionKind_name[int32(k)]; !ok {
		return fmt.Errorf("action.kind %d is unknown", k)
	}
	if a.GetTMs() < 0 {
		return fmt.Errorf("action.t_ms is %d; board time is never negative", a.GetTMs())
	}
	switch k {
	case ActionKind_ACTION_KIND_ARRIVE, ActionKind_ACTION_KIND_PRESS, ActionKind_ACTION_KIND_FLAG_CLAIM,
		ActionKind_ACTION_KIND_ILLEGAL_MOVE, ActionKind_ACTION_KIND_DRAW_CLAIM_REJECTED,
		ActionKind_ACTION_KIND_QUICKPLAY_INCREMENT, ActionKind_ACTION_KIND_QUICKPLAY_CLAIM,
		ActionKind_ACTION_KIND_ADD_TIME, ActionKind_ACTION_KIND_FLAG,
		ActionKind_ACTION_KIND_ILLEGAL_MOVE_FOUND, ActionKind_ACTION_KIND_DECLARE_LOST:
		if a.GetSide() != Side_SIDE_WHITE && a.GetSide() != Side_SIDE_BLACK {
			return fmt.Errorf("action %s needs side SIDE_WHITE or SIDE_BLACK", k)
		}
	}
	switch k {
	case ActionKind_ACTION_KIND_ADD_TIME:
		if a.GetMs() == 0 {
			return fmt.Errorf("ADD_TIME needs ms, the milliseconds to add (negative to take away)")
		}
	case ActionKind_ACTION_KIND_SET_CLOCK:
		if a.GetWhiteMs() < 0 {
			return fmt.Errorf("action.white_ms is %d; SET_CLOCK times are 0 or more milliseconds", a.GetWhiteMs())
		}
		if a.GetBlackMs() < 0 {
			return fmt.Errorf("action.black_ms is %d; SET_CLOCK times are 0 or more milliseconds", a.GetBlackMs())
		}
		if a.WhiteMoves != nil && a.GetWhiteMoves() < 0 {
			return fmt.Errorf("action.white_moves is %d; SET_CLOCK move counters are 0 or more", a.GetWhiteMoves())
		}
		if a.BlackMoves != nil && a.GetBlackMoves() < 0 {
			return fmt.Errorf("action.black_moves is %d; SET_CLOCK move counters are 0 or more", a.GetBlackMoves())
		}
	case ActionKind_ACTION_KIND_QUICKPLAY_CLAIM:
		if a.GetDecision() == QuickplayDecision_QUICKPLAY_DECISION_UNSPECIFIED {
			return fmt.Errorf("QUICKPLAY_CLAIM needs the arbiter's decision: DRAW, POSTPONE or REJECT; or REFER when no arbiter is present")
		}
	case ActionKind_ACTION_KIND_ILLEGAL_MOVE_FOUND:
		if a.GetMove() < 1 {
			return fmt.Errorf("ILLEGAL_MOVE_FOUND needs move, the offender's move found illegal, counted from 1")
		}
		if a.GetWhiteMs() < 0 || a.GetBlackMs() < 0 {
			return fmt.Errorf("ILLEGAL_MOVE_FOUND needs white_ms and black_ms, the times the arbiter sets: 0 or more milliseconds")
		}
	case ActionKind_ACTION_KIND_POSITION:
		if a.GetFen() == "" {
			return fmt.Errorf("POSITION needs fen")
		}
	case ActionKind_ACTION_KIND_RESULT:
		if a.GetResult() == "" {
			return fmt.Errorf("RESULT needs result: 1-0, 0-1, 1/2-1/2, +-, -+, --, 0-0, 1/2-0, 0-1/2")
		}
	}
	if a.GetSessionEndMs() < 0 {
		return fmt.Errorf("action.session_end_ms is %d; board time is never negative", a.GetSessionEndMs())
	}
	if len(a.GetFen()) > 100 {
		return fmt.Errorf("fen is %d bytes long; a FEN is at most 100", len(a.GetFen()))
	}
	return text("san", a.GetSan(), false)
}

// actionKinds lists the action kinds by their short names: START, PRESS, ...
func actionKinds() string {
	var names []string
	for k := int32(1); ; k++ {
		n, ok := ActionKind_name[k]
		if !ok {
			break
		}
		names = append(names, strings.TrimPrefix(n, "ACTION_KIND_"))
	}
	return strings.Join(names, ", ")
}

func (c *ClockConfig) validate(field string) error {
	if c == nil {
		return nil
	}
	return first(text(field+".ruleset", c.GetRuleset(), false), text(field+".time_control", c.GetTimeControl(), false))
}

func (p *Player) validate(field string) error {
	if p == nil {
		return fmt.Errorf("%s is required (at least a name)", field)
	}
	if p.GetRating() < 0 || p.GetRating() > 4000 {
		return fmt.Errorf("%s.rating %d: ratings are 0 to 4000", field, p.GetRating())
	}
	return first(text(field+".name", p.GetName(), true), text(field+".fide_id", p.GetFideId(), false))
}

func (r *CreateTournamentRequest) Validate() error {
	return first(text("name", r.GetName(), true), r.GetDefaultConfig().validate("default_config"))
}

func (r *CreateRoundRequest) Validate() error {
	if r.GetNumber() <= 0 {
		return fmt.Errorf("number is %d; rounds are numbered from 1", r.GetNumber())
	}
	return first(text("tournament_id", r.GetTournamentId(), true), r.GetConfig().validate("config"))
}

func (r *AddBoardRequest) Validate() error {
	if r.GetNumber() <= 0 {
		return fmt.Errorf("number is %d; boards are numbered from 1", r.GetNumber())
	}
	return first(text("round_id", r.GetRoundId(), true), text("section", r.GetSection(), false),
		r.GetWhite().validate("white"), r.GetBlack().validate("black"), r.GetConfig().validate("config"),
		text("device_id", r.GetDeviceId(), false))
}

func (r *AssignDeviceRequest) Validate() error {
	return first(text("board_id", r.GetBoardId(), true), text("device_id", r.GetDeviceId(), true), text("reason", r.GetReason(), false))
}

func (r *SwapDevicesRequest) Validate() error {
	return first(text("board_a", r.GetBoardA(), true), text("board_b", r.GetBoardB(), true), text("reason", r.GetReason(), false))
}

func (r *UseVirtualClockRequest) Validate() error {
	return first(text("board_id", r.GetBoardId(), true), text("reason", r.GetReason(), false))
}

func (r *StartRoundRequest) Validate() error {
	for _, a := range r.GetAbsent() {
		if a.GetSide() != Side_SIDE_WHITE && a.GetSide() != Side_SIDE_BLACK {
			return fmt.Errorf("absent on board %q needs side SIDE_WHITE or SIDE_BLACK", a.GetBoardId())
		}
	}
	return text("round_id", r.GetRoundId(), true)
}

func (r *BoardActionRequest) Validate() error {
	if r.GetWaitMs() > 60_000 {
		return fmt.Errorf("wait_ms is %d; wait at most 60000 ms", r.GetWaitMs())
	}
	return first(text("board_id", r.GetBoardId(), true), r.GetAction().Validate(), text("reason", r.GetReason(), false))
}

func (r *GetBoardRequest) Validate() error { return text("board_id", r.GetBoardId(), true) }

func (r *AuditLogRequest) Validate() error {
	if r.GetLimit() < 0 || r.GetLimit() > 10_000 {
		return fmt.Errorf("limit is %d; ask for 1 to 10000 entries (0: 500)", r.GetLimit())
	}
	return text("board_id", r.GetBoardId(), true)
}

func (r *IssueTokenRequest) Validate() error {
	if r.GetRole() == Role_ROLE_UNSPECIFIED {
		return fmt.Errorf("role is required: ROLE_DEVICE, ROLE_ARBITER, ROLE_CHIEF_ARBITER or ROLE_BROADCAST")
	}
	for _, s := range r.GetSections() {
		if err := text("sections[]", s, true); err != nil {
			return err
		}
	}
	return first(text("label", r.GetLabel(), true), text("device_id", r.GetDeviceId(), false))
}

func (r *RevokeTokenRequest) Validate() error { return text("token_id", r.GetTokenId(), true) }

func (r *DescribeTimeControlRequest) Validate() error {
	return first(text("time_control", r.GetTimeControl(), true), text("ruleset", r.GetRuleset(), false))
}

func (r *WatchBoardRequest) Validate() error { return text("board_id", r.GetBoardId(), true) }

func (r *WatchRoundRequest) Validate() error { return text("round_id", r.GetRoundId(), true) }

// Validate checks a device's message: a Hello with its id, an event with a
// sequence number. An event's board and action are judged by the server
// after its sequence number is accepted, so that a bad event is refused and
// acknowledged instead of being resent for ever.
func (m *DeviceMessage) Validate() error {
	switch x := m.GetMsg().(type) {
	case *DeviceMessage_Hello:
		return text("hello.device_id", x.Hello.GetDeviceId(), true)
	case *DeviceMessage_Event:
		if x.Event.GetSeq() == 0 {
			return fmt.Errorf("event.seq is required; device sequence numbers start at 1")
		}
		return nil
	case *DeviceMessage_Heartbeat:
		if p := x.Heartbeat.GetBatteryPct(); p < -1 || p > 100 {
			return fmt.Errorf("heartbeat.battery_pct is %d; 0 to 100 (or -1 unknown)", p)
		}
		return nil
	}
	return fmt.Errorf("device message is empty: send hello, event or heartbeat")
}
