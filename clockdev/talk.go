package clockdev

import (
	"errors"
	"slices"

	"github.com/chesshall/hallclock/formats/announce"
	"github.com/chesshall/hallclock/internal/wire"
	hallv1 "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
)

// A talking clock (FIDE 2018 Appendix D.2.6.1: a clock made for the
// visually disabled player announces the time and the number of moves to
// him). It speaks only when asked: its player presses its announce button
// (RequestAnnouncement), or the hall sends an Announce at the player's
// request through his assistant or the arbiter (D.2.10.4: only when the
// player asks). Nothing else — a press, a flag, a command, a new board —
// makes it speak.
//
// At the button the clock builds the words itself, from its own state,
// with the same package the hall uses (formats/announce): it keeps the
// time, so its count is exact, and it answers its player when the network
// is down. The hall's words are said as the hall wrote them.

// ErrNotTalking: the device has no voice (Config.Speak is nil).
var ErrNotTalking = errors.New("clockdev: the device is not a talking clock (no Config.Speak)")

// Speech is something a talking clock says.
type Speech struct {
	BoardID  string
	To       rules.Side // the player it is for (his earpiece)
	Language string     // BCP 47 tag of Text
	Text     string
	Facts    announce.Facts // what Text tells: moves completed and time used by both
	// AskedBy is who asked: "player" for the clock's own button, else the
	// hall's Announce.requested_by ("assistant:...", "arbiter:Anna").
	AskedBy string
	// AnnounceID is the hall's request, "" for the button.
	AnnounceID string
}

// AskedByPlayer is Speech.AskedBy for the clock's own button.
const AskedByPlayer = "player"

// recentAnnouncements is how many of the hall's announce ids a device
// remembers, so that an Announce delivered twice is said once.
const recentAnnouncements = 32

// RequestAnnouncement is side's player pressing the clock's announce
// button: the clock says the completed moves and the time used by both
// players, now, in the player's language (the board's
// rules.BlindPlayer.Language) when its voice speaks it (Config.Voices),
// in English otherwise. It returns what was said. It fails with
// ErrNotTalking, ErrNotAssigned or ErrClosed; it records nothing.
func (d *Device) RequestAnnouncement(side rules.Side) (Speech, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	switch {
	case d.closed:
		return Speech{}, ErrClosed
	case d.speak == nil:
		return Speech{}, ErrNotTalking
	case !side.Valid():
		return Speech{}, &rules.InputError{What: "side", Value: side.String(), Allowed: "white or black"}
	case d.asg == nil:
		return Speech{}, ErrNotAssigned
	}
	st := d.st.Project(d.boardNowLocked())
	f := announce.FromState(st)
	a := announce.Say(announce.Choose(st.Config.Blind.Players[side].Language, d.voices), f)
	sp := Speech{BoardID: d.asg.GetBoardId(), To: side, Language: a.Language, Text: a.Text, Facts: f, AskedBy: AskedByPlayer}
	d.sayLocked(sp)
	return sp, nil
}

// announceLocked says the hall's Announce, once, if it is for the board
// the device keeps and the device can speak.
func (d *Device) announceLocked(a *hallv1.Announce) {
	switch err := a.Validate(); {
	case d.speak == nil:
		d.log.Warn("the hall asked a clock without a voice to announce", "announce", a.GetAnnounceId())
		return
	case err != nil:
		d.log.Warn("announcement not said", "announce", a.GetAnnounceId(), "err", err)
		return
	case d.asg == nil || d.asg.GetBoardId() != a.GetBoardId():
		d.log.Warn("announcement for a board the clock does not keep: not said", "announce", a.GetAnnounceId(), "board", a.GetBoardId())
		return
	case slices.Contains(d.announced, a.GetAnnounceId()):
		return
	}
	d.announced = append(d.announced, a.GetAnnounceId())
	if len(d.announced) > recentAnnouncements {
		d.announced = d.announced[1:]
	}
	to, _ := wire.RulesSide(a.GetTo()) // Validate checked it
	d.sayLocked(Speech{
		BoardID: a.GetBoardId(), To: to, Language: a.GetLanguage(), Text: a.GetText(),
		Facts: announce.Facts{
			Moves:  [2]int{int(a.GetWhiteMoves()), int(a.GetBlackMoves())},
			UsedMs: [2]int64{a.GetWhiteUsedMs(), a.GetBlackUsedMs()},
		},
		AskedBy: a.GetRequestedBy(), AnnounceID: a.GetAnnounceId(),
	})
}

// sayLocked hands sp to the voice and reports it.
func (d *Device) sayLocked(sp Speech) {
	d.speak(sp)
	d.notifyLocked(Notice{Kind: NoticeAnnouncement, Speech: &sp})
}

// capabilitiesLocked is what the device's Hello says it can do.
func (d *Device) capabilitiesLocked() *hallv1.DeviceCapabilities {
	if d.speak == nil {
		return nil
	}
	return &hallv1.DeviceCapabilities{Announce: true, Languages: slices.Clone(d.voices)}
}
