package server_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chesshall/hallclock/internal/mono"
	"github.com/chesshall/hallclock/internal/testkit/halltest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/server"
	"github.com/chesshall/hallclock/storage"
)

type feedStandings struct {
	Live      bool  `json:"live"`
	DelayMs   int64 `json:"delay_ms"`
	Standings struct {
		AfterRound  int      `json:"afterRound"`
		Provisional bool     `json:"provisional"`
		TieBreaks   []string `json:"tieBreaks"`
		Rows        []struct {
			Rank   int    `json:"rank"`
			Start  int    `json:"start"`
			Name   string `json:"name"`
			Points string `json:"points"`
		} `json:"rows"`
	} `json:"standings"`
}

// getFeed reads /api/standings/{t} with token ("" none): the status and,
// on 200, the standings as "start:points" in rank order and the raw body.
func getFeed(t *testing.T, base, path, token string) (int, string, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, base+path, nil)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK {
		return res.StatusCode, "", string(body)
	}
	var f feedStandings
	if err := json.Unmarshal(body, &f); err != nil {
		t.Fatalf("%s: %v in %s", path, err, body)
	}
	var rows []string
	for _, r := range f.Standings.Rows {
		rows = append(rows, r.Name[len("Player "):]+":"+r.Points)
	}
	return res.StatusCode, strings.Join(rows, " "), string(body)
}

