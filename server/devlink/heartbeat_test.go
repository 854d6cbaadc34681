package devlink

import (
	"fmt"
	"testing"
	"time"
)

func TestHeartbeatEvery(t *testing.T) {
	for _, c := range []struct {
		fleet, budget int
		min, want     time.Duration
	}{
		{0, 2500, time.Second, time.Second},
		{2500, 2500, time.Second, time.Second},             // within the budget: the shortest
		{2501, 2500, time.Second, 1100 * time.Millisecond}, // rounded up to a tenth
		{5000, 2500, time.Second, 2 * time.Second},
		{10000, 2500, time.Second, 4 * time.Second},
		{20000, 2500, time.Second, 5 * time.Second},       // at most five times the shortest
		{10000, -1, time.Second, time.Second},             // no budget
		{10000, 2500, 10 * time.Second, 40 * time.Second}, // a hall at 10x speed: scaled alike
	} {
		t.Run(fmt.Sprintf("%d/%d/%s", c.fleet, c.budget, c.min), func(t *testing.T) {
			if got := HeartbeatEvery(c.fleet, c.budget, c.min); got != c.want {
				t.Errorf("HeartbeatEvery(%d, %d, %s) = %s, want %s", c.fleet, c.budget, c.min, got, c.want)
			}
		})
	}
}

// Silence: three intervals at the shortest, as before the interval grew
// with the fleet; two at longer ones, so that a silent clock of a large
// fleet is still shown offline within seconds.
func TestSilenceAfter(t *testing.T) {
	for _, c := range []struct{ every, want time.Duration }{
		{time.Second, 3 * time.Second},
		{2 * time.Second, 4 * time.Second},
		{4 * time.Second, 8 * time.Second},
		{5 * time.Second, 10 * time.Second},
	} {
		if got := SilenceAfter(c.every, time.Second); got != c.want {
			t.Errorf("SilenceAfter(%s, 1s) = %s, want %s", c.every, got, c.want)
		}
	}
}
