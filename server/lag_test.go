package server

import (
	"math"
	"testing"
	"time"
)

// quantileSince reads the runtime's cumulative scheduling-latency
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
		if got := quantileSince(c.prev, c.counts, buckets, c.q); got != c.want {
			t.Errorf("%s: quantileSince = %v, want %v", c.name, got, c.want)
		}
	}
}

// Ingest is behind after a sample whose worst press took over 500 ms to
// be acknowledged, until a second passes without another; then the held
// watchers are released at once.
func TestIngestMonitor(t *testing.T) {
	var m ingestMonitor
	t0 := time.Unix(1_700_000_000, 0)
	m.observeAck(400 * time.Millisecond)
	m.sample(t0)
	if m.behind() != nil {
		t.Fatal("behind after a worst of 400 ms")
	}
	m.observeAck(100 * time.Millisecond)
	m.observeAck(600 * time.Millisecond)
	m.observeAck(200 * time.Millisecond)
	m.sample(t0.Add(250 * time.Millisecond))
	release := m.behind()
	if release == nil {
		t.Fatal("not behind after a worst of 600 ms")
	}
	m.sample(t0.Add(1000 * time.Millisecond)) // nothing since: the hold runs to 1.25 s
	select {
	case <-release:
		t.Fatal("released 750 ms after the slow sample")
	default:
	}
	if m.behind() != release {
		t.Fatal("a new hold while still behind")
	}
	m.sample(t0.Add(1250 * time.Millisecond))
	select {
	case <-release:
	default:
		t.Fatal("not released a second after the slow sample")
	}
	if m.behind() != nil {
		t.Fatal("still behind once released")
	}
}
