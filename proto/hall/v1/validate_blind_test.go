package hallv1

import (
	"errors"
	"strings"
	"testing"
)

// The fields of play with visually disabled players and of the talking
// clock are checked for shape, each error naming its field.
func TestValidateBlindPlayAndTalkingClock(t *testing.T) {
	langs := func(n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = "en"
		}
		return out
	}
	hello := func(c *DeviceCapabilities) *DeviceMessage {
		return &DeviceMessage{Msg: &DeviceMessage_Hello{Hello: &Hello{DeviceId: "CLK-1", Capabilities: c}}}
	}
	board := func(b *BlindPlay) *AddBoardRequest {
		return &AddBoardRequest{RoundId: "r1", Number: 1, White: &Player{Name: "Anna"}, Black: &Player{Name: "Boris"},
			Config: &ClockConfig{BlindPlay: b}}
	}
	good := &Announce{AnnounceId: "a1", BoardId: "b1", To: Side_SIDE_WHITE, Language: "de", Text: "Weiß: 1 Zug, 5 Sekunden verbraucht.",
		WhiteMoves: 1, WhiteUsedMs: 5_000}
	with := func(f func(a *Announce)) *Announce {
		a := &Announce{AnnounceId: good.AnnounceId, BoardId: good.BoardId, To: good.To, Language: good.Language, Text: good.Text,
			WhiteMoves: good.WhiteMoves, WhiteUsedMs: good.WhiteUsedMs}
		f(a)
		return a
	}
	for _, tc := range []struct {
		name  string
		v     interface{ Validate() error }
		field string // "" valid
	}{
		{"a board under the appendix", board(&BlindPlay{White: &BlindPlayer{VisuallyDisabled: true, Assistant: true, Language: "pt-BR"}}), ""},
		{"a language tag too long", board(&BlindPlay{Black: &BlindPlayer{VisuallyDisabled: true, Language: strings.Repeat("x", 36)}}), "config.blind_play.black.language"},
		{"a language with a control character", board(&BlindPlay{White: &BlindPlayer{Language: "de\n"}}), "config.blind_play.white.language"},
		{"a talking clock", hello(&DeviceCapabilities{Announce: true, Languages: []string{"en", "de"}}), ""},
		{"a talking clock speaking too many languages", hello(&DeviceCapabilities{Announce: true, Languages: langs(17)}), "hello.capabilities.languages"},
		{"an empty language", hello(&DeviceCapabilities{Announce: true, Languages: []string{"en", ""}}), "hello.capabilities.languages[1]"},
		{"an announcement", good, ""},
		{"for nobody", with(func(a *Announce) { a.To = Side_SIDE_UNSPECIFIED }), "announce.to"},
		{"without words", with(func(a *Announce) { a.Text = " " }), "announce.text"},
		{"too many words", with(func(a *Announce) { a.Text = strings.Repeat("x", MaxAnnouncement+1) }), "announce.text"},
		{"without an id", with(func(a *Announce) { a.AnnounceId = "" }), "announce.announce_id"},
		{"of no board", with(func(a *Announce) { a.BoardId = "" }), "announce.board_id"},
		{"negative moves", with(func(a *Announce) { a.BlackMoves = -1 }), "announce.white_moves"},
		{"negative time used", with(func(a *Announce) { a.BlackUsedMs = -1 }), "announce.black_used_ms"},
		// The arbiter's and the assistant's requests.
		{"a board set under the appendix", &SetBlindPlayRequest{BoardId: "b1", BlindPlay: &BlindPlay{White: &BlindPlayer{VisuallyDisabled: true}}}, ""},
		{"a board set to none", &SetBlindPlayRequest{BoardId: "b1"}, ""},
		{"the setting of no board", &SetBlindPlayRequest{}, "board_id"},
		{"a setting with a language too long", &SetBlindPlayRequest{BoardId: "b1", BlindPlay: &BlindPlay{Black: &BlindPlayer{Language: strings.Repeat("x", 36)}}}, "blind_play.black.language"},
		{"an announcement asked for", &AnnounceRequest{BoardId: "b1", Side: Side_SIDE_BLACK}, ""},
		{"an announcement for nobody", &AnnounceRequest{BoardId: "b1"}, "side"},
		{"an announcement of no board", &AnnounceRequest{Side: Side_SIDE_WHITE}, "board_id"},
		{"an assistant's link", &IssueAssistantLinkRequest{BoardId: "b1", Side: Side_SIDE_WHITE, Label: "Maria"}, ""},
		{"an assistant's link for nobody", &IssueAssistantLinkRequest{BoardId: "b1", Side: Side(7)}, "side"},
		{"an assistant's token", &IssueTokenRequest{Role: Role_ROLE_ASSISTANT, Label: "Maria", BoardId: "b1", Side: Side_SIDE_BLACK}, ""},
		{"an assistant's token of no board", &IssueTokenRequest{Role: Role_ROLE_ASSISTANT, Label: "Maria", Side: Side_SIDE_BLACK}, "board_id"},
		{"an assistant's token for nobody", &IssueTokenRequest{Role: Role_ROLE_ASSISTANT, Label: "Maria", BoardId: "b1"}, "side"},
		{"an arbiter's token with a side", &IssueTokenRequest{Role: Role_ROLE_ARBITER, Label: "Anna", Side: Side_SIDE_WHITE}, "side"},
	} {
		err := tc.v.Validate()
		var fe *FieldError
		switch {
		case tc.field == "" && err != nil:
			t.Errorf("%s: Validate = %v, want nil", tc.name, err)
		case tc.field != "" && (!errors.As(err, &fe) || fe.Field != tc.field):
			t.Errorf("%s: Validate = %v, want a FieldError on %s", tc.name, err, tc.field)
		}
	}
}
