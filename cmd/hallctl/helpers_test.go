package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/chesshall/hallclock/internal/testkit/halltest"
)

// chiefEnv is the environment of hallctl pointed at the hall with the
// chief arbiter's token.
func chiefEnv(h *halltest.Hall) func(string) string {
	return func(k string) string {
		switch k {
		case "HALL_ADDR":
			return h.Addr()
		case "HALL_TOKEN":
			return h.Chief
		}
		return ""
	}
}

// runner returns do, which runs hallctl in env and fails the test if it
// fails, and expect, which checks an output holds every want.
func runner(t *testing.T, env func(string) string) (do func(args ...string) string, expect func(out string, want ...string)) {
	do = func(args ...string) string {
		t.Helper()
		var out bytes.Buffer
		if err := run(context.Background(), args, &out, env); err != nil {
			t.Fatalf("hallctl %s: %v\n%s", strings.Join(args, " "), err, out.String())
		}
		return out.String()
	}
	expect = func(out string, want ...string) {
		t.Helper()
		for _, w := range want {
			if !strings.Contains(out, w) {
				t.Errorf("output\n%s\nwant it to contain %q", out, w)
			}
		}
	}
	return do, expect
}
