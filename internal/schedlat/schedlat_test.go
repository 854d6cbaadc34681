package schedlat

import (
	"math"
	"testing"
	"time"
)

// QuantileOf reads the runtime's cumulative scheduling-latency
// histogram as a difference between two samples.
func TestQuantileSince(t *testing.T) {
	buckets := []float64{0, 0.001, 0.01, 0.1, 1, math.Inf(1)} // 5 buckets
	for _, c := range []struct {
		name         string
		prev, counts []uint64
		q            float64
		want         time.Duration
	}{
		{"nothing counted", nil, []uint64{0, 0, 0, 0, 0}, 0.99, 0},
		{"nothing new", []uint64{5, 5, 5, 5, 5}, []uint64{5, 5, 5, 5, 5}, 0.99, 0},
		{"all fast", nil, []uint64{0, 100, 0, 0, 0}, 0.99, 10 * time.Millisecond},
		{"1 in 100 slow is not the p99", nil, []uint64{99, 0, 0, 1, 0}, 0.99, time.Millisecond},
		{"2 in 100 slow are", nil, []uint64{98, 0, 0, 2, 0}, 0.99, time.Second},
		{"old slow ones do not count", []uint64{0, 0, 0, 50, 0}, []uint64{100, 0, 0, 50, 0}, 0.99, time.Millisecond},
		{"beyond the last boundary", nil, []uint64{0, 0, 0, 0, 10}, 0.99, time.Second},
		{"median", nil, []uint64{10, 10, 10, 10, 0}, 0.5, 10 * time.Millisecond},
	} {
		if got := QuantileOf(c.prev, c.counts, buckets, c.q); got != c.want {
			t.Errorf("%s: QuantileOf = %v, want %v", c.name, got, c.want)
		}
	}
}
