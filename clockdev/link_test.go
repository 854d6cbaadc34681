package clockdev

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	hallv1 "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// waitNotice reads d's notices until one of kind arrives.
func waitNotice(t *testing.T, d *Device, kind NoticeKind) Notice {
	t.Helper()
	timeout := time.After(5 * time.Second)
	for {
		select {
		case n, ok := <-d.Events():
			if !ok {
				t.Fatalf("Events closed while waiting for a %s notice", kind)
			}
			if n.Kind == kind {
				return n
			}
		case <-timeout:
			t.Fatalf("timed out waiting for a %s notice", kind)
		}
	}
}

func TestOfflineClockRunsAndOutboxIsResentInOrder(t *testing.T) {
	h := newFakeHall(t)
	h.set(func(h *fakeHall) { h.down = true; h.ackDelay = 5 * time.Millisecond })
	d := testDevice(t, h, Config{Outbox: assignedOutbox(t, testAssignment("B1", "300"))})

	// The hall server is down: the clock runs and records all the same.
	if err := d.Do(rules.Event{Kind: rules.KindStart}); err != nil {
		t.Fatalf("Do(start) offline = %v", err)
	}
	if err := d.Press(rules.White, "e4", ""); err != nil {
		t.Fatalf("Press(white) offline = %v", err)
	}
	if err := d.Press(rules.White, "", ""); err != nil { // 6.2.1: not White's move any more: nothing happens
		t.Fatalf("Press(white) again = %v", err)
	}
	if err := d.Press(rules.Black, "e5", ""); err != nil {
		t.Fatalf("Press(black) offline = %v", err)
	}
	waitFor(t, "a failed connection attempt", func() bool { return d.Status().LastError != "" })
	st := d.State()
	if st.Status != rules.Running || st.ToMove != rules.White || st.P[rules.White].Moves != 1 || st.P[rules.Black].Moves != 1 {
		t.Errorf("offline state = %v, white to move, moves %d/%d; want running, white to move, 1/1",
			st.Status, st.P[rules.White].Moves, st.P[rules.Black].Moves)
	}
	if s := d.Status(); s.Connected || s.NextSeq != 4 || s.Outbox != 3 {
		t.Errorf("offline Status = %+v, want not connected, NextSeq 4, Outbox 3", s)
	}

	h.set(func(h *fakeHall) { h.down = false })
	waitFor(t, "the outbox to be acknowledged", func() bool { s := d.Status(); return s.Connected && s.Outbox == 0 && s.AckedSeq == 3 })
	got, dups, hellos, _ := h.snapshot()
	if want := []uint64{1, 2, 3}; !slices.Equal(seqs(got), want) {
		t.Fatalf("server got seqs %v, want %v", seqs(got), want)
	}
	kinds := []hallv1.ActionKind{hallv1.ActionKind_ACTION_KIND_START, hallv1.ActionKind_ACTION_KIND_PRESS, hallv1.ActionKind_ACTION_KIND_PRESS}
	var lastT int64
	for i, ev := range got {
		if ev.GetBoardId() != "B1" || ev.GetAction().GetKind() != kinds[i] {
			t.Errorf("event %d = board %q %v, want B1 %v", i, ev.GetBoardId(), ev.GetAction().GetKind(), kinds[i])
		}
		if ev.GetAction().GetTMs() < lastT {
			t.Errorf("event %d at %d ms, before the previous one (%d ms)", i, ev.GetAction().GetTMs(), lastT)
		}
		lastT = ev.GetAction().GetTMs()
	}
	if got[1].GetAction().GetSan() != "e4" || got[1].GetAction().GetSide() != hallv1.Side_SIDE_WHITE {
		t.Errorf("event 2 = %v, want White's press e4", got[1].GetAction())
	}
	if h := hellos[0]; h.GetDeviceId() != "CLK-1" || h.GetLastAckedSeq() != 0 || h.GetNextSeq() != 4 ||
		h.GetClock().GetBoardId() != "B1" || h.GetClock().GetBoardSeq() != 3 {
		t.Errorf("first Hello = %v, want CLK-1 acked 0 next 4 on B1 with 3 board events", h)
	}

	// Nothing acknowledged is sent again after a reconnection.
	h.drop(status.Error(codes.Unavailable, "server restart"))
	waitFor(t, "a second Hello", func() bool { _, _, hs, _ := h.snapshot(); return len(hs) == 2 && d.Status().Connected })
	if err := d.Press(rules.White, "Nf3", ""); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "seq 4 acknowledged", func() bool { return d.Status().AckedSeq == 4 })
	got, dups, hellos, _ = h.snapshot()
	if hl := hellos[1]; hl.GetLastAckedSeq() != 3 || hl.GetNextSeq() != 4 {
		t.Errorf("second Hello acked %d next %d, want 3 and 4", hl.GetLastAckedSeq(), hl.GetNextSeq())
	}
	if len(dups) != 0 {
		t.Errorf("server received acknowledged events again: %v", seqs(dups))
	}
	if want := []uint64{1, 2, 3, 4}; !slices.Equal(h.received(), want) {
		t.Errorf("server received seqs %v, want %v", h.received(), want)
	}
}

