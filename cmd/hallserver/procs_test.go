package main

import "testing"

// A hall given one processor asks for two (its commits hold one in
// cgo); more are left as the runtime chose them, and GOMAXPROCS wins.
func TestProcsPlan(t *testing.T) {
	for _, c := range []struct {
		env     string
		current int
		want    int
	}{
		{"", 1, 2},
		{"", 2, 0},
		{"", 8, 0},
		{"1", 1, 0},
	} {
		getenv := func(k string) string {
			if k == "GOMAXPROCS" {
				return c.env
			}
			return ""
		}
		if got := procsPlan(getenv, c.current); got != c.want {
			t.Errorf("GOMAXPROCS=%q, runtime chose %d: asks for %d, want %d", c.env, c.current, got, c.want)
		}
	}
}
