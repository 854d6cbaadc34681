package fanout_test

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/chesshall/hallclock/internal/mono"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/server/fanout"
)

// A delay line shows each change on its hub only once it is due: the
// hall's Delay after it was published, a gateway's at the time it names;
// in the order pushed. (The fake clock runs its timers on goroutines of
// their own: synctest.Wait lets them finish.)
func TestDelayLine(t *testing.T) {
	synctest.Test(t, testDelayLine)
}

func testDelayLine(t *testing.T) {
	clock := mono.NewFake(time.Unix(1_700_000_000, 0))
	d := fanout.NewDelayLine(time.Minute, clock)
	defer d.Close()
	d.Seed("R", &pb.BoardState{BoardId: "b1", AtMs: 1}, 1)
	clock.Advance(30 * time.Second)
	d.Publish("R", &pb.BoardState{BoardId: "b1", AtMs: 2}, 2)
	d.PublishAt(clock.Now().Add(-time.Hour), "R", &pb.BoardState{BoardId: "b2", AtMs: 3}, 3) // due long ago: after b1's, not before
	synctest.Wait()
	state := func(id string) int64 {
		st, _, ok := d.Hub().State(id)
		if !ok {
			return 0
		}
		return st.GetAtMs()
	}
	if got := state("b1") + state("b2"); got != 0 {
		t.Fatalf("the hub shows changes before the first is due (%d)", got)
	}
	clock.Advance(30 * time.Second) // the seed is due
	synctest.Wait()
	if got := state("b1"); got != 1 {
		t.Fatalf("b1 at the seed's due time shows version %d, want 1", got)
	}
	if state("b2") != 0 {
		t.Fatal("b2, pushed after b1's change, shown before it")
	}
	clock.Advance(30 * time.Second) // the change, and b2 behind it
	synctest.Wait()
	if got := state("b1") + state("b2"); got != 2+3 {
		t.Fatalf("b1 and b2 show versions summing to %d, want 2 and 3", got)
	}
}
