package clockdev

import (
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/chesshall/hallclock/internal/mono"
	"github.com/chesshall/hallclock/internal/wire"
	hallv1 "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
)

// voice is a talking clock's speaker: it keeps what it was given to say.
type voice struct {
	mu   sync.Mutex
	said []Speech
}

func (v *voice) speak(s Speech) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.said = append(v.said, s)
}

func (v *voice) heard() []Speech {
	v.mu.Lock()
	defer v.mu.Unlock()
	return slices.Clone(v.said)
}

// blindAssignment is board B1, 90m+30s under the 2018 rules, White
// visually disabled with an assistant, announcements to him in German.
func blindAssignment() *hallv1.Assignment {
	a := testAssignment("B1", "90m+30s")
	a.Config.Ruleset = "fide-2018"
	a.Config.BlindPlay = &hallv1.BlindPlay{White: &hallv1.BlindPlayer{VisuallyDisabled: true, Assistant: true, Language: "de"}}
	return a
}

// announceMsg is the hall's request to announce.
func announceMsg(a *hallv1.Announce) *hallv1.ServerMessage {
	return &hallv1.ServerMessage{Msg: &hallv1.ServerMessage_Announce{Announce: a}}
}

// A talking clock (FIDE 2018 D.2.6.1) says the completed moves and the
// time used by both players when its player presses its button, or when
// the hall asks at the player's request (D.2.10.4) — and never unasked:
// not at a press, a flag, an arbiter's command or a new assignment.
func TestTalkingClock(t *testing.T) {
	clk := mono.NewFake(time.Unix(0, 0))
	h := newFakeHall(t)
	h.set(func(h *fakeHall) { h.ackDelay = 0 })
	v := &voice{}
	d := testDevice(t, h, Config{Clock: clk, Outbox: assignedOutbox(t, blindAssignment()), Speak: v.speak, Voices: []string{"en", "de"}})
	waitFor(t, "the link", func() bool { return d.Status().Connected })

	// Its Hello says it can announce, and in which languages.
	_, _, hellos, _ := h.snapshot()
	if c := hellos[0].GetCapabilities(); !c.GetAnnounce() || !slices.Equal(c.GetLanguages(), []string{"en", "de"}) {
		t.Errorf("Hello.capabilities = %v, want announce in en and de", c)
	}

	// A game goes on: presses, a pause and a resumption by the arbiter, a
	// flag. The clock says nothing.
	if err := d.Do(rules.Event{Kind: rules.KindStart}); err != nil {
		t.Fatal(err)
	}
	clk.Advance(61 * time.Second)
	if err := d.Press(rules.White, "", ""); err != nil {
		t.Fatal(err)
	}
	clk.Advance(4 * time.Second)
	h.push(&hallv1.ServerMessage{Msg: &hallv1.ServerMessage_Command{Command: &hallv1.Command{CommandId: "c1",
		Action: &hallv1.ClockAction{Kind: hallv1.ActionKind_ACTION_KIND_PAUSE}}}})
	waitNotice(t, d, NoticeCommand)
	h.push(&hallv1.ServerMessage{Msg: &hallv1.ServerMessage_Command{Command: &hallv1.Command{CommandId: "c2",
		Action: &hallv1.ClockAction{Kind: hallv1.ActionKind_ACTION_KIND_RESUME}}}})
	waitNotice(t, d, NoticeCommand)
	assign(h, blindAssignment()) // the hall's record again: kept, and nothing said
	waitNotice(t, d, NoticeAssignment)
	if said := v.heard(); len(said) != 0 {
		t.Fatalf("the clock spoke unasked: %v", said)
	}

	// The visually disabled player presses the button: German, built on
	// the clock from its own count.
	sp, err := d.RequestAnnouncement(rules.White)
	if err != nil {
		t.Fatal(err)
	}
	want := Speech{BoardID: "B1", To: rules.White, Language: "de", AskedBy: AskedByPlayer,
		Text: "Weiß: 1 Zug, 1 Minute 1 Sekunde verbraucht. Schwarz: 0 Züge, 4 Sekunden verbraucht."}
	want.Facts.Moves, want.Facts.UsedMs = [2]int{1, 0}, [2]int64{61_000, 4_000}
	if sp != want {
		t.Errorf("RequestAnnouncement(white) = %+v, want %+v", sp, want)
	}
	if n := waitNotice(t, d, NoticeAnnouncement); n.Speech == nil || *n.Speech != want {
		t.Errorf("the announcement notice = %+v, want %+v", n.Speech, want)
	}
	// Black has no language of his own: English.
	if sp, err := d.RequestAnnouncement(rules.Black); err != nil || sp.Language != "en" ||
		sp.Text != "White: 1 move, 1 minute 1 second used. Black: 0 moves, 4 seconds used." {
		t.Errorf("RequestAnnouncement(black) = %+v, %v; want the English words", sp, err)
	}
	waitNotice(t, d, NoticeAnnouncement)

	// The hall asks, at the player's request through his assistant: the
	// clock says the hall's words, once, and only of its own board.
	st := d.State()
	hall := wire.Announce(st, rules.White, []string{"en", "de"})
	hall.AnnounceId, hall.BoardId, hall.RequestedBy = "a-1", "B1", "assistant:B1-white"
	h.push(announceMsg(hall))
	n := waitNotice(t, d, NoticeAnnouncement)
	if got := n.Speech; got == nil || got.Text != hall.GetText() || got.AnnounceID != "a-1" || got.AskedBy != "assistant:B1-white" ||
		got.To != rules.White || got.Language != "de" || got.Facts != sp.Facts {
		t.Errorf("the hall's announcement was said as %+v, want the hall's words %q", got, hall.GetText())
	}
	other := wire.Announce(st, rules.White, nil)
	other.AnnounceId, other.BoardId = "a-2", "B2"
	bad := wire.Announce(st, rules.White, nil)
	bad.AnnounceId, bad.BoardId, bad.To = "a-3", "B1", hallv1.Side_SIDE_UNSPECIFIED
	last := wire.Announce(st, rules.Black, nil)
	last.AnnounceId, last.BoardId = "a-4", "B1"
	for _, m := range []*hallv1.Announce{hall, other, bad, last} { // again, another board's, for nobody, then a new one
		h.push(announceMsg(m))
	}
	if n := waitNotice(t, d, NoticeAnnouncement); n.Speech.AnnounceID != "a-4" {
		t.Errorf("said %q after a-1; want a-1 said once, B2's and the malformed one not at all, then a-4", n.Speech.AnnounceID)
	}
	var ids []string
	for _, s := range v.heard() {
		ids = append(ids, s.AskedBy+"/"+s.AnnounceID)
	}
	if want := []string{"player/", "player/", "assistant:B1-white/a-1", "/a-4"}; !slices.Equal(ids, want) {
		t.Errorf("the clock said %q, want %q", ids, want)
	}
}

