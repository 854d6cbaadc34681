package main

import (
	"math"
	"runtime/metrics"
	"time"
)

// The bench's own scheduling latency: how long its goroutines (the
// pacers sending presses, the clocks reading acknowledgements) waited to
// run, from the Go runtime. On its one CPU with 10,000 connections, the
// bench's own waits are part of every latency it times, for either
// server: this says how much.

const schedLatencies = "/sched/latencies:seconds"

// schedHist is a reading of the runtime's scheduling-latency histogram.
type schedHist struct {
	counts  []uint64
	buckets []float64
}

func readSched() schedHist {
	s := []metrics.Sample{{Name: schedLatencies}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindFloat64Histogram {
		return schedHist{}
	}
	h := s[0].Value.Float64Histogram()
	return schedHist{counts: append([]uint64(nil), h.Counts...), buckets: h.Buckets}
}

// since returns the q-quantile of the waits counted since prev (the upper
// bound of its bucket) and the longest (the lower bound of the highest
// bucket counted).
func (h schedHist) since(prev schedHist, q float64) (quantile, longest time.Duration) {
	var total uint64
	diff := make([]uint64, len(h.counts))
	for i, c := range h.counts {
		if i < len(prev.counts) {
			c -= prev.counts[i]
		}
		diff[i] = c
		total += c
	}
	if total == 0 {
		return 0, 0
	}
	want := uint64(math.Ceil(q * float64(total)))
	var seen uint64
	for i, c := range diff {
		seen += c
		if seen >= want && quantile == 0 {
			quantile = bound(h.buckets[i+1], h.buckets[i])
		}
		if c > 0 {
			longest = bound(h.buckets[i], h.buckets[i])
		}
	}
	return quantile, longest
}

func bound(v, finite float64) time.Duration {
	if math.IsInf(v, 0) {
		v = finite
	}
	return time.Duration(v * float64(time.Second))
}
