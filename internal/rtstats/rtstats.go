// Package rtstats reads the Go runtime's own account of how long it held
// the program up — stop-the-world pauses, time in collection assists,
// goroutines waiting for a processor — as cumulative counters, and the
// difference between two readings: what a measured window held. A server
// serves its readings as JSON (Handler, on its debug listener); the
// benchmark reads one before and after each window.
package rtstats

import (
	"encoding/json"
	"math"
	"net/http"
	"runtime/metrics"
	"time"
)

// The runtime metrics read.
const (
	pauseGC    = "/sched/pauses/total/gc:seconds"
	pauseOther = "/sched/pauses/total/other:seconds"
	schedLat   = "/sched/latencies:seconds"
	assistCPU  = "/cpu/classes/gc/mark/assist:cpu-seconds"
	gcCycles   = "/gc/cycles/total:gc-cycles"
	allocBytes = "/gc/heap/allocs:bytes"
)

// Hist is a cumulative histogram: counts per bucket and the
// len(Counts)+1 boundaries, in seconds.
type Hist struct {
	Counts  []uint64  `json:"counts"`
	Buckets []float64 `json:"buckets"`
}

// Snapshot is one reading.
type Snapshot struct {
	PauseGC    Hist    `json:"pause_gc"`    // each stop-the-world pause of the collector
	PauseOther Hist    `json:"pause_other"` // each other stop-the-world pause
	Sched      Hist    `json:"sched"`       // how long runnable goroutines waited to run
	AssistCPU  float64 `json:"assist_cpu"`  // CPU seconds goroutines spent marking for the collector
	GCCycles   uint64  `json:"gc_cycles"`
	AllocBytes uint64  `json:"alloc_bytes"` // bytes allocated on the heap
}

// Read takes a reading of this process.
func Read() Snapshot {
	s := []metrics.Sample{{Name: pauseGC}, {Name: pauseOther}, {Name: schedLat}, {Name: assistCPU}, {Name: gcCycles}, {Name: allocBytes}}
	metrics.Read(s)
	var snap Snapshot
	for i, h := range []*Hist{&snap.PauseGC, &snap.PauseOther, &snap.Sched} {
		if s[i].Value.Kind() == metrics.KindFloat64Histogram {
			v := s[i].Value.Float64Histogram()
			*h = Hist{Counts: append([]uint64(nil), v.Counts...), Buckets: finite(v.Buckets)}
		}
	}
	if s[3].Value.Kind() == metrics.KindFloat64 {
		snap.AssistCPU = s[3].Value.Float64()
	}
	if s[4].Value.Kind() == metrics.KindUint64 {
		snap.GCCycles = s[4].Value.Uint64()
	}
	if s[5].Value.Kind() == metrics.KindUint64 {
		snap.AllocBytes = s[5].Value.Uint64()
	}
	return snap
}

// finite copies bucket boundaries with the infinite ones (which JSON
// cannot hold) as the largest float.
func finite(b []float64) []float64 {
	out := make([]float64, len(b))
	for i, v := range b {
		switch {
		case math.IsInf(v, 1):
			v = math.MaxFloat64
		case math.IsInf(v, -1):
			v = -math.MaxFloat64
		}
		out[i] = v
	}
	return out
}

// Handler serves Read as JSON.
func Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(Read())
	})
}

// Window is what the runtime held the program up for between two
// readings.
type Window struct {
	// LongestPause is the longest stop-the-world pause (the
	// collector's or another), as the upper boundary of its bucket.
	LongestPause time.Duration
	// Assist is the CPU time goroutines spent marking for the
	// collector instead of their own work; Cycles the collections.
	Assist time.Duration
	Cycles uint64
	// LongestWait is the longest a runnable goroutine waited for a
	// processor (the upper boundary of its bucket).
	LongestWait time.Duration
	// Alloc is the bytes allocated on the heap: what makes collections
	// come round, and unlike time, the same on a busy machine.
	Alloc uint64
}

// AssistPerCycle is the assist time of the average collection of the
// window (0 with none): on one processor, about how long the goroutines
// that allocated were held up by each.
func (w Window) AssistPerCycle() time.Duration {
	if w.Cycles == 0 {
		return 0
	}
	return w.Assist / time.Duration(w.Cycles)
}

// Since returns what s counted since prev (the zero Snapshot: since the
// process started).
func (s Snapshot) Since(prev Snapshot) Window {
	return Window{
		LongestPause: max(longest(prev.PauseGC, s.PauseGC), longest(prev.PauseOther, s.PauseOther)),
		Assist:       time.Duration(max(s.AssistCPU-prev.AssistCPU, 0) * float64(time.Second)),
		Cycles:       s.GCCycles - min(prev.GCCycles, s.GCCycles),
		LongestWait:  longest(prev.Sched, s.Sched),
		Alloc:        s.AllocBytes - min(prev.AllocBytes, s.AllocBytes),
	}
}

// longest is the upper boundary of the highest bucket of h whose count
// grew since prev (its lower boundary for the last, unbounded one); 0 if
// none did.
func longest(prev, h Hist) time.Duration {
	for i := len(h.Counts) - 1; i >= 0; i-- {
		var was uint64
		if i < len(prev.Counts) {
			was = prev.Counts[i]
		}
		if h.Counts[i] > was {
			v := h.Buckets[i+1]
			if v > 1e9 { // unbounded
				v = h.Buckets[i]
			}
			return time.Duration(v * float64(time.Second))
		}
	}
	return 0
}
