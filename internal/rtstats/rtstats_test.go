package rtstats

import (
	"encoding/json"
	"net/http/httptest"
	"runtime"
	"testing"
	"time"
)

// A window holds only what grew in it: an old long pause does not count,
// the longest new one does (its bucket's upper boundary).
func TestSinceTakesOnlyWhatGrew(t *testing.T) {
	b := []float64{0, 0.001, 0.01, 0.1, 1e300}
	prev := Snapshot{PauseGC: Hist{Counts: []uint64{5, 3, 0, 1}, Buckets: b}, AssistCPU: 1.5, GCCycles: 10, AllocBytes: 1000,
		Sched: Hist{Counts: []uint64{9, 0, 0, 0}, Buckets: b}}
	now := Snapshot{PauseGC: Hist{Counts: []uint64{9, 3, 2, 1}, Buckets: b}, AssistCPU: 1.54, GCCycles: 12, AllocBytes: 5096,
		PauseOther: Hist{Counts: []uint64{0, 1, 0, 0}, Buckets: b},
		Sched:      Hist{Counts: []uint64{9, 0, 0, 4}, Buckets: b}}
	w := now.Since(prev)
	if w.LongestPause != 100*time.Millisecond {
		t.Errorf("longest pause %v, want 100ms (the bucket 10-100 ms grew; the older 100ms+ one did not)", w.LongestPause)
	}
	if w.Cycles != 2 || w.Assist < 39*time.Millisecond || w.Assist > 41*time.Millisecond || w.AssistPerCycle() != w.Assist/2 {
		t.Errorf("cycles %d assist %v per cycle %v, want 2, 40ms, 20ms", w.Cycles, w.Assist, w.AssistPerCycle())
	}
	if w.Alloc != 4096 {
		t.Errorf("allocated %d bytes, want 4096", w.Alloc)
	}
	if w.LongestWait != 100*time.Millisecond { // the last bucket is unbounded: its lower boundary
		t.Errorf("longest wait %v, want 100ms", w.LongestWait)
	}
	if (Snapshot{}).Since(Snapshot{}) != (Window{}) {
		t.Error("two empty readings: want an empty window")
	}
}

// A reading served as JSON reads back, and a collection between two
// readings shows as a cycle with a pause.
func TestHandlerServesReadings(t *testing.T) {
	get := func() Snapshot {
		rec := httptest.NewRecorder()
		Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/debug/runtime", nil))
		var s Snapshot
		if err := json.Unmarshal(rec.Body.Bytes(), &s); err != nil {
			t.Fatalf("decoding %q: %v", rec.Body.String(), err)
		}
		return s
	}
	a := get()
	sink = make([]byte, 1<<20)
	runtime.GC()
	w := get().Since(a)
	if w.Cycles < 1 || w.LongestPause <= 0 || w.Alloc < 1<<20 {
		t.Errorf("after allocating 1 MiB and runtime.GC: %+v, want a cycle, a pause and the MiB", w)
	}
}

var sink []byte
