package main

import (
	"io"
	"testing"
)

// The collector's settings: the server's default unless Go's own variables
// say otherwise, an explicit flag or HALL_ variable over those.
func TestGCSettings(t *testing.T) {
	for _, c := range []struct {
		name string
		args []string
		env  map[string]string
		want gcSettings
	}{
		{"default", nil, nil, gcSettings{percent: defaultGCPercent}},
		{"GOGC wins over the default", nil, map[string]string{"GOGC": "150"}, gcSettings{}},
		{"the flag wins over GOGC", []string{"-gc-percent", "200"}, map[string]string{"GOGC": "150"}, gcSettings{percent: 200}},
		{"HALL_GC_PERCENT wins over GOGC", nil, map[string]string{"GOGC": "150", "HALL_GC_PERCENT": "250"}, gcSettings{percent: 250}},
		{"a memory limit", []string{"-memory-limit", "2GiB"}, nil, gcSettings{percent: defaultGCPercent, limit: 2 << 30}},
		{"GOMEMLIMIT wins over none", nil, map[string]string{"GOMEMLIMIT": "1GiB", "HALL_MEMORY_LIMIT": ""}, gcSettings{percent: defaultGCPercent}},
		{"HALL_MEMORY_LIMIT over GOMEMLIMIT", nil, map[string]string{"GOMEMLIMIT": "1GiB", "HALL_MEMORY_LIMIT": "1536MiB"}, gcSettings{percent: defaultGCPercent, limit: 1536 << 20}},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := &Main{Stderr: io.Discard}
			if err := m.ParseFlags(c.args, func(k string) string { return c.env[k] }); err != nil {
				t.Fatal(err)
			}
			if m.gc != c.want {
				t.Errorf("settings %+v, want %+v", m.gc, c.want)
			}
		})
	}
	for _, bad := range [][]string{{"-gc-percent", "off"}, {"-gc-percent", "5"}, {"-memory-limit", "2GB"}, {"-memory-limit", "-1"}, {"-memory-limit", "lots"}} {
		if err := (&Main{Stderr: io.Discard}).ParseFlags(bad, func(string) string { return "" }); err == nil {
			t.Errorf("ParseFlags(%q) = nil, want an error", bad)
		}
	}
}

func TestParseBytes(t *testing.T) {
	for in, want := range map[string]int64{"1024": 1024, "1024B": 1024, "64KiB": 64 << 10, "1536MiB": 1536 << 20, "2GiB": 2 << 30, "1TiB": 1 << 40} {
		if got, err := parseBytes(in); err != nil || got != want {
			t.Errorf("parseBytes(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "GiB", "0", "1.5GiB", "2 gigs", "99999999999TiB"} {
		if _, err := parseBytes(bad); err == nil {
			t.Errorf("parseBytes(%q) = nil error, want one", bad)
		}
	}
}
