package sim_test

import (
	"cmp"
	"context"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/chesshall/hallclock/clockdev/sim"
	"github.com/chesshall/hallclock/internal/testkit/longtest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
	"github.com/chesshall/hallclock/storage"
)

// Each chaos mode has a test that shows the fault happened and the hall
// survived it: every test fails if its mode is switched off.

// chaosSpeed is the chaos rounds' clock factor: at 40x a blitz game
// lasts a few seconds, and acknowledgement latency of a loaded machine
// (the whole suite under -race, and others') stays small against the
// players' think times, so clocks are not starved into flag falls.
const chaosSpeed = 40

// chaosRound plays a small blitz round with chaos c and checks the hall.
func chaosRound(t *testing.T, c sim.Chaos, boards int, tc string, speed float64) (*hall, sim.Summary, hallReport) {
	t.Helper()
	h := startHall(t, speed)
	cfg := h.config(sim.RoundSpec{TimeControl: tc, Boards: boards})
	cfg.Chaos = c
	sum := h.run(t, cfg, 2*time.Minute)
	rep := h.check(t)
	t.Logf("%v", rep)
	if sum.Games != boards {
		t.Errorf("%d games played, want %d", sum.Games, boards)
	}
	return h, sum, rep
}

// Cut: connections are cut and restored; devices reconnect and resend.
func TestChaosCut(t *testing.T) {
	longtest.Skip(t)
	t.Parallel() // they wait on the scaled clock more than they compute
	const boards = 12
	h, sum, _ := chaosRound(t, sim.Chaos{Cut: 0.05}, boards, "60+1", chaosSpeed)
	st := h.Server.Stats()
	if st.Connects < boards+10 || sum.Cuts < 10 {
		t.Errorf("the hall welcomed %d device streams for %d devices after %d cuts; want at least %d streams and 10 cuts",
			st.Connects, boards, sum.Cuts, boards+10)
	}
}

// Latency: every acknowledgement takes at least the injected latency.
func TestChaosLatency(t *testing.T) {
	longtest.Skip(t)
	t.Parallel() // they wait on the scaled clock more than they compute
	const latency = 40 * time.Millisecond
	h, sum, rep := chaosRound(t, sim.Chaos{Latency: latency, Jitter: 20 * time.Millisecond}, 8, "60+1", chaosSpeed)
	h.mu.Lock()
	defer h.mu.Unlock()
	least, n := time.Duration(math.MaxInt64), 0
	for _, as := range h.acked {
		for _, a := range as {
			if a.Latency < 0 {
				continue
			}
			n++
			least = min(least, time.Duration(float64(a.Latency)/h.speed)) // device clock to real time
		}
	}
	if n < rep.acked/2 || least < latency {
		t.Errorf("%d acknowledgements measured, the quickest in %v; want every one to take at least the injected %v", n, least, latency)
	}
	if sum.AckP50 < latency {
		t.Errorf("summary: ack p50 %v, want at least %v", sum.AckP50, latency)
	}
}

// Duplicate: events sent twice are dropped by the hall and acknowledged again.
func TestChaosDuplicate(t *testing.T) {
	longtest.Skip(t)
	t.Parallel() // they wait on the scaled clock more than they compute
	h, sum, _ := chaosRound(t, sim.Chaos{Duplicate: 0.05}, 8, "60+1", chaosSpeed)
	if st := h.Server.Stats(); st.Duplicates == 0 || sum.Duplicated == 0 {
		t.Errorf("the fleet sent %d events twice, the hall dropped %d duplicates; want both above 0", sum.Duplicated, st.Duplicates)
	}
}

// Reorder: an event sent after the next one is a sequence gap; the hall
// refuses it with OUT_OF_RANGE and the device resends in order.
func TestChaosReorder(t *testing.T) {
	longtest.Skip(t)
	t.Parallel() // they wait on the scaled clock more than they compute
	h, sum, _ := chaosRound(t, sim.Chaos{Reorder: 0.03}, 8, "60+1", chaosSpeed)
	if st := h.Server.Stats(); st.Gaps == 0 || sum.Reordered == 0 {
		t.Errorf("the fleet swapped %d pairs of events, the hall saw %d sequence gaps; want both above 0", sum.Reordered, st.Gaps)
	}
}

