package main

import "runtime"

// Processors. The hall commits through cgo (SQLite): the storage writer's
// goroutine keeps its processor (P) for the whole of a COMMIT, fsync
// included, and the runtime's monitor takes the P back for the other
// goroutines only after it notices — from 20 µs up to 10 ms later, the
// longer the quieter the runtime has been. With one P (a hall on one CPU,
// or pinned to one) every commit stopped the clocks' streams, the
// acknowledgements and the watchers for that long. With a second P the
// rest of the hall runs while the writer is in SQLite, the kernel sharing
// the CPU between the two threads: measured at 10,000 clocks and 1,000
// presses/s on one pinned core, p50 4.4–4.9 ms and p99 8.2–9.7 ms against
// 6.1–8.7 and 28–94 ms with one P (docs/benchmarks.md). GOMAXPROCS, if set,
// is Go's own and wins.
const minProcs = 2

// procsPlan is how many processors to ask for (0: leave the runtime's),
// given GOMAXPROCS from the environment and what the runtime chose.
func procsPlan(getenv func(string) string, current int) int {
	if getenv("GOMAXPROCS") != "" || current >= minProcs {
		return 0
	}
	return minProcs
}

// applyProcs sets the processors the hall asks for.
func applyProcs(getenv func(string) string) {
	if n := procsPlan(getenv, runtime.GOMAXPROCS(0)); n > 0 {
		runtime.GOMAXPROCS(n)
	}
}
