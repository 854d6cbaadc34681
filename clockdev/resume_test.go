package clockdev

import (
	"log/slog"
	"testing"
	"time"

	"github.com/chesshall/hallclock/internal/mono"
	hallv1 "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
)

// A board recovered from the outbox continues where Config.Resume says
// (a clock whose oscillator kept time while its controller restarted):
// the running clock has run for the time in between, a flag that fell
// meanwhile is recorded at its instant, and an answer before the last
// recorded instant is ignored.
func TestResumeContinuesTheBoardTime(t *testing.T) {
	// Board B1, 5 minutes sudden death: started at 0, White moved at 10 s;
	// Black's clock runs.
	saved := testAssignment("B1", "300", action(kStart, 0, white), action(kPress, 10_000, white))
	for _, c := range []struct {
		name      string
		resume    func(board string, last int64) int64
		now       int64 // board time after New
		blackLeft int64 // ms
		flagAt    int64 // a FLAG recorded at this instant, 0 none
	}{
		{"no Resume: the time off does not count", nil, 10_000, 300_000, 0},
		{"two minutes later", func(string, int64) int64 { return 130_000 }, 130_000, 180_000, 0},
		{"past Black's flag", func(string, int64) int64 { return 400_000 }, 400_000, 0, 310_000},
		{"an answer in the past", func(string, int64) int64 { return 5_000 }, 10_000, 300_000, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			var asked []any
			resume := c.resume
			if resume != nil {
				resume = func(board string, last int64) int64 {
					asked = append(asked, board, last)
					return c.resume(board, last)
				}
			}
			h := newFakeHall(t)
			d, err := New(Config{DeviceID: "CLK-1", Token: testToken, Conn: h.dial(t), Clock: mono.NewFake(time.Unix(1000, 0)),
				Outbox: assignedOutbox(t, saved), Resume: resume, Logger: slog.New(slog.DiscardHandler)})
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			if resume != nil && (len(asked) != 2 || asked[0] != "B1" || asked[1] != int64(10_000)) {
				t.Errorf("Resume was asked %v; want B1 and the last recorded instant, 10000", asked)
			}
			if got := d.BoardNow(); got != c.now {
				t.Errorf("BoardNow = %d, want %d", got, c.now)
			}
			st := d.State()
			if got := st.P[rules.Black].MainMs; got != c.blackLeft {
				t.Errorf("Black has %d ms, want %d", got, c.blackLeft)
			}
			var flags []int64
			for _, ev := range d.outbox.Pending() {
				if ev.GetAction().GetKind() == hallv1.ActionKind_ACTION_KIND_FLAG {
					flags = append(flags, ev.GetAction().GetTMs())
				}
			}
			switch {
			case c.flagAt == 0 && len(flags) > 0:
				t.Errorf("flags recorded at %v; want none", flags)
			case c.flagAt != 0 && (len(flags) != 1 || flags[0] != c.flagAt || st.Status != rules.Finished):
				t.Errorf("flags recorded at %v, status %v; want Black's at %d, the game over", flags, st.Status, c.flagAt)
			}
		})
	}
}
