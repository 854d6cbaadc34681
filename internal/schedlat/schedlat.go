// Package schedlat reads the Go runtime's scheduling latency — how long
// runnable goroutines waited to run — as the difference between two
// readings of its cumulative histogram. The hall's lag monitor
// (server/link) and the benchmark's report of its own waits (tools/bench)
// read it the same way.
package schedlat

import (
	"math"
	"runtime/metrics"
	"time"
)

// Name is the runtime metric read.
const Name = "/sched/latencies:seconds"

// Hist is one reading: counts per bucket, and the len(Counts)+1 bucket
// boundaries in seconds.
type Hist struct {
	Counts  []uint64
	Buckets []float64
}

// Read takes a reading (false if this runtime does not report the metric).
func Read() (Hist, bool) {
	s := []metrics.Sample{{Name: Name}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindFloat64Histogram {
		return Hist{}, false
	}
	h := s[0].Value.Float64Histogram()
	return Hist{Counts: append([]uint64(nil), h.Counts...), Buckets: h.Buckets}, true
}

// QuantileSince returns the q quantile of what h counted since prev (the
// zero Hist: since the start); see QuantileOf.
func (h Hist) QuantileSince(prev Hist, q float64) time.Duration {
	return QuantileOf(prev.Counts, h.Counts, h.Buckets, q)
}

// LongestSince returns the longest wait h counted since prev: the lower
// boundary of the highest bucket with a count (0 if none).
func (h Hist) LongestSince(prev Hist) time.Duration {
	for i := len(h.Counts) - 1; i >= 0; i-- {
		if since(prev.Counts, h.Counts, i) > 0 {
			return seconds(h.Buckets[i], h.Buckets[i])
		}
	}
	return 0
}

// QuantileOf returns the q quantile of what a cumulative histogram (counts
// per bucket; buckets are the len(counts)+1 boundaries, in seconds)
// counted since prev (nil: since the start), as the upper boundary of the
// bucket it falls in (the lower one for the last, unbounded bucket); 0 if
// nothing was counted.
func QuantileOf(prev, counts []uint64, buckets []float64, q float64) time.Duration {
	var total uint64
	for i := range counts {
		total += since(prev, counts, i)
	}
	if total == 0 {
		return 0
	}
	want := uint64(math.Ceil(q * float64(total))) // the rank of the quantile, 1-based
	var seen uint64
	for i := range counts {
		seen += since(prev, counts, i)
		if seen >= want {
			return seconds(buckets[i+1], buckets[i])
		}
	}
	return 0
}

// since is bucket i's count since prev.
func since(prev, counts []uint64, i int) uint64 {
	if i < len(prev) {
		return counts[i] - prev[i]
	}
	return counts[i]
}

// seconds converts a boundary, or finite if it is unbounded (infinite, or
// beyond any wait: the runtime's last boundaries).
func seconds(v, finite float64) time.Duration {
	if math.IsInf(v, 0) || v > 1e9 {
		v = finite
	}
	return time.Duration(v * float64(time.Second))
}
