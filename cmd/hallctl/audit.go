package main

import (
	"flag"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// audit prints a board's audit log, one line an entry in the dashboard's
// words (describe.go): the time, who, what and, when it was not simply
// applied, what came of it; the arbiter's reason on the line below. Lines
// fit -width columns: by default the terminal's ($COLUMNS without one);
// printed to a pipe or a file, nothing is cut.
func (c *cli) audit(args []string) error {
	var who, what string
	var refused bool
	var since time.Duration
	var last, width int
	pos, err := parse(args, func(fs *flag.FlagSet) {
		fs.StringVar(&who, "who", "", "only entries by this actor (part of it: device, arbiter, a name)")
		fs.StringVar(&what, "what", "", "only entries whose action contains this (press, add_time, illegal, result...)")
		fs.BoolVar(&refused, "refused", false, "only what was refused or raised an alert")
		fs.DurationVar(&since, "since", 0, "only the last while, e.g. 10m")
		fs.IntVar(&last, "last", 0, "only the last N entries")
		fs.IntVar(&width, "width", c.width, "columns to fit in (default: the terminal's; 0: no limit)")
	})
	if err != nil {
		return err
	}
	if err := need(pos, 1, "audit BOARD [-who W] [-what A] [-refused] [-since 10m] [-last N] [-width N]"); err != nil {
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
	type line struct {
		e          *pb.AuditEntry
		who, which string
	}
	var lines []line
	var prev *pb.BoardState // the board before each entry, for what it began or ended
	cut := time.Now().Add(-since)
	// A command and the board event that carried it out are one ruling,
	// as on the page: the event says who gave it; the command's own entry
	// shows while the clock has not applied it.
	applied := map[string]bool{}
	for _, e := range r.GetEntries() {
		if e.GetAfter() != nil && e.GetCommandId() != "" {
			applied[e.GetCommandId()] = true
		}
	}
	has := func(s, part string) bool { return strings.Contains(strings.ToLower(s), strings.ToLower(part)) }
	for _, e := range r.GetEntries() {
		l := line{e: e, who: auditActor(e), which: auditText(e, prev)}
		if e.GetAfter() != nil {
			prev = e.GetAfter()
		}
		switch {
		case e.GetOutcome() == "pending" && applied[e.GetCommandId()],
			who != "" && !has(e.GetActor(), who) && !has(l.who, who),
			what != "" && !has(e.GetWhat(), what) && !has(l.which, what),
			refused && !strings.HasPrefix(e.GetOutcome(), "refused") && !strings.HasPrefix(e.GetOutcome(), "alert"),
			since > 0 && time.UnixMilli(e.GetUnixMs()).Before(cut):
			continue
		}
		lines = append(lines, l)
	}
	if last > 0 && len(lines) > last {
		lines = lines[len(lines)-last:]
	}
	if len(lines) == 0 {
		fmt.Fprintln(c.out, "no entries")
		return nil
	}
	// The actors' column is as wide as its longest name; within a width,
	// at most a third of it.
	actorWidth := 0
	for _, l := range lines {
		actorWidth = max(actorWidth, utf8.RuneCountInString(l.who))
	}
	const timeWidth = 12 // 15:04:05.000
	if width > 0 {
		actorWidth = min(actorWidth, max(16, width/3))
	}
	indent := timeWidth + 2 + actorWidth + 2
	clip := func(s string) string {
		if width <= 0 {
			return s
		}
		return clipText(s, max(width-indent, 20))
	}
	for _, l := range lines {
		text := l.which
		if o := l.e.GetOutcome(); o != "" && o != "applied" {
			text += " → " + o
		}
		fmt.Fprintf(c.out, "%s  %s  %s\n", time.UnixMilli(l.e.GetUnixMs()).Format("15:04:05.000"), pad(clipText(l.who, actorWidth), actorWidth), clip(text))
		if l.e.GetReason() != "" {
			fmt.Fprintf(c.out, "%s%s\n", strings.Repeat(" ", indent), clip("“"+l.e.GetReason()+"”"))
		}
	}
	return nil
}

// pad fills s with spaces to n characters (fmt's %-*s counts bytes).
func pad(s string, n int) string {
	return s + strings.Repeat(" ", max(0, n-utf8.RuneCountInString(s)))
}

// clipText cuts s to n characters, marking the cut with "…".
func clipText(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}
