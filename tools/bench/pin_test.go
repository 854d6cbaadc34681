package main

import (
	"slices"
	"testing"
)

func TestParseCPUs(t *testing.T) {
	for _, c := range []struct {
		in   string
		want cpuSet
	}{
		{"", nil}, {"none", nil}, {"1", cpuSet{1}}, {"0-3", cpuSet{0, 1, 2, 3}}, {"0, 2-3", cpuSet{0, 2, 3}},
	} {
		got, err := parseCPUs(c.in)
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("parseCPUs(%q) = %v, %v, want %v", c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{"a", "3-1", "-1", "1-"} {
		if got, err := parseCPUs(bad); err == nil {
			t.Errorf("parseCPUs(%q) = %v, want an error", bad, got)
		}
	}
}
