package server_test

import (
	"strings"
	"testing"

	"github.com/chesshall/hallclock/internal/testkit/halltest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// auditRefusals returns the refusals of dev's events in board's audit log.
func auditRefusals(t *testing.T, h *halltest.Hall, board, dev string) []*pb.AuditEntry {
	t.Helper()
	arb, ctx := h.Arbiter(t)
	log, err := arb.AuditLog(ctx, &pb.AuditLogRequest{BoardId: board})
	if err != nil {
		t.Fatal(err)
	}
	var out []*pb.AuditEntry
	for _, e := range log.GetEntries() {
		if e.GetActor() == "device:"+dev && strings.HasPrefix(e.GetOutcome(), "refused: ") {
			out = append(out, e)
		}
	}
	return out
}

// A clock that reports "1-0 normal" on a board whose clock never started
// is refused (FIDE 2023 Art. 6.6: a game ends over the board once it has
// begun; the result of a game that did not begin is the arbiter's): the
// board stays waiting, and its audit log says why.
func TestDeviceResultBeforeTheStartIsRefused(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t)
	b := h.Round(t, "300+2", 1)[0]
	id, dev := b.GetBoardId(), b.GetDeviceId()
	l, _, _ := connectRaw(t, h, dev, 0, 1)
	l.event(1, id, &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_RESULT, Result: "1-0", Termination: "normal"}, 300_000, 300_000)
	a := l.ack()
	if a.GetUpToSeq() != 1 || len(a.GetRejected()) != 1 || a.GetRejected()[0].GetCode() != "not_started" {
		t.Errorf("Ack of a result before the start = %v; want seq 1 acknowledged with a not_started rejection", a)
	}
	if st := fetchBoard(t, h, id).GetState(); st.GetStatus() != pb.BoardStatus_BOARD_STATUS_WAITING || st.GetResult() != "*" {
		t.Errorf("board after the refused result: %v %q; want WAITING with result *", st.GetStatus(), st.GetResult())
	}
	if n := eventCount(t, h, id); n != 0 {
		t.Errorf("the board holds %d events; want none", n)
	}
	if r := auditRefusals(t, h, id, dev); len(r) != 1 || !strings.Contains(r[0].GetOutcome(), "Art. 6.6") {
		t.Errorf("the board's audit log holds %v; want the refusal citing Art. 6.6", r)
	}
}

// A device's event that reaches no board (malformed, or naming a board
// that does not exist) is audited on the device's own board: its Welcome
// tells a device that missed the Ack that "the board's audit log says why".
func TestOffBoardRefusalsAreAuditedOnTheDevicesBoard(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t)
	b := h.Round(t, "300+2", 1)[0]
	id, dev := b.GetBoardId(), b.GetDeviceId()
	l, _, _ := connectRaw(t, h, dev, 0, 1)
	l.event(1, "b-nowhere", startAction(0), 300_000, 300_000)
	if a := l.ack(); len(a.GetRejected()) != 1 || a.GetRejected()[0].GetCode() != "unknown_board" {
		t.Fatalf("Ack = %v; want an unknown_board rejection", a)
	}
	l.event(2, strings.Repeat("b", 500), startAction(0), 300_000, 300_000)
	if a := l.ack(); len(a.GetRejected()) != 1 || a.GetRejected()[0].GetCode() != "invalid" {
		t.Fatalf("Ack = %v; want an invalid rejection", a)
	}
	r := auditRefusals(t, h, id, dev)
	if len(r) != 2 || !strings.Contains(r[0].GetOutcome(), "b-nowhere") || !strings.Contains(r[1].GetOutcome(), "event.board_id") {
		t.Errorf("board %s's audit log holds refusals %v; want both, the unknown board's and the malformed event's", id, r)
	}
}
