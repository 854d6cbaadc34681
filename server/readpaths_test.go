package server_test

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	"github.com/chesshall/hallclock/internal/mono"
	"github.com/chesshall/hallclock/internal/testkit/halltest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
	"github.com/chesshall/hallclock/server"
)

// The read paths of the hall, as a table every reader is run over: each
// Arbiter and Watch method that reads, and each HTTP endpoint that shows
// the hall. readPathsComplete checks that the tables name every method of
// the services and every GET route the server registers, so a new one is
// a failing test until it says what it shows to whom.

// readCall is one read: its name and what it answers (its response in
// protojson, or the HTTP body), or its error.
type readCall struct {
	name string
	do   func(ctx context.Context) (string, error)
}

// arbiterWrites are the Arbiter methods that change the hall: not reads.
var arbiterWrites = map[string]bool{
	"CreateTournament": true, "CreateRound": true, "AddBoard": true, "AssignDevice": true, "SwapDevices": true,
	"UseVirtualClock": true, "StartRound": true, "BoardAction": true, "IssueToken": true, "RevokeToken": true,
	"ImportRound": true, "SetPlan": true, "SetBroadcast": true, "IssueSignInLink": true,
	"SetBlindPlay": true, "Announce": true, "IssueAssistantLink": true, "SetTieBreaks": true,
	"IssueClockLink": true,
}

// routesNotReads are the GET routes that show nothing of the hall's
// boards, rounds or players.
var routesNotReads = map[string]string{
	"GET /healthz":                        "liveness",
	"GET /readyz":                         "readiness: the store commits",
	"GET /api/stream":                     "the publisher's state: counts and the stream's name, no board",
	"GET /metrics":                        "counters of the server, no board named",
	"GET /signin":                         "the sign-in form",
	"GET /api/session":                    "who the session is",
	"GET /{$}":                            "the dashboard's page, which reads through the API",
	"GET /dashboard/{file}":               "the dashboard's assets",
	"GET /i18n/i18n.js":                   "the pages' words (catalogues) and their script",
	"GET /display/round/{round}":          "the display page's HTML; what it shows is /api/display/round/{round}",
	"GET /standings/{tournament}":         "the standings page's HTML; what it shows is /api/standings/{tournament}",
	"GET /display/standings/{tournament}": "the standings display page's HTML; what it shows is /api/standings/{tournament}",
	"GET /print/":                         "the print pages' HTML (pairings, results, standings) for a signed-in arbiter; what they show is read through the API",
	"GET /words/{file}":                   "the catalogues of the audit's words in each language, the same for every hall",
	"GET /clock/enrol":                    "a clock link's page: the board or table the link makes a clock of, to the holder of its one-time code only",
	"GET /clock":                          "the tablet clock face's HTML, nothing of the hall: what it shows it hears through the device's own stream (/clocklink), with the credentials the browser keeps",
	"GET /clockface/{file}":               "the clock face's script and style, the same for every hall",
	"GET /clockface/wasm.json":            "the names (content hashes) of the current WebAssembly and its loader, the same for every hall",
	"GET /assets/{file}":                  "the device library compiled to WebAssembly and its loader, the same for every hall",
	"GET /clocklink":                      "a clock's ClockLink over WebSocket, for a device's token only (refused to any other), which hears only the board the hall assigned it: a device's stream, no reader's path",
}

// sectionHallWithByes is a round of sections A and B, each with a board
// (players "Alpha, ..." and "Bravo, ...") and a bye, both boards started
// with a move, section B's game over (1-0).
type readHall struct {
	h        *halltest.Hall
	web      *web
	round    string
	a, b     *pb.Board
	markersB []string // what only section B holds: its board's id, its players' names
}

