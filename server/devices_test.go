package server_test

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/chesshall/hallclock/clockdev"
	"github.com/chesshall/hallclock/internal/mono"
	"github.com/chesshall/hallclock/internal/testkit/halltest"
	"github.com/chesshall/hallclock/internal/wire"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
	"github.com/chesshall/hallclock/server"
	"github.com/chesshall/hallclock/storage"
)

// Clock devices (clockdev) against the hall: commands that wait for an
// offline device, resends after reconnection, replacement devices and the
// virtual clock (DESIGN §4, §5; FIDE 6.10.1).

// liveDevice is a clock device whose link the test can cut and restore.
type liveDevice struct {
	*clockdev.Device
	t      *testing.T
	mu     sync.Mutex
	cancel context.CancelFunc
	done   chan struct{}
}

// keptOutbox lets several Device values (one after the other) use the same
// outbox: the test keeps it, so a Device's Close does not close it.
type keptOutbox struct{ clockdev.Outbox }

func (keptOutbox) Close() error { return nil }

// startClock starts a device dev on ob (nil: a fresh memory outbox) and
// waits until it is connected; assigned too unless unassigned is true.
func startClock(t *testing.T, h *halltest.Hall, dev string, ob clockdev.Outbox, unassigned bool) *liveDevice {
	t.Helper()
	if ob == nil {
		ob = clockdev.NewMemoryOutbox()
	}
	d, err := clockdev.New(clockdev.Config{
		DeviceID: dev, Token: h.DeviceToken(t, dev), Firmware: "devices-test", Conn: h.Conn(t),
		Outbox: ob, Logger: slog.New(slog.DiscardHandler),
		MinBackoff: 10 * time.Millisecond, MaxBackoff: 100 * time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	ld := &liveDevice{Device: d, t: t}
	ld.run()
	t.Cleanup(func() { ld.stop(); d.Close() })
	halltest.Eventually(t, 5*time.Second, func() error {
		if !d.Status().Connected {
			return fmt.Errorf("device %s not connected (last error %q)", dev, d.Status().LastError)
		}
		if !unassigned && d.Assignment() == nil {
			return fmt.Errorf("device %s has no assignment", dev)
		}
		return nil
	})
	return ld
}

// run starts the device's link.
func (d *liveDevice) run() {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.cancel != nil {
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	d.cancel, d.done = cancel, done
	go func() { defer close(done); d.Run(ctx) }()
}

// stop cuts the device's link (the device keeps its clock and outbox).
func (d *liveDevice) stop() {
	d.mu.Lock()
	cancel, done := d.cancel, d.done
	d.cancel, d.done = nil, nil
	d.mu.Unlock()
	if cancel != nil {
		cancel()
		<-done
	}
}

// waitDeviceOnline waits until GetBoard shows the board's device online (or not).
func waitDeviceOnline(t *testing.T, h *halltest.Hall, boardID string, online bool) {
	t.Helper()
	halltest.Eventually(t, 5*time.Second, func() error {
		if got := fetchBoard(t, h, boardID).GetState().GetDeviceOnline(); got != online {
			return fmt.Errorf("board %s device_online = %v, want %v", boardID, got, online)
		}
		return nil
	})
}

// boardLog returns the board's log.
func boardLog(t *testing.T, st *storage.Store, boardID string) []storage.EventRecord {
	t.Helper()
	evs, err := st.Events(context.Background(), boardID, 0)
	if err != nil {
		t.Fatal(err)
	}
	return evs
}

// checkHistoryMatchesLog checks that the device's history and the board's
// log are the same actions one to one, that board_seq runs 1..n and that no
// device sequence number is applied twice (DESIGN §3, §4).
func checkHistoryMatchesLog(t *testing.T, hist []*pb.ClockAction, evs []storage.EventRecord) {
	t.Helper()
	if len(hist) != len(evs) {
		t.Errorf("device history has %d actions, the store %d events, want equal", len(hist), len(evs))
	}
	seen := map[string]bool{}
	for i, e := range evs {
		if e.BoardSeq != uint64(i+1) {
			t.Errorf("event %d has board_seq %d, want %d (contiguous)", i, e.BoardSeq, i+1)
		}
		if e.DeviceID != "" {
			k := fmt.Sprintf("%s/%d", e.DeviceID, e.DeviceSeq)
			if seen[k] {
				t.Errorf("device event %s applied twice", k)
			}
			seen[k] = true
		}
		if i < len(hist) {
			if got := wire.Action(e.Event); !proto.Equal(got, hist[i]) {
				t.Errorf("event %d: store %v, device %v", i+1, got, hist[i])
			}
		}
	}
}

func pressOn(t *testing.T, d *liveDevice, side rules.Side) {
	t.Helper()
	if err := d.Press(side, "", ""); err != nil {
		t.Fatalf("press %s on %s: %v", side, d.Status().BoardID, err)
	}
}

func startRoundApplied(t *testing.T, h *halltest.Hall, roundID string, absent ...*pb.Absence) *pb.StartRoundResponse {
	t.Helper()
	arb, ctx := h.Arbiter(t)
	r, err := arb.StartRound(ctx, &pb.StartRoundRequest{RoundId: roundID, Absent: absent})
	if err != nil {
		t.Fatalf("StartRound: %v", err)
	}
	for _, b := range r.GetBoards() {
		if b.GetStatus() != pb.CommandStatus_COMMAND_STATUS_APPLIED {
			t.Fatalf("StartRound: board %s %v (%s), want APPLIED", b.GetBoardId(), b.GetStatus(), b.GetMessage())
		}
	}
	return r
}

// An arbiter command for an offline device waits visibly, and is applied
// when the device comes back — with the outbox it had, or a fresh one
// (DESIGN §5: arbiter commands travel through the clock).
func TestOfflineDeviceCommandWaits(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name      string
		sameOutbx bool
	}{{"same outbox", true}, {"fresh outbox", false}} {
		t.Run(tc.name, func(t *testing.T) {
			h := halltest.Start(t)
			b := h.Round(t, "300+2", 1)[0]
			id, dev := b.GetBoardId(), b.GetDeviceId()
			ob := keptOutbox{clockdev.NewMemoryOutbox()}
			d := startClock(t, h, dev, ob, false)
			startRoundApplied(t, h, b.GetRoundId())
			pressOn(t, d, rules.White)
			halltest.Synced(t, d.Device)
			d.stop()
			d.Close()
			waitDeviceOnline(t, h, id, false)

			arb, ctx := h.Arbiter(t)
			before := fetchBoard(t, h, id).GetState().GetWhite().GetRemainingMs()
			add := &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_ADD_TIME, Side: pb.Side_SIDE_WHITE, Ms: 60_000}
			r, err := arb.BoardAction(ctx, &pb.BoardActionRequest{BoardId: id, Action: add, Reason: "disturbance", WaitMs: 200})
			if err != nil {
				t.Fatal(err)
			}
			if r.GetStatus() != pb.CommandStatus_COMMAND_STATUS_PENDING || !strings.Contains(r.GetMessage(), "wait") || r.GetCommandId() == "" {
				t.Errorf("BoardAction for an offline device = %v %q (command %q), want PENDING, a message saying it waits, and a command id",
					r.GetStatus(), r.GetMessage(), r.GetCommandId())
			}
			got := fetchBoard(t, h, id)
			if len(got.GetPending()) != 1 || got.GetPending()[0].GetCommandId() != r.GetCommandId() || got.GetPending()[0].GetDeviceOnline() {
				t.Errorf("GetBoard pending = %v, want the command %s with device_online false", got.GetPending(), r.GetCommandId())
			}
			if st := got.GetState(); st.GetPendingCommands() != 1 || st.GetDeviceOnline() || st.GetWhite().GetRemainingMs() != before {
				t.Errorf("state while waiting: pending_commands %d, device_online %v, white %d ms; want 1, false, %d ms (not applied)",
					st.GetPendingCommands(), st.GetDeviceOnline(), st.GetWhite().GetRemainingMs(), before)
			}
			if c, err := h.Store.Command(context.Background(), r.GetCommandId()); err != nil || c.Status != storage.CommandPending {
				t.Errorf("stored command = %+v, %v; want pending", c, err)
			}

			// The device comes back.
			var ob2 clockdev.Outbox = ob
			if !tc.sameOutbx {
				ob2 = nil
			}
			d2 := startClock(t, h, dev, ob2, false)
			halltest.Eventually(t, 5*time.Second, func() error {
				got := fetchBoard(t, h, id)
				if len(got.GetPending()) != 0 || got.GetState().GetPendingCommands() != 0 {
					return fmt.Errorf("pending = %v (pending_commands %d), want none", got.GetPending(), got.GetState().GetPendingCommands())
				}
				return nil
			})
			halltest.Synced(t, d2.Device)
			st := fetchBoard(t, h, id).GetState()
			if st.GetWhite().GetRemainingMs() != before+60_000 || !st.GetDeviceOnline() {
				t.Errorf("after the device came back: white %d ms, device_online %v; want %d ms, true",
					st.GetWhite().GetRemainingMs(), st.GetDeviceOnline(), before+60_000)
			}
			if w := d2.State().P[rules.White].MainMs; w != before+60_000 {
				t.Errorf("device shows white %d ms, want %d", w, before+60_000)
			}
			if c, err := h.Store.Command(context.Background(), r.GetCommandId()); err != nil || c.Status != storage.CommandApplied {
				t.Errorf("stored command = %+v, %v; want applied", c, err)
			}
			evs := boardLog(t, h.Store, id)
			n := 0
			for _, e := range evs {
				if e.CommandID == r.GetCommandId() {
					n++
					if e.DeviceID != dev || e.Event.Kind != rules.KindAddTime {
						t.Errorf("command event = %+v, want add_time reported by %s", e, dev)
					}
				}
			}
			if n != 1 {
				t.Errorf("command %s applied %d times, want once", r.GetCommandId(), n)
			}
			checkHistoryMatchesLog(t, d2.History(), evs)
		})
	}
}

// A device that reconnects resends its outbox; nothing is applied twice
// (DESIGN §4), whether its link was cut or the server restarted.
func TestReconnectResendsOutbox(t *testing.T) {
	t.Parallel()
	t.Run("link cut", func(t *testing.T) {
		h := halltest.Start(t)
		b := h.Round(t, "300+2", 1)[0]
		id := b.GetBoardId()
		d := startClock(t, h, b.GetDeviceId(), nil, false)
		startRoundApplied(t, h, b.GetRoundId())
		pressOn(t, d, rules.White)
		pressOn(t, d, rules.Black)
		halltest.Synced(t, d.Device)

		d.stop()
		waitDeviceOnline(t, h, id, false)
		for _, s := range []rules.Side{rules.White, rules.Black, rules.White} {
			pressOn(t, d, s)
		}
		if n := d.Status().Outbox; n != 3 {
			t.Errorf("outbox while offline holds %d events, want 3", n)
		}
		if got := fetchBoard(t, h, id).GetState().GetBoardSeq(); got != 3 {
			t.Errorf("board_seq while the device is offline = %d, want 3", got)
		}
		d.run()
		halltest.Synced(t, d.Device)
		checkHistoryMatchesLog(t, d.History(), boardLog(t, h.Store, id))
		if got := fetchBoard(t, h, id).GetState(); got.GetBoardSeq() != 6 || got.GetWhite().GetMoves() != 3 {
			t.Errorf("after the resend: board_seq %d, white moves %d; want 6, 3", got.GetBoardSeq(), got.GetWhite().GetMoves())
		}
	})
	t.Run("server restart", func(t *testing.T) {
		h := halltest.Start(t)
		b := h.Round(t, "300+2", 1)[0]
		id := b.GetBoardId()
		d := startClock(t, h, b.GetDeviceId(), nil, false)
		startRoundApplied(t, h, b.GetRoundId())
		// Presses keep coming while the server goes down and comes back.
		pressed, under := make(chan error, 1), make(chan struct{})
		go func() {
			for i := range 40 {
				if err := d.Press(d.State().ToMove, "", ""); err != nil {
					pressed <- err
					return
				}
				if i == 9 {
					close(under) // a quarter of the presses made: restart under the rest
				}
				time.Sleep(5 * time.Millisecond) // presses spread over the restart
			}
			pressed <- nil
		}()
		select {
		case <-under:
		case err := <-pressed:
			t.Fatal(err)
		}
		h.Restart(t)
		if err := <-pressed; err != nil {
			t.Fatal(err)
		}
		halltest.Synced(t, d.Device)
		evs := boardLog(t, h.Store, id)
		checkHistoryMatchesLog(t, d.History(), evs)
		if len(evs) != 41 {
			t.Errorf("store holds %d events, want 41 (start and 40 presses)", len(evs))
		}
	})
}

// Absolute settings need a paused clock (DESIGN §5; FIDE 6.10.2).
func TestSetClockOnlyWhilePaused(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t)
	b := h.Round(t, "300+2", 1)[0]
	id := b.GetBoardId()
	d := startClock(t, h, b.GetDeviceId(), nil, false)
	startRoundApplied(t, h, b.GetRoundId())
	pressOn(t, d, rules.White)
	arb, ctx := h.Arbiter(t)

	set := &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_SET_CLOCK, WhiteMs: 100_000, BlackMs: 200_000}
	r := act(t, arb, ctx, id, set, pb.CommandStatus_COMMAND_STATUS_REFUSED)
	if r.GetMessage() == "" || r.GetCommandId() != "" {
		t.Errorf("SET_CLOCK while running: message %q, command %q; want a reason and no command", r.GetMessage(), r.GetCommandId())
	}
	if st := r.GetState(); st.GetWhite().GetRemainingMs() == 100_000 || st.GetStatus() != pb.BoardStatus_BOARD_STATUS_RUNNING {
		t.Errorf("state after a refused SET_CLOCK = %v, want the clock unchanged and running", st)
	}

	act(t, arb, ctx, id, &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_PAUSE}, pb.CommandStatus_COMMAND_STATUS_APPLIED)
	r = act(t, arb, ctx, id, set, pb.CommandStatus_COMMAND_STATUS_APPLIED)
	if st := r.GetState(); st.GetWhite().GetRemainingMs() != 100_000 || st.GetBlack().GetRemainingMs() != 200_000 || st.GetStatus() != pb.BoardStatus_BOARD_STATUS_PAUSED {
		t.Errorf("state after SET_CLOCK while paused = %v, want white 100000, black 200000, paused", st)
	}
	halltest.Synced(t, d.Device)
	if st := d.State(); st.P[rules.White].MainMs != 100_000 || st.P[rules.Black].MainMs != 200_000 {
		t.Errorf("device shows white %d, black %d; want 100000, 200000", st.P[rules.White].MainMs, st.P[rules.Black].MainMs)
	}
	act(t, arb, ctx, id, &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_RESUME}, pb.CommandStatus_COMMAND_STATUS_APPLIED)
	halltest.Synced(t, d.Device)
	checkHistoryMatchesLog(t, d.History(), boardLog(t, h.Store, id))
}

