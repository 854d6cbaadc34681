package jsapi

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/chesshall/hallclock/clockdev"
	"github.com/chesshall/hallclock/internal/mono"
	hallv1 "github.com/chesshall/hallclock/proto/hall/v1"
	"google.golang.org/protobuf/proto"
)

// noHall is a transport that never connects: the face's device is only
// its local clock here.
type noHall struct{}

func (noHall) Open(context.Context, string) (clockdev.Stream, error) {
	return nil, errors.New("no hall in this test")
}

// newFace is a face on a device that recovered board B1 (40 moves in 90
// minutes with 30 s a move, then 30 minutes), started at 0.
func newFace(t *testing.T) (*Face, *mono.Fake) {
	t.Helper()
	ob := clockdev.NewMemoryOutbox()
	a := &hallv1.Assignment{BoardId: "B1", Tournament: "Open", Round: 3, BoardNumber: 12, Table: 7,
		White: &hallv1.Player{Name: "Anna", Title: "WGM", Rating: 2431}, Black: &hallv1.Player{Name: "Boris"},
		Config: &hallv1.ClockConfig{TimeControl: "40/90m+30s:30m+30s",
			BlindPlay: &hallv1.BlindPlay{White: &hallv1.BlindPlayer{VisuallyDisabled: true, Language: "de"}}},
		History: []*hallv1.ClockAction{{Kind: hallv1.ActionKind_ACTION_KIND_START}}}
	if err := ob.SaveBoard(a); err != nil {
		t.Fatal(err)
	}
	clk := mono.NewFake(time.Unix(0, 0))
	d, err := clockdev.New(clockdev.Config{DeviceID: "TAB-1", Token: "t", Transport: noHall{}, Outbox: ob, Clock: clk})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return NewFace(d, true), clk
}

// The face shows the board as the device keeps it, the bonus and the
// periods of the control, who is visually disabled; it keeps the
// arbiter's reason for a pause, forgets that it could not count the time
// once the arbiter sets the clock, and takes the hall's ABORTED (close
// 4010) as another browser's takeover.
func TestFaceShowsTheDevice(t *testing.T) {
	f, clk := newFace(t)
	clk.Advance(1500 * time.Millisecond)
	v := f.State()
	if !v.Assigned || v.BoardID != "B1" || v.Running != "white" || v.WhiteMs != 90*60_000-1500 || v.Table != 7 || v.White.Title != "WGM" {
		t.Fatalf("state %+v", v)
	}
	if v.Periods != 2 || v.WhiteBonus != (BonusView{"increment", 30_000}) || !v.WhiteBlind || v.BlackBlind || !v.Talking || v.WhiteLang != "de" {
		t.Errorf("control and appendix: periods %d, bonus %+v, blind %v/%v, talking %v, language %q", v.Periods, v.WhiteBonus, v.WhiteBlind, v.BlackBlind, v.Talking, v.WhiteLang)
	}
	if !v.TimeUnknown || v.Connected {
		t.Errorf("time unknown %v, connected %v: want true and false", v.TimeUnknown, v.Connected)
	}
	if err := f.Press("white"); err != nil {
		t.Fatal(err)
	}
	if err := f.Press("purple"); err == nil {
		t.Error("a press of side purple was taken")
	}
	if v := f.State(); v.Running != "black" || v.WhiteMoves != 1 || v.Outbox != 1 {
		t.Errorf("after White's press: %+v", v)
	}

	pause := &hallv1.Command{CommandId: "c1", Reason: "a phone rang", IssuedBy: "arbiter:Anna",
		Action: &hallv1.ClockAction{Kind: hallv1.ActionKind_ACTION_KIND_PAUSE}}
	if n := f.Note(clockdev.Notice{Kind: clockdev.NoticeCommand, Command: pause}); n.Command != "ACTION_KIND_PAUSE" || n.Reason != "a phone rang" {
		t.Errorf("the pause's notice %+v", n)
	}
	if r, by := f.Pause(); r != "a phone rang" || by != "arbiter:Anna" {
		t.Errorf("pause reason %q by %q", r, by)
	}
	set := &hallv1.Command{CommandId: "c2", Action: &hallv1.ClockAction{Kind: hallv1.ActionKind_ACTION_KIND_SET_CLOCK}}
	f.Note(clockdev.Notice{Kind: clockdev.NoticeCommand, Command: set})
	if f.State().TimeUnknown {
		t.Error("the arbiter set the clock, the face still says it cannot know the time")
	}

	down := f.Note(clockdev.Notice{Kind: clockdev.NoticeDisconnected, Err: &clockdev.LinkError{Code: 14, Message: "restarting"}})
	if down.TakenOver || down.Code != 14 || f.State().TakenOver != "" {
		t.Errorf("UNAVAILABLE taken as a takeover: %+v", down)
	}
	over := f.Note(clockdev.Notice{Kind: clockdev.NoticeDisconnected, Err: &clockdev.LinkError{Code: 10, Message: "another browser took over TAB-1"}})
	if !over.TakenOver || over.Code != 10 || f.State().TakenOver == "" {
		t.Errorf("ABORTED not taken as a takeover: %+v, state %q", over, f.State().TakenOver)
	}
	// The device library reports the takeover as its own notice (and
	// stops): the face must say so from that notice alone.
	g, _ := newFace(t)
	took := g.Note(clockdev.Notice{Kind: clockdev.NoticeTakenOver, Err: fmt.Errorf("%w: %w", clockdev.ErrTakenOver, &clockdev.LinkError{Code: 10, Message: "another connection of this device took over"})})
	if !took.TakenOver || took.Code != 10 || g.State().TakenOver == "" {
		t.Errorf("NoticeTakenOver not shown as a takeover: %+v, state %q", took, g.State().TakenOver)
	}
}

