package main

import (
	"flag"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// audit prints a board's audit log, one line an entry within -width
// columns (100 by default): the time, who, what and, when it was not
// simply applied, what came of it; the arbiter's reason on the line below.
func (c *cli) audit(args []string) error {
	var who, what string
	var refused bool
	var since time.Duration
	var last, width int
	pos, err := parse(args, func(fs *flag.FlagSet) {
		fs.StringVar(&who, "who", "", "only entries by this actor (part of it: device, arbiter, a name)")
		fs.StringVar(&what, "what", "", "only entries whose action contains this (press, add_time, result...)")
		fs.BoolVar(&refused, "refused", false, "only what was refused or raised an alert")
		fs.DurationVar(&since, "since", 0, "only the last while, e.g. 10m")
		fs.IntVar(&last, "last", 0, "only the last N entries")
		fs.IntVar(&width, "width", 100, "columns to fit in")
	})
	if err != nil {
		return err
	}
	if err := need(pos, 1, "audit BOARD [-who W] [-what A] [-refused] [-since 10m] [-last N]"); err != nil {
		return err
	}
	id, err := c.boardID(pos[0])
	if err != nil {
		return err
	}
	r, err := c.arb.AuditLog(c.ctx, &pb.AuditLogRequest{BoardId: id})
	if err != nil {
		return err
	}
	var es []*pb.AuditEntry
	cut := time.Now().Add(-since)
	for _, e := range r.GetEntries() {
		switch {
		case who != "" && !strings.Contains(strings.ToLower(e.GetActor()), strings.ToLower(who)),
			what != "" && !strings.Contains(strings.ToLower(e.GetWhat()), strings.ToLower(what)),
			refused && !strings.HasPrefix(e.GetOutcome(), "refused") && !strings.HasPrefix(e.GetOutcome(), "alert"),
			since > 0 && time.UnixMilli(e.GetUnixMs()).Before(cut):
			continue
		}
		es = append(es, e)
	}
	if last > 0 && len(es) > last {
		es = es[len(es)-last:]
	}
	if len(es) == 0 {
		fmt.Fprintln(c.out, "no entries")
		return nil
	}
	const actorWidth = 16
	indent := 12 + 2 + actorWidth + 2
	rest := max(width-indent, 20)
	for _, e := range es {
		line := e.GetWhat()
		if o := e.GetOutcome(); o != "" && o != "applied" {
			line += " → " + o
		}
		fmt.Fprintf(c.out, "%s  %-*s  %s\n", time.UnixMilli(e.GetUnixMs()).Format("15:04:05.000"), actorWidth,
			clipText(e.GetActor(), actorWidth), clipText(line, rest))
		if e.GetReason() != "" {
			fmt.Fprintf(c.out, "%s%s\n", strings.Repeat(" ", indent), clipText("“"+e.GetReason()+"”", rest))
		}
	}
	return nil
}

// clipText cuts s to n characters, marking the cut with "…".
func clipText(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}