// FIDE 6.10.1: a dead clock is replaced. Device A dies; device B is
// assigned, receives the board's history and continues it; A, coming back,
// is unassigned and its events for the board are refused.
func TestReplacementDevice(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t)
	b := h.Round(t, "300+2", 1)[0]
	id, devA := b.GetBoardId(), b.GetDeviceId()
	const devB = "CLK-SPARE"
	a := startClock(t, h, devA, nil, false)
	spare := startClock(t, h, devB, nil, true)
	if spare.Assignment() != nil {
		t.Fatalf("spare device assigned to %s before AssignDevice, want none", spare.Assignment().GetBoardId())
	}
	startRoundApplied(t, h, b.GetRoundId())
	pressOn(t, a, rules.White)
	pressOn(t, a, rules.Black)
	halltest.Synced(t, a.Device)

	// A dies, while its clock still records a press nobody sees.
	a.stop()
	waitDeviceOnline(t, h, id, false)
	pressOn(t, a, rules.White)
	lost := a.Status().NextSeq - 1

	// The arbiter's correction for the dead clock waits for a device.
	arb, ctx := h.Arbiter(t)
	add := &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_ADD_TIME, Side: pb.Side_SIDE_BLACK, Ms: 30_000}
	pending, err := arb.BoardAction(ctx, &pb.BoardActionRequest{BoardId: id, Action: add, Reason: "clock died", WaitMs: -1})
	if err != nil || pending.GetStatus() != pb.CommandStatus_COMMAND_STATUS_PENDING {
		t.Fatalf("ADD_TIME for the dead device = %v, %v; want PENDING", pending, err)
	}
	blackBefore := pending.GetState().GetBlack().GetRemainingMs()

	got, err := arb.AssignDevice(ctx, &pb.AssignDeviceRequest{BoardId: id, DeviceId: devB, Reason: "clock died (6.10.1)"})
	if err != nil {
		t.Fatal(err)
	}
	if got.GetDeviceId() != devB || !got.GetState().GetDeviceOnline() {
		t.Errorf("AssignDevice = device %q online %v, want %s online", got.GetDeviceId(), got.GetState().GetDeviceOnline(), devB)
	}
	halltest.Eventually(t, 5*time.Second, func() error {
		if got := spare.Assignment().GetBoardId(); got != id {
			return fmt.Errorf("spare assigned to %q, want %s", got, id)
		}
		return nil
	})
	// The spare applies the command that waited.
	halltest.Eventually(t, 5*time.Second, func() error {
		if got := fetchBoard(t, h, id); len(got.GetPending()) != 0 {
			return fmt.Errorf("pending = %v, want the ADD_TIME applied by the spare", got.GetPending())
		}
		return nil
	})
	halltest.Synced(t, spare.Device)
	evs := boardLog(t, h.Store, id)
	checkHistoryMatchesLog(t, spare.History(), evs)
	if len(evs) != 4 {
		t.Fatalf("store holds %d events before the spare presses, want 4 (start, 2 presses, add_time)", len(evs))
	}
	if last := evs[3]; last.CommandID != pending.GetCommandId() || last.DeviceID != devB {
		t.Errorf("event 4 = %+v, want command %s applied by %s", last, pending.GetCommandId(), devB)
	}
	if st := spare.State(); st.ToMove != rules.White || st.P[rules.White].Moves != 1 || st.Status != rules.Running ||
		st.P[rules.Black].MainMs != blackBefore+30_000 {
		t.Errorf("spare's state: to move %s, white moves %d, status %s, black %d ms; want white, 1, running, %d ms",
			st.ToMove, st.P[rules.White].Moves, st.Status, st.P[rules.Black].MainMs, blackBefore+30_000)
	}
	pressOn(t, spare, rules.White)
	halltest.Synced(t, spare.Device)
	evs = boardLog(t, h.Store, id)
	checkHistoryMatchesLog(t, spare.History(), evs)
	if last := evs[len(evs)-1]; len(evs) != 5 || last.DeviceID != devB || last.BoardSeq != 5 {
		t.Errorf("last event = %+v of %d, want board_seq 5 reported by %s", last, len(evs), devB)
	}
	if st := fetchBoard(t, h, id).GetState(); st.GetBoardSeq() != 5 || st.GetWhite().GetMoves() != 2 {
		t.Errorf("board: board_seq %d, white moves %d; want 5, 2", st.GetBoardSeq(), st.GetWhite().GetMoves())
	}

	// A comes back: unassigned, its offline press refused and acknowledged.
	a.run()
	halltest.Eventually(t, 5*time.Second, func() error {
		st := a.Status()
		if !st.Connected || st.BoardID != "" || st.Outbox != 0 {
			return fmt.Errorf("device A: connected %v, board %q, outbox %d; want connected, unassigned, empty", st.Connected, st.BoardID, st.Outbox)
		}
		return nil
	})
	refused := false
	for _, r := range a.Rejections() {
		if r.GetSeq() == lost && r.GetCode() == "permission_denied" {
			refused = true
		}
	}
	if !refused {
		t.Errorf("A's rejections = %v, want seq %d refused with permission_denied", a.Rejections(), lost)
	}
	if err := a.Press(rules.Black, "", ""); err != clockdev.ErrNotAssigned {
		t.Errorf("press on the unassigned A = %v, want ErrNotAssigned", err)
	}
	evs = boardLog(t, h.Store, id)
	for _, e := range evs {
		if e.DeviceID == devA && e.DeviceSeq == lost {
			t.Errorf("A's event %d after its replacement was applied: %+v", lost, e)
		}
	}
	if got := fetchBoard(t, h, id); got.GetDeviceId() != devB || got.GetState().GetBoardSeq() != 5 || !got.GetState().GetDeviceOnline() {
		t.Errorf("board after A returned: device %q, board_seq %d, online %v; want %s, 5, true",
			got.GetDeviceId(), got.GetState().GetBoardSeq(), got.GetState().GetDeviceOnline(), devB)
	}
}

