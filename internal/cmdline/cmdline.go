// Package cmdline is what the hall's commands (hallserver, hallctl,
// hallgateway, clocksim) share on their command lines: flags whose
// defaults come from environment variables (Env), the -log-level flag
// (Logger), and how a command starts and exits (Main: 0 for -h, 2 for bad
// flags, 1 when it fails).
//
// # Usage
//
//	func main() {
//		m := &Main{Stdout: os.Stdout, Stderr: os.Stderr}
//		cmdline.Main("hallgateway", func() error { return m.ParseFlags(os.Args[1:], os.Getenv) }, m.Run)
//	}
//
//	func (m *Main) ParseFlags(args []string, getenv func(string) string) error {
//		env := cmdline.Env(getenv)
//		fs.StringVar(&m.NATS, "nats", env.String("HALL_NATS", "nats://127.0.0.1:4222"), "... (HALL_NATS)")
//		...
//	}
package cmdline

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"
)

// Env gives flags their defaults from the environment (os.Getenv, or a
// test's map): a variable that is set and not empty wins over the
// built-in default; one that does not parse is ignored.
type Env func(string) string

// String is the variable's value, or def.
func (e Env) String(name, def string) string {
	if v := e(name); v != "" {
		return v
	}
	return def
}

// Int is the variable's value as an integer, or def.
func (e Env) Int(name string, def int) int {
	if v, err := strconv.Atoi(e(name)); err == nil {
		return v
	}
	return def
}

// Float is the variable's value as a number, or def.
func (e Env) Float(name string, def float64) float64 {
	if v, err := strconv.ParseFloat(e(name), 64); err == nil {
		return v
	}
	return def
}

// Bool is the variable's value as a boolean (1, true, ...), else false.
func (e Env) Bool(name string) bool {
	v, _ := strconv.ParseBool(e(name))
	return v
}

// Duration is the variable's value as a duration (5s, 15m), or def.
func (e Env) Duration(name string, def time.Duration) time.Duration {
	if v, err := time.ParseDuration(e(name)); err == nil {
		return v
	}
	return def
}

// Level reads a -log-level flag: debug, info, warn or error.
func Level(s string) (slog.Level, error) {
	var lvl slog.Level
	if err := lvl.UnmarshalText([]byte(s)); err != nil {
		return 0, fmt.Errorf("-log-level %q: want debug, info, warn or error", s)
	}
	return lvl, nil
}

// Logger returns a text logger to w at the level of a -log-level flag.
func Logger(w io.Writer, level string) (*slog.Logger, error) {
	lvl, err := Level(level)
	if err != nil {
		return nil, err
	}
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: lvl})), nil
}

// Main runs a command: parse reads its command line (flag.ErrHelp: it
// exits 0; any other error is said and it exits 2), then run runs under a
// context that SIGINT and SIGTERM cancel (an error is said and it exits
// 1).
func Main(name string, parse func() error, run func(context.Context) error) {
	if err := parse(); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(0)
		}
		fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx)
	stop()
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
		os.Exit(1)
	}
}
