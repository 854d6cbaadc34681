package hall

import (
	"strings"
	"testing"

	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// A clock setting that hands the move back (a retrace, 2018 Appendix
// D.2.9) says so in the audit log; a plain setting does not.
func TestActionTextNamesTheSideToMoveOfARetrace(t *testing.T) {
	set := &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_SET_CLOCK, WhiteMs: 60_000, BlackMs: 50_000}
	if got := ActionText(set); strings.Contains(got, "to move") {
		t.Errorf("ActionText(%v) = %q, want no side to move", set, got)
	}
	set.ToMove = pb.Side_SIDE_BLACK
	if got, want := ActionText(set), "set_clock white=60000ms black=50000ms black to move"; got != want {
		t.Errorf("ActionText(%v) = %q, want %q", set, got, want)
	}
}