// SwapDevices: each device continues the other's board.
func TestSwapDevices(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t)
	boards := h.Round(t, "300+2", 2)
	b1, b2 := boards[0].GetBoardId(), boards[1].GetBoardId()
	d1 := startClock(t, h, boards[0].GetDeviceId(), nil, false)
	d2 := startClock(t, h, boards[1].GetDeviceId(), nil, false)
	startRoundApplied(t, h, boards[0].GetRoundId())
	pressOn(t, d1, rules.White)
	pressOn(t, d2, rules.White)
	pressOn(t, d2, rules.Black)
	halltest.Synced(t, d1.Device)
	halltest.Synced(t, d2.Device)

	arb, ctx := h.Arbiter(t)
	r, err := arb.SwapDevices(ctx, &pb.SwapDevicesRequest{BoardA: b1, BoardB: b2, Reason: "tables mixed up"})
	if err != nil {
		t.Fatal(err)
	}
	if r.GetA().GetDeviceId() != boards[1].GetDeviceId() {
		t.Errorf("board A's device after the swap = %q, want %s", r.GetA().GetDeviceId(), boards[1].GetDeviceId())
	}
	if r.GetB().GetDeviceId() != boards[0].GetDeviceId() {
		t.Errorf("board B's device after the swap = %q, want %s", r.GetB().GetDeviceId(), boards[0].GetDeviceId())
	}
	halltest.Eventually(t, 5*time.Second, func() error {
		if g1, g2 := d1.Status().BoardID, d2.Status().BoardID; g1 != b2 || g2 != b1 {
			return fmt.Errorf("devices on %q and %q, want %s and %s", g1, g2, b2, b1)
		}
		return nil
	})
	checkHistoryMatchesLog(t, d1.History(), boardLog(t, h.Store, b2))
	checkHistoryMatchesLog(t, d2.History(), boardLog(t, h.Store, b1))

	pressOn(t, d2, rules.Black) // board 1: black to move
	pressOn(t, d1, rules.White) // board 2: white to move
	halltest.Synced(t, d1.Device)
	halltest.Synced(t, d2.Device)
	e1, e2 := boardLog(t, h.Store, b1), boardLog(t, h.Store, b2)
	checkHistoryMatchesLog(t, d2.History(), e1)
	checkHistoryMatchesLog(t, d1.History(), e2)
	if len(e1) != 3 || e1[2].DeviceID != boards[1].GetDeviceId() {
		t.Errorf("board 1 has %d events, last by %q; want 3, last by %s", len(e1), e1[len(e1)-1].DeviceID, boards[1].GetDeviceId())
	}
	if len(e2) != 4 || e2[3].DeviceID != boards[0].GetDeviceId() {
		t.Errorf("board 2 has %d events, last by %q; want 4, last by %s", len(e2), e2[len(e2)-1].DeviceID, boards[0].GetDeviceId())
	}
	for _, id := range []string{b1, b2} {
		if st := fetchBoard(t, h, id).GetState(); !st.GetDeviceOnline() {
			t.Errorf("board %s device_online = false after the swap, want true", id)
		}
	}
}

