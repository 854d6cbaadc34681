package server_test

import (
	"context"
	"math"
	"net/http"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/chesshall/hallclock/formats/words"
	"github.com/chesshall/hallclock/internal/testkit/halltest"
	"github.com/chesshall/hallclock/internal/wirewords"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// Every bad input is refused as INVALID_ARGUMENT (or
// OUT_OF_RANGE) naming the field; never INTERNAL, never stored as a
// default.
func TestBadRequestsNameTheField(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t)
	b := h.Round(t, "180+2", 1)[0]
	arb, ctx := h.Arbiter(t)
	tc := func(regs *pb.Regulations) *pb.ClockConfig {
		return &pb.ClockConfig{TimeControl: "180+2", Regulations: regs}
	}
	for _, c := range []struct {
		name  string
		call  func() error
		code  codes.Code
		field string
	}{
		{"NaN scoring", func() error {
			_, err := arb.CreateTournament(ctx, &pb.CreateTournamentRequest{Name: "nan", DefaultConfig: tc(&pb.Regulations{Scoring: &pb.Scoring{Win: math.NaN()}})})
			return err
		}, codes.InvalidArgument, "scoring.win"},
		{"infinite scoring", func() error {
			_, err := arb.CreateTournament(ctx, &pb.CreateTournamentRequest{Name: "inf", DefaultConfig: tc(&pb.Regulations{Scoring: &pb.Scoring{Loss: math.Inf(-1)}})})
			return err
		}, codes.InvalidArgument, "scoring.loss"},
		{"unknown supervision", func() error {
			_, err := arb.CreateTournament(ctx, &pb.CreateTournamentRequest{Name: "sup", DefaultConfig: tc(&pb.Regulations{Supervision: 7})})
			return err
		}, codes.InvalidArgument, "supervision"},
		{"unknown period change", func() error {
			_, err := arb.CreateRound(ctx, &pb.CreateRoundRequest{TournamentId: "t-x", Number: 2, Config: tc(&pb.Regulations{PeriodChange: 9})})
			return err
		}, codes.InvalidArgument, "period_change"},
		{"negative penalty", func() error {
			p := int64(-5)
			_, err := arb.CreateTournament(ctx, &pb.CreateTournamentRequest{Name: "pen", DefaultConfig: tc(&pb.Regulations{IllegalMovePenaltyMs: &p})})
			return err
		}, codes.InvalidArgument, "illegal_move_penalty_ms"},
		{"after_seq above 2^63", func() error {
			_, err := arb.AuditLog(ctx, &pb.AuditLogRequest{BoardId: b.GetBoardId(), AfterSeq: 1 << 63})
			return err
		}, codes.OutOfRange, "after_seq"},
		{"unknown side", func() error {
			_, err := arb.BoardAction(ctx, &pb.BoardActionRequest{BoardId: b.GetBoardId(), Action: &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_PAUSE, Side: 9}, WaitMs: -1})
			return err
		}, codes.InvalidArgument, "action.side"},
		{"unknown decision", func() error {
			_, err := arb.BoardAction(ctx, &pb.BoardActionRequest{BoardId: b.GetBoardId(), WaitMs: -1,
				Action: &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_QUICKPLAY_CLAIM, Side: pb.Side_SIDE_WHITE, Decision: 8}})
			return err
		}, codes.InvalidArgument, "action.decision"},
		{"unknown role", func() error {
			_, err := arb.IssueToken(ctx, &pb.IssueTokenRequest{Role: 12, Label: "x"})
			return err
		}, codes.InvalidArgument, "role"},
		{"long label", func() error {
			_, err := arb.IssueToken(ctx, &pb.IssueTokenRequest{Role: pb.Role_ROLE_BROADCAST, Label: strings.Repeat("l", 201)})
			return err
		}, codes.InvalidArgument, "label"},
		{"long player name", func() error {
			_, err := arb.AddBoard(ctx, &pb.AddBoardRequest{RoundId: b.GetRoundId(), Number: 9, White: &pb.Player{Name: strings.Repeat("n", 201)}, Black: &pb.Player{Name: "B"}})
			return err
		}, codes.InvalidArgument, "white.name"},
		{"starting rank beyond TRF's", func() error {
			_, err := arb.AddBoard(ctx, &pb.AddBoardRequest{RoundId: b.GetRoundId(), Number: 9, White: &pb.Player{Name: "W", StartRank: 60000}, Black: &pb.Player{Name: "B"}})
			return err
		}, codes.InvalidArgument, "white.start_rank"},
		{"long federation", func() error {
			_, err := arb.AddBoard(ctx, &pb.AddBoardRequest{RoundId: b.GetRoundId(), Number: 9, White: &pb.Player{Name: "W"}, Black: &pb.Player{Name: "B", Federation: "Norwegian Chess Federation"}})
			return err
		}, codes.InvalidArgument, "black.federation"},
		{"control character in a name", func() error {
			_, err := arb.CreateTournament(ctx, &pb.CreateTournamentRequest{Name: "Open\x00\n", DefaultConfig: tc(nil)})
			return err
		}, codes.InvalidArgument, "name"},
		{"long device id", func() error {
			_, err := arb.AssignDevice(ctx, &pb.AssignDeviceRequest{BoardId: b.GetBoardId(), DeviceId: strings.Repeat("d", 65)})
			return err
		}, codes.InvalidArgument, "device_id"},
	} {
		err := c.call()
		if status.Code(err) != c.code || !strings.Contains(status.Convert(err).Message(), c.field) {
			t.Errorf("%s: %v; want %s naming %s", c.name, err, c.code, c.field)
		}
	}
	// Nothing of it was stored.
	ts, err := h.Store.Tournaments(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(ts) != 1 {
		t.Errorf("the hall has %d tournaments; want only the round's (every bad one refused)", len(ts))
	}
}

