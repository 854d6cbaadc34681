package main

import (
	"io"
	"testing"
	"time"
)

// How long a write may wait for its commit before the hall is not ready:
// 3 s by default, from HALL_STALL_AFTER or -stall-after; nonsense refused.
func TestStallAfterFlag(t *testing.T) {
	for _, c := range []struct {
		args []string
		env  string
		want time.Duration
	}{{nil, "", 3 * time.Second}, {nil, "10s", 10 * time.Second}, {[]string{"-stall-after", "1.5s"}, "10s", 1500 * time.Millisecond}} {
		m := &Main{Stderr: io.Discard}
		if err := m.ParseFlags(c.args, func(k string) string {
			if k == "HALL_STALL_AFTER" {
				return c.env
			}
			return ""
		}); err != nil {
			t.Fatalf("ParseFlags(%q) with HALL_STALL_AFTER=%q: %v", c.args, c.env, err)
		}
		if m.StallAfter != c.want {
			t.Errorf("ParseFlags(%q) with HALL_STALL_AFTER=%q: StallAfter %v, want %v", c.args, c.env, m.StallAfter, c.want)
		}
	}
	for _, bad := range []string{"soon", "0s", "10ms"} {
		if err := (&Main{Stderr: io.Discard}).ParseFlags([]string{"-stall-after", bad}, func(string) string { return "" }); err == nil {
			t.Errorf("-stall-after %s: accepted, want an error", bad)
		}
	}
}
