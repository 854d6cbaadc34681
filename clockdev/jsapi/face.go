package jsapi

import (
	"errors"
	"sync"

	"github.com/chesshall/hallclock/clockdev"
	hallv1 "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
)

// codeAborted is the status (google.rpc.Code ABORTED, WebSocket close
// 4010) with which the hall ends the link of a device whose credentials
// another browser took over: this one must not come back.
const codeAborted = 10

// Face is what the clock face shows of a clockdev.Device: the device's
// own clock (the law, the outbox, the link) and what its notices told
// (the arbiter's pause and its reason, a takeover). Its methods are safe
// for concurrent use.
type Face struct {
	d *clockdev.Device

	mu          sync.Mutex
	pauseReason string // the arbiter's reason for the pause in force
	pauseBy     string
	takenOver   string // why another browser has this device now, "" if none
	lastNotice  string // what went wrong last, for the indicator's title
	timeUnknown bool   // the board resumed without knowing how long the page was away
}

// NewFace returns the face of d. unknownGap says the device resumed a
// board without knowing how long it was off (clockdev.Config.Resume had
// no answer): the face says the arbiter must check the clock.
func NewFace(d *clockdev.Device, unknownGap bool) *Face {
	return &Face{d: d, timeUnknown: unknownGap}
}

// Pause returns the arbiter's reason for the pause in force and who gave
// it, as the notices told — a command's, or the board's as the hall sent
// it (Assignment.pause) — (the page keeps them across a reload).
func (f *Face) Pause() (reason, by string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.pauseReason, f.pauseBy
}

// SetPause restores the reason for a pause a reloaded page kept.
func (f *Face) SetPause(reason, by string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.pauseReason, f.pauseBy = reason, by
}

// FaceView is the face's state in JSON: the board, its players, the times
// and the link.
type FaceView struct {
	View
	Assigned    bool       `json:"assigned"`
	BoardID     string     `json:"board_id,omitempty"`
	Tournament  string     `json:"tournament,omitempty"`
	Section     string     `json:"section,omitempty"`
	Round       int32      `json:"round,omitempty"`
	BoardNumber int32      `json:"board_number,omitempty"`
	Table       int32      `json:"table,omitempty"`
	White       PlayerView `json:"white"`
	Black       PlayerView `json:"black"`
	TimeControl string     `json:"time_control,omitempty"`
	Periods     int        `json:"periods"`                 // periods of the control (1: no period to show)
	WhiteBonus  BonusView  `json:"white_bonus"`             // the bonus of White's period in force
	BlackBonus  BonusView  `json:"black_bonus"`             //
	DelayLeftMs int64      `json:"delay_left_ms,omitempty"` // simple delay left on the running side's move
	Talking     bool       `json:"talking"`                 // played under the appendix for visually disabled players
	WhiteBlind  bool       `json:"white_blind,omitempty"`   // White is visually disabled: his half can ask for the time
	BlackBlind  bool       `json:"black_blind,omitempty"`
	WhiteLang   string     `json:"white_language,omitempty"`
	BlackLang   string     `json:"black_language,omitempty"`
	PauseReason string     `json:"pause_reason,omitempty"` // the arbiter's, while paused
	PauseBy     string     `json:"pause_by,omitempty"`
	Connected   bool       `json:"connected"`
	Outbox      int        `json:"outbox"` // presses and events not yet acknowledged by the hall
	LastError   string     `json:"last_error,omitempty"`
	TakenOver   string     `json:"taken_over,omitempty"`   // another browser is this clock now: why
	TimeUnknown bool       `json:"time_unknown,omitempty"` // the page cannot know how long it was away
}

// PlayerView is a player as the face names him.
type PlayerView struct {
	Name       string `json:"name,omitempty"`
	Title      string `json:"title,omitempty"`
	Rating     int32  `json:"rating,omitempty"`
	Federation string `json:"federation,omitempty"`
}

// BonusView is what a move earns: "increment", "delay", "bronstein" or
// "" (nothing), and how much.
type BonusView struct {
	Kind string `json:"kind,omitempty"`
	Ms   int64  `json:"ms,omitempty"`
}

// State is the face now.
func (f *Face) State() FaceView {
	a := f.d.Assignment()
	st := f.d.State()
	s := f.d.Status()
	f.mu.Lock()
	defer f.mu.Unlock()
	v := FaceView{Connected: s.Connected, Outbox: s.Outbox, LastError: s.LastError, TakenOver: f.takenOver}
	if s.LastError == "" {
		v.LastError = f.lastNotice
	}
	if a == nil {
		v.View = View{Running: "none", Flag: "none"}
		return v
	}
	v.View = viewOf(st, st, s.BoardSeq)
	v.Assigned, v.BoardID = true, a.GetBoardId()
	v.Tournament, v.Section, v.Round, v.BoardNumber, v.Table = a.GetTournament(), a.GetSection(), a.GetRound(), a.GetBoardNumber(), a.GetTable()
	v.White, v.Black = playerView(a.GetWhite()), playerView(a.GetBlack())
	v.TimeControl = a.GetConfig().GetTimeControl()
	tc := st.Config.TimeControl
	v.Periods = max(len(tc.For(rules.White).Periods), len(tc.For(rules.Black).Periods))
	v.WhiteBonus = bonusView(tc.For(rules.White), st.P[rules.White].Period)
	v.BlackBonus = bonusView(tc.For(rules.Black), st.P[rules.Black].Period)
	if side, ok := st.Running(); ok {
		v.DelayLeftMs = st.P[side].DelayLeftMs
	}
	bp := a.GetConfig().GetBlindPlay()
	v.WhiteBlind, v.BlackBlind = bp.GetWhite().GetVisuallyDisabled(), bp.GetBlack().GetVisuallyDisabled()
	v.Talking = v.WhiteBlind || v.BlackBlind
	v.WhiteLang, v.BlackLang = bp.GetWhite().GetLanguage(), bp.GetBlack().GetLanguage()
	if st.Status == rules.Paused {
		v.PauseReason, v.PauseBy = f.pauseReason, f.pauseBy
		if p := a.GetPause(); v.PauseReason == "" && v.PauseBy == "" && p != nil {
			// Nothing heard of this pause but the board as the hall sent
			// it (a page that picked up a paused board, or lost its note).
			v.PauseReason, v.PauseBy = p.GetReason(), p.GetIssuedBy()
		}
	}
	v.TimeUnknown = f.timeUnknown && st.Status != rules.Finished
	return v
}

