package main

import (
	"fmt"
	"runtime/debug"
	"strconv"
	"strings"
)

// The collector. A hall of 10,000 clocks keeps ~300 MB of live heap and
// ~100 MB of goroutine stacks, and a collection's mark phase over them
// takes about a second of CPU. Under Go's default (GOGC=100) it came every
// ~14 s at 1,000 presses a second, and for its ~0.6 s every goroutine
// that allocated had to help mark first: a runtime trace showed the
// storage writer waiting for a processor 311 ms of a 611 ms mark phase,
// and no press was acknowledged meanwhile (the benchmark's p99 at
// 1,000/s: 300–590 ms against a p50 of 6 ms). Memory is not what a hall
// lacks (notes/machine-limits.md), so by default the server lets its heap
// grow to five times the live one before collecting (-gc-percent 400):
// collections four times rarer, each with more room and less help needed.
// -memory-limit bounds the heap where memory is short; GOGC and GOMEMLIMIT,
// if set, are Go's own and win over the defaults.
const defaultGCPercent = 400

// gcSettings is what the server asks of the collector: a percentage (0:
// leave Go's) and a soft memory limit in bytes (0: none).
type gcSettings struct {
	percent int
	limit   int64
	// idle: the server also collects when idle after its heap grew
	// (gc_idle.go); the command's, as the rest.
	idle bool
}

// gcPlan decides the collector's settings from the flags and Go's own
// environment variables: an explicit flag wins, then GOGC/GOMEMLIMIT
// (applied by the runtime itself), then the server's default.
func (m *Main) gcPlan(getenv func(string) string, flagSet func(string) bool) gcSettings {
	var s gcSettings
	if flagSet("gc-percent") || getenv("HALL_GC_PERCENT") != "" || getenv("GOGC") == "" {
		s.percent = m.GCPercent
	}
	if flagSet("memory-limit") || getenv("HALL_MEMORY_LIMIT") != "" || getenv("GOMEMLIMIT") == "" {
		s.limit = m.MemoryLimit
	}
	return s
}

// apply sets the collector.
func (s gcSettings) apply() {
	if s.percent > 0 {
		debug.SetGCPercent(s.percent)
	}
	if s.limit > 0 {
		debug.SetMemoryLimit(s.limit)
	}
}

// parseBytes reads a size as GOMEMLIMIT writes it: a whole number of bytes
// with an optional suffix B, KiB, MiB, GiB or TiB ("1536MiB", "2GiB").
func parseBytes(v string) (int64, error) {
	units := []struct {
		suffix string
		shift  uint
	}{{"TiB", 40}, {"GiB", 30}, {"MiB", 20}, {"KiB", 10}, {"B", 0}}
	num, shift := v, uint(0)
	for _, u := range units {
		if strings.HasSuffix(v, u.suffix) {
			num, shift = strings.TrimSuffix(v, u.suffix), u.shift
			break
		}
	}
	n, err := strconv.ParseInt(strings.TrimSpace(num), 10, 64)
	if err != nil || n <= 0 || n > (1<<62)>>shift {
		return 0, fmt.Errorf("%q: want a size such as 2GiB, 1536MiB or a number of bytes", v)
	}
	return n << shift, nil
}
