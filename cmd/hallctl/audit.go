package main

import (
	"flag"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// audit prints a board's audit log, or without a board the hall-wide
// audit (AuditLog's filters: -round, -tournament, -actor, -kind, -since,
// -until), one line an entry in the dashboard's words (describe.go): the
// time, the board (hall-wide), who, what and, when it was not simply
// applied, what came of it; the arbiter's reason on the line below. Lines
// fit -width columns: by default the terminal's ($COLUMNS without one);
// printed to a pipe or a file, nothing is cut.
func (c *cli) audit(args []string) error {
	var who, what, round, tournament, actor, kinds, sinceArg, untilArg string
	var refused bool
	var last, width, limit int
	pos, err := parse(args, func(fs *flag.FlagSet) {
		fs.StringVar(&round, "round", "", "only this round's boards (Open:5, or its id)")
		fs.StringVar(&tournament, "tournament", "", "only this tournament's boards")
		fs.StringVar(&actor, "actor", "", "only entries by this actor: arbiter:Anna, a name (Anna) or a role (chief, device)")
		fs.StringVar(&kinds, "kind", "", "only entries of these kinds, comma-separated: result, add_time, pause, start, assign...")
		fs.StringVar(&sinceArg, "since", "", "only entries from then: 09:00 (today, the hall's time; UTC with -utc), 10m (ago), or 2026-12-07T09:00:00Z")
		fs.StringVar(&untilArg, "until", "", "only entries before then, as -since")
		fs.IntVar(&limit, "limit", 0, "hall-wide: the newest N entries (default 500)")
		fs.StringVar(&who, "who", "", "only entries by this actor (part of it: device, arbiter, a name)")
		fs.StringVar(&what, "what", "", "only entries whose action contains this (press, add_time, illegal, result...)")
		fs.BoolVar(&refused, "refused", false, "only what was refused or raised an alert")
		fs.IntVar(&last, "last", 0, "only the last N entries")
		fs.IntVar(&width, "width", c.width, "columns to fit in (default: the terminal's; 0: no limit)")
	})
	if err != nil {
		return err
	}
	if len(pos) > 1 {
		return fmt.Errorf("%w: audit [BOARD] [-round R] [-tournament T] [-actor X] [-kind K] [-since 09:00] [-until T] [-who W] [-what A] [-refused] [-last N] [-width N]", errUsage)
	}
	now := time.Now()
	if sinceArg != "" || untilArg != "" {
		now = now.In(c.zone("")) // 09:00 is the hall's
	}
	since, err := whenArg("-since", sinceArg, now)
	if err != nil {
		return err
	}
	until, err := whenArg("-until", untilArg, now)
	if err != nil {
		return err
	}
	req := &pb.AuditLogRequest{Tournament: tournament, Actor: actor, SinceUnixMs: since, UntilUnixMs: until, Limit: int32(limit)}
	if kinds != "" {
		req.Kinds = strings.Split(kinds, ",")
	}
	if round != "" {
		rd, err := c.round(round)
		if err != nil {
			return err
		}
		req.RoundId = rd.GetRoundId()
	}
	hallWide := len(pos) == 0
	if !hallWide {
		if req.BoardId, err = c.boardID(pos[0]); err != nil {
			return err
		}
	}
	r, err := c.arb.AuditLog(c.ctx, req)
	if err != nil {
		return err
	}
	type line struct {
		e          *pb.AuditEntry
		who, which string
	}
	var lines []line
	prevs := map[string]*pb.BoardState{} // each board before each entry, for what it began or ended
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
		l := line{e: e, who: auditActor(e), which: auditText(e, prevs[e.GetBoardId()])}
		if e.GetAfter() != nil {
			prevs[e.GetBoardId()] = e.GetAfter()
		}
		switch {
		case e.GetOutcome() == "pending" && applied[e.GetCommandId()],
			who != "" && !has(e.GetActor(), who) && !has(l.who, who),
			what != "" && !has(e.GetWhat(), what) && !has(l.which, what),
			refused && !strings.HasPrefix(e.GetOutcome(), "refused") && !strings.HasPrefix(e.GetOutcome(), "alert"):
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
	loc := c.zone(r.GetTimeZone())
	if r.GetMore() {
		fmt.Fprintf(c.out, "(the newest %d entries: narrow the filters, or -until %s for older ones)\n", len(r.GetEntries()),
			time.UnixMilli(r.GetEntries()[0].GetUnixMs()).In(loc).Format(time.RFC3339))
	}
	if loc != time.UTC {
		fmt.Fprintf(c.out, "times in %s\n", loc)
	}
	// The actors' column is as wide as its longest name; within a width,
	// at most a third of it. Hall-wide, the boards' column before it.
	actorWidth, boardWidth := 0, 0
	for _, l := range lines {
		actorWidth = max(actorWidth, utf8.RuneCountInString(l.who))
		if hallWide {
			boardWidth = max(boardWidth, utf8.RuneCountInString(boardOf(l.e))+2)
		}
	}
	timeWidth := len(at(lines[0].e.GetUnixMs(), "15:04:05.000", loc)) // 15:04:05.000 +04
	if width > 0 {
		actorWidth = min(actorWidth, max(16, width/3))
		boardWidth = min(boardWidth, max(10, width/4))
	}
	indent := timeWidth + 2 + boardWidth + actorWidth + 2
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
		board := ""
		if hallWide {
			board = pad(clipText(boardOf(l.e), boardWidth-2), boardWidth)
		}
		fmt.Fprintf(c.out, "%s  %s%s  %s\n", pad(at(l.e.GetUnixMs(), "15:04:05.000", loc), timeWidth), board, pad(clipText(l.who, actorWidth), actorWidth), clip(text))
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

// boardOf names an entry's board for the hall-wide audit ("-": the hall's own).
func boardOf(e *pb.AuditEntry) string {
	switch {
	case e.GetBoard() != "":
		return e.GetBoard()
	case e.GetBoardId() != "":
		return e.GetBoardId()
	}
	return "-"
}

// whenArg reads a time of -since or -until as Unix ms (0 for ""): a clock
// time today ("09:00", "9:05:30", local), a while ago ("10m", "2h"), or a
// date and time ("2026-12-07T09:00:00Z", "2026-12-07 09:00").
func whenArg(flag, v string, now time.Time) (int64, error) {
	if v == "" {
		return 0, nil
	}
	if d, err := time.ParseDuration(v); err == nil && d >= 0 {
		return now.Add(-d).UnixMilli(), nil
	}
	for _, layout := range []string{"15:04", "15:04:05"} {
		if t, err := time.ParseInLocation(layout, v, now.Location()); err == nil {
			y, m, d := now.Date()
			return time.Date(y, m, d, t.Hour(), t.Minute(), t.Second(), 0, now.Location()).UnixMilli(), nil
		}
	}
	for _, layout := range []string{time.RFC3339, "2006-01-02 15:04", "2006-01-02T15:04", "2006-01-02"} {
		if t, err := time.ParseInLocation(layout, v, now.Location()); err == nil {
			return t.UnixMilli(), nil
		}
	}
	return 0, fmt.Errorf("%w: %s %q: write a time today (09:00), a while ago (10m) or a date and time (2026-12-07T09:00:00Z)", errUsage, flag, v)
}
