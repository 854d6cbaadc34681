package pgn

import (
	"strings"
	"testing"

	"github.com/chesshall/hallclock/internal/testkit/pgncheck"
	"github.com/chesshall/hallclock/rules"
)

// A drawn Armageddon: the PGN keeps the draw; its TimeControl is "?" (the
// standard has one control for both players) and each side's control is
// in WhiteTimeControl and BlackTimeControl, in the standard's form.
func TestTimeOddsTags(t *testing.T) {
	var l log
	cfg := config(t, "white 60/5m:0+2s | black 60/4m:0+2s")
	cfg.Regulations.DrawOdds = rules.DrawOddsBlack
	l.add(0, rules.Event{Kind: rules.KindStart}).
		add(1000, press(rules.White, "e4")).
		add(2000, press(rules.Black, "e5")).
		add(3000, rules.Event{Kind: rules.KindResult, Result: rules.Draw, Termination: rules.TermAgreement})
	out := string(write(t, Options{}, Game{Event: "Tie-break", Round: 1, Board: 1, White: berzins, Black: schroder, Config: cfg, Log: l}))
	for _, want := range []string{`[Result "1/2-1/2"]`, `[TimeControl "?"]`, `[WhiteTimeControl "60/300:0+2"]`, `[BlackTimeControl "60/240:0+2"]`} {
		if !strings.Contains(out, want) {
			t.Errorf("no %s in\n%s", want, out)
		}
	}
	games := pgncheck.Read(t, []byte(out))
	if len(games) != 1 || games[0].Tags["BlackTimeControl"] != "60/240:0+2" {
		t.Errorf("pgn-extract read %+v", games)
	}
}
