package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"
)

// row is one line of the table: a figure of the hall, its baseline
// measured in the same run, their ratio, the target and whether it holds.
type row struct {
	figure, hall, base, ratio, target, holds string
}

func printTable(out io.Writer, rows []row) {
	tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "figure\thall\tbaseline\tratio\ttarget\tholds")
	fmt.Fprintln(tw, "------\t----\t--------\t-----\t------\t-----")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", r.figure, dash(r.hall), dash(r.base), dash(r.ratio), dash(r.target), dash(r.holds))
	}
	tw.Flush()
}

// printMarkdown prints the table for the README.
func printMarkdown(out io.Writer, rows []row) {
	fmt.Fprintln(out, "| figure | hall | baseline | ratio | target | holds |")
	fmt.Fprintln(out, "|---|---|---|---|---|---|")
	for _, r := range rows {
		fmt.Fprintf(out, "| %s | %s | %s | %s | %s | %s |\n", r.figure, dash(r.hall), dash(r.base), dash(r.ratio), dash(r.target), dash(r.holds))
	}
}

func dash(s string) string {
	if strings.TrimSpace(s) == "" {
		return "—"
	}
	return s
}

func yesNo(ok bool) string {
	if ok {
		return "yes"
	}
	return "NO"
}

func ms(d time.Duration) string {
	switch {
	case d == never:
		return "lost"
	case d >= 10*time.Second:
		return fmt.Sprintf("%.1f s", d.Seconds())
	case d >= 100*time.Millisecond:
		return fmt.Sprintf("%.0f ms", float64(d)/1e6)
	case d >= 10*time.Millisecond:
		return fmt.Sprintf("%.1f ms", float64(d)/1e6)
	default:
		return fmt.Sprintf("%.2f ms", float64(d)/1e6)
	}
}

func perSec(v float64) string { return fmt.Sprintf("%.0f/s", v) }

func ratio(a, b float64) string {
	if b == 0 {
		return ""
	}
	return fmt.Sprintf("%.2f", a/b)
}

func kb(v float64) string { return fmt.Sprintf("%.1f KB", v/1024) }