// Reboot: a device loses power after a press it could not send, restarts
// from its file outbox and delivers the press.
func TestChaosReboot(t *testing.T) {
	longtest.Skip(t)
	t.Parallel() // they wait on the scaled clock more than they compute
	h, sum, _ := chaosRound(t, sim.Chaos{Reboot: 0.03}, 8, "60+1", chaosSpeed)
	if sum.Reboots == 0 || sum.Recovered == 0 || sum.RecoveredDelivered != sum.Recovered {
		t.Errorf("%d reboots recovered %d unsent events and delivered %d; want reboots, and every recovered event delivered",
			sum.Reboots, sum.Recovered, sum.RecoveredDelivered)
	}
	// The recovered events were acknowledged to the devices that booted on
	// them (latency unknown: recorded before the boot) and check found each
	// of them in the store.
	h.mu.Lock()
	defer h.mu.Unlock()
	n := 0
	for _, as := range h.acked {
		for _, a := range as {
			if a.Latency < 0 {
				n++
			}
		}
	}
	if n < sum.Recovered {
		t.Errorf("%d events acknowledged after a reboot, want at least the %d recovered", n, sum.Recovered)
	}
}

// Drift: each clock keeps its board's time on its own oscillator. Board
// time against the hall's clock runs fast or slow by the device's drift,
// and flags fall on the device's time line, exactly at the deadline its
// own events give.
func TestChaosDrift(t *testing.T) {
	longtest.Skip(t)
	const ppm = 20_000
	// At 15x a game of one minute a side lasts a few seconds of wall time;
	// boardDrift bounds its own error by how promptly the hall received
	// events. It runs alone (not in parallel) to keep them prompt.
	h, sum, rep := chaosRound(t, sim.Chaos{DriftPPM: ppm}, 10, "60", 15)
	arb, ctx := h.Arbiter(t)
	devs, err := arb.ListDevices(ctx, &pb.ListDevicesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	reported := map[string]float64{}
	for _, d := range devs.GetDevices() {
		reported[d.GetDeviceId()] = d.GetDriftPpm()
	}
	measuredBoards, drifting, flags := 0, 0, 0
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, b := range rep.boards {
		evs := rep.events[b.ID]
		flags += flagsOnTimeLine(t, b, evs)
		measured, bound, ok := boardDrift(evs, h.speed)
		if !ok || bound > 10_000 {
			continue // a game too short, or a machine too busy, to measure
		}
		measuredBoards++
		want := reported[b.DeviceID]
		t.Logf("board %d (%s): measured drift %+.0f ppm (±%.0f), device reports %+.0f ppm", b.Number, b.DeviceID, measured, bound, want)
		if math.Abs(measured-want) > 1000+bound {
			t.Errorf("board %d: board time drifts %+.0f ppm from the hall's clock, the device's oscillator %+.0f ppm", b.Number, measured, want)
		}
		if math.Abs(measured) > 5000 {
			drifting++
		}
		lo, hi = min(lo, measured), max(hi, measured)
	}
	if measuredBoards < len(rep.boards)/2 && sum.AckP50 > promptMs*time.Millisecond {
		t.Skipf("the machine was too busy to measure drift: %d of %d boards had events received promptly (acknowledgements p50 %v, p99 %v)",
			measuredBoards, len(rep.boards), sum.AckP50, sum.AckP99)
	}
	if measuredBoards < len(rep.boards)/2 || drifting < 3 || hi-lo < ppm {
		t.Errorf("%d boards measured, %d drifting by more than 5000 ppm, spread %+.0f..%+.0f ppm; want most measured, 3 drifting, a spread over %d ppm",
			measuredBoards, drifting, lo, hi, ppm)
	}
	t.Logf("%d flags fell, each at its device's deadline", flags)
}

// boardDrift measures how fast a board's time ran against the hall's wall
// clock, over the events its device reported, and how precisely. An event
// reaches the hall some latency after its press, never before, and a loaded
// machine delays whole bursts of events; so, as clock-skew estimation over
// networks does, the line of wall time over board time is taken from below:
// the edge of the lower convex hull of the points that spans their mean
// board time. The events that reached the hall within promptMs of that line
// are fitted (least squares); their latencies differ by promptMs at most,
// which over their span bounds the error. It returns the drift and that
// bound in ppm, or false when too few events were prompt to measure.
func boardDrift(evs []storage.EventRecord, speed float64) (drift, bound float64, ok bool) {
	var pts [][2]float64 // board ms, wall ms
	for _, e := range evs {
		if e.DeviceID != "" {
			pts = append(pts, [2]float64{float64(e.Event.T), float64(e.Wall.UnixMilli())})
		}
	}
	slices.SortFunc(pts, func(a, b [2]float64) int { return cmp.Compare(a[0], b[0]) })
	if len(pts) < 20 {
		return 0, 0, false // a game too short to measure
	}
	var hull [][2]float64 // lower hull, by board time
	for _, p := range pts {
		for len(hull) >= 2 {
			a, b := hull[len(hull)-2], hull[len(hull)-1]
			if (b[0]-a[0])*(p[1]-a[1])-(b[1]-a[1])*(p[0]-a[0]) > 0 {
				break // a, b, p turn left: b stays on the lower hull
			}
			hull = hull[:len(hull)-1]
		}
		hull = append(hull, p)
	}
	mean := 0.0
	for _, p := range pts {
		mean += p[0] / float64(len(pts))
	}
	i := 1
	for i < len(hull) && (hull[i][0] < mean || hull[i][0] <= hull[i-1][0]) {
		i++
	}
	if i == len(hull) {
		return 0, 0, false
	}
	a, b := hull[i-1], hull[i]
	edge := (b[1] - a[1]) / (b[0] - a[0])
	var prompt [][2]float64
	for _, p := range pts {
		if p[1]-(a[1]+(p[0]-a[0])*edge) < promptMs {
			prompt = append(prompt, p)
		}
	}
	var sx, sy, sxx, sxy float64
	for _, p := range prompt {
		sx, sy, sxx, sxy = sx+p[0], sy+p[1], sxx+p[0]*p[0], sxy+p[0]*p[1]
	}
	n := float64(len(prompt))
	span := prompt[len(prompt)-1][1] - prompt[0][1] // wall ms
	if len(prompt) < 6 || span < 2000 {
		return 0, 0, false
	}
	wallPerBoard := (n*sxy - sx*sy) / (n*sxx - sx*sx)
	return (1/(wallPerBoard*speed) - 1) * 1e6, 2 * promptMs / span * 1e6, true
}

// promptMs is how soon after its press an event must reach the hall to
// serve as a point of the drift line.
const promptMs = 20

// flagsOnTimeLine checks that every flag reported on the board fell at the
// deadline its earlier events give, and returns how many there were.
func flagsOnTimeLine(t *testing.T, b storage.BoardRecord, evs []storage.EventRecord) int {
	t.Helper()
	st, err := rules.NewState(b.Config)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range evs {
		if e.Event.Kind == rules.KindFlag {
			n++
			if dl, ok := st.NextDeadline(); !ok || dl != e.Event.T || e.DeviceID == "" {
				t.Errorf("board %d: flag at %d ms by %q; the board's deadline was %d ms (%v)", b.Number, e.Event.T, e.Actor, dl, ok)
			}
		}
		if st, err = rules.Apply(st, e.Event); err != nil {
			t.Fatalf("board %d: %v", b.Number, err)
		}
	}
	return n
}

// Die: a clock dies mid-game; the arbiter moves its board to a virtual
// clock and the game is finished through the arbiter's console.
func TestChaosDie(t *testing.T) {
	longtest.Skip(t)
	t.Parallel() // they wait on the scaled clock more than they compute
	h, sum, rep := chaosRound(t, sim.Chaos{Die: 0.5}, 8, "60+1", chaosSpeed)
	virtual := 0
	ctx := context.Background()
	for _, b := range rep.boards {
		rec, err := h.Store.Board(ctx, b.ID)
		if err != nil {
			t.Fatal(err)
		}
		if rec.Source != storage.SourceVirtual {
			continue
		}
		virtual++
		// Once the virtual clock took over, the record goes on without a
		// device. (Under load the game may end by the clock's own flag
		// before the arbiter noticed its death: then no virtual event.)
		virtualFrom := 0
		for i, e := range rep.events[b.ID] {
			switch {
			case e.DeviceID == "" && virtualFrom == 0:
				virtualFrom = i + 1
			case e.DeviceID != "" && virtualFrom > 0:
				t.Errorf("board %d: event %d (%s) came from device %s after the virtual clock took over at event %d", b.Number, i+1, e.Event, e.DeviceID, virtualFrom)
			}
		}
		if st := rep.final[b.ID]; st.Result == rules.NoResult {
			t.Errorf("board %d on a virtual clock has no result", b.Number)
		}
	}
	if virtual == 0 || sum.Deaths != virtual || sum.VirtualClocks != virtual {
		t.Errorf("%d boards on virtual clocks after %d deaths (%d virtual clocks); want some, one per death", virtual, sum.Deaths, sum.VirtualClocks)
	}
	arb, actx := h.Arbiter(t)
	boards, err := arb.ListBoards(actx, &pb.ListBoardsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, b := range boards.GetBoards() {
		if b.GetState().GetSource() == pb.ClockSource_CLOCK_SOURCE_VIRTUAL {
			n++
		}
	}
	if n != virtual {
		t.Errorf("ListBoards shows %d boards on virtual clocks, the store %d", n, virtual)
	}
}