func startReadHall(t *testing.T, opts ...halltest.Option) *readHall {
	t.Helper()
	h := halltest.Start(t, opts...)
	arb, ctx := h.Arbiter(t)
	if _, err := arb.CreateTournament(ctx, &pb.CreateTournamentRequest{Name: "Open", DefaultConfig: &pb.ClockConfig{TimeControl: "90m+30s"}}); err != nil {
		t.Fatal(err)
	}
	csv := "Round,Section,Board,White,Black,Result\n" +
		"1,A,1,\"Alpha, Wanda\",\"Alpha, Bert\",\n" +
		"1,B,1,\"Bravo, Wanda\",\"Bravo, Bert\",\n" +
		"1,A,,\"Alpha, Byer\",bye,H\n" +
		"1,B,,\"Bravo, Byer\",bye,H\n"
	imp, err := arb.ImportRound(ctx, &pb.ImportRoundRequest{Tournament: "Open", Content: []byte(csv)})
	if err != nil {
		t.Fatal(err)
	}
	rh := &readHall{h: h, round: imp.GetRound().GetRoundId()}
	for _, b := range imp.GetBoards() {
		dev := "CLK-" + b.GetSection()
		if _, err := arb.AssignDevice(ctx, &pb.AssignDeviceRequest{BoardId: b.GetBoardId(), DeviceId: dev}); err != nil {
			t.Fatal(err)
		}
		if b.GetSection() == "A" {
			rh.a = b
		} else {
			rh.b = b
		}
	}
	if _, err := arb.SetPlan(ctx, &pb.SetPlanRequest{Tables: []*pb.PlanTable{{Table: 1, DeviceId: "CLK-A"}, {Table: 2, DeviceId: "CLK-B"}}}); err != nil {
		t.Fatal(err)
	}
	dA, dB := h.Device(t, "CLK-A"), h.Device(t, "CLK-B")
	if _, err := arb.StartRound(ctx, &pb.StartRoundRequest{RoundId: rh.round}); err != nil {
		t.Fatal(err)
	}
	for _, d := range []struct {
		dev interface {
			Press(rules.Side, string, string) error
		}
		san string
	}{{dA, "e4"}, {dB, "d4"}} {
		halltest.Eventually(t, 5*time.Second, func() error { return d.dev.Press(rules.White, d.san, "") })
	}
	halltest.Synced(t, dA)
	halltest.Synced(t, dB)
	r, err := arb.BoardAction(ctx, &pb.BoardActionRequest{BoardId: rh.b.GetBoardId(), WaitMs: 5000,
		Action: &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_RESULT, Result: "1-0", Termination: "normal"}})
	if err != nil || r.GetStatus() != pb.CommandStatus_COMMAND_STATUS_APPLIED {
		t.Fatalf("the result of section B's game: %v, %v", r, err)
	}
	rh.markersB = []string{rh.b.GetBoardId(), "Bravo"}
	rh.web = newWeb(t, h)
	return rh
}

