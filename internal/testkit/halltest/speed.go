package halltest

import (
	"time"

	"github.com/chesshall/hallclock/internal/mono"
)

// WithSpeed runs the server on a clock factor times faster than real time
// (mono.Scaled), for simulated rounds that play in seconds; the devices
// must run at the same factor (sim.Config.Speed). The server's heartbeat
// interval and command wait, which run on its clock, are scaled too,
// unless set, so that in real time they stay the defaults (1 s, 3 s): a
// loaded test machine does not take devices offline. (The watch interval
// is real time already.) Give it after WithOptions.
func WithSpeed(factor float64) Option {
	return func(h *Hall) {
		if factor <= 0 {
			factor = 1
		}
		if h.Opts.Clock == nil {
			h.Opts.Clock = mono.Scaled(mono.Real(), factor)
		}
		scale := func(d *time.Duration, def time.Duration) {
			if *d == 0 {
				*d = time.Duration(float64(def) * factor)
			}
		}
		scale(&h.Opts.HeartbeatInterval, time.Second)
		scale(&h.Opts.CommandWait, 3*time.Second)
	}
}
