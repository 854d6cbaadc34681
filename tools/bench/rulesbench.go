package main

import (
	"fmt"
	"testing"
	"time"

	"github.com/chesshall/hallclock/rules"
)

// rulesRows times rules.Apply of a press on a running board, as
// BenchmarkApplyPress in package rules does (go test -bench ApplyPress ./rules).
func rulesRows() []row {
	fmt.Printf("\n== rules.Apply of a press\n")
	cfg := rules.Config{Ruleset: rules.FIDE2023}
	cfg.TimeControl, _ = rules.ParseTimeControl(echoTimeControl)
	st0, err := rules.NewState(cfg)
	if err == nil {
		st0, err = rules.Apply(st0, rules.Event{Kind: rules.KindStart})
	}
	if err != nil {
		return []row{{figure: "rules.Apply of a press", hall: "failed: " + err.Error(), holds: "NO"}}
	}
	r := testing.Benchmark(func(b *testing.B) {
		b.ReportAllocs()
		st := st0
		for b.Loop() {
			next, err := rules.Apply(st, rules.Event{Kind: rules.KindPress, T: st.At + 2_500, Side: st.ToMove})
			if err != nil {
				b.Fatal(err)
			}
			st = next
		}
	})
	per := time.Duration(r.NsPerOp())
	fmt.Printf("   %s\n", r.String()+r.MemString())
	return []row{{figure: "rules.Apply of a press (time, allocations)", hall: fmt.Sprintf("%d ns, %d allocs", per.Nanoseconds(), r.AllocsPerOp()),
		target: "≤ 1 µs, 0 allocs", holds: yesNo(per <= time.Microsecond && r.AllocsPerOp() == 0)}}
}
