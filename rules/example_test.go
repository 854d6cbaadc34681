package rules_test

import (
	"fmt"

	"github.com/chesshall/hallclock/rules"
)

func Example() {
	tc, _ := rules.ParseTimeControl("90m+30s")
	st, _ := rules.NewState(rules.Config{Ruleset: rules.FIDE2023, TimeControl: tc})
	st, _ = rules.Apply(st, rules.Event{Kind: rules.KindStart, T: 0})
	st, _ = rules.Apply(st, rules.Event{Kind: rules.KindPress, Side: rules.White, T: 12_000})
	now := st.Project(60_000) // Black has used 48 s of the 90 minutes
	fmt.Println(now.P[rules.Black].MainMs, now.P[rules.White].MainMs)
	_, err := rules.Apply(now, rules.Event{Kind: rules.KindSetClock, T: 60_000, WhiteMs: 1, BlackMs: 1})
	fmt.Println(err)
	// Output:
	// 5352000 5418000
	// set_clock refused: stop the clock before installing a setting (FIDE 2023 Art. 6.10.2)
}