// Device messages with bad readings end the stream with
// INVALID_ARGUMENT (or OUT_OF_RANGE) naming the field.
func TestBadDeviceMessagesNameTheField(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t)
	b := h.Round(t, "180+2", 1)[0]
	dev := b.GetDeviceId()
	for _, c := range []struct {
		name  string
		msg   *pb.DeviceMessage
		code  codes.Code
		field string
	}{
		{"NaN drift", &pb.DeviceMessage{Msg: &pb.DeviceMessage_Heartbeat{Heartbeat: &pb.Heartbeat{DriftPpm: math.NaN()}}}, codes.InvalidArgument, "heartbeat.drift_ppm"},
		{"infinite drift", &pb.DeviceMessage{Msg: &pb.DeviceMessage_Heartbeat{Heartbeat: &pb.Heartbeat{DriftPpm: math.Inf(1)}}}, codes.InvalidArgument, "heartbeat.drift_ppm"},
		{"negative displayed time", &pb.DeviceMessage{Msg: &pb.DeviceMessage_Heartbeat{Heartbeat: &pb.Heartbeat{WhiteMs: -1}}}, codes.InvalidArgument, "heartbeat.white_ms"},
		{"negative board time", &pb.DeviceMessage{Msg: &pb.DeviceMessage_Heartbeat{Heartbeat: &pb.Heartbeat{BoardTMs: -40}}}, codes.InvalidArgument, "heartbeat.board_t_ms"},
		{"event seq above 2^63", &pb.DeviceMessage{Msg: &pb.DeviceMessage_Event{Event: &pb.DeviceEvent{Seq: 1<<63 + 1}}}, codes.OutOfRange, "event.seq"},
	} {
		l, _, _ := connectRaw(t, h, dev, 0, 1)
		l.send(c.msg)
		if err := l.ended(); status.Code(err) != c.code || !strings.Contains(status.Convert(err).Message(), c.field) {
			t.Errorf("%s: the stream ended with %v; want %s naming %s", c.name, err, c.code, c.field)
		}
	}
	for _, c := range []struct {
		name  string
		hello *pb.Hello
		code  codes.Code
		field string
	}{
		{"long firmware", &pb.Hello{DeviceId: dev, Firmware: strings.Repeat("f", 65)}, codes.InvalidArgument, "hello.firmware"},
		{"acked above 2^63", &pb.Hello{DeviceId: dev, LastAckedSeq: math.MaxUint64}, codes.OutOfRange, "hello.last_acked_seq"},
		{"negative clock time", &pb.Hello{DeviceId: dev, Clock: &pb.DeviceClock{BoardId: b.GetBoardId(), WhiteMs: -3}}, codes.InvalidArgument, "hello.clock.white_ms"},
	} {
		l := openRawLink(t, h, dev)
		l.send(&pb.DeviceMessage{Msg: &pb.DeviceMessage_Hello{Hello: c.hello}})
		if err := l.ended(); status.Code(err) != c.code || !strings.Contains(status.Convert(err).Message(), c.field) {
			t.Errorf("%s: the stream ended with %v; want %s naming %s", c.name, err, c.code, c.field)
		}
	}
}

// An event whose content is malformed (a board id too long to
// be one) is refused and acknowledged, not applied, and the stream goes on.
func TestMalformedEventIsRefusedAndAcknowledged(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t)
	b := h.Round(t, "180+2", 1)[0]
	l, _, _ := connectRaw(t, h, b.GetDeviceId(), 0, 1)
	l.event(1, strings.Repeat("b", 500), startAction(0), 180_000, 180_000)
	a := l.ack()
	if a.GetUpToSeq() != 1 || len(a.GetRejected()) != 1 || !strings.Contains(a.GetRejected()[0].GetMessage(), "event.board_id") {
		t.Errorf("ack of a malformed event = %v; want seq 1 acknowledged with a rejection naming event.board_id", a)
	}
}

