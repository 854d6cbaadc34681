package main

import (
	"encoding/csv"
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"

	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// standings prints a tournament's standings: a table with the crosstable
// (each round: the opponent's start number, the colour, the result), or
// CSV with the columns rank, start, name, points, then each tie-break by
// its acronym as the tournament lists them.
func (c *cli) standings(args []string) error {
	var after int
	var section string
	var asCSV, teams bool
	pos, err := parse(args, func(fs *flag.FlagSet) {
		fs.IntVar(&after, "after", 0, "")
		fs.StringVar(&section, "section", "", "")
		fs.BoolVar(&asCSV, "csv", false, "")
		fs.BoolVar(&teams, "teams", false, "")
	})
	if err != nil {
		return err
	}
	if err := need(pos, 1, "standings TOURNAMENT [-after ROUND] [-section S] [-teams] [-csv]"); err != nil {
		return err
	}
	st, err := c.arb.Standings(c.ctx, &pb.StandingsRequest{Tournament: pos[0], AfterRound: int32(after), Section: section})
	if err != nil {
		return err
	}
	if teams {
		return c.teamStandings(st, asCSV)
	}
	if asCSV {
		w := csv.NewWriter(c.out)
		w.Write(append([]string{"rank", "start", "name", "points"}, st.GetTieBreaks()...))
		for _, r := range st.GetRows() {
			w.Write(append([]string{fmt.Sprint(r.GetRank()), fmt.Sprint(r.GetStart()), r.GetName(), r.GetPoints()}, r.GetTieBreaks()...))
		}
		w.Flush()
		return w.Error()
	}
	fmt.Fprintln(c.out, standingsTitle(st))
	if st.GetProvisional() {
		fmt.Fprintln(c.out, "PROVISIONAL: games still playing (*) count as not yet played")
	}
	tw := tabwriter.NewWriter(c.out, 0, 4, 2, ' ', 0)
	head := []string{"RANK", "START", "TITLE", "NAME", "RATING", "FED", "PTS"}
	head = append(head, st.GetTieBreaks()...)
	for r := 1; r <= int(st.GetAfterRound()); r++ {
		head = append(head, fmt.Sprintf("R%d", r))
	}
	fmt.Fprintln(tw, strings.Join(head, "\t"))
	for _, r := range st.GetRows() {
		rating := "-"
		if r.GetRating() > 0 {
			rating = fmt.Sprint(r.GetRating())
		}
		line := []string{fmt.Sprint(r.GetRank()), fmt.Sprint(r.GetStart()), or(r.GetTitle(), "-"), r.GetName(), rating, or(r.GetFederation(), "-"), r.GetPoints()}
		line = append(line, r.GetTieBreaks()...)
		for _, cell := range r.GetRounds() {
			line = append(line, crossCell(cell))
		}
		fmt.Fprintln(tw, strings.Join(line, "\t"))
	}
	return tw.Flush()
}

// crossCell writes a crosstable cell as crosstables do: "12w1" (beat 12
// with White), "7b½", "3w+" (forfeit won); a bye by its kind alone ("F",
// "H", "Z", "U").
func crossCell(c *pb.CrosstableCell) string {
	if c.GetOpponent() == 0 {
		return c.GetResult()
	}
	return fmt.Sprintf("%d%s%s", c.GetOpponent(), or(c.GetColour(), "-"), c.GetResult())
}

// sectionLists is -section-tiebreaks, repeatable: "SECTION=LIST".
type sectionLists map[string]string

func (s sectionLists) String() string {
	var out []string
	for k, v := range s {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return strings.Join(out, " ")
}

func (s sectionLists) Set(v string) error {
	name, list, ok := strings.Cut(v, "=")
	if !ok || strings.TrimSpace(name) == "" {
		return fmt.Errorf("-section-tiebreaks %q: want SECTION=LIST, e.g. A=BH-C1,BH,SB", v)
	}
	s[strings.TrimSpace(name)] = list
	return nil
}

// tieBreaks changes a tournament's tie-break list, or a section's.
func (c *cli) tieBreaks(args []string) error {
	var section, reason string
	pos, err := parse(args, func(fs *flag.FlagSet) {
		fs.StringVar(&section, "section", "", "")
		fs.StringVar(&reason, "reason", "", "")
	})
	if err != nil {
		return err
	}
	if len(pos) == 1 {
		pos = append(pos, "")
	}
	if err := need(pos, 2, "tiebreaks TOURNAMENT [LIST] [-section S] [-reason R]"); err != nil {
		return err
	}
	t, err := c.arb.SetTieBreaks(c.ctx, &pb.SetTieBreaksRequest{Tournament: pos[0], TieBreaks: pos[1], Section: section, Reason: reason})
	if err != nil {
		return err
	}
	fmt.Fprint(c.out, t.GetName()+": ")
	printTieBreaks(c.out, t)
	return nil
}

// printTieBreaks says a tournament's tie-break lists.
func printTieBreaks(w io.Writer, t *pb.Tournament) {
	fmt.Fprintf(w, "tie-breaks %s\n", or(t.GetTieBreaks(), "FIDE's recommended defaults (Swiss or round robin)"))
	secs := t.GetSectionTieBreaks()
	names := make([]string, 0, len(secs))
	for name := range secs {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		fmt.Fprintf(w, "  section %s: tie-breaks %s\n", name, secs[name])
	}
}
