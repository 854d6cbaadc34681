package devlink

import "time"

// Heartbeats. Each clock beats at the interval its Welcome names, and a
// clock heard from for none of SilenceAfter(interval) is taken offline.
// At a real hall's peak heartbeats, not presses, are most of what the
// hall reads: 10,000 clocks beating every second send 10,000 messages a
// second, ten for each press at 1,000 presses a second. So the interval
// grows with the fleet: at most Options.HeartbeatBudget clocks beat every
// Options.HeartbeatInterval, a larger fleet beats proportionally less
// often, up to maxBeatFactor times the interval. With the defaults a hall
// of up to 2,500 clocks hears each every second and takes a silent one
// offline after 3 s; a hall of 10,000 hears each every 4 s and takes a
// silent one offline after 8 s.

// DefaultHeartbeatBudget is how many clocks beat every HeartbeatInterval
// (by default 2,500 heartbeats a second) before the interval grows.
const DefaultHeartbeatBudget = 2500

// maxBeatFactor bounds the interval, so that an offline clock is still
// shown within seconds: at most this many shortest intervals.
const maxBeatFactor = 5

// HeartbeatEvery is the interval to name in the Welcome of a clock of a
// fleet of fleet clocks: min while the fleet is within budget, else
// fleet/budget times min (rounded up to a tenth of min), at most
// maxBeatFactor times min (min: shortest).
func HeartbeatEvery(fleet, budget int, shortest time.Duration) time.Duration {
	if budget <= 0 || fleet <= budget {
		return shortest
	}
	step := max(shortest/10, time.Millisecond)
	need := time.Duration(float64(shortest) * float64(fleet) / float64(budget))
	every := (need + step - 1) / step * step
	return min(every, maxBeatFactor*shortest)
}

// SilenceAfter is how long a clock beating every interval may stay silent
// before it is taken offline: a missed heartbeat and the shortest
// interval twice more (three intervals at the shortest, as a clock that
// beat every second always had; two at the longest).
func SilenceAfter(every, shortest time.Duration) time.Duration {
	return every + max(every, 2*shortest)
}
