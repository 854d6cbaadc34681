package main

import (
	"errors"
	"flag"
	"slices"
	"strings"
	"testing"
)

// A lone "--" ends the flags, as in any command line: "result B -reason r
// -- 1-0" was read as the double forfeit "--" followed by a stray "1-0".
// The double forfeit is "-- --" or double-forfeit; a trailing lone "--",
// once the double forfeit, is refused saying so.
func TestParseEndOfFlags(t *testing.T) {
	for _, c := range []struct {
		args   []string
		pos    []string
		reason string
	}{
		{[]string{"B", "-reason", "r", "--", "1-0"}, []string{"B", "1-0"}, "r"},
		{[]string{"B", "--", "--"}, []string{"B", "--"}, ""},
		{[]string{"-reason", "late", "B", "--", "-reason"}, []string{"B", "-reason"}, "late"},
		{[]string{"B", "-+", "-reason", "no show"}, []string{"B", "-+"}, "no show"},
		{[]string{"B", "white", "-2m"}, []string{"B", "white", "-2m"}, ""},
		{[]string{"B", "double-forfeit", "-reason", "both absent"}, []string{"B", "double-forfeit"}, "both absent"},
	} {
		var reason string
		pos, err := parse(c.args, func(fs *flag.FlagSet) { fs.StringVar(&reason, "reason", "", "") })
		if err != nil || !slices.Equal(pos, c.pos) || reason != c.reason {
			t.Errorf("parse(%q) = %q, reason %q, %v; want %q, reason %q", c.args, pos, reason, err, c.pos, c.reason)
		}
	}
	_, err := parse([]string{"B", "-reason", "r", "--"}, func(fs *flag.FlagSet) { fs.String("reason", "", "") })
	if !errors.Is(err, errUsage) || !strings.Contains(err.Error(), "double-forfeit") {
		t.Errorf("parse of a trailing lone -- = %v; want a usage error naming double-forfeit", err)
	}
	for in, want := range map[string]string{"double-forfeit": "--", "Double-Forfeit": "--", "--": "--", "=-": "1/2-0", "1-0": "1-0"} {
		if got := resultArg(in); got != want {
			t.Errorf("resultArg(%q) = %q, want %q", in, got, want)
		}
	}
}