// arbiterReads are every read of the Arbiter and Watch services, with the
// round and boards of rh.
func (rh *readHall) arbiterReads(t *testing.T) []readCall {
	conn := rh.h.Conn(t)
	arb, wc := pb.NewArbiterClient(conn), pb.NewWatchClient(conn)
	unary := func(name string, f func(ctx context.Context) (proto.Message, error)) readCall {
		return readCall{name, func(ctx context.Context) (string, error) {
			m, err := f(ctx)
			if err != nil {
				return "", err
			}
			b, err := protojson.Marshal(m)
			return string(b), err
		}}
	}
	first := func(name string, open func(ctx context.Context) (grpc.ServerStreamingClient[pb.WatchUpdate], error)) readCall {
		return unary(name, func(ctx context.Context) (proto.Message, error) {
			ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
			defer cancel()
			s, err := open(ctx)
			if err != nil {
				return nil, err
			}
			return s.Recv()
		})
	}
	exp := func(name string, f pb.ExportFormat, lichess bool) readCall {
		return readCall{name, func(ctx context.Context) (string, error) {
			r, err := arb.ExportRound(ctx, &pb.ExportRoundRequest{RoundId: rh.round, Format: f, PgnRoundAndBoard: lichess})
			return string(r.GetContent()), err // the file as text
		}}
	}
	a, b := rh.a.GetBoardId(), rh.b.GetBoardId()
	return []readCall{
		unary("ListBoards", func(ctx context.Context) (proto.Message, error) { return arb.ListBoards(ctx, &pb.ListBoardsRequest{}) }),
		unary("ListBoards round", func(ctx context.Context) (proto.Message, error) {
			return arb.ListBoards(ctx, &pb.ListBoardsRequest{RoundId: rh.round})
		}),
		unary("ListBoards section B", func(ctx context.Context) (proto.Message, error) {
			return arb.ListBoards(ctx, &pb.ListBoardsRequest{Section: "B"})
		}),
		unary("GetBoard A", func(ctx context.Context) (proto.Message, error) {
			return arb.GetBoard(ctx, &pb.GetBoardRequest{BoardId: a})
		}),
		unary("GetBoard B", func(ctx context.Context) (proto.Message, error) {
			return arb.GetBoard(ctx, &pb.GetBoardRequest{BoardId: b})
		}),
		unary("AuditLog A", func(ctx context.Context) (proto.Message, error) {
			return arb.AuditLog(ctx, &pb.AuditLogRequest{BoardId: a})
		}),
		unary("AuditLog B", func(ctx context.Context) (proto.Message, error) {
			return arb.AuditLog(ctx, &pb.AuditLogRequest{BoardId: b})
		}),
		unary("ListDevices", func(ctx context.Context) (proto.Message, error) {
			return arb.ListDevices(ctx, &pb.ListDevicesRequest{})
		}),
		unary("ListTokens", func(ctx context.Context) (proto.Message, error) { return arb.ListTokens(ctx, &pb.ListTokensRequest{}) }),
		unary("DescribeTimeControl", func(ctx context.Context) (proto.Message, error) {
			return arb.DescribeTimeControl(ctx, &pb.DescribeTimeControlRequest{TimeControl: "90m+30s"})
		}),
		unary("ListTournaments", func(ctx context.Context) (proto.Message, error) {
			return arb.ListTournaments(ctx, &pb.ListTournamentsRequest{})
		}),
		unary("ListRounds", func(ctx context.Context) (proto.Message, error) { return arb.ListRounds(ctx, &pb.ListRoundsRequest{}) }),
		unary("GetRound", func(ctx context.Context) (proto.Message, error) {
			return arb.GetRound(ctx, &pb.GetRoundRequest{RoundId: rh.round})
		}),
		exp("ExportRound CSV", pb.ExportFormat_EXPORT_FORMAT_CSV, false),
		exp("ExportRound PGN", pb.ExportFormat_EXPORT_FORMAT_PGN, false),
		exp("ExportRound PGN lichess", pb.ExportFormat_EXPORT_FORMAT_PGN, true),
		exp("ExportRound TRF", pb.ExportFormat_EXPORT_FORMAT_TRF, false),
		unary("Standings", func(ctx context.Context) (proto.Message, error) {
			return arb.Standings(ctx, &pb.StandingsRequest{Tournament: "Open"})
		}),
		unary("GetPlan", func(ctx context.Context) (proto.Message, error) { return arb.GetPlan(ctx, &pb.GetPlanRequest{}) }),
		unary("ListBroadcasts", func(ctx context.Context) (proto.Message, error) {
			return arb.ListBroadcasts(ctx, &pb.ListBroadcastsRequest{Tournament: "Open"})
		}),
		first("WatchHall", func(ctx context.Context) (grpc.ServerStreamingClient[pb.WatchUpdate], error) {
			return wc.WatchHall(ctx, &pb.WatchHallRequest{})
		}),
		first("WatchRound", func(ctx context.Context) (grpc.ServerStreamingClient[pb.WatchUpdate], error) {
			return wc.WatchRound(ctx, &pb.WatchRoundRequest{RoundId: rh.round})
		}),
		first("WatchBoard A", func(ctx context.Context) (grpc.ServerStreamingClient[pb.WatchUpdate], error) {
			return wc.WatchBoard(ctx, &pb.WatchBoardRequest{BoardId: a})
		}),
		first("WatchBoard B", func(ctx context.Context) (grpc.ServerStreamingClient[pb.WatchUpdate], error) {
			return wc.WatchBoard(ctx, &pb.WatchBoardRequest{BoardId: b})
		}),
	}
}