func playerView(p *hallv1.Player) PlayerView {
	return PlayerView{Name: p.GetName(), Title: p.GetTitle(), Rating: p.GetRating(), Federation: p.GetFederation()}
}

func bonusView(tc rules.TimeControl, period int) BonusView {
	if period < 0 || period >= len(tc.Periods) {
		return BonusView{}
	}
	p := tc.Periods[period]
	kinds := map[rules.BonusKind]string{rules.Increment: "increment", rules.SimpleDelay: "delay", rules.Bronstein: "bronstein"}
	if p.BonusMs == 0 || kinds[p.Bonus] == "" {
		return BonusView{}
	}
	return BonusView{Kind: kinds[p.Bonus], Ms: p.BonusMs}
}

// NoticeView is a device's notice as the page hears it.
type NoticeView struct {
	Kind      string      `json:"kind"` // clockdev.NoticeKind's name
	Code      int         `json:"code,omitempty"`
	Error     string      `json:"error,omitempty"`
	RetryMs   int64       `json:"retry_in_ms,omitempty"`
	Command   string      `json:"command,omitempty"` // the arbiter command's action kind, as the protocol names it
	Reason    string      `json:"reason,omitempty"`
	IssuedBy  string      `json:"issued_by,omitempty"`
	Speech    *SpeechView `json:"speech,omitempty"`
	TakenOver bool        `json:"taken_over,omitempty"` // the link ended because another browser is this clock now
}

// SpeechView is what a talking clock says.
type SpeechView struct {
	Text     string `json:"text"`
	Language string `json:"language"`
	To       string `json:"to"`
}

// Note takes in one of the device's notices and returns it as the page
// hears it.
func (f *Face) Note(n clockdev.Notice) NoticeView {
	v := NoticeView{Kind: n.Kind.String()}
	if n.Err != nil {
		v.Error = n.Err.Error()
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	switch n.Kind {
	case clockdev.NoticeDisconnected:
		v.RetryMs = n.RetryIn.Milliseconds()
		var le *clockdev.LinkError
		if errors.As(n.Err, &le) {
			v.Code = le.Code
		}
		if v.Code == codeAborted {
			v.TakenOver = true
			f.takenOver = v.Error
		}
		f.lastNotice = v.Error
	case clockdev.NoticeTakenOver:
		// The device library stopped: another connection of this device
		// (another browser with its credentials) is the clock now.
		v.Code, v.TakenOver = codeAborted, true
		f.takenOver, f.lastNotice = v.Error, v.Error
	case clockdev.NoticeConnected:
		f.lastNotice = ""
	case clockdev.NoticeCommand:
		c := n.Command
		v.Command = c.GetAction().GetKind().String()
		v.Reason, v.IssuedBy = c.GetReason(), c.GetIssuedBy()
		switch c.GetAction().GetKind() {
		case hallv1.ActionKind_ACTION_KIND_PAUSE:
			if n.Err == nil {
				f.pauseReason, f.pauseBy = c.GetReason(), c.GetIssuedBy()
			}
		case hallv1.ActionKind_ACTION_KIND_SET_CLOCK:
			if n.Err == nil {
				f.timeUnknown = false // the arbiter has set the clock
			}
		}
	case clockdev.NoticeAnnouncement:
		if n.Speech != nil {
			v.Speech = &SpeechView{Text: n.Speech.Text, Language: n.Speech.Language, To: n.Speech.To.String()}
		}
	case clockdev.NoticeAssignment:
		f.timeUnknown = f.timeUnknown && !n.Adopted
		// The hall's word on the pause in force: a browser that picks up
		// a paused board has heard no command. Adopted without one, the
		// board is not paused by the arbiter (any more).
		if p := n.Assignment.GetPause(); p != nil {
			f.pauseReason, f.pauseBy = p.GetReason(), p.GetIssuedBy()
		} else if n.Adopted {
			f.pauseReason, f.pauseBy = "", ""
		}
	}
	return v
}

// Press is a player's press of side's button; the answer says whether
// the law refused it (a press after the game ended).
func (f *Face) Press(side string) error {
	s, err := rules.ParseSide(side)
	if err != nil {
		return err
	}
	return f.d.Press(s, "", "")
}

// Announce is side's player asking the talking clock for the moves and
// times.
func (f *Face) Announce(side string) error {
	s, err := rules.ParseSide(side)
	if err != nil {
		return err
	}
	_, err = f.d.RequestAnnouncement(s)
	return err
}