func TestDuplicateWelcome(t *testing.T) {
	h := newFakeHall(t)
	h.set(func(h *fakeHall) { h.down = true; h.ackDelay = -1; h.doubleWelcome = true })
	d := testDevice(t, h, Config{Outbox: assignedOutbox(t, testAssignment("B1", "300"))})
	if err := d.Do(rules.Event{Kind: rules.KindStart}); err != nil {
		t.Fatal(err)
	}
	if err := d.Press(rules.White, "", ""); err != nil {
		t.Fatal(err)
	}
	h.set(func(h *fakeHall) { h.down = false })
	waitFor(t, "two events", func() bool { return len(h.received()) >= 2 })
	time.Sleep(30 * time.Millisecond) // room for a wrong resend
	if want := []uint64{1, 2}; !slices.Equal(h.received(), want) {
		t.Errorf("with two Welcomes the server received %v, want %v (each once)", h.received(), want)
	}

	// Acknowledge, then send stale and repeated Welcomes: the device never
	// lowers what was acknowledged and resends nothing.
	h.push(&hallv1.ServerMessage{Msg: &hallv1.ServerMessage_Ack{Ack: &hallv1.Ack{UpToSeq: 2}}})
	waitFor(t, "the ack", func() bool { return d.Status().AckedSeq == 2 })
	h.set(func(h *fakeHall) { h.acked = 2 })
	h.push(&hallv1.ServerMessage{Msg: &hallv1.ServerMessage_Welcome{Welcome: &hallv1.Welcome{AckedSeq: 1, HeartbeatIntervalMs: 60_000}}})
	h.push(&hallv1.ServerMessage{Msg: &hallv1.ServerMessage_Welcome{Welcome: &hallv1.Welcome{AckedSeq: 2, HeartbeatIntervalMs: 60_000}}})
	if err := d.Press(rules.Black, "", ""); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "seq 3", func() bool { return len(h.received()) >= 3 })
	time.Sleep(30 * time.Millisecond)
	if want := []uint64{1, 2, 3}; !slices.Equal(h.received(), want) {
		t.Errorf("after stale Welcomes the server received %v, want %v", h.received(), want)
	}
	if s := d.Status(); s.AckedSeq != 2 || s.NextSeq != 4 || s.Outbox != 1 {
		t.Errorf("Status = %+v, want acked 2, next 4, outbox 1", s)
	}
}

