package rules_test

import (
	"testing"

	"github.com/chesshall/hallclock/rules"
)

// BenchmarkApplyPress is the server's hot path: one press folded into a
// running board (the target: at most 1 µs and no allocation).
//
//	go test -run '^$' -bench ApplyPress -benchmem ./rules
func BenchmarkApplyPress(b *testing.B) {
	cfg := rules.Config{Ruleset: rules.FIDE2023}
	var err error
	if cfg.TimeControl, err = rules.ParseTimeControl("5400+30"); err != nil {
		b.Fatal(err)
	}
	st, err := rules.NewState(cfg)
	if err != nil {
		b.Fatal(err)
	}
	if st, err = rules.Apply(st, rules.Event{Kind: rules.KindStart, T: 0}); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		next, err := rules.Apply(st, rules.Event{Kind: rules.KindPress, T: st.At + 2_500, Side: st.ToMove})
		if err != nil {
			b.Fatal(err)
		}
		st = next
	}
}
