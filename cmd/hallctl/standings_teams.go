package main

import (
	"encoding/csv"
	"fmt"
	"strings"
	"text/tabwriter"

	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// standingsTitle is the first line of a printed table.
func standingsTitle(st *pb.StandingsResponse) string {
	title := fmt.Sprintf("%s, standings after round %d", st.GetTournamentName(), st.GetAfterRound())
	if st.GetSection() != "" {
		title += ", section " + st.GetSection()
	}
	return title
}

// teamStandings prints a team event's table (standings -teams): rank,
// team, match and game points, each tie-break; as CSV the columns rank,
// team, MP, GP, then each tie-break by its acronym.
func (c *cli) teamStandings(st *pb.StandingsResponse, asCSV bool) error {
	if len(st.GetTeams()) == 0 {
		return fmt.Errorf("%s is no team event: its imported TRF has no team lines (013 or 310); hallctl standings without -teams ranks its players", st.GetTournamentName())
	}
	if asCSV {
		w := csv.NewWriter(c.out)
		w.Write(append([]string{"rank", "team", "MP", "GP"}, st.GetTeamTieBreaks()...))
		for _, r := range st.GetTeams() {
			w.Write(append([]string{fmt.Sprint(r.GetRank()), r.GetName(), r.GetMatchPoints(), r.GetGamePoints()}, r.GetTieBreaks()...))
		}
		w.Flush()
		return w.Error()
	}
	fmt.Fprintln(c.out, standingsTitle(st)+", teams")
	if st.GetProvisional() {
		fmt.Fprintln(c.out, "PROVISIONAL: games still playing count as not yet played")
	}
	tw := tabwriter.NewWriter(c.out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, strings.Join(append([]string{"RANK", "TEAM", "MP", "GP"}, st.GetTeamTieBreaks()...), "\t"))
	for _, r := range st.GetTeams() {
		fmt.Fprintln(tw, strings.Join(append([]string{fmt.Sprint(r.GetRank()), r.GetName(), r.GetMatchPoints(), r.GetGamePoints()}, r.GetTieBreaks()...), "\t"))
	}
	return tw.Flush()
}
