package clockdev

import (
	"log/slog"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/chesshall/hallclock/internal/mono"
	"github.com/chesshall/hallclock/internal/testkit/fuzzframe"
	hallv1 "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
)

// FuzzServerMessages feeds a clock whatever a hall (or an attacker in its
// place) might send on ClockLink — welcomes, assignments with any history,
// acknowledgements of any numbers, commands of any action — between the
// clock's own presses. The clock must not panic, its outbox must stay
// contiguous (pending events numbered up to NextSeq-1, none at or below a
// number it gave up), and its state must stay what its history folds to.
func FuzzServerMessages(f *testing.F) {
	asg := &hallv1.ServerMessage{Msg: &hallv1.ServerMessage_Assignment{Assignment: &hallv1.Assignment{BoardId: "b1",
		Config: &hallv1.ClockConfig{TimeControl: "180+2"}}}}
	welcome := &hallv1.ServerMessage{Msg: &hallv1.ServerMessage_Welcome{Welcome: &hallv1.Welcome{AckedSeq: 0, HeartbeatIntervalMs: 1000}}}
	cmd := &hallv1.ServerMessage{Msg: &hallv1.ServerMessage_Command{Command: &hallv1.Command{CommandId: "c1",
		Action: &hallv1.ClockAction{Kind: hallv1.ActionKind_ACTION_KIND_START}}}}
	ack := &hallv1.ServerMessage{Msg: &hallv1.ServerMessage_Ack{Ack: &hallv1.Ack{UpToSeq: 1, Rejected: []*hallv1.Rejection{{Seq: 1, Code: "x"}}}}}
	f.Add(fuzzframe.Join(welcome, asg, cmd, ack))
	f.Add(fuzzframe.Join(asg, welcome, &hallv1.ServerMessage{Msg: &hallv1.ServerMessage_Welcome{Welcome: &hallv1.Welcome{AckedSeq: 1 << 62}}}))
	f.Add([]byte{0xff, 0x00, 0x01})
	f.Fuzz(func(t *testing.T, data []byte) {
		clk := mono.NewFake(time.Unix(1_700_000_000, 0))
		d, err := New(Config{DeviceID: "CLK-F", Token: "t", Target: "passthrough:///nowhere", DialOptions: []grpc.DialOption{grpc.WithTransportCredentials(insecure.NewCredentials())}, Clock: clk,
			Logger: slog.New(slog.DiscardHandler), NoticeBuffer: 1})
		if err != nil {
			t.Fatal(err)
		}
		defer d.Close()
		s := &session{}
		for _, m := range fuzzframe.Split(data, func() *hallv1.ServerMessage { return &hallv1.ServerMessage{} }, 32) {
			d.mu.Lock()
			d.handleLocked(s, m)
			d.mu.Unlock()
			clk.Advance(1500 * time.Millisecond)
			_ = d.Press(rules.White, "", "") // the clock goes on being used
			_ = d.Press(rules.Black, "", "")
			checkDevice(t, d)
		}
	})
}

func checkDevice(t *testing.T, d *Device) {
	t.Helper()
	d.mu.Lock()
	defer d.mu.Unlock()
	p := d.outbox.Pending()
	next := d.outbox.NextSeq()
	for i, ev := range p {
		if want := next - uint64(len(p)) + uint64(i); ev.GetSeq() != want {
			t.Fatalf("pending seqs %v are not contiguous up to NextSeq-1 (%d)", seqsOf(p), next-1)
		}
	}
	if next == 0 {
		t.Fatal("NextSeq is 0")
	}
	if d.asg != nil {
		_ = d.st.Project(d.boardNowLocked())
	}
}

func seqsOf(evs []*hallv1.DeviceEvent) []uint64 {
	out := make([]uint64, len(evs))
	for i, e := range evs {
		out[i] = e.GetSeq()
	}
	return out
}