// httpReads are every HTTP read of the hall, by route, as token reads them
// (a bearer token; the session cookie reads the same, sessions.go).
func (rh *readHall) httpReads(token string) map[string][]readCall {
	get := func(path string) readCall {
		return readCall{"GET " + path, func(ctx context.Context) (string, error) {
			return rh.httpGet(ctx, path, token)
		}}
	}
	r, a, b := rh.round, rh.a.GetBoardId(), rh.b.GetBoardId()
	bridge := func(method, body string) readCall {
		return readCall{"POST /api/arbiter/" + method, func(ctx context.Context) (string, error) {
			code, resp := rh.web.call(method, body, map[string]string{"Authorization": "Bearer " + token})
			if code != http.StatusOK {
				return "", fmt.Errorf("HTTP %d: %s", code, resp)
			}
			return resp, nil
		}}
	}
	return map[string][]readCall{
		"GET /api/boards":                      {get("/api/boards"), get("/api/boards?round=" + r)},
		"GET /api/watch":                       {get("/api/watch"), get("/api/watch?round=" + r), get("/api/watch?board=" + a), get("/api/watch?board=" + b)},
		"GET /api/broadcasts":                  {get("/api/broadcasts")},
		"GET /api/backup":                      {get("/api/backup")},
		"GET /api/pgn/round/{round}":           {get("/api/pgn/round/" + r)},
		"GET /api/pgn/board/{board}":           {get("/api/pgn/board/" + a), get("/api/pgn/board/" + b)},
		"GET /api/display/round/{round}":       {get("/api/display/round/" + r)},
		"GET /api/display/round/{round}/live":  {get("/api/display/round/" + r + "/live")},
		"GET /api/standings/{tournament}":      {get("/api/standings/Open")},
		"GET /api/standings/{tournament}/live": {get("/api/standings/Open/live")},
		"POST /api/arbiter/{method}": {
			bridge("ListRounds", "{}"), bridge("GetBoard", `{"boardId":"`+b+`"}`),
			bridge("ExportRound", `{"roundId":"`+r+`","format":"EXPORT_FORMAT_CSV"}`),
			bridge("Standings", `{"tournament":"Open"}`),
		},
	}
}

// httpGet reads a path with a bearer token: the body, or for a stream of
// server-sent events its first event; an error for a refusal.
func (rh *readHall) httpGet(ctx context.Context, path, token string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, "GET", rh.web.base+path, nil)
	if err != nil {
		return "", err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := rh.web.client.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	var body strings.Builder
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	sse := strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream")
	for sc.Scan() {
		body.WriteString(sc.Text() + "\n")
		if sse && strings.HasPrefix(sc.Text(), "data:") {
			break // the first event
		}
	}
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("HTTP %d: %s", resp.StatusCode, body.String())
	}
	return body.String(), nil
}

// A section-A arbiter's token, on every read path, finds nothing of
// section B: not its board (NOT_FOUND, as a board that does not exist,
// in the same words), not its players, its bye or its result (the
// round's tally counts section A's board and bye only); the TRF, which
// holds the whole round, is refused.
func TestSectionTokenReadsNothingOfAnotherSection(t *testing.T) {
	t.Parallel()
	rh := startReadHall(t)
	anna := rh.h.Token(t, pb.Role_ROLE_ARBITER, "Anna", "", "A")
	ctx := halltest.Ctx(context.Background(), anna)
	unknown := func(err error, board string) bool {
		return status.Code(err) == codes.NotFound && strings.Contains(err.Error(), `no such board "`+board+`"`)
	}
	refused := map[string]func(error) bool{
		"GetBoard B":      func(err error) bool { return unknown(err, rh.b.GetBoardId()) },
		"AuditLog B":      func(err error) bool { return unknown(err, rh.b.GetBoardId()) },
		"WatchBoard B":    func(err error) bool { return unknown(err, rh.b.GetBoardId()) },
		"ListTokens":      func(err error) bool { return status.Code(err) == codes.PermissionDenied },
		"ExportRound TRF": func(err error) bool { return status.Code(err) == codes.PermissionDenied },
		"GET /api/backup": func(err error) bool { return strings.Contains(err.Error(), "HTTP 403") },
		"GET /api/watch?board=" + rh.b.GetBoardId(): func(err error) bool { return strings.Contains(err.Error(), "HTTP 404") },
		"GET /api/pgn/board/" + rh.b.GetBoardId():   func(err error) bool { return strings.Contains(err.Error(), "HTTP 404") },
		"POST /api/arbiter/GetBoard":                func(err error) bool { return strings.Contains(err.Error(), "HTTP 404") },
	}
	calls := rh.arbiterReads(t)
	for _, cs := range rh.httpReads(anna) {
		calls = append(calls, cs...)
	}
	for _, c := range calls {
		got, err := c.do(ctx)
		if isRefused, ok := refused[c.name]; ok {
			if err == nil || !isRefused(err) {
				t.Errorf("%s as section A: %v (%.200s), want it refused", c.name, err, got)
			}
			if err != nil {
				got = err.Error()
				got = strings.ReplaceAll(got, rh.b.GetBoardId(), "<the id asked for>")
			}
		} else if err != nil {
			t.Errorf("%s as section A: %v", c.name, err)
			continue
		}
		for _, m := range rh.markersB {
			if strings.Contains(got, m) {
				t.Errorf("%s as section A shows %q of section B:\n%.600s", c.name, m, got)
			}
		}
	}
	// The round as section A sees it: one board, playing; one bye.
	r, err := pb.NewArbiterClient(rh.h.Conn(t)).GetRound(ctx, &pb.GetRoundRequest{RoundId: rh.round})
	if err != nil {
		t.Fatal(err)
	}
	if tl := r.GetTally(); tl.GetBoards() != 1 || tl.GetFinished() != 0 || tl.GetWhitePoints() != 0 || tl.GetByes() != 1 ||
		r.GetStatus() != pb.RoundStatus_ROUND_STATUS_PLAYING {
		t.Errorf("the round as section A: %v %v; want its one board playing, its one bye, nothing finished", r.GetStatus(), tl)
	}
	// The chief sees both sections (the markers are there to be found).
	chief, err := pb.NewArbiterClient(rh.h.Conn(t)).ExportRound(halltest.Ctx(context.Background(), rh.h.Chief),
		&pb.ExportRoundRequest{RoundId: rh.round, Format: pb.ExportFormat_EXPORT_FORMAT_CSV})
	if err != nil || !strings.Contains(string(chief.GetContent()), "Bravo") {
		t.Errorf("the chief's CSV: %v, %s; want section B's rows", err, chief.GetContent())
	}
}