// FIDE 6.10.1 with no spare clock: the board moves to a server-hosted
// virtual clock. Commands that waited for the dead device are applied by
// the server, arbiter presses apply directly, and the flag falls at its
// exact deadline with no device at all.
func TestUseVirtualClock(t *testing.T) {
	t.Parallel()
	fake := mono.NewFake(time.Unix(1_700_000_000, 0))
	h := halltest.Start(t, halltest.WithOptions(server.Options{Clock: fake}))
	b := h.Round(t, "60", 1)[0] // one minute, no increment
	id := b.GetBoardId()
	arb, ctx := h.Arbiter(t)

	// The device never comes: the start waits for it. (WaitMs < 0: the
	// server's clock is fake, a wait would never end.)
	start, err := arb.BoardAction(ctx, &pb.BoardActionRequest{BoardId: id, Action: &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_START}, Reason: "round 1", WaitMs: -1})
	if err != nil {
		t.Fatal(err)
	}
	if start.GetStatus() != pb.CommandStatus_COMMAND_STATUS_PENDING || !strings.Contains(start.GetMessage(), "wait") {
		t.Errorf("START for a device never seen = %v %q, want PENDING, waiting", start.GetStatus(), start.GetMessage())
	}

	got, err := arb.UseVirtualClock(ctx, &pb.UseVirtualClockRequest{BoardId: id, Reason: "clock dead, no spare"})
	if err != nil {
		t.Fatal(err)
	}
	st := got.GetState()
	if st.GetSource() != pb.ClockSource_CLOCK_SOURCE_VIRTUAL || got.GetDeviceId() != "" {
		t.Errorf("UseVirtualClock: source %v, device %q; want VIRTUAL, none", st.GetSource(), got.GetDeviceId())
	}
	if st.GetStatus() != pb.BoardStatus_BOARD_STATUS_RUNNING || st.GetBoardSeq() != 1 || st.GetPendingCommands() != 0 || len(got.GetPending()) != 0 {
		t.Errorf("UseVirtualClock state = %v, pending %v; want the waiting START applied by the server (running, board_seq 1, nothing pending)", st, got.GetPending())
	}
	if c, err := h.Store.Command(context.Background(), start.GetCommandId()); err != nil || c.Status != storage.CommandApplied {
		t.Errorf("START command = %+v, %v; want applied", c, err)
	}
	evs := boardLog(t, h.Store, id)
	if len(evs) != 1 || evs[0].Event.Kind != rules.KindStart || evs[0].CommandID != start.GetCommandId() || evs[0].DeviceID != "" {
		t.Errorf("events = %+v, want one START carrying command %s, no device", evs, start.GetCommandId())
	}
	t0 := evs[0].Event.T

	// White moves after 3 s: the arbiter's press applies at once.
	fake.Advance(3 * time.Second)
	r, err := arb.BoardAction(ctx, &pb.BoardActionRequest{BoardId: id, Action: &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_PRESS, Side: pb.Side_SIDE_WHITE}, Reason: "white moved"})
	if err != nil {
		t.Fatal(err)
	}
	if r.GetStatus() != pb.CommandStatus_COMMAND_STATUS_APPLIED || r.GetCommandId() != "" {
		t.Errorf("PRESS on a virtual clock = %v %q (command %q), want APPLIED directly", r.GetStatus(), r.GetMessage(), r.GetCommandId())
	}
	st = r.GetState()
	if st.GetBoardSeq() != 2 || st.GetWhite().GetRemainingMs() != 57_000 || st.GetRunning() != pb.Side_SIDE_BLACK {
		t.Errorf("after the press: board_seq %d, white %d ms, running %v; want 2, 57000, black", st.GetBoardSeq(), st.GetWhite().GetRemainingMs(), st.GetRunning())
	}
	deadline := t0 + 3_000 + 60_000
	if st.GetNextDeadlineMs() != deadline {
		t.Errorf("next_deadline_ms = %d, want %d (black's flag)", st.GetNextDeadlineMs(), deadline)
	}

	// 1 ms before the deadline nothing happens ...
	fake.Advance(60*time.Second - time.Millisecond)
	fake.Settle() // a timer due would have run, and what it posted to the board comes before the read below
	if st := fetchBoard(t, h, id).GetState(); st.GetStatus() != pb.BoardStatus_BOARD_STATUS_RUNNING || st.GetBoardSeq() != 2 {
		t.Errorf("1 ms before the deadline: status %v, board_seq %d; want RUNNING, 2", st.GetStatus(), st.GetBoardSeq())
	}
	// ... and past it the flag falls at the deadline itself (FIDE 6.9).
	fake.Advance(500 * time.Millisecond)
	halltest.Eventually(t, 5*time.Second, func() error {
		if st := fetchBoard(t, h, id).GetState(); st.GetStatus() != pb.BoardStatus_BOARD_STATUS_FINISHED {
			return fmt.Errorf("status %v, want FINISHED by black's flag", st.GetStatus())
		}
		return nil
	})
	st = fetchBoard(t, h, id).GetState()
	if st.GetResult() != "1-0" || st.GetTermination() != "time" || st.GetBlack().GetFlagAtMs() != deadline || st.GetFirstFlag() != pb.Side_SIDE_BLACK {
		t.Errorf("final state = result %q, termination %q, black flag at %d, first flag %v; want 1-0, time, %d, black",
			st.GetResult(), st.GetTermination(), st.GetBlack().GetFlagAtMs(), st.GetFirstFlag(), deadline)
	}
	evs = boardLog(t, h.Store, id)
	if last := evs[len(evs)-1]; len(evs) != 3 || last.Event.Kind != rules.KindFlag || last.Event.T != deadline || last.Event.Side != rules.Black || last.Actor != "server" {
		t.Errorf("last event = %+v (of %d), want black's flag at %d recorded by the server", last, len(evs), deadline)
	}
	replayed, _, err := h.Store.Replay(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if replayed.Result != rules.Result("1-0") || replayed.Termination != rules.TermTime {
		t.Errorf("replayed result %q %q, want 1-0 time", replayed.Result, replayed.Termination)
	}
}