// A clock without a voice says it cannot announce, refuses the button and
// says nothing the hall asks.
func TestPlainClockDoesNotAnnounce(t *testing.T) {
	h := newFakeHall(t)
	d := testDevice(t, h, Config{Outbox: assignedOutbox(t, blindAssignment())})
	waitFor(t, "the link", func() bool { return d.Status().Connected })
	if _, _, hellos, _ := h.snapshot(); hellos[0].GetCapabilities() != nil {
		t.Errorf("a plain clock's Hello says capabilities %v", hellos[0].GetCapabilities())
	}
	if _, err := d.RequestAnnouncement(rules.White); !errors.Is(err, ErrNotTalking) {
		t.Errorf("RequestAnnouncement on a plain clock = %v, want ErrNotTalking", err)
	}
	h.push(announceMsg(&hallv1.Announce{AnnounceId: "a-1", BoardId: "B1", To: hallv1.Side_SIDE_WHITE, Text: "White: 0 moves."}))
	h.push(&hallv1.ServerMessage{Msg: &hallv1.ServerMessage_Command{Command: &hallv1.Command{CommandId: "c1",
		Action: &hallv1.ClockAction{Kind: hallv1.ActionKind_ACTION_KIND_START}}}})
	// Notices come in order: everything before the command's is looked at.
	timeout := time.After(5 * time.Second)
	for done := false; !done; {
		select {
		case n := <-d.Events():
			if n.Kind == NoticeAnnouncement {
				t.Errorf("a plain clock announced %+v", n.Speech)
			}
			done = n.Kind == NoticeCommand && n.Command.GetCommandId() == "c1"
		case <-timeout:
			t.Fatal("timed out waiting for the command")
		}
	}
	if _, err := New(Config{DeviceID: "x", Token: "t", Target: "hall:1", Voices: []string{"de"}}); err == nil {
		t.Errorf("New with Voices and no Speak = nil error, want one")
	}
}

// The arbiter sets the board to be played under the rules for visually
// disabled players in the middle of the game (2018 D.1; the hall sends
// the assignment again with the new configuration): the clock keeps its
// own time line — its presses the hall has not acknowledged included —
// and from then on speaks to the player in his language (D.2.6.1).
func TestBlindPlaySetMidGameKeepsTheClock(t *testing.T) {
	clk := mono.NewFake(time.Unix(0, 0))
	h := newFakeHall(t)
	h.set(func(h *fakeHall) { h.ackDelay = -1 }) // nothing acknowledged: the clock is ahead of the hall
	v := &voice{}
	plain := testAssignment("B1", "90m+30s")
	plain.Config.Ruleset = "fide-2018"
	d := testDevice(t, h, Config{Clock: clk, Outbox: assignedOutbox(t, plain), Speak: v.speak, Voices: []string{"en", "de"}})
	waitFor(t, "the link", func() bool { return d.Status().Connected })
	if err := d.Do(rules.Event{Kind: rules.KindStart}); err != nil {
		t.Fatal(err)
	}
	clk.Advance(10 * time.Second)
	if err := d.Press(rules.White, "", ""); err != nil {
		t.Fatal(err)
	}
	clk.Advance(3 * time.Second)

	blind := blindAssignment() // the hall's record: the start only, the new configuration
	blind.History = []*hallv1.ClockAction{action(kStart, 0, white)}
	assign(h, blind)
	if n := waitNotice(t, d, NoticeAssignment); n.Adopted {
		t.Errorf("the new configuration made the clock adopt the hall's history; want it kept")
	}
	if st := d.State(); st.P[rules.White].Moves != 1 || st.ToMove != rules.Black || d.BoardNow() != 13_000 {
		t.Errorf("after the new configuration: white %d moves, %v to move, board time %d; want 1, black, 13000",
			st.P[rules.White].Moves, st.ToMove, d.BoardNow())
	}
	sp, err := d.RequestAnnouncement(rules.White)
	if err != nil || sp.Language != "de" || sp.Text != "Weiß: 1 Zug, 10 Sekunden verbraucht. Schwarz: 0 Züge, 3 Sekunden verbraucht." {
		t.Errorf("RequestAnnouncement(white) = %+v, %v; want German words of 1 move and 10 s, 0 moves and 3 s", sp, err)
	}

	// A change of the time control is another matter: the hall's history
	// is adopted.
	other := blindAssignment()
	other.Config.TimeControl = "60m+30s"
	other.History = blind.History
	assign(h, other)
	if n := waitNotice(t, d, NoticeAssignment); !n.Adopted {
		t.Errorf("a new time control was kept; want the hall's history adopted")
	}
}
