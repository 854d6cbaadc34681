package hallv1

// Hand-written validation of requests, run by the server's door before
// any handler (each request's Validate, and each message a stream
// receives). Each error is a *FieldError naming the field, saying what was
// wrong and what is allowed; the server answers INVALID_ARGUMENT, or
// OUT_OF_RANGE for a number no field of its kind can ever hold. The rules
// engine checks meaning (time controls, FENs, results); this checks shape:
// lengths, enum values, finite and non-negative numbers.
//
// Limits on text (characters, UTF-8, no control characters):
//
//	ids (board, round, tournament, device, token, command), sections   64
//	names (tournaments, players), labels, reasons                      200
//	firmware                                                           64
//	fide_id 32, ruleset 32, time_control 200, termination 32, result 8, san 16,
//	a player's title and federation 8, a language tag 35
//	an announcement's text                                             500
//	fen: at most 100 bytes
//
// Text holds no invisible controls of direction either (bidiControl).
// Rounds, boards and tables are numbered 1 to 10,000.

import (
	"fmt"
	"math"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Length limits of text fields, in characters.
const (
	MaxID       = 64  // ids and section names
	MaxText     = 200 // names, labels, reasons
	MaxFirmware = 64
	MaxFEN      = 100 // bytes
	MaxShort    = 8   // a player's title, federation
	MaxLanguage = 35  // a BCP 47 language tag
	// MaxAnnouncement is the longest text a talking clock is given to say.
	MaxAnnouncement = 500
	// maxVoices is how many languages a device may say it speaks.
	maxVoices = 16
	// MaxHeldBoards is how many boards a Hello may list (Hello.boards).
	MaxHeldBoards = 16
)

// Limits of numbers.
const (
	maxSeq      = math.MaxInt64  // sequence numbers are stored as SQLite integers
	maxDuration = 100 * 3600_000 // 100 hours: no clock holds more
	maxMoves    = 10_000
	maxNumber   = 10_000 // a round's, a board's or a table's number
	maxDrift    = 1e6    // ppm: a clock whose oscillator errs by 100 % is broken
	maxScore    = 100
)

// FieldError is a request's field that is wrong.
type FieldError struct {
	Field string // e.g. "action.side", "hello.firmware"
	Msg   string // what was wrong and what is allowed
	// OutOfRange: the value lies beyond what the field can ever hold (a
	// sequence number above 2^63-1); otherwise it is an invalid argument.
	OutOfRange bool
}

func (e *FieldError) Error() string { return e.Field + ": " + e.Msg }

func bad(field, format string, args ...any) error {
	return &FieldError{Field: field, Msg: fmt.Sprintf(format, args...)}
}

func outOfRange(field, format string, args ...any) error {
	return &FieldError{Field: field, Msg: fmt.Sprintf(format, args...), OutOfRange: true}
}

// textN checks a text field: required or not, at most max characters,
// valid UTF-8 without control characters.
func textN(field, v string, required bool, max int) error {
	if required && strings.TrimSpace(v) == "" {
		return bad(field, "is required")
	}
	if !utf8.ValidString(v) {
		return bad(field, "is not valid UTF-8")
	}
	if n := utf8.RuneCountInString(v); n > max {
		return bad(field, "is %d characters long; at most %d are allowed", n, max)
	}
	if i := strings.IndexFunc(v, unicode.IsControl); i >= 0 {
		return bad(field, "holds a control character (%q at byte %d); only printable text is allowed", v[i], i)
	}
	if i := strings.IndexFunc(v, bidiControl); i >= 0 {
		r, _ := utf8.DecodeRuneInString(v[i:])
		return bad(field, "holds an invisible direction control (%U at byte %d), which makes text read as other text; only printable text is allowed", r, i)
	}
	return nil
}

// bidiControl reports whether r is one of Unicode's invisible controls
// of text direction: the embeddings and overrides (U+202A–U+202E), the
// isolates (U+2066–U+2069) and the marks (U+200E, U+200F, U+061C). A name
// of right-to-left overrides shows reversed, or as another name, on every
// page, feed and scoresheet; names written in right-to-left scripts need
// none of them.
func bidiControl(r rune) bool {
	return r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 || r == 0x200e || r == 0x200f || r == 0x061c
}

// number checks a round's, a board's or a table's number (what, plural):
// 1 to maxNumber, or 0 where zero says "none" or "the file's".
func number(field, what string, v int32, zero bool) error {
	low := int32(1)
	if zero {
		low = 0
	}
	if v < low || v > maxNumber {
		return bad(field, "%s number %d is out of range: %d–%d", what, v, low, maxNumber)
	}
	return nil
}

func text(field, v string, required bool) error { return textN(field, v, required, MaxText) }
func id(field, v string, required bool) error   { return textN(field, v, required, MaxID) }

func seq(field string, v uint64) error {
	if v > maxSeq {
		return outOfRange(field, "is %d; sequence numbers go up to %d", v, uint64(maxSeq))
	}
	return nil
}

func nonNegative(field string, v int64) error {
	if v < 0 {
		return bad(field, "is %d; it is never negative", v)
	}
	return nil
}

func duration(field string, v int64) error {
	if v < 0 || v > maxDuration {
		return bad(field, "is %d ms; 0 to %d ms (100 hours) are allowed", v, int64(maxDuration))
	}
	return nil
}

func finite(field string, v, limit float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return bad(field, "is %v; a finite number is needed", v)
	}
	if math.Abs(v) > limit {
		return bad(field, "is %v; -%v to %v are allowed", v, limit, limit)
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

func knownSide(field string, s Side) error {
	if _, ok := Side_name[int32(s)]; !ok {
		return bad(field, "%d is not a side: SIDE_WHITE or SIDE_BLACK", s)
	}
	return nil
}

// Validate checks a clock action's shape: a known kind, a side where the
// kind needs one, known enum values, and sane numbers and lengths.
func (a *ClockAction) Validate() error { return a.validate("action") }

func (a *ClockAction) validate(f string) error {
	if a == nil {
		return bad(f, "is required")
	}
	k := a.GetKind()
	if k == ActionKind_ACTION_KIND_UNSPECIFIED {
		return bad(f+".kind", "is required (one of %s)", actionKinds())
	}
	if _, ok := ActionKind_name[int32(k)]; !ok {
		return bad(f+".kind", "%d is unknown", k)
	}
	if err := first(nonNegative(f+".t_ms", a.GetTMs()), knownSide(f+".side", a.GetSide()), knownSide(f+".to_move", a.GetToMove())); err != nil {
		return err
	}
	if _, ok := QuickplayDecision_name[int32(a.GetDecision())]; !ok {
		return bad(f+".decision", "%d is unknown: DRAW, POSTPONE or REJECT", a.GetDecision())
	}
	switch k {
	case ActionKind_ACTION_KIND_ARRIVE, ActionKind_ACTION_KIND_PRESS, ActionKind_ACTION_KIND_FLAG_CLAIM,
		ActionKind_ACTION_KIND_ILLEGAL_MOVE, ActionKind_ACTION_KIND_DRAW_CLAIM_REJECTED,
		ActionKind_ACTION_KIND_QUICKPLAY_INCREMENT, ActionKind_ACTION_KIND_QUICKPLAY_CLAIM,
		ActionKind_ACTION_KIND_ADD_TIME, ActionKind_ACTION_KIND_FLAG,
		ActionKind_ACTION_KIND_ILLEGAL_MOVE_FOUND, ActionKind_ACTION_KIND_DECLARE_LOST, ActionKind_ACTION_KIND_ARBITER_FLAG:
		if a.GetSide() != Side_SIDE_WHITE && a.GetSide() != Side_SIDE_BLACK {
			return bad(f+".side", "action %s needs side SIDE_WHITE or SIDE_BLACK", k)
		}
	}
	if a.GetToMove() != Side_SIDE_UNSPECIFIED && k != ActionKind_ACTION_KIND_SET_CLOCK {
		return bad(f+".to_move", "only SET_CLOCK hands the move to a side (a retrace, 2018 D.2.9); %s takes none", k)
	}
	switch k {
	case ActionKind_ACTION_KIND_ADD_TIME:
		if a.GetMs() == 0 {
			return bad(f+".ms", "ADD_TIME needs ms, the milliseconds to add (negative to take away)")
		}
		if a.GetMs() < -maxDuration || a.GetMs() > maxDuration {
			return bad(f+".ms", "is %d; at most %d ms (100 hours) either way", a.GetMs(), int64(maxDuration))
		}
	case ActionKind_ACTION_KIND_SET_CLOCK:
		if err := first(duration(f+".white_ms", a.GetWhiteMs()), duration(f+".black_ms", a.GetBlackMs())); err != nil {
			return err
		}
		if a.WhiteMoves != nil && (a.GetWhiteMoves() < 0 || a.GetWhiteMoves() > maxMoves) {
			return bad(f+".white_moves", "is %d; SET_CLOCK move counters are 0 to %d", a.GetWhiteMoves(), maxMoves)
		}
		if a.BlackMoves != nil && (a.GetBlackMoves() < 0 || a.GetBlackMoves() > maxMoves) {
			return bad(f+".black_moves", "is %d; SET_CLOCK move counters are 0 to %d", a.GetBlackMoves(), maxMoves)
		}
	case ActionKind_ACTION_KIND_QUICKPLAY_CLAIM:
		if a.GetDecision() == QuickplayDecision_QUICKPLAY_DECISION_UNSPECIFIED {
			return bad(f+".decision", "QUICKPLAY_CLAIM needs the arbiter's decision: DRAW, POSTPONE or REJECT; or REFER when no arbiter is present")
		}
	case ActionKind_ACTION_KIND_ILLEGAL_MOVE_FOUND:
		if a.GetMove() < 1 || a.GetMove() > maxMoves {
			return bad(f+".move", "ILLEGAL_MOVE_FOUND needs move, the offender's move found illegal, counted from 1 (at most %d)", maxMoves)
		}
		if err := first(duration(f+".white_ms", a.GetWhiteMs()), duration(f+".black_ms", a.GetBlackMs())); err != nil {
			return err
		}
	case ActionKind_ACTION_KIND_POSITION:
		if a.GetFen() == "" {
			return bad(f+".fen", "POSITION needs fen")
		}
	case ActionKind_ACTION_KIND_RESULT:
		if a.GetResult() == "" {
			return bad(f+".result", "RESULT needs result: 1-0, 0-1, 1/2-1/2, +-, -+, --, 0-0, 1/2-0, 0-1/2")
		}
	case ActionKind_ACTION_KIND_SEALED_MOVE_ENDS:
		if a.GetResult() == "" {
			return bad(f+".result", "SEALED_MOVE_ENDS needs result: the sealer's win (1-0 or 0-1) or 1/2-1/2")
		}
	}
	if err := nonNegative(f+".session_end_ms", a.GetSessionEndMs()); err != nil {
		return err
	}
	if len(a.GetFen()) > MaxFEN {
		return bad(f+".fen", "is %d bytes long; a FEN is at most %d", len(a.GetFen()), MaxFEN)
	}
	return first(textN(f+".fen", a.GetFen(), false, MaxFEN), textN(f+".san", a.GetSan(), false, 16),
		textN(f+".result", a.GetResult(), false, 8), textN(f+".termination", a.GetTermination(), false, 32))
}

func (r *Regulations) validate(f string) error {
	if r == nil {
		return nil
	}
	if _, ok := Supervision_name[int32(r.GetSupervision())]; !ok {
		return bad(f+".supervision", "%d is unknown: SUPERVISION_ADEQUATE or SUPERVISION_INSUFFICIENT", r.GetSupervision())
	}
	if _, ok := PeriodChange_name[int32(r.GetPeriodChange())]; !ok {
		return bad(f+".period_change", "%d is unknown: PERIOD_CHANGE_MOVES or PERIOD_CHANGE_FLAG", r.GetPeriodChange())
	}
	if r.DefaultTimeMs != nil {
		if err := duration(f+".default_time_ms", r.GetDefaultTimeMs()); err != nil {
			return err
		}
	}
	if r.IllegalMovePenaltyMs != nil {
		if err := duration(f+".illegal_move_penalty_ms", r.GetIllegalMovePenaltyMs()); err != nil {
			return err
		}
	}
	if r.DrawClaimPenaltyMs != nil {
		if err := duration(f+".draw_claim_penalty_ms", r.GetDrawClaimPenaltyMs()); err != nil {
			return err
		}
	}
	if s := r.GetScoring(); s != nil {
		return first(finite(f+".scoring.win", s.GetWin(), maxScore), finite(f+".scoring.draw", s.GetDraw(), maxScore),
			finite(f+".scoring.loss", s.GetLoss(), maxScore))
	}
	return nil
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

func (c *ClockConfig) validate(f string) error {
	if c == nil {
		return nil
	}
	return first(textN(f+".ruleset", c.GetRuleset(), false, 32), text(f+".time_control", c.GetTimeControl(), false),
		c.GetRegulations().validate(f+".regulations"), c.GetBlindPlay().validate(f+".blind_play"))
}

// validate checks the shape of play under the rules for visually disabled
// players; what they allow (an assistant, a language for whom) is the
// rules engine's to judge.
func (b *BlindPlay) validate(f string) error {
	if b == nil {
		return nil
	}
	return first(textN(f+".white.language", b.GetWhite().GetLanguage(), false, MaxLanguage),
		textN(f+".black.language", b.GetBlack().GetLanguage(), false, MaxLanguage))
}

func (p *Player) validate(f string) error {
	if p == nil {
		return bad(f, "is required (at least a name)")
	}
	if p.GetRating() < 0 || p.GetRating() > 4000 {
		return bad(f+".rating", "%d: ratings are 0 to 4000", p.GetRating())
	}
	if p.GetStartRank() < 0 || p.GetStartRank() > 9999 {
		return bad(f+".start_rank", "is %d; starting ranks are 1 to 9999 (0: not known)", p.GetStartRank())
	}
	return first(text(f+".name", p.GetName(), true), textN(f+".fide_id", p.GetFideId(), false, 32),
		textN(f+".title", p.GetTitle(), false, MaxShort), textN(f+".federation", p.GetFederation(), false, MaxShort))
}

func (r *CreateTournamentRequest) Validate() error {
	return first(text("name", r.GetName(), true), r.GetDefaultConfig().validate("default_config"))
}

func (r *CreateRoundRequest) Validate() error {
	return first(number("number", "round", r.GetNumber(), false), id("tournament_id", r.GetTournamentId(), true), r.GetConfig().validate("config"))
}

func (r *AddBoardRequest) Validate() error {
	return first(number("number", "board", r.GetNumber(), false), id("round_id", r.GetRoundId(), true), id("section", r.GetSection(), false),
		r.GetWhite().validate("white"), r.GetBlack().validate("black"), r.GetConfig().validate("config"),
		id("device_id", r.GetDeviceId(), false))
}

func (r *AssignDeviceRequest) Validate() error {
	return first(id("board_id", r.GetBoardId(), true), id("device_id", r.GetDeviceId(), true), text("reason", r.GetReason(), false))
}

func (r *SwapDevicesRequest) Validate() error {
	return first(id("board_a", r.GetBoardA(), true), id("board_b", r.GetBoardB(), true), text("reason", r.GetReason(), false))
}

func (r *UseVirtualClockRequest) Validate() error {
	return first(id("board_id", r.GetBoardId(), true), text("reason", r.GetReason(), false))
}

func (r *StartRoundRequest) Validate() error {
	if n := len(r.GetBoardIds()); n > 10_000 {
		return bad("board_ids", "lists %d boards; at most 10000", n)
	}
	for i, b := range r.GetBoardIds() {
		if err := id(fmt.Sprintf("board_ids[%d]", i), b, true); err != nil {
			return err
		}
	}
	for i, a := range r.GetAbsent() {
		if a.GetSide() != Side_SIDE_WHITE && a.GetSide() != Side_SIDE_BLACK {
			return bad(fmt.Sprintf("absent[%d].side", i), "absent on board %q needs side SIDE_WHITE or SIDE_BLACK", a.GetBoardId())
		}
		if err := id(fmt.Sprintf("absent[%d].board_id", i), a.GetBoardId(), true); err != nil {
			return err
		}
	}
	return id("round_id", r.GetRoundId(), true)
}

func (r *BoardActionRequest) Validate() error {
	if r.GetWaitMs() > 60_000 {
		return bad("wait_ms", "is %d; wait at most 60000 ms", r.GetWaitMs())
	}
	return first(id("board_id", r.GetBoardId(), true), r.GetAction().Validate(), text("reason", r.GetReason(), false))
}

func (r *ListBoardsRequest) Validate() error {
	return first(id("round_id", r.GetRoundId(), false), id("section", r.GetSection(), false))
}

func (r *GetBoardRequest) Validate() error { return id("board_id", r.GetBoardId(), true) }

func (r *AuditLogRequest) Validate() error {
	if r.GetLimit() < 0 || r.GetLimit() > 10_000 {
		return bad("limit", "is %d; ask for 1 to 10000 entries (0: 500)", r.GetLimit())
	}
	if n := len(r.GetKinds()); n > 32 {
		return bad("kinds", "has %d kinds; at most 32 are allowed", n)
	}
	for _, k := range r.GetKinds() {
		if err := id("kinds", k, true); err != nil {
			return err
		}
	}
	if r.GetUntilUnixMs() != 0 && r.GetUntilUnixMs() <= r.GetSinceUnixMs() {
		return bad("until_unix_ms", "is %d, not after since_unix_ms %d; give a time range that is not empty", r.GetUntilUnixMs(), r.GetSinceUnixMs())
	}
	// board_id is optional: without it, the hall-wide audit.
	return first(id("board_id", r.GetBoardId(), false), seq("after_seq", r.GetAfterSeq()), id("round_id", r.GetRoundId(), false),
		id("tournament", r.GetTournament(), false), id("actor", r.GetActor(), false),
		nonNegative("since_unix_ms", r.GetSinceUnixMs()), nonNegative("until_unix_ms", r.GetUntilUnixMs()))
}

func (r *IssueTokenRequest) Validate() error {
	const roles = "ROLE_DEVICE, ROLE_ARBITER, ROLE_CHIEF_ARBITER, ROLE_BROADCAST or ROLE_ASSISTANT"
	switch r.GetRole() {
	case Role_ROLE_UNSPECIFIED:
		return bad("role", "is required: "+roles)
	case Role_ROLE_DEVICE, Role_ROLE_ARBITER, Role_ROLE_CHIEF_ARBITER, Role_ROLE_BROADCAST:
		if r.GetSide() != Side_SIDE_UNSPECIFIED {
			return bad("side", "is for ROLE_ASSISTANT tokens only: the player the assistant sits with")
		}
	case Role_ROLE_ASSISTANT:
		if err := first(id("board_id", r.GetBoardId(), true), playerSide("side", r.GetSide())); err != nil {
			return err
		}
	default:
		return bad("role", "%d is unknown: "+roles, r.GetRole())
	}
	if n := len(r.GetSections()); n > 100 {
		return bad("sections", "lists %d sections; at most 100", n)
	}
	for i, s := range r.GetSections() {
		if err := id(fmt.Sprintf("sections[%d]", i), s, true); err != nil {
			return err
		}
	}
	return first(text("label", r.GetLabel(), true), id("device_id", r.GetDeviceId(), false), id("board_id", r.GetBoardId(), false))
}

func (r *RevokeTokenRequest) Validate() error { return id("token_id", r.GetTokenId(), true) }

func (r *IssueSignInLinkRequest) Validate() error {
	if err := text("for_token", r.GetForToken(), false); err != nil {
		return err
	}
	return text("base_url", r.GetBaseUrl(), false)
}

func (r *IssueClockLinkRequest) Validate() error {
	switch {
	case r.GetTable() < 0:
		return &FieldError{Field: "table", Msg: "a table is a number from 1"}
	case (r.GetBoardId() == "") == (r.GetTable() == 0):
		return &FieldError{Field: "board_id", Msg: "give a board (board_id) or a table of the hall plan (table), one of them"}
	}
	return first(id("board_id", r.GetBoardId(), false), text("venue", r.GetVenue(), false), text("base_url", r.GetBaseUrl(), false))
}

func (r *DescribeTimeControlRequest) Validate() error {
	return first(text("time_control", r.GetTimeControl(), true), textN("ruleset", r.GetRuleset(), false, 32))
}

func (r *WatchBoardRequest) Validate() error {
	return first(id("board_id", r.GetBoardId(), true), seq("from_seq", r.GetFromSeq()))
}

func (r *WatchRoundRequest) Validate() error {
	return first(id("round_id", r.GetRoundId(), true), seq("from_seq", r.GetFromSeq()))
}

func (r *WatchHallRequest) Validate() error {
	return first(seq("from_seq", r.GetFromSeq()), id("hall", r.GetHall(), false))
}

// Validate checks a device's message: a Hello with its id and sane
// numbers, an event with a sequence number, a heartbeat with finite,
// non-negative readings. An event's board and action are judged by the
// server after its sequence number is accepted (ValidateContent), so that
// a bad event is refused and acknowledged instead of resent for ever.
func (m *DeviceMessage) Validate() error {
	switch x := m.GetMsg().(type) {
	case *DeviceMessage_Hello:
		return x.Hello.validate("hello")
	case *DeviceMessage_Event:
		if x.Event.GetSeq() == 0 {
			return bad("event.seq", "is required; device sequence numbers start at 1")
		}
		return seq("event.seq", x.Event.GetSeq())
	case *DeviceMessage_Heartbeat:
		return x.Heartbeat.validate()
	}
	return bad("msg", "device message is empty: send hello, event or heartbeat")
}

func (h *Hello) validate(f string) error {
	if err := first(id(f+".device_id", h.GetDeviceId(), true), textN(f+".firmware", h.GetFirmware(), false, MaxFirmware),
		seq(f+".last_acked_seq", h.GetLastAckedSeq()), seq(f+".next_seq", h.GetNextSeq())); err != nil {
		return err
	}
	if err := h.GetCapabilities().validate(f + ".capabilities"); err != nil {
		return err
	}
	if n := len(h.GetBoards()); n > MaxHeldBoards {
		return bad(f+".boards", "lists %d boards; a clock says at most %d", n, MaxHeldBoards)
	}
	c := h.GetClock()
	if c == nil {
		return nil
	}
	return first(id(f+".clock.board_id", c.GetBoardId(), false), nonNegative(f+".clock.t_ms", c.GetTMs()),
		duration(f+".clock.white_ms", c.GetWhiteMs()), duration(f+".clock.black_ms", c.GetBlackMs()),
		seq(f+".clock.board_seq", c.GetBoardSeq()))
}

// validate checks a heartbeat. Its field names are constants: ten
// thousand clocks send one a second, and names built per call were five
// allocations each.
func (hb *Heartbeat) validate() error {
	if p := hb.GetBatteryPct(); p < -1 || p > 100 {
		return bad("heartbeat.battery_pct", "is %d; 0 to 100 (or -1 unknown)", p)
	}
	return first(nonNegative("heartbeat.device_ms", hb.GetDeviceMs()), nonNegative("heartbeat.board_t_ms", hb.GetBoardTMs()),
		duration("heartbeat.white_ms", hb.GetWhiteMs()), duration("heartbeat.black_ms", hb.GetBlackMs()),
		finite("heartbeat.drift_ppm", hb.GetDriftPpm(), maxDrift))
}

// ValidateContent checks what the server judges of a device event once its
// sequence number is accepted: its board id, command id, action and
// displayed times. A failure is refused and acknowledged (a Rejection),
// not a reason to end the stream.
func (e *DeviceEvent) ValidateContent() error {
	return first(id("event.board_id", e.GetBoardId(), false), id("event.command_id", e.GetCommandId(), false),
		e.GetAction().validate("event.action"), duration("event.white_ms", e.GetWhiteMs()), duration("event.black_ms", e.GetBlackMs()))
}

// Validate checks what a device says it can do: at most 16 languages, each
// a short tag.
func (c *DeviceCapabilities) Validate() error { return c.validate("capabilities") }

func (c *DeviceCapabilities) validate(f string) error {
	if c == nil {
		return nil
	}
	if n := len(c.GetLanguages()); n > maxVoices {
		return bad(f+".languages", "lists %d languages; at most %d", n, maxVoices)
	}
	for i, l := range c.GetLanguages() {
		if err := textN(fmt.Sprintf("%s.languages[%d]", f, i), l, true, MaxLanguage); err != nil {
			return err
		}
	}
	return nil
}

// Validate checks an announcement a device is asked to say: its id, its
// board, the player it is for, its language and words, and sane numbers.
// A device says nothing of one that fails.
func (a *Announce) Validate() error {
	if a.GetTo() != Side_SIDE_WHITE && a.GetTo() != Side_SIDE_BLACK {
		return bad("announce.to", "is %s; an announcement is for SIDE_WHITE or SIDE_BLACK", a.GetTo())
	}
	if a.GetWhiteMoves() < 0 || a.GetWhiteMoves() > maxMoves || a.GetBlackMoves() < 0 || a.GetBlackMoves() > maxMoves {
		return bad("announce.white_moves", "moves are 0 to %d (white %d, black %d)", maxMoves, a.GetWhiteMoves(), a.GetBlackMoves())
	}
	return first(id("announce.announce_id", a.GetAnnounceId(), true), id("announce.board_id", a.GetBoardId(), true),
		textN("announce.language", a.GetLanguage(), false, MaxLanguage), textN("announce.text", a.GetText(), true, MaxAnnouncement),
		text("announce.requested_by", a.GetRequestedBy(), false),
		duration("announce.white_used_ms", a.GetWhiteUsedMs()), duration("announce.black_used_ms", a.GetBlackUsedMs()))
}

// ValidateHeld checks a board a clock says it holds events of (a Hello's
// boards): what a hall restored from an older backup would rebuild it
// from. A board that fails is not rebuilt (the hall says why in its audit
// log); the clock is not refused for it.
func (a *Assignment) ValidateHeld() error {
	if a.GetRound() <= 0 || a.GetRound() > maxNumber {
		return bad("boards.round", "is %d; rounds are numbered 1 to %d", a.GetRound(), maxNumber)
	}
	if a.GetBoardNumber() <= 0 || a.GetBoardNumber() > maxNumber {
		return bad("boards.board_number", "is %d; boards are numbered 1 to %d", a.GetBoardNumber(), maxNumber)
	}
	if a.GetTable() < 0 || a.GetTable() > maxNumber {
		return bad("boards.table", "is %d; tables are numbered 1 to %d (0: none)", a.GetTable(), maxNumber)
	}
	return first(id("boards.board_id", a.GetBoardId(), true), id("boards.round_id", a.GetRoundId(), false),
		id("boards.tournament_id", a.GetTournamentId(), false), text("boards.tournament", a.GetTournament(), false),
		id("boards.section", a.GetSection(), false), a.GetWhite().validate("boards.white"), a.GetBlack().validate("boards.black"),
		a.GetConfig().validate("boards.config"))
}