// A page that picks up a paused board — a fresh browser taking over a
// device, a tablet replacing a clock — has heard no command: it says the
// arbiter's reason the hall sent with the board (Assignment.pause), keeps
// it for a reload (Pause), and forgets it when the hall's board is no
// longer paused by the arbiter.
func TestFaceShowsThePauseTheHallSent(t *testing.T) {
	ob := clockdev.NewMemoryOutbox()
	a := &hallv1.Assignment{BoardId: "B1", Config: &hallv1.ClockConfig{TimeControl: "5m"},
		History: []*hallv1.ClockAction{{Kind: hallv1.ActionKind_ACTION_KIND_START},
			{Kind: hallv1.ActionKind_ACTION_KIND_PAUSE, TMs: 1000}},
		Pause: &hallv1.PauseNote{Reason: "a phone rang", IssuedBy: "chief:Anna"}}
	if err := ob.SaveBoard(a); err != nil {
		t.Fatal(err)
	}
	d, err := clockdev.New(clockdev.Config{DeviceID: "TAB-1", Token: "t", Transport: noHall{}, Outbox: ob, Clock: mono.NewFake(time.Unix(0, 0))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	f := NewFace(d, false)
	if v := f.State(); v.Status != "paused" || v.PauseReason != "a phone rang" || v.PauseBy != "chief:Anna" {
		t.Errorf("a board paused by the hall's word: status %q, reason %q by %q; want paused, the arbiter's reason", v.Status, v.PauseReason, v.PauseBy)
	}

	// Sent by the hall as the device connects (an Assignment notice).
	b := proto.Clone(a).(*hallv1.Assignment)
	b.Pause = &hallv1.PauseNote{Reason: "the lights went out", IssuedBy: "arbiter:Ben"}
	f.Note(clockdev.Notice{Kind: clockdev.NoticeAssignment, Assignment: b, Adopted: true})
	if r, by := f.Pause(); r != "the lights went out" || by != "arbiter:Ben" {
		t.Errorf("after the hall's board: the pause kept for a reload is %q by %q; want the hall's", r, by)
	}
	b.Pause = nil
	f.Note(clockdev.Notice{Kind: clockdev.NoticeAssignment, Assignment: b, Adopted: true})
	if r, by := f.Pause(); r != "" || by != "" {
		t.Errorf("the hall's board no longer paused by the arbiter: the face keeps %q by %q", r, by)
	}
}
