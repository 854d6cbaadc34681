package clockdev

import (
	"testing"
	"time"

	"github.com/chesshall/hallclock/internal/mono"
	"github.com/chesshall/hallclock/rules"
)

// A device assigned an Armageddon board keeps each side's time under its
// own control on its local clock: White's 5 minutes and Black's 4, no
// increment before move 61.
func TestLocalClockTimeOdds(t *testing.T) {
	clk := mono.NewFake(time.Unix(0, 0))
	h := newFakeHall(t)
	d := testDevice(t, h, Config{Clock: clk, Outbox: assignedOutbox(t, testAssignment("B1", "white 60/5m:0+2s | black 60/4m:0+2s"))})
	waitFor(t, "the link", func() bool { return d.Status().Connected })
	st := d.State()
	if st.P[rules.White].MainMs != 300_000 || st.P[rules.Black].MainMs != 240_000 || st.Category != rules.Blitz {
		t.Fatalf("assigned: white %d, black %d, %v", st.P[rules.White].MainMs, st.P[rules.Black].MainMs, st.Category)
	}
	if err := d.Do(rules.Event{Kind: rules.KindStart}); err != nil {
		t.Fatal(err)
	}
	clk.Advance(time.Second)
	if err := d.Press(rules.White, "", ""); err != nil {
		t.Fatal(err)
	}
	clk.Advance(3 * time.Second)
	if err := d.Press(rules.Black, "", ""); err != nil {
		t.Fatal(err)
	}
	st = d.State()
	if st.P[rules.White].MainMs != 299_000 || st.P[rules.Black].MainMs != 237_000 {
		t.Errorf("after a move each: white %d, black %d; want 299000, 237000", st.P[rules.White].MainMs, st.P[rules.Black].MainMs)
	}
}
