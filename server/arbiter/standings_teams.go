package arbiter

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"

	"github.com/chesshall/hallclock/formats/standings"
	"github.com/chesshall/hallclock/formats/trf"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/storage"
)

// playerTieBreaks is the list the players' table of a team event takes:
// the tournament's when every entry ranks players too, else FIDE's
// defaults for individuals (a list of team tie-breaks ranks the teams).
func playerTieBreaks(tbs []standings.TieBreak, rr bool) []standings.TieBreak {
	if slices.ContainsFunc(tbs, standings.TieBreak.TeamOnly) {
		return standings.Defaults(rr)
	}
	return tbs
}

// teamStandings adds a team event's table to out: the teams of f's team
// lines, ranked by FromTeamTRF and ComputeTeams after round `after` on
// list (nil: TeamDefaults), each with its match and game points. A team
// is shown when one of its players is (shown by start number), ranked
// among the teams shown. A file with no team lines adds nothing.
func teamStandings(out *pb.StandingsResponse, f *trf.File, rr bool, after int, list []standings.TieBreak, shown func(int) bool) error {
	teams, err := f.Teams()
	if err != nil || len(teams) == 0 {
		return err
	}
	tt, err := standings.FromTeamTRF(f, rr)
	if err != nil {
		return err
	}
	if n := f.Rounds(); n > 0 {
		tt.Rounds = n
	}
	if list == nil {
		list = standings.TeamDefaults(rr, tt.Primary)
	}
	tab, err := standings.ComputeTeams(tt, after, list)
	if err != nil {
		return err
	}
	// Match and game points, whatever the event ranks by.
	scores, err := standings.ComputeTeams(tt, after, []standings.TieBreak{{Name: "MPTS"}, {Name: "GPTS"}})
	if err != nil {
		return err
	}
	score := map[int][]standings.Value{}
	for _, r := range scores.Rows {
		score[r.Start] = r.Values
	}
	members := map[int][]int{}
	for _, t := range teams {
		members[t.Number] = t.Members
	}
	for _, tb := range tab.TieBreaks {
		out.TeamTieBreaks = append(out.TeamTieBreaks, tb.String())
	}
	prev, prevShown := 0, int32(0)
	for _, row := range tab.Rows {
		if !slices.ContainsFunc(members[row.Start], shown) {
			continue
		}
		rank := int32(len(out.Teams) + 1)
		if len(out.Teams) > 0 && row.Rank == prev {
			rank = prevShown
		}
		prev, prevShown = row.Rank, rank
		s := score[row.Start]
		if len(s) != 2 {
			return fmt.Errorf("team %d: no match and game points", row.Start)
		}
		w := &pb.TeamStandingsRow{Rank: rank, Start: int32(row.Start), Name: row.Name, MatchPoints: s[0].String(), GamePoints: s[1].String()}
		for _, v := range row.Values {
			w.TieBreaks = append(w.TieBreaks, v.String())
		}
		out.Teams = append(out.Teams, w)
	}
	return nil
}

// teamEvent reports whether a tournament is a team event: the TRF of its
// latest round imported from one has team lines (013 or 310). A
// tournament with no such round is not, yet.
func (s *Service) teamEvent(ctx context.Context, t storage.TournamentRecord) (bool, error) {
	rounds := s.hall.Rounds(t.ID)
	sort.Slice(rounds, func(i, j int) bool { return rounds[i].Number > rounds[j].Number })
	for _, r := range rounds {
		file, err := s.store.RoundFile(ctx, r.ID)
		if errors.Is(err, storage.ErrNotFound) || err == nil && file.Format != "trf" {
			continue
		}
		if err != nil {
			return false, err
		}
		f, err := trf.ReadWith(bytes.NewReader(file.Content), trf.ReadOptions{Encoding: file.Encoding})
		if err != nil {
			return false, fmt.Errorf("the TRF round %d was imported from no longer reads: %w", r.Number, err)
		}
		teams, err := f.Teams()
		return len(teams) > 0 && err == nil, nil
	}
	return false, nil
}
