package cmdline

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
	"time"
)

func TestEnv(t *testing.T) {
	vars := map[string]string{"S": "set", "I": "42", "F": "2.5", "B": "true", "D": "15m", "BAD": "x", "EMPTY": ""}
	e := Env(func(k string) string { return vars[k] })
	for _, c := range []struct {
		name      string
		got, want any
	}{
		{"a set string wins", e.String("S", "def"), "set"},
		{"an empty string is unset", e.String("EMPTY", "def"), "def"},
		{"unset string", e.String("NONE", "def"), "def"},
		{"int", e.Int("I", 7), 42},
		{"int that does not parse", e.Int("BAD", 7), 7},
		{"float", e.Float("F", 1), 2.5},
		{"bool", e.Bool("B"), true},
		{"bool unset", e.Bool("NONE"), false},
		{"duration", e.Duration("D", time.Second), 15 * time.Minute},
		{"duration that does not parse", e.Duration("BAD", time.Second), time.Second},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.got != c.want {
				t.Errorf("got %v, want %v", c.got, c.want)
			}
		})
	}
}

func TestLogger(t *testing.T) {
	var buf bytes.Buffer
	log, err := Logger(&buf, "warn")
	if err != nil {
		t.Fatal(err)
	}
	log.Info("hidden")
	log.Warn("shown")
	if got := buf.String(); strings.Contains(got, "hidden") || !strings.Contains(got, "shown") {
		t.Errorf("a warn logger wrote %q", got)
	}
	if _, err := Logger(&buf, "loud"); err == nil || !strings.Contains(err.Error(), "want debug, info, warn or error") {
		t.Errorf("Logger(loud) = %v, want an error saying what is allowed", err)
	}
	if lvl, err := Level("debug"); err != nil || lvl != slog.LevelDebug {
		t.Errorf("Level(debug) = %v, %v", lvl, err)
	}
}
