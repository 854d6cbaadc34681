package main

import (
	"fmt"
	"strings"
	"time"

	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// An audit entry for people, in the dashboard's words (its board
// timeline, describe() in the page's board.js): "Black −2:00", "illegal
// move by White (7.5)", "12. Nf3" with the time it took and the time
// left, who did it as "Anna (arbiter)". An arbiter reading hallctl and
// one reading the page see the same thing said the same way.

// auditText is what an entry did: its action and what came of it (the
// clocks' changes, a period begun, the game over). prev is the board as
// it was before the entry (the After of the board's previous event), nil
// if unknown.
func auditText(e *pb.AuditEntry, prev *pb.BoardState) string {
	a := e.GetAction()
	if a == nil || a.GetKind() == pb.ActionKind_ACTION_KIND_UNSPECIFIED {
		return e.GetWhat()
	}
	side := sideWord(a.GetSide())
	after := e.GetAfter()
	var what, detail string
	switch a.GetKind() {
	case pb.ActionKind_ACTION_KIND_START:
		what = "clock started"
		if a.GetAbsentWhite() {
			what += ", White absent"
		}
		if a.GetAbsentBlack() {
			what += ", Black absent"
		}
	case pb.ActionKind_ACTION_KIND_ARRIVE:
		what = side + " arrives"
	case pb.ActionKind_ACTION_KIND_PRESS:
		what = side + " pressed"
		if a.GetSan() != "" {
			what = a.GetSan()
		}
		if p := clockOf(after, a.GetSide()); p != nil {
			if a.GetSide() == pb.Side_SIDE_WHITE {
				what = fmt.Sprintf("%d. %s", p.GetMoves(), what)
			} else {
				what = fmt.Sprintf("%d… %s", p.GetMoves(), what)
			}
			detail = fmt.Sprintf("%s used %s, left %s", side, duration(e.GetUsedMs()), pageClock(p.GetRemainingMs()))
		}
	case pb.ActionKind_ACTION_KIND_PAUSE:
		what = "clock paused"
	case pb.ActionKind_ACTION_KIND_RESUME:
		what = "clock resumed"
	case pb.ActionKind_ACTION_KIND_ADJOURN:
		what = "game adjourned (sealed move)"
	case pb.ActionKind_ACTION_KIND_FLAG_CLAIM:
		what = side + " claims the flag"
	case pb.ActionKind_ACTION_KIND_ILLEGAL_MOVE:
		what = "illegal move by " + side + " (7.5)"
		if prev != nil && prev.GetSealer() == a.GetSide() && a.GetSide() != pb.Side_SIDE_UNSPECIFIED {
			what = side + "'s sealed move illegal (I.8)"
		}
	case pb.ActionKind_ACTION_KIND_DRAW_CLAIM_REJECTED:
		what = side + "'s draw claim incorrect (9.5)"
	case pb.ActionKind_ACTION_KIND_QUICKPLAY_INCREMENT:
		what = side + ": 5 s a move (III.4)"
	case pb.ActionKind_ACTION_KIND_QUICKPLAY_CLAIM:
		what = side + "'s quickplay claim " + decisionWords[a.GetDecision()]
		if a.GetNoExtraTime() {
			what += ", no extra time"
		}
	case pb.ActionKind_ACTION_KIND_ADD_TIME:
		what = side + " " + change(a.GetMs())
	case pb.ActionKind_ACTION_KIND_SET_CLOCK:
		what = "clock set: White " + pageClock(a.GetWhiteMs()) + ", Black " + pageClock(a.GetBlackMs())
		if a.GetToMove() != pb.Side_SIDE_UNSPECIFIED {
			what += ", " + sideWord(a.GetToMove()) + " to move (retrace)"
		}
	case pb.ActionKind_ACTION_KIND_POSITION:
		what = "position entered"
	case pb.ActionKind_ACTION_KIND_RESULT:
		what = "result " + resultText(a.GetResult())
		if a.GetTermination() != "" {
			what += " (" + terminationWords(a.GetTermination()) + ")"
		}
		if a.GetUnplayed() {
			what += ", unplayed: less than one move, not rated"
		}
	case pb.ActionKind_ACTION_KIND_FLAG:
		what = side + "'s flag fell"
	case pb.ActionKind_ACTION_KIND_ILLEGAL_MOVE_FOUND:
		what = fmt.Sprintf("illegal move found later: %s's move %d (7.5.1)", side, a.GetMove())
	case pb.ActionKind_ACTION_KIND_FLAGS_UNORDERED:
		what = "both flags down, order unknown"
	case pb.ActionKind_ACTION_KIND_DECLARE_LOST:
		what = "game declared lost by " + side
		if a.GetResult() != "" {
			what += " (" + resultText(a.GetResult()) + ")"
		}
	case pb.ActionKind_ACTION_KIND_ARBITER_FLAG:
		what = "the arbiter calls " + side + "'s flag"
	case pb.ActionKind_ACTION_KIND_SEALED_MOVE_ENDS:
		what = "the sealed move ended the game: " + resultText(a.GetResult()) + " (I.10)"
	case pb.ActionKind_ACTION_KIND_ENVELOPE_LOST:
		what = "envelope lost: play resumes, the sealer moves (I.12)"
	default:
		what = e.GetWhat()
	}
	var more []string
	if detail != "" {
		more = append(more, detail)
	}
	if after != nil && a.GetKind() != pb.ActionKind_ACTION_KIND_PRESS {
		if c := clockChanges(e); c != "" && c != what {
			more = append(more, c)
		}
	}
	if after != nil && prev != nil {
		for _, s := range []pb.Side{pb.Side_SIDE_WHITE, pb.Side_SIDE_BLACK} {
			if is := clockOf(after, s).GetPeriod(); is > clockOf(prev, s).GetPeriod() {
				more = append(more, fmt.Sprintf("%s enters period %d", sideWord(s), is))
			}
		}
		if r := after.GetResult(); r != "" && r != "*" && (prev.GetResult() == "" || prev.GetResult() == "*") {
			more = append(more, strings.TrimSpace("game over: "+resultText(r)+" "+terminationWords(after.GetTermination())))
		}
	}
	if len(more) > 0 {
		what += " · " + strings.Join(more, "; ")
	}
	return what
}

// actorName makes an actor readable: "arbiter:Anna" → "Anna (arbiter)",
// "device:CLK-001" → "clock CLK-001", "chief:chief arbiter" → "chief
// arbiter" (a label that names the role is not told it twice).
func actorName(actor string) string {
	role, who, ok := strings.Cut(actor, ":")
	if !ok {
		return actor
	}
	as := func(r string) string {
		last := r[strings.LastIndex(r, " ")+1:]
		if strings.Contains(strings.ToLower(who), last) {
			return who
		}
		return who + " (" + r + ")"
	}
	switch role {
	case "device":
		return "clock " + who
	case "chief":
		return as("chief arbiter")
	case "arbiter":
		return as("arbiter")
	case "broadcast":
		return who
	}
	return actor
}

// auditActor is who made an entry; for an event carrying out a command,
// who gave it and through which clock ("Anna (arbiter) via clock CLK-001").
func auditActor(e *pb.AuditEntry) string {
	if e.GetIssuedBy() != "" {
		return actorName(e.GetIssuedBy()) + " via " + actorName(e.GetActor())
	}
	return actorName(e.GetActor())
}

// clockChanges says how the entry itself changed the clocks: "White +2:00".
func clockChanges(e *pb.AuditEntry) string {
	var out []string
	if ms := e.GetWhiteChangeMs(); ms != 0 {
		out = append(out, "White "+change(ms))
	}
	if ms := e.GetBlackChangeMs(); ms != 0 {
		out = append(out, "Black "+change(ms))
	}
	return strings.Join(out, ", ")
}

func clockOf(st *pb.BoardState, s pb.Side) *pb.PlayerClock {
	switch s {
	case pb.Side_SIDE_WHITE:
		return st.GetWhite()
	case pb.Side_SIDE_BLACK:
		return st.GetBlack()
	}
	return nil
}

func sideWord(s pb.Side) string {
	switch s {
	case pb.Side_SIDE_WHITE:
		return "White"
	case pb.Side_SIDE_BLACK:
		return "Black"
	}
	return ""
}

var decisionWords = map[pb.QuickplayDecision]string{
	pb.QuickplayDecision_QUICKPLAY_DECISION_DRAW: "drawn", pb.QuickplayDecision_QUICKPLAY_DECISION_POSTPONE: "postponed",
	pb.QuickplayDecision_QUICKPLAY_DECISION_REJECT: "rejected", pb.QuickplayDecision_QUICKPLAY_DECISION_REFER: "referred to the arbiter",
}

var terminations = map[string]string{
	"normal": "", "time": "on time", "illegal_move": "illegal moves", "default": "by default",
	"quickplay_claim": "quickplay claim", "arbiter": "arbiter's decision", "agreement": "agreed",
}

func terminationWords(t string) string {
	if w, ok := terminations[t]; ok {
		return w
	}
	return strings.ReplaceAll(t, "_", " ")
}

// resultText writes a result with halves: "½-½".
func resultText(r string) string { return strings.ReplaceAll(r, "1/2", "½") }

// duration writes a span of time for people: 2:00, 0:45, 1:02:03.
func duration(ms int64) string {
	if ms < 0 {
		ms = -ms
	}
	s := (ms + 500) / 1000
	h, m, sec := s/3600, s/60%60, s%60
	if h > 0 {
		return fmt.Sprintf("%d:%02d:%02d", h, m, sec)
	}
	return fmt.Sprintf("%d:%02d", m, sec)
}

// change writes a change of a clock: +2:00, −0:30 (a minus sign, as the
// page writes it).
func change(ms int64) string {
	if ms < 0 {
		return "\u2212" + duration(ms)
	}
	return "+" + duration(ms)
}

// pageClock writes a remaining time as the page's clocks show it: 1:23:45,
// 23:45, and tenths under twenty seconds (0:09.7).
func pageClock(ms int64) string {
	ms = max(ms, 0)
	if ms < 20000 {
		t := ms / 100
		return fmt.Sprintf("0:%02d.%d", t/10, t%10)
	}
	d := time.Duration(ms) * time.Millisecond
	h, m, s := int(d.Hours()), int(d.Minutes())%60, int(d.Seconds())%60
	if h > 0 {
		return fmt.Sprintf("%d:%02d:%02d", h, m, s)
	}
	return fmt.Sprintf("%d:%02d", m, s)
}
