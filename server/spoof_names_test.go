package server_test

import (
	"strings"
	"testing"

	"google.golang.org/grpc/codes"

	"github.com/chesshall/hallclock/internal/testkit/halltest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// A round's file whose names spoof (direction overrides, control
// characters) or whose numbers are beyond any hall is refused as
// AddBoard refuses the same, naming the board and the line; over gRPC
// and through the web pages' bridge alike.
func TestImportRefusesNamesThatSpoof(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t)
	arb, ctx := h.Arbiter(t)
	tr, err := arb.CreateTournament(ctx, &pb.CreateTournamentRequest{Name: "Open", DefaultConfig: &pb.ClockConfig{TimeControl: "90m+30s"}})
	if err != nil {
		t.Fatal(err)
	}
	rlo := strings.Repeat("\u202e", 70)
	for _, c := range []struct{ name, csv, want string }{
		{"a player of 70 right-to-left overrides", "Round;Board;White;Black\n1;1;Anna;Boris\n1;2;" + rlo + ";Dora\n", "board 2 (line 3): white.name"},
		{"an isolate in a name", "Round;Board;White;Black\n1;1;Anna;\u2067Boris\u2069\n", "board 1 (line 2): black.name"},
		{"an escape in a name", "Round;Board;White;Black\n1;1;Anna\x1b[2J;Boris\n", "control character"},
		{"a section of overrides", "Round;Section;Board;White;Black\n1;A\u202e;1;Anna;Boris\n", "board 1 (line 2): section"},
		{"board 2147483647", "Round;Board;White;Black\n1;2147483647;Anna;Boris\n", "board number 2147483647 is out of range: 1–10000"},
		{"round 2147483647", "Round;Board;White;Black\n2147483647;1;Anna;Boris\n", "round number 2147483647 is out of range: 1–10000"},
	} {
		_, err := arb.ImportRound(ctx, &pb.ImportRoundRequest{Tournament: tr.GetTournamentId(), Content: []byte(c.csv)})
		if codeOf(err) != codes.InvalidArgument || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v; want InvalidArgument saying %q", c.name, err, c.want)
		}
	}
	_, err = arb.AddBoard(ctx, &pb.AddBoardRequest{RoundId: "r", Number: 2147483647, White: &pb.Player{Name: "W"}, Black: &pb.Player{Name: "B"}})
	if codeOf(err) != codes.InvalidArgument || !strings.Contains(err.Error(), "board number 2147483647 is out of range: 1–10000") {
		t.Errorf("AddBoard number 2147483647: %v; want InvalidArgument naming the range", err)
	}
	w := newWeb(t, h)
	st, body := w.call("CreateTournament", `{"name":"`+rlo+`"}`, map[string]string{"Authorization": "Bearer " + h.Chief})
	if st != 400 || !strings.Contains(body, "U+202E") {
		t.Errorf("CreateTournament named with overrides through the bridge: %d %s; want 400 naming U+202E", st, body)
	}
}