// StartRound starts every board's clock at once; absent players are
// marked absent (FIDE 6.6, 6.7).
func TestStartRoundWithAbsences(t *testing.T) {
	h := halltest.Start(t)
	// Regulations allow 15 minutes' lateness (6.7.1), so absence does not forfeit at once.
	boards := h.Round(t, "5400", 3, &pb.ClockConfig{Regulations: &pb.Regulations{DefaultTimeMs: proto.Int64(900_000)}})
	var devs []*liveDevice
	for _, b := range boards {
		devs = append(devs, startClock(t, h, b.GetDeviceId(), nil, false))
	}
	began := time.Now()
	r := startRoundApplied(t, h, boards[0].GetRoundId(),
		&pb.Absence{BoardId: boards[0].GetBoardId(), Side: pb.Side_SIDE_WHITE},
		&pb.Absence{BoardId: boards[1].GetBoardId(), Side: pb.Side_SIDE_BLACK})
	if el := time.Since(began); el > 2*time.Second {
		t.Errorf("StartRound took %s, want the boards started together (well under the 3 s command wait)", el)
	}
	if len(r.GetBoards()) != 3 {
		t.Fatalf("StartRound answered for %d boards, want 3", len(r.GetBoards()))
	}
	want := map[string][2]bool{
		boards[0].GetBoardId(): {true, false},
		boards[1].GetBoardId(): {false, true},
		boards[2].GetBoardId(): {false, false},
	}
	for i, b := range boards {
		id := b.GetBoardId()
		st := fetchBoard(t, h, id).GetState()
		w := want[id]
		if st.GetStatus() != pb.BoardStatus_BOARD_STATUS_RUNNING || st.GetRunning() != pb.Side_SIDE_WHITE ||
			st.GetWhite().GetAbsent() != w[0] || st.GetBlack().GetAbsent() != w[1] {
			t.Errorf("board %d: %v, white absent %v, black absent %v; want running (white's clock), %v, %v",
				i+1, st.GetStatus(), st.GetWhite().GetAbsent(), st.GetBlack().GetAbsent(), w[0], w[1])
		}
		halltest.Synced(t, devs[i].Device)
		ds := devs[i].State()
		if ds.P[rules.White].Absent != w[0] || ds.P[rules.Black].Absent != w[1] || ds.Status != rules.Running {
			t.Errorf("device %d: white absent %v, black absent %v, %s; want %v, %v, running", i+1, ds.P[rules.White].Absent, ds.P[rules.Black].Absent, ds.Status, w[0], w[1])
		}
		evs := boardLog(t, h.Store, id)
		if len(evs) != 1 || evs[0].Event.Kind != rules.KindStart || evs[0].Event.AbsentWhite != w[0] || evs[0].Event.AbsentBlack != w[1] || evs[0].CommandID == "" {
			t.Errorf("board %d events = %+v, want one START command with the absences", i+1, evs)
		}
	}
}

