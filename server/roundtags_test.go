package server_test

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/chesshall/hallclock/internal/testkit/halltest"
	"github.com/chesshall/hallclock/internal/testkit/pgncheck"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// Board 1 of sections A and B of one round: the round's PGN feed (what
// relays read and are pushed) and its lichess export give them distinct
// Round tags, 1.1 and 1.2, whoever reads (the arbiter of section B alone
// sees 1.2, the game's place in the whole round); pgn-extract reads them.
func TestRoundTagsDifferAcrossSections(t *testing.T) {
	t.Parallel()
	rh := startReadHall(t)
	ctx := context.Background()
	feed, err := rh.httpGet(ctx, "/api/pgn/round/"+rh.round, rh.h.Chief)
	if err != nil {
		t.Fatal(err)
	}
	gs := pgncheck.Read(t, []byte(feed))
	if len(gs) != 2 || gs[0].Tags["Round"] != "1.1" || gs[1].Tags["Round"] != "1.2" || gs[0].Tags["Board"] != "1" || gs[1].Tags["Board"] != "1" {
		t.Errorf("the round's PGN feed: %+v\n%s", gs, feed)
	}
	bo := rh.h.Token(t, pb.Role_ROLE_ARBITER, "Bo", "", "B")
	r, err := pb.NewArbiterClient(rh.h.Conn(t)).ExportRound(halltest.Ctx(ctx, bo),
		&pb.ExportRoundRequest{RoundId: rh.round, Format: pb.ExportFormat_EXPORT_FORMAT_PGN, PgnRoundAndBoard: true})
	if err != nil {
		t.Fatal(err)
	}
	if gs := pgncheck.Read(t, r.GetContent()); len(gs) != 1 || gs[0].Tags["Round"] != "1.2" {
		t.Errorf("section B's lichess export: %+v\n%s", gs, r.GetContent())
	}
	if board, err := rh.httpGet(ctx, "/api/pgn/board/"+rh.b.GetBoardId(), rh.h.Chief); err != nil || !strings.Contains(board, `[Round "1.2"]`) {
		t.Errorf("section B's board's PGN: %v\n%s", err, board)
	}
}

// The dashboard's "used" of a move and the PGN's [%emt] come from one
// count (the rules' time the move took): the audit log's used_ms cut to
// seconds is the [%emt] of the same move.
func TestAuditUsedIsTheEmt(t *testing.T) {
	t.Parallel()
	rh := startReadHall(t)
	arb, ctx := rh.h.Arbiter(t)
	log, err := arb.AuditLog(ctx, &pb.AuditLogRequest{BoardId: rh.a.GetBoardId()})
	if err != nil {
		t.Fatal(err)
	}
	var used []int64
	for _, e := range log.GetEntries() {
		if e.GetAction().GetKind() == pb.ActionKind_ACTION_KIND_PRESS {
			used = append(used, e.GetUsedMs())
		}
	}
	pgn, err := rh.httpGet(context.Background(), "/api/pgn/board/"+rh.a.GetBoardId(), rh.h.Chief)
	if err != nil {
		t.Fatal(err)
	}
	emts := regexp.MustCompile(`\[%emt (\d+):(\d\d):(\d\d)\]`).FindAllStringSubmatch(pgn, -1)
	if len(used) == 0 || len(emts) != len(used) {
		t.Fatalf("%d presses in the audit log, %d [%%emt] in the PGN:\n%s", len(used), len(emts), pgn)
	}
	for i, m := range emts {
		if got := m[1] + ":" + m[2] + ":" + m[3]; got != clockOf(used[i]) {
			t.Errorf("move %d: the audit log's used %d ms, the PGN's [%%emt %s]", i+1, used[i], got)
		}
	}
}

func clockOf(ms int64) string {
	s := ms / 1000
	return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
}
