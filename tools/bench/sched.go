package main

import "github.com/chesshall/hallclock/internal/schedlat"

// The bench's own scheduling latency: how long its goroutines (the
// pacers sending presses, the clocks reading acknowledgements) waited to
// run, from the Go runtime. On its one CPU with 10,000 connections, the
// bench's own waits are part of every latency it times, for either
// server: this says how much.

// readSched reads the bench's scheduling latencies so far (the zero
// Hist where the runtime does not report them).
func readSched() schedlat.Hist {
	h, _ := schedlat.Read()
	return h
}