// 6.10.1 with a spare taken from another table: the table it left shows no
// device — and not a device online.
func TestSpareFromAnotherBoard(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t)
	boards := h.Round(t, "300+2", 2)
	b1, b2 := boards[0].GetBoardId(), boards[1].GetBoardId()
	d1 := startClock(t, h, boards[0].GetDeviceId(), nil, false)
	d2 := startClock(t, h, boards[1].GetDeviceId(), nil, false)
	startRoundApplied(t, h, boards[0].GetRoundId())
	pressOn(t, d1, rules.White)
	halltest.Synced(t, d1.Device)
	d1.stop()
	waitDeviceOnline(t, h, b1, false)

	arb, ctx := h.Arbiter(t)
	// Board 2's game is not over: its clock is busy there, and is taken
	// only when the request says it replaces.
	if _, err := arb.AssignDevice(ctx, &pb.AssignDeviceRequest{BoardId: b1, DeviceId: boards[1].GetDeviceId(), Reason: "spare from table 2"}); status.Code(err) != codes.FailedPrecondition {
		t.Fatalf("taking a busy device without replace: %v, want FAILED_PRECONDITION", err)
	}
	if _, err := arb.AssignDevice(ctx, &pb.AssignDeviceRequest{BoardId: b1, DeviceId: boards[1].GetDeviceId(), Reason: "spare from table 2", Replace: true}); err != nil {
		t.Fatal(err)
	}
	halltest.Eventually(t, 5*time.Second, func() error {
		if got := d2.Status().BoardID; got != b1 {
			return fmt.Errorf("spare on %q, want %s", got, b1)
		}
		return nil
	})
	pressOn(t, d2, rules.Black)
	halltest.Synced(t, d2.Device)
	checkHistoryMatchesLog(t, d2.History(), boardLog(t, h.Store, b1))
	if st := fetchBoard(t, h, b1).GetState(); st.GetBoardSeq() != 3 || !st.GetDeviceOnline() {
		t.Errorf("board 1: board_seq %d, device_online %v; want 3, true", st.GetBoardSeq(), st.GetDeviceOnline())
	}
	halltest.Eventually(t, 2*time.Second, func() error {
		got := fetchBoard(t, h, b2)
		if got.GetDeviceId() != "" || got.GetState().GetDeviceOnline() {
			return fmt.Errorf("board 2 after its device left: device %q, device_online %v; want none, false",
				got.GetDeviceId(), got.GetState().GetDeviceOnline())
		}
		return nil
	})
}

