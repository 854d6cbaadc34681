package server_test

import (
	"context"
	"errors"
	"io"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/chesshall/hallclock/internal/testkit/fuzzframe"
	"github.com/chesshall/hallclock/internal/testkit/halltest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// FuzzClockLink speaks ClockLink to a real hall with whatever a clock (or
// an attacker holding a clock's token) might send after its Hello: events
// of any number, board and action, heartbeats of any reading, second
// Hellos. The hall never answers INTERNAL or UNKNOWN (bad input is
// refused precisely), never panics, and keeps serving.
func FuzzClockLink(f *testing.F) {
	h := halltest.Start(f)
	b := h.Round(f, "180+2", 1)[0]
	dev := b.GetDeviceId()
	token := h.DeviceToken(f, dev)
	client := pb.NewClockLinkClient(h.Conn(f))
	arb, actx := h.Arbiter(f)

	ev := func(seq uint64, board string, a *pb.ClockAction) *pb.DeviceMessage {
		return &pb.DeviceMessage{Msg: &pb.DeviceMessage_Event{Event: &pb.DeviceEvent{Seq: seq, BoardId: board, Action: a, WhiteMs: 180000, BlackMs: 180000}}}
	}
	f.Add(fuzzframe.Join(ev(1, b.GetBoardId(), &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_START}),
		ev(2, b.GetBoardId(), &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_PRESS, Side: pb.Side_SIDE_WHITE, TMs: 1000})))
	f.Add(fuzzframe.Join(ev(7, "nope", &pb.ClockAction{Kind: 99}),
		&pb.DeviceMessage{Msg: &pb.DeviceMessage_Heartbeat{Heartbeat: &pb.Heartbeat{DriftPpm: 1e300}}}))
	f.Add(fuzzframe.Join(&pb.DeviceMessage{Msg: &pb.DeviceMessage_Hello{Hello: &pb.Hello{DeviceId: dev}}}))
	f.Add([]byte{0x03, 0x12, 0x01, 0x08})

	f.Fuzz(func(t *testing.T, data []byte) {
		ctx, cancel := context.WithTimeout(halltest.Ctx(context.Background(), token), 3*time.Second)
		defer cancel()
		stream, err := client.Connect(ctx)
		if err != nil {
			t.Fatal(err)
		}
		// Numbers continue where the hall is, so that some events are next.
		_ = stream.Send(&pb.DeviceMessage{Msg: &pb.DeviceMessage_Hello{Hello: &pb.Hello{DeviceId: dev}}})
		w, err := stream.Recv()
		if err != nil {
			t.Fatalf("no Welcome: %v", err)
		}
		base := w.GetWelcome().GetAckedSeq()
		for _, m := range fuzzframe.Split(data, func() *pb.DeviceMessage { return &pb.DeviceMessage{} }, 16) {
			if e := m.GetEvent(); e != nil {
				if e.GetSeq() < 16 {
					e.Seq += base // small numbers are relative to the hall's
				}
				// Positions are FuzzValidateFEN's business; without them
				// each run stays short, as a few-second fuzz run needs.
				if a := e.GetAction(); a != nil {
					a.Fen, a.San = "", ""
				}
			}
			if stream.Send(m) != nil {
				break
			}
		}
		_ = stream.CloseSend()
		for {
			_, err := stream.Recv()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				if c := status.Code(err); c == codes.Internal || c == codes.Unknown {
					t.Fatalf("the hall answered %v", err)
				}
				break
			}
		}
		if _, err := arb.GetBoard(actx, &pb.GetBoardRequest{BoardId: b.GetBoardId()}); err != nil {
			t.Fatalf("the hall stopped serving: %v", err)
		}
	})
}