// The tables above name every method of the Arbiter and Watch services
// and every GET route of the server: a new one must say what it shows.
func TestReadPathsComplete(t *testing.T) {
	t.Parallel()
	rh := &readHall{h: halltest.Start(t), a: &pb.Board{}, b: &pb.Board{}}
	named := map[string]bool{}
	for _, c := range rh.arbiterReads(t) {
		named[strings.Fields(c.name)[0]] = true
	}
	for _, m := range pb.Arbiter_ServiceDesc.Methods {
		if !named[m.MethodName] && !arbiterWrites[m.MethodName] {
			t.Errorf("Arbiter/%s is neither a read of arbiterReads nor in arbiterWrites", m.MethodName)
		}
	}
	for _, s := range pb.Watch_ServiceDesc.Streams {
		if !named[s.StreamName] {
			t.Errorf("Watch/%s is not a read of arbiterReads", s.StreamName)
		}
	}
	reads := rh.httpReads("")
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Dir(file)
	// A route is written whole ("GET /x") or as its method and a
	// package's constant ("GET "+wslink.Path), read from that package.
	route := regexp.MustCompile(`\.Handle(?:Func)?\("((?:GET|POST|DELETE) )(?:([^"]+)"|"\s*\+\s*(\w+)\.(\w+))`)
	var found []string
	for _, dir := range []string{".", "arbiter", "auth", "broadcast", "dashboard", "fanout", "enrol", "clockface", "../internal/clockwasm"} {
		files, _ := filepath.Glob(filepath.Join(root, dir, "*.go"))
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range route.FindAllStringSubmatch(string(src), -1) {
				path := m[2]
				if m[3] != "" {
					path = constant(t, filepath.Join(root, m[3]), m[4])
				}
				found = append(found, m[1]+path)
			}
		}
	}
	sort.Strings(found)
	if len(found) < 10 {
		t.Fatalf("found only %d routes in the server's source: %v", len(found), found)
	}
	for _, r := range found {
		_, read := reads[r]
		_, other := routesNotReads[r]
		if strings.HasPrefix(r, "GET ") && !read && !other {
			t.Errorf("route %q is neither a read of httpReads nor in routesNotReads", r)
		}
	}
}

