package main

import (
	"io"
	"os"
	"strconv"
)

// outputWidth is how many columns hallctl's lines may take: the
// terminal's width when it prints to one, else $COLUMNS, else 0 (a pipe or
// a file: nothing is cut).
func outputWidth(out io.Writer, getenv func(string) string) int {
	if f, ok := out.(*os.File); ok {
		if w := terminalWidth(f); w > 0 {
			return w
		}
	}
	if w, err := strconv.Atoi(getenv("COLUMNS")); err == nil && w > 0 {
		return w
	}
	return 0
}
