package hall

import (
	"testing"
	"time"

	"github.com/chesshall/hallclock/internal/mono"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/storage"
)

// A heartbeat, as a transport hands it to the device's session,
// allocates nothing and takes no lock a press waits on: it
// finds its board on the device's record, leaves its board time for the
// board's actor, and queues the device's record for the store at most
// every lastHeardEvery (the first heartbeat queues it).
func TestHeartbeatAllocatesNothing(t *testing.T) {
	fake := mono.NewFake(time.Unix(1_700_000_000, 0))
	h := &Hall{clock: fake}
	b := &Board{h: h}
	d := &Device{rec: storage.DeviceRecord{ID: "CLK-1"}}
	d.board.Store(b)
	s := &Session{h: h, dev: "CLK-1", info: d}
	hb := &pb.Heartbeat{BoardTMs: 1000, BatteryPct: 80}
	s.Heartbeat(hb)
	if got := len(h.lastHeard.pending); got != 1 {
		t.Fatalf("records queued after the first heartbeat: %d, want 1", got)
	}
	if n := testing.AllocsPerRun(100, func() { s.Heartbeat(hb) }); n != 0 {
		t.Errorf("a heartbeat allocates %v times, want 0", n)
	}
	if got := len(h.lastHeard.pending); got != 1 {
		t.Errorf("records queued after more heartbeats within %s: %d, want still 1", lastHeardEvery, got)
	}
	r, ok := b.takeHeartbeatRef()
	if !ok || r.t != 1000 || r.dev != "CLK-1" || !r.at.Equal(fake.Now()) {
		t.Errorf("the board's heartbeat reference: %+v, %v; want board time 1000 from CLK-1 at %s", r, ok, fake.Now())
	}
	if _, ok := b.takeHeartbeatRef(); ok {
		t.Errorf("a reference taken twice")
	}
}
