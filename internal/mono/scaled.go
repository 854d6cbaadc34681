package mono

import (
	"time"
)

// Scaled returns a clock that runs factor times as fast as base: after one
// real second, Now has moved factor seconds, and AfterFunc(d) fires after
// d/factor of base time. The fleet simulator and its tests use it to play
// whole rounds in seconds; a server and its devices must share the factor.
func Scaled(base Clock, factor float64) Clock {
	if factor <= 0 {
		factor = 1
	}
	return &scaled{base: base, factor: factor, origin: base.Now()}
}

type scaled struct {
	base   Clock
	factor float64
	origin time.Time
}

func (c *scaled) Now() time.Time {
	return c.origin.Add(time.Duration(float64(c.base.Since(c.origin)) * c.factor))
}

func (c *scaled) Since(t time.Time) time.Duration { return c.Now().Sub(t) }

func (c *scaled) real(d time.Duration) time.Duration {
	return time.Duration(float64(d) / c.factor)
}

func (c *scaled) AfterFunc(d time.Duration, f func()) Timer {
	return &scaledTimer{c: c, t: c.base.AfterFunc(c.real(d), f)}
}

func (c *scaled) After(d time.Duration) <-chan time.Time {
	ch := make(chan time.Time, 1)
	c.AfterFunc(d, func() { ch <- c.Now() })
	return ch
}

type scaledTimer struct {
	c *scaled
	t Timer
}

func (t *scaledTimer) Stop() bool                 { return t.t.Stop() }
func (t *scaledTimer) Reset(d time.Duration) bool { return t.t.Reset(t.c.real(d)) }
