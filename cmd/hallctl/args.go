package main

import (
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// parse splits positional arguments from flags, which may come anywhere.
// A value that begins with a dash — a time taken away ("-2m") or a
// result ("-+", "-=") — is a value, never a flag. A lone "--" ends the
// flags, as everywhere: what follows it is positional, "--" included
// (the double forfeit: result BOARD -- --, or double-forfeit).
func parse(args []string, setup func(fs *flag.FlagSet)) ([]string, error) {
	fs := flag.NewFlagSet("", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	setup(fs)
	var pos []string
	for len(args) > 0 {
		if args[0] == endOfFlags {
			if len(args) == 1 {
				// Once the double forfeit's name: say so rather than
				// take it for nothing.
				return nil, fmt.Errorf("%w: a lone -- ends the flags, and nothing follows it; a double forfeit is double-forfeit (or -- --)", errUsage)
			}
			return append(pos, args[1:]...), nil
		}
		if isValue(args[0]) {
			pos = append(pos, args[0])
			args = args[1:]
			continue
		}
		// The flags up to the next value or "--": the flag package would
		// take a result for a flag.
		k := 1
		for k < len(args) && args[k] != endOfFlags && !isValue(args[k]) {
			k++
		}
		if err := fs.Parse(args[:k]); err != nil {
			return nil, fmt.Errorf("%w: %v", errUsage, err)
		}
		rest := fs.Args()
		if len(rest) > 0 {
			pos = append(pos, rest[0])
			args = append(rest[1:len(rest):len(rest)], args[k:]...)
		} else {
			args = args[k:]
		}
	}
	return pos, nil
}

// endOfFlags ends the flags: what follows is positional.
const endOfFlags = "--"

// isValue reports whether an argument beginning with a dash is a value:
// a negative number or duration ("-2m", "-30s", "-1"), or a result made
// of +, - and = ("-+", "-="), but not "--", which ends the flags.
func isValue(arg string) bool {
	return negative(arg) || arg != endOfFlags && len(arg) >= 2 && arg[0] == '-' && strings.Trim(arg, "+-=") == ""
}

func need(pos []string, n int, what string) error {
	if len(pos) != n {
		return fmt.Errorf("%w: want %s", errUsage, what)
	}
	return nil
}

func side(s string) (pb.Side, error) {
	switch strings.ToLower(s) {
	case "white", "w":
		return pb.Side_SIDE_WHITE, nil
	case "black", "b":
		return pb.Side_SIDE_BLACK, nil
	}
	return 0, fmt.Errorf("%w: side %q: want white or black", errUsage, s)
}

// actionFlags are the flags every clock action takes.
type actionFlags struct {
	reason string
	wait   time.Duration
}

func (a *actionFlags) set(fs *flag.FlagSet) {
	fs.StringVar(&a.reason, "reason", "", "why (kept in the audit log)")
	fs.DurationVar(&a.wait, "wait", 3*time.Second, "how long to wait for the clock to apply it")
}

// negative reports whether an argument is a negative number or duration
// ("-2m", "-30s", "-1"), which the flag package would take for a flag.
func negative(arg string) bool {
	return len(arg) > 1 && arg[0] == '-' && arg[1] >= '0' && arg[1] <= '9'
}