// A Hello naming a board the device does not keep is refused:
// the claim is audited on that board, and the device is told what it
// keeps (the stream goes on: a device reassigned while away is not locked
// out).
func TestHelloNamingAnotherBoardIsRefused(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t)
	bs := h.Round(t, "180+2", 2)
	mine, theirs := bs[0], bs[1]
	l := openRawLink(t, h, mine.GetDeviceId())
	l.send(&pb.DeviceMessage{Msg: &pb.DeviceMessage_Hello{Hello: &pb.Hello{DeviceId: mine.GetDeviceId(),
		Clock: &pb.DeviceClock{BoardId: theirs.GetBoardId(), TMs: 5000, WhiteMs: 1, BlackMs: 1}}}})
	l.welcome()
	if a := l.assignment(); a.GetBoardId() != mine.GetBoardId() {
		t.Errorf("assignment after the claim = board %q, want the device's own %q", a.GetBoardId(), mine.GetBoardId())
	}
	arb, ctx := h.Arbiter(t)
	log, err := arb.AuditLog(ctx, &pb.AuditLogRequest{BoardId: theirs.GetBoardId()})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, e := range log.GetEntries() {
		if strings.HasPrefix(e.GetOutcome(), "refused") && strings.Contains(e.GetOutcome(), mine.GetDeviceId()) {
			found = true
			// the refusal is a kind, read in the reader's language
			if ko := words.Render("ko", wirewords.Message(e.GetWords())); e.GetWords().GetKind() != "refused.hello_board" || !strings.Contains(ko, "거부됨") || !strings.Contains(ko, theirs.GetBoardId()) {
				t.Errorf("the refusal's words: kind %q, in Korean %q; want refused.hello_board naming board %s", e.GetWords().GetKind(), ko, theirs.GetBoardId())
			}
		}
	}
	if !found {
		t.Errorf("the other board's audit log has no refusal of the claim: %v", log.GetEntries())
	}
	if got := fetchBoard(t, h, theirs.GetBoardId()); got.GetDeviceId() != theirs.GetDeviceId() || got.GetState().GetStatus() != pb.BoardStatus_BOARD_STATUS_WAITING {
		t.Errorf("the claimed board changed: %v", got)
	}
}

// Resuming a watch after a change the hall never made is
// OUT_OF_RANGE at once, not a silent wait.
func TestWatchResumeBeyondTheHeadIsOutOfRange(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t)
	b := h.Round(t, "180+2", 1)[0]
	for _, open := range []opener{watchHall(1 << 40), watchBoard(b.GetBoardId(), 1<<40), watchRound(b.GetRoundId(), 1<<40)} {
		w := openWatch(t, h, h.Chief, open)
		if err := w.end(t, 3*time.Second); status.Code(err) != codes.OutOfRange || !strings.Contains(err.Error(), "from_seq") {
			t.Errorf("resume beyond the head: %v, want OUT_OF_RANGE naming from_seq", err)
		}
	}
}

// The SSE feed answers 404 for a board or round that does not
// exist (as gRPC does), and 400 for a Last-Event-ID beyond the head or not
// an event id; it resumes from one it sent ("0.1").
func TestSSEUnknownScopeAndResumeBeyondTheHead(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t)
	h.Round(t, "180+2", 1)
	base := h.HTTP(t)
	for _, c := range []struct {
		path, lastID string
		want         int
	}{
		{"/api/watch?board=b-nosuchboard", "", 404},
		{"/api/watch?round=r-nosuchround", "", 404},
		{"/api/watch", "99999999", 400},
		{"/api/watch", "99999999.1", 400},
		{"/api/watch", "1.x", 400},
		{"/api/watch", "0.1", 200}, // a state after changes without a seq
	} {
		req, _ := http.NewRequest("GET", base+c.path, nil)
		req.Header.Set("Authorization", "Bearer "+h.Chief)
		if c.lastID != "" {
			req.Header.Set("Last-Event-ID", c.lastID)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		resp, err := http.DefaultClient.Do(req.WithContext(ctx))
		if err != nil {
			cancel()
			t.Fatal(err)
		}
		resp.Body.Close()
		cancel()
		if resp.StatusCode != c.want {
			t.Errorf("GET %s (Last-Event-ID %q) = %d, want %d", c.path, c.lastID, resp.StatusCode, c.want)
		}
	}
}
