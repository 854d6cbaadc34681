package clockdev

import (
	"slices"
	"sync"
	"testing"
	"time"

	hallv1 "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
)

// OnAck reports every acknowledged event once, in order, with its latency
// from recording to acknowledgement, and the server's rejections.
func TestOnAckReportsEachAcknowledgedEventOnce(t *testing.T) {
	h := newFakeHall(t)
	h.set(func(h *fakeHall) {
		h.ackDelay = 20 * time.Millisecond
		h.reject = func(ev *hallv1.DeviceEvent) string {
			if ev.GetSeq() == 3 {
				return "not_to_move"
			}
			return ""
		}
	})
	var mu sync.Mutex
	var got []Acked
	d := testDevice(t, h, Config{
		Outbox: assignedOutbox(t, testAssignment("B1", "300")),
		OnAck:  func(a Acked) { mu.Lock(); got = append(got, a); mu.Unlock() },
	})
	if err := d.Do(rules.Event{Kind: rules.KindStart}); err != nil {
		t.Fatal(err)
	}
	for _, s := range []rules.Side{rules.White, rules.Black} {
		if err := d.Press(s, "", ""); err != nil {
			t.Fatal(err)
		}
	}
	waitFor(t, "three acknowledgements", func() bool { mu.Lock(); defer mu.Unlock(); return len(got) == 3 })
	mu.Lock()
	defer mu.Unlock()
	var seqs []uint64
	for _, a := range got {
		seqs = append(seqs, a.Event.GetSeq())
		if a.Latency < 20*time.Millisecond || a.Latency > 5*time.Second {
			t.Errorf("seq %d: latency %v, want at least the fake's 20ms commit delay", a.Event.GetSeq(), a.Latency)
		}
		if rejected := a.Rejection != nil; rejected != (a.Event.GetSeq() == 3) {
			t.Errorf("seq %d: rejection %v, want one only for seq 3", a.Event.GetSeq(), a.Rejection)
		}
	}
	if !slices.Equal(seqs, []uint64{1, 2, 3}) {
		t.Errorf("OnAck seqs %v, want [1 2 3]", seqs)
	}
}
