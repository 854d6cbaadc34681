package main

import (
	"math"
	"math/bits"
	"sync/atomic"
	"time"
)

// hist is a latency histogram safe for concurrent use without locks:
// log-linear buckets of microseconds, 32 per power of two (about 2 %
// resolution), from 1 µs to about 9 minutes. Values past the last bucket,
// and lost ones (add(never)), count in the last one.
type hist struct {
	b [histOctaves * histSub]atomic.Int64
	n atomic.Int64
}

const (
	histOctaves = 30
	histSub     = 32
	// never stands for a latency that never ended (no acknowledgement,
	// no update by the end of the phase).
	never = time.Duration(math.MaxInt64)
)

func histIndex(d time.Duration) int {
	us := uint64(max(d.Microseconds(), 1))
	o := bits.Len64(us) - 1 // us in [2^o, 2^(o+1))
	var sub uint64
	if o >= 5 {
		sub = (us >> (o - 5)) & (histSub - 1)
	} else {
		sub = (us << (5 - o)) & (histSub - 1)
	}
	i := o*histSub + int(sub)
	return min(i, len(hist{}.b)-1)
}

// histValue is the lower bound of bucket i.
func histValue(i int) time.Duration {
	o, sub := i/histSub, uint64(i%histSub)
	var us uint64
	if o >= 5 {
		us = (1 << o) | sub<<(o-5)
	} else {
		us = (1 << o) | sub>>(5-o)
	}
	return time.Duration(us) * time.Microsecond
}

func (h *hist) add(d time.Duration) {
	h.b[histIndex(d)].Add(1)
	h.n.Add(1)
}

func (h *hist) count() int64 { return h.n.Load() }

// quantile returns the q-quantile (0 < q ≤ 1); never if it falls among the
// lost, 0 if empty.
func (h *hist) quantile(q float64) time.Duration {
	n := h.n.Load()
	if n == 0 {
		return 0
	}
	rank := int64(math.Ceil(q * float64(n)))
	var seen int64
	for i := range h.b {
		seen += h.b[i].Load()
		if seen >= rank {
			if i == len(h.b)-1 {
				return never
			}
			return histValue(i)
		}
	}
	return never
}
