package wire

import (
	"testing"

	"google.golang.org/protobuf/proto"

	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
)

// A board under the rules for visually disabled players keeps them
// across the wire, and a board not under them says nothing of them.
func TestBlindPlayRoundTrip(t *testing.T) {
	w := &pb.ClockConfig{Ruleset: "fide-2018", TimeControl: "90m+30s", BlindPlay: &pb.BlindPlay{
		Black: &pb.BlindPlayer{VisuallyDisabled: true, Assistant: true, Language: "de"}}}
	c, err := Config(w)
	if err != nil {
		t.Fatal(err)
	}
	if want := (rules.BlindPlayer{VisuallyDisabled: true, Assistant: true, Language: "de"}); c.Blind.Players[rules.Black] != want || c.Blind.Players[rules.White] != (rules.BlindPlayer{}) {
		t.Errorf("Config(%v).Blind = %+v", w.GetBlindPlay(), c.Blind)
	}
	if back := WireConfig(c); !proto.Equal(back.GetBlindPlay(), w.GetBlindPlay()) {
		t.Errorf("WireConfig(Config(c)).blind_play = %v, want %v", back.GetBlindPlay(), w.GetBlindPlay())
	}
	c.Blind = rules.BlindPlay{}
	if got := WireConfig(c).GetBlindPlay(); got != nil {
		t.Errorf("WireConfig of a board not under the appendix has blind_play %v, want none", got)
	}
}

// What the hall asks a talking clock to say: the completed moves and the
// time used by both (FIDE 2018 D.2.10.4), in the player's language when
// the clock speaks it, with the numbers the words tell.
func TestAnnounce(t *testing.T) {
	cfg, err := Config(&pb.ClockConfig{TimeControl: "90m+30s", BlindPlay: &pb.BlindPlay{
		White: &pb.BlindPlayer{VisuallyDisabled: true, Language: "de"}}})
	if err != nil {
		t.Fatal(err)
	}
	st, err := rules.Fold(cfg, []rules.Event{{Kind: rules.KindStart}, {Kind: rules.KindPress, T: 61_000, Side: rules.White}})
	if err != nil {
		t.Fatal(err)
	}
	st = st.Project(65_000)
	got := Announce(st, rules.White, []string{"en", "de"})
	want := &pb.Announce{To: pb.Side_SIDE_WHITE, Language: "de",
		Text:       "Weiß: 1 Zug, 1 Minute 1 Sekunde verbraucht. Schwarz: 0 Züge, 4 Sekunden verbraucht.",
		WhiteMoves: 1, WhiteUsedMs: 61_000, BlackUsedMs: 4_000}
	if !proto.Equal(got, want) {
		t.Errorf("Announce = %v, want %v", got, want)
	}
	if en := Announce(st, rules.White, []string{"en"}); en.GetLanguage() != "en" || en.GetText() != "White: 1 move, 1 minute 1 second used. Black: 0 moves, 4 seconds used." {
		t.Errorf("Announce to a clock speaking English only = %q %q", en.GetLanguage(), en.GetText())
	}
}