func TestLostStorageRenumbers(t *testing.T) {
	h := newFakeHall(t)
	// The server committed 41 events of this device before it lost its storage.
	h.set(func(h *fakeHall) { h.down = true; h.acked = 41 })
	d := testDevice(t, h, Config{Outbox: assignedOutbox(t, testAssignment("B1", "300"))})
	if err := d.Do(rules.Event{Kind: rules.KindStart}); err != nil {
		t.Fatal(err)
	}
	if err := d.Press(rules.White, "d4", ""); err != nil {
		t.Fatal(err)
	}
	if s := d.Status(); s.NextSeq != 3 {
		t.Fatalf("NextSeq = %d before reconnecting, want 3", s.NextSeq)
	}
	h.set(func(h *fakeHall) { h.down = false })
	waitFor(t, "the renumbered events acknowledged", func() bool { return d.Status().AckedSeq == 43 })
	got, _, hellos, _ := h.snapshot()
	if want := []uint64{42, 43}; !slices.Equal(seqs(got), want) {
		t.Fatalf("server got %v, want %v", seqs(got), want)
	}
	if got[0].GetAction().GetKind() != hallv1.ActionKind_ACTION_KIND_START || got[1].GetAction().GetSan() != "d4" {
		t.Errorf("renumbered events = %v, %v; want the start and d4", got[0].GetAction(), got[1].GetAction())
	}
	// One stream: the renumbering raised no gap error and no reconnection.
	// Its Hello says next_seq 3, or 1 when the device opened the stream
	// before the start and the press were recorded (a gRPC stream opens
	// on the client before the hall's handler runs, so on a loaded
	// machine the fake hall may read a Hello built while it was down).
	if len(hellos) != 1 || (hellos[0].GetNextSeq() != 3 && hellos[0].GetNextSeq() != 1) {
		t.Errorf("Hellos = %v, want one with next_seq 3 (or 1, built before the events; no gap error)", hellos)
	}
	if err := d.Press(rules.Black, "d5", ""); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "seq 44", func() bool { return d.Status().AckedSeq == 44 })
}

func TestGapStatusReconnects(t *testing.T) {
	h := newFakeHall(t)
	h.set(func(h *fakeHall) { h.lose[1] = true }) // seq 1 is lost in transit: seq 2 is a gap
	d := testDevice(t, h, Config{Outbox: assignedOutbox(t, testAssignment("B1", "300"))})
	waitFor(t, "the link", func() bool { return d.Status().Connected })
	if err := d.Do(rules.Event{Kind: rules.KindStart}); err != nil {
		t.Fatal(err)
	}
	if err := d.Press(rules.White, "", ""); err != nil {
		t.Fatal(err)
	}
	n := waitNotice(t, d, NoticeDisconnected)
	if status.Code(n.Err) != codes.OutOfRange {
		t.Errorf("disconnected with %v, want OUT_OF_RANGE", n.Err)
	}
	waitFor(t, "both events acknowledged", func() bool { return d.Status().AckedSeq == 2 })
	got, dups, hellos, _ := h.snapshot()
	if want := []uint64{1, 2}; !slices.Equal(seqs(got), want) {
		t.Errorf("server committed %v, want %v", seqs(got), want)
	}
	if len(hellos) < 2 || len(dups) != 0 {
		t.Errorf("%d Hellos, duplicates %v; want a reconnection and no duplicates", len(hellos), seqs(dups))
	}
	if s := d.Status(); !strings.Contains(s.LastError, "gap") {
		t.Errorf("LastError = %q, want the gap status", s.LastError)
	}
}

func TestCommandAppliedOnce(t *testing.T) {
	h := newFakeHall(t)
	cmd := &hallv1.Command{CommandId: "c1", Reason: "disturbance", IssuedBy: "arbiter:Anna",
		Action: &hallv1.ClockAction{Kind: hallv1.ActionKind_ACTION_KIND_ADD_TIME, Side: hallv1.Side_SIDE_WHITE, Ms: 60_000}}
	h.set(func(h *fakeHall) {
		h.ackDelay = -1 // not committed on the first stream
		h.assignment = testAssignment("B1", "300", action(hallv1.ActionKind_ACTION_KIND_START, 0, hallv1.Side_SIDE_WHITE))
		h.commands = []*hallv1.Command{cmd}
	})
	d := testDevice(t, h, Config{})
	n := waitNotice(t, d, NoticeCommand)
	if n.Err != nil || n.Event.GetCommandId() != "c1" || n.Event.GetSeq() != 1 {
		t.Fatalf("command notice = %+v, want c1 applied as seq 1", n)
	}
	waitFor(t, "the command's event", func() bool { return len(h.received()) == 1 })

	// The stream drops before the commit: the server sends the command
	// again, the device resends its event and must not apply it twice.
	h.set(func(h *fakeHall) { h.ackDelay = 0 })
	h.drop(status.Error(codes.Unavailable, "network"))
	waitFor(t, "the event committed", func() bool { return d.Status().AckedSeq == 1 })
	got, _, hellos, _ := h.snapshot()
	if len(hellos) != 2 {
		t.Errorf("%d Hellos, want 2", len(hellos))
	}
	for _, ev := range got {
		if ev.GetCommandId() == "c1" && ev.GetSeq() != 1 {
			t.Errorf("command c1 reported again as seq %d", ev.GetSeq())
		}
	}
	adds := 0
	for _, a := range d.History() {
		if a.GetKind() == hallv1.ActionKind_ACTION_KIND_ADD_TIME {
			adds++
		}
	}
	st := d.State()
	if adds != 1 || st.P[rules.White].MainMs > 360_000 || st.P[rules.White].MainMs < 330_000 {
		t.Errorf("after a repeated command: %d additions, white has %d ms; want 1 addition, about 360000 ms", adds, st.P[rules.White].MainMs)
	}
	if s := d.Status(); s.NextSeq != 2 || s.Outbox != 0 {
		t.Errorf("Status = %+v, want next 2, outbox empty", s)
	}
}