// constant is the value of the string constant name declared in the
// package in dir.
func constant(t *testing.T, dir, name string) string {
	t.Helper()
	decl := regexp.MustCompile(`\b` + regexp.QuoteMeta(name) + `\s*=\s*"([^"]*)"`)
	files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if m := decl.FindSubmatch(src); m != nil && !strings.HasSuffix(f, "_test.go") {
			return string(m[1])
		}
	}
	t.Fatalf("a route names %s.%s, which %s does not declare as a string constant", filepath.Base(dir), name, dir)
	return ""
}

// A broadcast token, under a broadcast delay, sees on every read path the
// hall as it was the delay ago: a round whose games all started and one
// of which ended within the delay shows no move and no result anywhere —
// not "complete" in the rounds' tallies while its PGN says "*" — until the
// delay has passed; then it does. (A fake clock: nothing waits for real.)
func TestBroadcastTokenReadsEveryPathDelayed(t *testing.T) {
	t.Parallel()
	clock := mono.NewFake(time.Now())
	rh := startReadHall(t, halltest.WithOptions(server.Options{Clock: clock, BroadcastDelay: 15 * time.Minute, WatchInterval: -1}),
		halltest.WallClock())
	feed := rh.h.Token(t, pb.Role_ROLE_BROADCAST, "relay", "")
	ctx := halltest.Ctx(context.Background(), feed)
	// What a broadcast token may not read at all.
	refused := map[string]bool{"AuditLog A": true, "AuditLog B": true, "ListDevices": true, "ListTokens": true, "ExportRound CSV": true,
		"ExportRound PGN": true, "ExportRound PGN lichess": true, "ExportRound TRF": true, "GetPlan": true, "ListBroadcasts": true,
		"GET /api/broadcasts": true, "GET /api/backup": true, "POST /api/arbiter/ExportRound": true,
		// Standings are the arbiters' live table: the public's is a feed of its own, behind the delay.
		"Standings": true, "POST /api/arbiter/Standings": true}
	calls := rh.arbiterReads(t)
	for _, cs := range rh.httpReads(feed) {
		calls = append(calls, cs...)
	}
	// Live, the arbiters see both moves and the result at once.
	live := regexp.MustCompile(`BOARD_STATUS_FINISHED|ROUND_STATUS_COMPLETE|"result":\s*"1-0"|\[Result "1-0"\]|"whitePoints"|"moves":|\b[ed]4\b|"finished":\s*[1-9]|"points":\s*"1"`)
	read := func(when string) map[string]string {
		out := map[string]string{}
		for _, c := range calls {
			got, err := c.do(ctx)
			if refused[c.name] {
				if err == nil {
					t.Errorf("%s as a broadcast token: answered, want it refused", c.name)
				}
				continue
			}
			if err != nil {
				t.Errorf("%s as a broadcast token %s: %v", c.name, when, err)
				continue
			}
			out[c.name] = got
		}
		return out
	}
	clock.Settle()
	for name, got := range read("within the delay") {
		if m := live.FindString(got); m != "" {
			t.Errorf("%s as a broadcast token within the delay shows %q:\n%.600s", name, m, got)
		}
	}
	// The arbiters saw it all at once (so the test looks for what is there).
	chief, err := pb.NewArbiterClient(rh.h.Conn(t)).GetRound(halltest.Ctx(context.Background(), rh.h.Chief), &pb.GetRoundRequest{RoundId: rh.round})
	if err != nil || chief.GetTally().GetFinished() != 1 {
		t.Fatalf("the chief's round: %v, %v; want section B's game finished", chief, err)
	}
	clock.Advance(15*time.Minute + time.Second)
	halltest.Eventually(t, 5*time.Second, func() error {
		r, err := pb.NewArbiterClient(rh.h.Conn(t)).GetRound(ctx, &pb.GetRoundRequest{RoundId: rh.round})
		if err != nil || r.GetTally().GetFinished() != 1 {
			return fmt.Errorf("the round as a broadcast token after the delay: %v, %v; want one game finished", r.GetTally(), err)
		}
		return nil
	})
	after := read("after the delay")
	for _, name := range []string{"GetBoard B", "ListRounds", "GET /api/pgn/round/" + rh.round, "GET /api/display/round/" + rh.round, "GET /api/boards", "GET /api/standings/Open"} {
		if !live.MatchString(after[name]) {
			t.Errorf("%s as a broadcast token after the delay shows no move nor result:\n%.600s", name, after[name])
		}
	}
}
