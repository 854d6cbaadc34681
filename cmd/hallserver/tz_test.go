package main

import (
	"io"
	"strings"
	"testing"
	"time"
)

// The hall's time zone: -tz or HALL_TZ, an IANA name checked at start
// (the error says what is allowed); none is the machine's.
func TestTimeZoneFlag(t *testing.T) {
	for _, c := range []struct {
		args []string
		env  map[string]string
		want string
	}{
		{[]string{"-tz", "Asia/Yerevan"}, nil, "Asia/Yerevan"},
		{nil, map[string]string{"HALL_TZ": "Asia/Seoul"}, "Asia/Seoul"},
		{[]string{"-tz", "UTC"}, map[string]string{"HALL_TZ": "Asia/Seoul"}, "UTC"},
	} {
		m := &Main{Stderr: io.Discard}
		if err := m.ParseFlags(c.args, func(k string) string { return c.env[k] }); err != nil {
			t.Fatalf("ParseFlags(%q, %v): %v", c.args, c.env, err)
		}
		if m.Zone.String() != c.want {
			t.Errorf("ParseFlags(%q, %v): zone %v, want %s", c.args, c.env, m.Zone, c.want)
		}
	}
	m := &Main{Stderr: io.Discard}
	if err := m.ParseFlags(nil, func(string) string { return "" }); err != nil || m.Zone == nil || m.Zone == time.Local {
		t.Errorf("no -tz: zone %v, %v; want the machine's under its name", m.Zone, err)
	}
	for _, bad := range []string{"Mars/Olympus", "Local", "+04:00"} {
		err := (&Main{Stderr: io.Discard}).ParseFlags([]string{"-tz", bad}, func(string) string { return "" })
		if err == nil || !strings.Contains(err.Error(), bad) || !strings.Contains(err.Error(), "IANA name such as Europe/Yerevan") {
			t.Errorf("-tz %s: %v; want an error naming it and what is allowed", bad, err)
		}
	}
}
