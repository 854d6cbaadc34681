package server_test

import (
	"strings"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/chesshall/hallclock/internal/testkit/halltest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// auditSays reports whether a board's audit log has an entry whose what
// contains each of words.
func auditSays(t *testing.T, h *halltest.Hall, board string, words ...string) bool {
	t.Helper()
	arb, ctx := h.Arbiter(t)
	log, err := arb.AuditLog(ctx, &pb.AuditLogRequest{BoardId: board})
	if err != nil {
		t.Fatal(err)
	}
next:
	for _, e := range log.GetEntries() {
		for _, w := range words {
			if !strings.Contains(e.GetWhat(), w) {
				continue next
			}
		}
		return true
	}
	return false
}

// A section-limited arbiter cannot take another section's
// clock. A device that keeps a board whose game is not over is busy: taking
// it is refused unless the request says replace, and then only by a
// caller allowed on both boards; the move is audited on both boards. The
// same holds for AddBoard with a device in use.
func TestBusyDeviceIsNotTakenSilently(t *testing.T) {
	t.Parallel()
	sh := startSectionHall(t)
	h := sh.h
	arbA := pb.NewArbiterClient(h.Conn(t))
	ctxA := halltest.Ctx(t.Context(), h.Token(t, pb.Role_ROLE_ARBITER, "arbiter of A", "", "A"))
	a, b := sh.a.GetBoardId(), sh.b.GetBoardId()
	devB := sh.b.GetDeviceId()

	// Busy, with or without replace; the refusal names nothing of section B.
	for _, replace := range []bool{false, true} {
		_, err := arbA.AssignDevice(ctxA, &pb.AssignDeviceRequest{BoardId: a, DeviceId: devB, Replace: replace})
		if status.Code(err) != codes.FailedPrecondition || strings.Contains(err.Error(), b) || strings.Contains(err.Error(), `"B"`) {
			t.Errorf("an arbiter of A taking section B's clock (replace %v): %v; want FAILED_PRECONDITION naming no board or section of B", replace, err)
		}
	}
	// The chief is told where the clock is.
	arbC, ctxC := h.Arbiter(t)
	if _, err := arbC.AssignDevice(ctxC, &pb.AssignDeviceRequest{BoardId: a, DeviceId: devB}); status.Code(err) != codes.FailedPrecondition ||
		!strings.Contains(err.Error(), b) || !strings.Contains(err.Error(), "replace") {
		t.Errorf("the chief taking section B's clock without replace: %v; want FAILED_PRECONDITION naming board %s and replace", err, b)
	}
	var err error
	_, err = arbA.AddBoard(ctxA, &pb.AddBoardRequest{RoundId: sh.round, Number: 3, Section: "A",
		White: &pb.Player{Name: "W"}, Black: &pb.Player{Name: "B"}, DeviceId: devB})
	if status.Code(err) != codes.FailedPrecondition {
		t.Errorf("AddBoard with section B's busy clock: %v; want FAILED_PRECONDITION", err)
	}
	if got := fetchBoard(t, h, b); got.GetDeviceId() != devB {
		t.Fatalf("board B's device after the refusals = %q, want %s still", got.GetDeviceId(), devB)
	}

	// The chief arbiter, allowed everywhere, replaces: both boards say so.
	arb, ctx := h.Arbiter(t)
	if _, err := arb.AssignDevice(ctx, &pb.AssignDeviceRequest{BoardId: a, DeviceId: devB, Replace: true, Reason: "A's clock died"}); err != nil {
		t.Fatal(err)
	}
	if got := fetchBoard(t, h, b); got.GetDeviceId() != "" {
		t.Errorf("board B's device after the replacement = %q, want none", got.GetDeviceId())
	}
	if !auditSays(t, h, b, devB, "taken to board "+a) {
		t.Errorf("board B's audit log does not say its clock was taken to board A")
	}
	if !auditSays(t, h, a, "assign device "+devB, "taken from board "+b) {
		t.Errorf("board A's audit log does not say where its clock came from")
	}
}