// The public standings feed follows the round feeds' rules: no token reads
// a tournament only once its rounds are public; the public and broadcast
// tokens see the standings as the delayed feeds' results leave them (a
// result, and a correction, count once they are out of the delay), an
// arbiter live and only their sections; the arbiter's reasons are never in
// it.
func TestStandingsFeedDelayAndSections(t *testing.T) {
	t.Parallel()
	clock := mono.NewFake(time.Now())
	// The events' wall times (the store's) on the hall's clock, as in a hall.
	h := halltest.Start(t, halltest.WithOptions(server.Options{Clock: clock, BroadcastDelay: 15 * time.Minute, WatchInterval: -1}),
		halltest.WithStore(storage.Options{Now: clock.Now}))
	arb, ctx := h.Arbiter(t)
	base := h.HTTP(t)
	tr, err := arb.CreateTournament(ctx, &pb.CreateTournamentRequest{Name: "Feed Open", DefaultConfig: &pb.ClockConfig{TimeControl: "90m+30s"}})
	if err != nil {
		t.Fatal(err)
	}
	r, err := arb.CreateRound(ctx, &pb.CreateRoundRequest{TournamentId: tr.GetTournamentId(), Number: 1})
	if err != nil {
		t.Fatal(err)
	}
	addGame(t, arb, ctx, r.GetRoundId(), 1, "A", 1, 2, "0-1", nil)
	addGame(t, arb, ctx, r.GetRoundId(), 2, "B", 3, 4, "1-0", nil)
	path := "/api/standings/" + tr.GetTournamentId()

	if code, _, body := getFeed(t, base, path, ""); code != http.StatusUnauthorized || !strings.Contains(body, "public") {
		t.Fatalf("no token, round not public: %d %s, want 401 saying it is not public", code, body)
	}
	if _, err := arb.SetBroadcast(ctx, &pb.SetBroadcastRequest{RoundId: r.GetRoundId(), Public: ptrBool(true)}); err != nil {
		t.Fatal(err)
	}
	broadcastTok := h.Token(t, pb.Role_ROLE_BROADCAST, "relay", "")
	anna := h.Token(t, pb.Role_ROLE_ARBITER, "Anna", "", "A")
	// The results are younger than the delay: the public sees no points yet.
	for _, tok := range []string{"", broadcastTok} {
		if code, rows, body := getFeed(t, base, path, tok); code != http.StatusOK || strings.Contains(rows, ":1") {
			t.Errorf("token %q before the delay passed: %d %q (%s), want 200 and no point yet", tok, code, rows, body)
		}
	}
	if _, rows, _ := getFeed(t, base, path, h.Chief); !strings.HasPrefix(rows, "2:1 3:1") {
		t.Errorf("the chief reads %q, want the results live (2 and 3 on 1 point first)", rows)
	}
	if _, rows, body := getFeed(t, base, path, anna); rows != "2:1 1:0" || !strings.Contains(body, `"live":true`) {
		t.Errorf("Anna (section A) reads %q (%s), want her section only, live: 2:1 1:0", rows, body)
	}
	if code, _, _ := getFeed(t, base, path+"?section=B", anna); code == http.StatusOK {
		if _, rows, _ := getFeed(t, base, path+"?section=B", anna); rows != "" {
			t.Errorf("Anna asking for section B reads %q, want nothing of it", rows)
		}
	}

	clock.Advance(15*time.Minute + time.Second)
	for _, tok := range []string{"", broadcastTok} {
		if _, rows, body := getFeed(t, base, path, tok); !strings.HasPrefix(rows, "2:1 3:1") || !strings.Contains(body, `"delay_ms":900000`) {
			t.Errorf("token %q after the delay: %q (%s), want the results, delayed", tok, rows, body)
		}
	}
	// A correction (board 1 was a win for White), with the arbiter's words.
	bs, err := arb.ListBoards(ctx, &pb.ListBoardsRequest{RoundId: r.GetRoundId()})
	if err != nil {
		t.Fatal(err)
	}
	var board1 string
	for _, b := range bs.GetBoards() {
		if b.GetNumber() == 1 {
			board1 = b.GetBoardId()
		}
	}
	if _, err := arb.BoardAction(ctx, &pb.BoardActionRequest{BoardId: board1, Reason: "scoresheets-swapped-secretly",
		Action: &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_RESULT, Result: "1-0"}, WaitMs: 5000}); err != nil {
		t.Fatal(err)
	}
	if _, rows, _ := getFeed(t, base, path, h.Chief); !strings.Contains(rows, "1:1") || strings.Contains(rows, "2:1") {
		t.Errorf("the chief after the correction reads %q, want 1 on a point at once, 2 on none", rows)
	}
	if _, rows, _ := getFeed(t, base, path, ""); !strings.Contains(rows, "2:1") {
		t.Errorf("the public right after the correction reads %q, want the old result until the delay passes", rows)
	}
	clock.Advance(15*time.Minute + time.Second)
	for _, tok := range []string{"", broadcastTok, h.Chief} {
		_, rows, body := getFeed(t, base, path, tok)
		if !strings.Contains(rows, "1:1") || strings.Contains(rows, "2:1") {
			t.Errorf("token %q once the correction is out of the delay: %q, want 1 on a point", tok, rows)
		}
		if strings.Contains(body, "scoresheets-swapped-secretly") {
			t.Errorf("token %q: the arbiter's reason is in the standings feed", tok)
		}
	}
	if code, _, _ := getFeed(t, base, "/api/standings/No Such Open", ""); code != http.StatusNotFound {
		t.Errorf("an unknown tournament: %d, want 404", code)
	}
	if code, _, _ := getFeed(t, base, path, "not-a-token"); code != http.StatusUnauthorized {
		t.Errorf("a bad token: %d, want 401", code)
	}
}