// 6.10.1: a board on the virtual clock gets a spare device later; the spare
// continues the board's history, virtual events included, and the dead
// device, coming back, is unassigned.
func TestVirtualClockThenSpare(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t)
	b := h.Round(t, "300+2", 1)[0]
	id, devA := b.GetBoardId(), b.GetDeviceId()
	a := startClock(t, h, devA, nil, false)
	startRoundApplied(t, h, b.GetRoundId())
	pressOn(t, a, rules.White)
	halltest.Synced(t, a.Device)
	a.stop()
	waitDeviceOnline(t, h, id, false)

	arb, ctx := h.Arbiter(t)
	v, err := arb.UseVirtualClock(ctx, &pb.UseVirtualClockRequest{BoardId: id, Reason: "clock dead"})
	if err != nil {
		t.Fatal(err)
	}
	if v.GetState().GetSource() != pb.ClockSource_CLOCK_SOURCE_VIRTUAL {
		t.Fatalf("source = %v, want VIRTUAL", v.GetState().GetSource())
	}
	act(t, arb, ctx, id, &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_PRESS, Side: pb.Side_SIDE_BLACK}, pb.CommandStatus_COMMAND_STATUS_APPLIED)

	// The dead device comes back: it keeps no board any more.
	a.run()
	halltest.Eventually(t, 5*time.Second, func() error {
		if st := a.Status(); !st.Connected || st.BoardID != "" {
			return fmt.Errorf("device A: connected %v, board %q; want connected, unassigned", st.Connected, st.BoardID)
		}
		return nil
	})

	spare := startClock(t, h, "CLK-SPARE", nil, true)
	got, err := arb.AssignDevice(ctx, &pb.AssignDeviceRequest{BoardId: id, DeviceId: "CLK-SPARE", Reason: "spare clock arrived"})
	if err != nil {
		t.Fatal(err)
	}
	if got.GetState().GetSource() != pb.ClockSource_CLOCK_SOURCE_DEVICE || !got.GetState().GetDeviceOnline() {
		t.Errorf("after AssignDevice: source %v, device_online %v; want DEVICE, true", got.GetState().GetSource(), got.GetState().GetDeviceOnline())
	}
	halltest.Eventually(t, 5*time.Second, func() error {
		if got := spare.Status().BoardID; got != id {
			return fmt.Errorf("spare on %q, want %s", got, id)
		}
		return nil
	})
	pressOn(t, spare, rules.White)
	halltest.Synced(t, spare.Device)
	evs := boardLog(t, h.Store, id)
	checkHistoryMatchesLog(t, spare.History(), evs)
	if len(evs) != 4 || evs[2].Actor == "" || evs[2].DeviceID != "" || evs[3].DeviceID != "CLK-SPARE" {
		t.Errorf("log = %+v, want start, press (A), press (arbiter, virtual), press (spare)", evs)
	}
	if st := fetchBoard(t, h, id).GetState(); st.GetBoardSeq() != 4 || st.GetWhite().GetMoves() != 2 || st.GetBlack().GetMoves() != 1 {
		t.Errorf("board: board_seq %d, moves %d/%d; want 4, 2/1", st.GetBoardSeq(), st.GetWhite().GetMoves(), st.GetBlack().GetMoves())
	}
}

