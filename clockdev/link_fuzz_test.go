package clockdev

import (
	"encoding/binary"
	"log/slog"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/proto"

	"github.com/chesshall/hallclock/internal/mono"
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
	f.Add(frame(welcome, asg, cmd, ack))
	f.Add(frame(asg, welcome, &hallv1.ServerMessage{Msg: &hallv1.ServerMessage_Welcome{Welcome: &hallv1.Welcome{AckedSeq: 1 << 62}}}))
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
		for _, m := range unframe(data) {
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

// frame joins messages as length-prefixed chunks (the fuzzer's input).
func frame(ms ...*hallv1.ServerMessage) []byte {
	var out []byte
	for _, m := range ms {
		b, _ := proto.Marshal(m)
		out = binary.AppendUvarint(out, uint64(len(b)))
		out = append(out, b...)
	}
	return out
}

func unframe(data []byte) []*hallv1.ServerMessage {
	var out []*hallv1.ServerMessage
	for len(data) > 0 && len(out) < 32 {
		n, k := binary.Uvarint(data)
		if k <= 0 || n > uint64(len(data)-k) {
			return out
		}
		m := &hallv1.ServerMessage{}
		if proto.Unmarshal(data[k:k+int(n)], m) == nil {
			out = append(out, m)
		}
		data = data[k+int(n):]
	}
	return out
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