// A result correction says in the audit log what it changed in the
// standings, after the correction's own entry, on the same board.
func TestCorrectionAuditsStandingsMoved(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t)
	arb, ctx := h.Arbiter(t)
	tr, err := arb.CreateTournament(ctx, &pb.CreateTournamentRequest{Name: "Audit Open", DefaultConfig: &pb.ClockConfig{TimeControl: "90m+30s"}})
	if err != nil {
		t.Fatal(err)
	}
	r, err := arb.CreateRound(ctx, &pb.CreateRoundRequest{TournamentId: tr.GetTournamentId(), Number: 1})
	if err != nil {
		t.Fatal(err)
	}
	addGame(t, arb, ctx, r.GetRoundId(), 1, "", 1, 2, "0-1", nil)
	addGame(t, arb, ctx, r.GetRoundId(), 2, "", 3, 4, "1-0", nil)
	bs, err := arb.ListBoards(ctx, &pb.ListBoardsRequest{RoundId: r.GetRoundId()})
	if err != nil {
		t.Fatal(err)
	}
	audit := func() []string {
		log, err := arb.AuditLog(ctx, &pb.AuditLogRequest{})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, e := range log.GetEntries() {
			out = append(out, e.GetWhat())
		}
		return out
	}
	for _, w := range audit() {
		if strings.HasPrefix(w, "standings") {
			t.Fatalf("a first result is no correction, yet the audit says %q", w)
		}
	}
	var board1 string
	for _, b := range bs.GetBoards() {
		if b.GetNumber() == 1 {
			board1 = b.GetBoardId()
		}
	}
	act(t, arb, ctx, board1, &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_RESULT, Result: "1-0"}, pb.CommandStatus_COMMAND_STATUS_APPLIED)
	log := audit()
	last := log[len(log)-1]
	if !strings.HasPrefix(last, "standings of Audit Open: ") || !strings.Contains(last, "Player 1 from 3rd to 1st") || !strings.Contains(last, "Player 2 from 1st to 3rd") {
		t.Errorf("after the correction the audit log ends %q, want who moved: Player 1 from 3rd to 1st, Player 2 from 1st to 3rd (all: %q)", last, log)
	}
}

// The standings stream sends the table again when a result is entered:
// a screen that follows it needs no polling.
func TestStandingsStreamFollowsResults(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t)
	arb, ctx := h.Arbiter(t)
	tr, err := arb.CreateTournament(ctx, &pb.CreateTournamentRequest{Name: "Stream Open", DefaultConfig: &pb.ClockConfig{TimeControl: "90m+30s"}})
	if err != nil {
		t.Fatal(err)
	}
	r, err := arb.CreateRound(ctx, &pb.CreateRoundRequest{TournamentId: tr.GetTournamentId(), Number: 1})
	if err != nil {
		t.Fatal(err)
	}
	addGame(t, arb, ctx, r.GetRoundId(), 1, "", 1, 2, "", nil)
	bs, err := arb.ListBoards(ctx, &pb.ListBoardsRequest{RoundId: r.GetRoundId()})
	if err != nil {
		t.Fatal(err)
	}
	board := bs.GetBoards()[0].GetBoardId()
	if _, err := arb.UseVirtualClock(ctx, &pb.UseVirtualClockRequest{BoardId: board, Reason: "scoresheets"}); err != nil {
		t.Fatal(err)
	}
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(sctx, http.MethodGet, h.HTTP(t)+"/api/standings/Stream%20Open/live", nil)
	req.Header.Set("Authorization", "Bearer "+h.Chief)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("the stream: HTTP %d", res.StatusCode)
	}
	lines := bufio.NewScanner(res.Body)
	lines.Buffer(nil, 1<<20)
	next := func() feedStandings {
		t.Helper()
		for lines.Scan() {
			if data, ok := strings.CutPrefix(lines.Text(), "data: "); ok {
				var f feedStandings
				if err := json.Unmarshal([]byte(data), &f); err != nil {
					t.Fatal(err)
				}
				return f
			}
		}
		t.Fatalf("the stream ended: %v", lines.Err())
		return feedStandings{}
	}
	if first := next(); !first.Standings.Provisional || first.Standings.Rows[0].Points != "0" {
		t.Fatalf("the first table: %+v, want provisional, nobody on a point", first.Standings)
	}
	act(t, arb, ctx, board, &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_RESULT, Result: "0-1"}, pb.CommandStatus_COMMAND_STATUS_APPLIED)
	if second := next(); second.Standings.Provisional || second.Standings.Rows[0].Name != "Player 2" || second.Standings.Rows[0].Points != "1" {
		t.Errorf("after the result the stream sent %+v, want Player 2 first on a point, final", second.Standings)
	}
	// A new tie-break list moves the screens too.
	if _, err := arb.SetTieBreaks(ctx, &pb.SetTieBreaksRequest{Tournament: "Stream Open", TieBreaks: "WIN,SB"}); err != nil {
		t.Fatal(err)
	}
	if third := next(); strings.Join(third.Standings.TieBreaks, ",") != "WIN,SB" {
		t.Errorf("after the tie-break list changed the stream sent %v, want WIN,SB", third.Standings.TieBreaks)
	}
}