func TestRefusedCommandIsReported(t *testing.T) {
	h := newFakeHall(t)
	h.set(func(h *fakeHall) {
		h.assignment = testAssignment("B1", "300", action(hallv1.ActionKind_ACTION_KIND_START, 0, hallv1.Side_SIDE_WHITE))
		// 6.10.2: a setting needs a stopped clock, and this one runs.
		h.commands = []*hallv1.Command{{CommandId: "c2", Action: &hallv1.ClockAction{
			Kind: hallv1.ActionKind_ACTION_KIND_SET_CLOCK, WhiteMs: 1000, BlackMs: 1000}}}
		h.reject = func(ev *hallv1.DeviceEvent) string {
			if ev.GetCommandId() == "c2" {
				return "running"
			}
			return ""
		}
	})
	d := testDevice(t, h, Config{})
	n := waitNotice(t, d, NoticeCommand)
	if !errors.Is(n.Err, rules.ErrRefused) {
		t.Errorf("command notice error = %v, want the local refusal", n.Err)
	}
	if ev := n.Event; ev.GetCommandId() != "c2" || ev.GetAction().GetKind() != hallv1.ActionKind_ACTION_KIND_SET_CLOCK || ev.GetBoardId() != "B1" {
		t.Errorf("reported event = %v, want the SET_CLOCK with command_id c2 on B1", ev)
	}
	r := waitNotice(t, d, NoticeRejection)
	if r.Rejection.GetSeq() != 1 || r.Rejection.GetCode() != "running" {
		t.Errorf("rejection = %v, want seq 1 running", r.Rejection)
	}
	waitFor(t, "the ack", func() bool { return d.Status().AckedSeq == 1 })
	if s := d.Status(); s.Rejected != 1 || s.Outbox != 0 || len(d.Rejections()) != 1 {
		t.Errorf("Status = %+v, rejections %v; want 1 rejected, outbox empty", s, d.Rejections())
	}
	if st := d.State(); st.P[rules.White].MainMs < 250_000 || st.P[rules.Black].MainMs != 300_000 {
		t.Errorf("refused setting changed the clock: white %d black %d", st.P[rules.White].MainMs, st.P[rules.Black].MainMs)
	}
	if len(d.History()) != 1 {
		t.Errorf("history has %d actions, want only the start", len(d.History()))
	}
	d.mu.Lock()
	diverged := d.diverged
	d.mu.Unlock()
	if diverged {
		t.Error("rejection of a locally refused command marked the board diverged")
	}
}

func TestHeartbeats(t *testing.T) {
	h := newFakeHall(t)
	h.set(func(h *fakeHall) { h.hbMs = 10 })
	d := testDevice(t, h, Config{
		Outbox:     assignedOutbox(t, testAssignment("B1", "300")),
		BatteryPct: func() int { return 57 },
		DriftPPM:   12.5,
	})
	if err := d.Do(rules.Event{Kind: rules.KindStart}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "two heartbeats", func() bool { h.mu.Lock(); defer h.mu.Unlock(); return len(h.heartbeats) >= 2 })
	h.mu.Lock()
	hb := h.heartbeats[len(h.heartbeats)-1]
	h.mu.Unlock()
	if hb.GetBatteryPct() != 57 || hb.GetDriftPpm() != 12.5 || hb.GetBlackMs() != 300_000 || hb.GetWhiteMs() > 300_000 || hb.GetBoardTMs() < 0 {
		t.Errorf("heartbeat = %v, want battery 57, drift 12.5, black 300000", hb)
	}
}