// Arbiter commands waiting for their clocks outlive a restart of the hall:
// each board gets back its own, in the order they were issued, and a
// board with none gets none.
func TestPendingCommandsOutliveARestart(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t)
	bs := h.Round(t, "300+2", 3)
	var ds []*liveDevice
	for _, b := range bs {
		ds = append(ds, startClock(t, h, b.GetDeviceId(), nil, false))
	}
	startRoundApplied(t, h, bs[0].GetRoundId())
	for i, d := range ds {
		d.stop()
		d.Close()
		waitDeviceOnline(t, h, bs[i].GetBoardId(), false)
	}
	arb, ctx := h.Arbiter(t)
	want := map[string][]string{}
	for _, c := range []struct {
		board int
		ms    int64
	}{{0, 60_000}, {2, 30_000}, {0, 10_000}} {
		id := bs[c.board].GetBoardId()
		add := &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_ADD_TIME, Side: pb.Side_SIDE_WHITE, Ms: c.ms}
		r, err := arb.BoardAction(ctx, &pb.BoardActionRequest{BoardId: id, Action: add, Reason: "disturbance", WaitMs: 50})
		if err != nil || r.GetStatus() != pb.CommandStatus_COMMAND_STATUS_PENDING {
			t.Fatalf("BoardAction on %s = %v, %v; want it pending", id, r, err)
		}
		want[id] = append(want[id], r.GetCommandId())
	}

	h.Restart(t)
	for _, b := range bs {
		id := b.GetBoardId()
		got := fetchBoard(t, h, id)
		var ids []string
		for _, p := range got.GetPending() {
			ids = append(ids, p.GetCommandId())
		}
		if !slices.Equal(ids, want[id]) || got.GetState().GetPendingCommands() != int32(len(want[id])) {
			t.Errorf("%s after the restart: pending %v (pending_commands %d); want %v", id, ids, got.GetState().GetPendingCommands(), want[id])
		}
	}
}
