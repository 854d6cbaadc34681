package sim

import (
	"fmt"
	"io"
	"math"
	"math/bits"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// HallStats are the server's own counters, when the fleet can read them
// (Config.HallStats): what the hall saw of the faults the fleet made.
type HallStats struct {
	Connects   uint64 // device streams welcomed
	Applied    uint64 // device events applied and committed
	Rejected   uint64 // device events the rules refused
	Duplicates uint64 // device events dropped as already received
	Gaps       uint64 // streams ended for a sequence gap (OUT_OF_RANGE)
	Commands   uint64 // arbiter commands issued
}

// Summary is what a run did.
type Summary struct {
	Elapsed time.Duration // real time
	Speed   float64
	Chaos   string

	Rounds   int            // rounds played to the end
	Games    int            // games (boards) played to the end
	Results  map[string]int // by result and termination, e.g. "1-0 normal", "1/2-1/2 agreement", "0-1 time"
	Flags    int            // games lost (or drawn) on time
	Illegal  int            // illegal moves ruled by the arbiter
	Presses  int            // presses by the players (device and virtual clocks)
	Claims   int            // quickplay-finish claims
	Adjourns int            // adjournments
	// Announcements: what the talking clocks said (Config.TalkingClocks),
	// at the players' request or the hall's.
	Announcements int
	// Assisted: what the visually disabled players' assistants did
	// through the hall (RoundSpec.BlindPlay): presses for their players,
	// announcements asked for.
	AssistedPresses, AssistedAnnouncements int

	Connects   int // streams the devices' server welcomed (the first of each device included)
	Reconnects int // Connects beyond the first of each device (incarnation)
	Rejections int // device events the server's rules refused

	Cuts               int // connections cut
	Duplicated         int // events sent twice
	Reordered          int // pairs of events sent in the wrong order
	Reboots            int // devices restarted from their file outbox
	Recovered          int // unsent events a rebooted device found in its outbox
	RecoveredDelivered int // of those, acknowledged by the server afterwards
	Deaths             int // clocks that died
	VirtualClocks      int // boards moved to a server-hosted virtual clock

	Acks                   int           // events acknowledged
	AckP50, AckP99, AckMax time.Duration // acknowledgement latency (real time, device-side: from recording to the ack)

	Hall *HallStats // the server's counters, if Config.HallStats was set
}

// WriteTo writes the summary as a few lines of text.
func (s Summary) WriteTo(w io.Writer) (int64, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "summary: %d rounds, %d games in %s (speed %gx, chaos %s)\n", s.Rounds, s.Games, s.Elapsed.Round(time.Millisecond), s.Speed, s.Chaos)
	keys := make([]string, 0, len(s.Results))
	for k := range s.Results {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var rs []string
	for _, k := range keys {
		rs = append(rs, fmt.Sprintf("%s %d", k, s.Results[k]))
	}
	fmt.Fprintf(&b, "  results: %s\n", strings.Join(rs, ", "))
	fmt.Fprintf(&b, "  presses %d, illegal moves %d, flags %d, quickplay claims %d, adjournments %d, announcements %d\n",
		s.Presses, s.Illegal, s.Flags, s.Claims, s.Adjourns, s.Announcements)
	if s.AssistedPresses+s.AssistedAnnouncements > 0 {
		fmt.Fprintf(&b, "  assistants of visually disabled players: %d presses, %d announcements asked for\n", s.AssistedPresses, s.AssistedAnnouncements)
	}
	fmt.Fprintf(&b, "  link: %d connects (%d reconnects), %d rejected; acks %d, latency p50 %s p99 %s max %s\n",
		s.Connects, s.Reconnects, s.Rejections, s.Acks, fmtDur(s.AckP50), fmtDur(s.AckP99), fmtDur(s.AckMax))
	fmt.Fprintf(&b, "  chaos: %d cuts, %d duplicated, %d reordered, %d reboots (%d unsent events recovered, %d delivered), %d deaths (%d virtual clocks)\n",
		s.Cuts, s.Duplicated, s.Reordered, s.Reboots, s.Recovered, s.RecoveredDelivered, s.Deaths, s.VirtualClocks)
	if h := s.Hall; h != nil {
		fmt.Fprintf(&b, "  hall: %d connects, %d events applied, %d rejected, %d duplicates dropped, %d sequence gaps, %d commands\n",
			h.Connects, h.Applied, h.Rejected, h.Duplicates, h.Gaps, h.Commands)
	}
	n, err := io.WriteString(w, b.String())
	return int64(n), err
}

func (s Summary) String() string {
	var b strings.Builder
	s.WriteTo(&b)
	return b.String()
}

func fmtDur(d time.Duration) string {
	switch {
	case d <= 0:
		return "-"
	case d < time.Millisecond:
		return fmt.Sprintf("%dµs", d.Microseconds())
	case d < time.Second:
		return fmt.Sprintf("%.1fms", float64(d)/float64(time.Millisecond))
	}
	return fmt.Sprintf("%.2fs", d.Seconds())
}

// counters are the fleet's running totals; every field is safe for
// concurrent use.
type counters struct {
	presses, illegal, claims, adjourns, flagClaims atomic.Int64
	announcements                                  atomic.Int64 // said by the talking clocks
	assistedPresses, assistedAnnouncements         atomic.Int64 // by the assistants, through the hall
	connects, incarnations, rejections             atomic.Int64
	cuts, duplicated, reordered                    atomic.Int64
	reboots, recovered, recoveredDelivered, deaths atomic.Int64
	virtual, games, playing, finished              atomic.Int64
	acks                                           histogram // real-time ack latency, whole run
	window                                         histogram // since the last progress line
	mu                                             sync.Mutex
	results                                        map[string]int
	flags, rounds                                  int
}

// counted implements turnStats.
func (c *counters) counted(what string) {
	switch what {
	case countPress:
		c.presses.Add(1)
	case countIllegal:
		c.illegal.Add(1)
	case countClaim:
		c.claims.Add(1)
	case countAdjourn:
		c.adjourns.Add(1)
	case countFlagClaim:
		c.flagClaims.Add(1)
	}
}

// histogram is a lock-free latency histogram with eight buckets per
// power of two (a resolution of about 9%), from 1 µs to about 70 minutes.
type histogram struct {
	b   [histBuckets]atomic.Uint64
	max atomic.Int64
}

const (
	histSub     = 8
	histBuckets = 32 * histSub
)

func histIndex(d time.Duration) int {
	us := uint64(max(d/time.Microsecond, 1))
	exp := bits.Len64(us) - 1 // us in [2^exp, 2^(exp+1))
	var frac uint64
	if exp >= 3 {
		frac = (us >> (exp - 3)) & (histSub - 1)
	} else {
		frac = (us << (3 - exp)) & (histSub - 1)
	}
	return min(exp*histSub+int(frac), histBuckets-1)
}

// histValue is the upper edge of bucket i.
func histValue(i int) time.Duration {
	exp, frac := i/histSub, i%histSub
	us := math.Ldexp(1+float64(frac+1)/histSub, exp)
	return time.Duration(us * float64(time.Microsecond))
}

func (h *histogram) add(d time.Duration) {
	h.b[histIndex(d)].Add(1)
	for {
		m := h.max.Load()
		if int64(d) <= m || h.max.CompareAndSwap(m, int64(d)) {
			return
		}
	}
}

// snapshot returns the counts and resets them if reset is set.
func (h *histogram) snapshot(reset bool) (counts [histBuckets]uint64, maxd time.Duration) {
	for i := range h.b {
		if reset {
			counts[i] = h.b[i].Swap(0)
		} else {
			counts[i] = h.b[i].Load()
		}
	}
	if reset {
		return counts, time.Duration(h.max.Swap(0))
	}
	return counts, time.Duration(h.max.Load())
}

// quantiles returns the count and the quantiles qs of counts.
func quantiles(counts [histBuckets]uint64, qs ...float64) (uint64, []time.Duration) {
	var n uint64
	for _, c := range counts {
		n += c
	}
	out := make([]time.Duration, len(qs))
	if n == 0 {
		return 0, out
	}
	for j, q := range qs {
		rank := uint64(math.Ceil(q * float64(n)))
		var seen uint64
		for i, c := range counts {
			seen += c
			if seen >= rank && c > 0 {
				out[j] = histValue(i)
				break
			}
		}
	}
	return n, out
}
