package arbiter

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/chesshall/hallclock/formats/standings"
	"github.com/chesshall/hallclock/formats/trf"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/server/auth"
	"github.com/chesshall/hallclock/server/hallerr"
	"github.com/chesshall/hallclock/storage"
)

// Standings computes a tournament's standings from the TRF the exports
// write (roundTRF: the results that count, byes, the imported file's
// earlier rounds, the tournament's scoring), carried from round to round,
// with its tie-break list. An arbiter limited to sections gets the rows of
// their sections' players, ranked among themselves.
func (a *Service) Standings(ctx context.Context, req *pb.StandingsRequest) (*pb.StandingsResponse, error) {
	out, _, err := a.standings(ctx, req)
	return out, err
}

// FeedStandings computes a tournament's standings for the public feeds,
// as Standings does for the identity in ctx: a broadcast identity under
// the broadcast delay sees them as the results the delayed feeds show
// leave them (each board's events committed up to the delay ago). until
// is when that table changes by the clock alone, a result not shown yet
// coming out of the delay (zero: only at a change of the hall).
func (a *Service) FeedStandings(ctx context.Context, tournament, section string) (out *pb.StandingsResponse, until time.Time, err error) {
	out, due, err := a.standings(ctx, &pb.StandingsRequest{Tournament: tournament, Section: section})
	if err != nil || due.IsZero() {
		return out, time.Time{}, err
	}
	return out, due.Add(a.opts.BroadcastDelay), nil
}

// standings is Standings, with due: the earliest commit of a result the
// reader is not shown yet (zero: none).
func (a *Service) standings(ctx context.Context, req *pb.StandingsRequest) (*pb.StandingsResponse, time.Time, error) {
	s := a
	t, err := s.hall.Tournament(req.GetTournament())
	if err != nil {
		return nil, time.Time{}, err
	}
	rd := s.readerOf(ctx)
	if sec := req.GetSection(); sec != "" && !rd.sees(sec) {
		return nil, time.Time{}, fmt.Errorf("%w: %s reads sections %s only, not %q", hallerr.ErrPermission, rd.id.Actor(), strings.Join(rd.id.Sections, ", "), sec)
	}
	if req.GetAfterRound() < 0 {
		return nil, time.Time{}, hallerr.BadRequest("after_round %d: rounds are numbered from 1 (0: the latest)", req.GetAfterRound())
	}
	rounds := s.hall.Rounds(t.ID)
	sort.Slice(rounds, func(i, j int) bool { return rounds[i].Number < rounds[j].Number })
	if len(rounds) == 0 {
		return nil, time.Time{}, hallerr.BadRequest("%s has no rounds yet: standings come from its rounds' pairings and results (import a round, or create one)", t.Name)
	}
	f, sections, latest, due, err := s.tournamentFile(ctx, t, rounds, rd.asOf)
	if err != nil {
		return nil, time.Time{}, fmt.Errorf("the standings of %s: %w", t.Name, err)
	}
	after := int(req.GetAfterRound())
	if after == 0 {
		after = latest
	}
	if after > latest {
		return nil, time.Time{}, hallerr.BadRequest("after_round %d: %s has results up to round %d", after, t.Name, latest)
	}
	rr := roundRobin(f, rounds[len(rounds)-1].Number)
	model, err := standings.FromTRF(f, rr)
	if err != nil {
		return nil, time.Time{}, fmt.Errorf("the standings of %s cannot be computed from its rounds: %w", t.Name, err)
	}
	if n := f.Rounds(); n > 0 {
		model.Rounds = n
	}
	// The section's own list: the one asked for, or an arbiter's only one.
	section := req.GetSection()
	if section == "" && rd.id.Role != auth.RoleChief && len(rd.id.Sections) == 1 {
		section = rd.id.Sections[0]
	}
	list := t.TieBreaks
	if l, ok := t.SectionTieBreaks[section]; ok && section != "" {
		list = l
	}
	tbs := standings.Defaults(rr)
	var teamTBs []standings.TieBreak // nil: a team event's defaults
	if list != "" {
		if tbs, err = standings.Parse(list); err != nil {
			return nil, time.Time{}, fmt.Errorf("%s's tie-break list %q no longer reads: %w", t.Name, list, err)
		}
		teamTBs = tbs
	}
	tab, err := standings.Compute(model, after, playerTieBreaks(tbs, rr))
	if err != nil {
		return nil, time.Time{}, fmt.Errorf("the standings of %s cannot be computed from its rounds: %w", t.Name, err)
	}
	shown := func(start int) bool {
		if req.GetSection() != "" {
			return slices.Contains(sections[start], req.GetSection())
		}
		if rd.id.Role == auth.RoleChief || len(rd.id.Sections) == 0 {
			return true
		}
		return slices.ContainsFunc(sections[start], rd.sees)
	}
	out := standingsWire(t, section, rr, tab, shown)
	if err := teamStandings(out, f, rr, after, teamTBs, shown); err != nil {
		return nil, time.Time{}, fmt.Errorf("the team standings of %s cannot be computed from its rounds: %w", t.Name, err)
	}
	return out, due, nil
}

// tournamentFile is the tournament's TRF with every round's results as
// the hall holds them: a round imported from a TRF starts from that file
// (the pairing program's rounds before it), a round of the hall's own adds
// its results to the file so far. It returns the sections each player
// played in, by start number, and the latest round with pairings.
func (s *Service) tournamentFile(ctx context.Context, t storage.TournamentRecord, rounds []storage.RoundRecord, asOf time.Time) (*trf.File, map[int][]string, int, time.Time, error) {
	all := reader{id: &auth.Identity{Role: auth.RoleChief}, hub: s.hub, asOf: asOf}
	var due time.Time
	var f *trf.File
	sections := map[int][]string{}
	latest := 0
	for _, r := range rounds {
		games, byes, _, err := s.roundGames(ctx, all, r)
		if err != nil {
			return nil, nil, 0, time.Time{}, err
		}
		for _, g := range games {
			if !g.due.IsZero() && (due.IsZero() || g.due.Before(due)) {
				due = g.due
			}
		}
		if len(rounds) > 1 {
			for _, g := range games {
				if g.rec.White.StartRank == 0 || g.rec.Black.StartRank == 0 {
					return nil, nil, 0, time.Time{}, hallerr.BadRequest("board %d of round %d has a player without a start number: over several rounds, standings know a player by his start number (import the rounds from the pairing program, or give each player his number)", g.rec.Number, r.Number)
				}
			}
		}
		file, err := s.store.RoundFile(ctx, r.ID)
		if err != nil && !errors.Is(err, storage.ErrNotFound) {
			return nil, nil, 0, time.Time{}, err
		}
		if f == nil || err == nil && file.Format == "trf" {
			if f, _, err = s.roundTRF(ctx, all, r, t.Name, games, byes); err != nil {
				return nil, nil, 0, time.Time{}, err
			}
		} else {
			for _, p := range synthesizeTRF(t.Name, games, byes).Players {
				if f.Player(p.StartRank) == nil {
					f.Players = append(f.Players, p)
				}
			}
			if err := s.setResults(f, r, games, byes); err != nil {
				return nil, nil, 0, time.Time{}, err
			}
		}
		add := func(start int, section string) {
			if start != 0 && !slices.Contains(sections[start], section) {
				sections[start] = append(sections[start], section)
			}
		}
		for _, g := range games {
			add(g.rec.White.StartRank, g.rec.Section)
			add(g.rec.Black.StartRank, g.rec.Section)
		}
		for _, b := range byes {
			add(b.Player.StartRank, b.Section)
		}
		if len(games)+len(byes) > 0 {
			latest = r.Number
		}
	}
	if latest == 0 {
		for _, p := range f.Players {
			latest = max(latest, len(p.Rounds))
		}
	}
	return f, sections, latest, due, nil
}

// roundRobin reports whether the tournament is an all-play-all, as the
// hall can tell: the kind of tournament its TRF states (092), else as
// many rounds as it takes every player to meet every other once or twice
// (announced by the file, else the hall's rounds).
func roundRobin(f *trf.File, hallRounds int) bool {
	switch kind := strings.ToLower(f.Tag("092")); {
	case strings.Contains(kind, "swiss"):
		return false
	case strings.Contains(kind, "round robin"), strings.Contains(kind, "round-robin"), strings.Contains(kind, "all-play-all"):
		return true
	}
	n, r := len(f.Players), f.Rounds()
	if r == 0 {
		r = hallRounds
		for _, p := range f.Players {
			r = max(r, len(p.Rounds))
		}
	}
	if n < 3 {
		return false
	}
	once := n - 1
	if n%2 == 1 {
		once = n
	}
	return r == once || r == 2*once
}

// standingsWire lays the table out for the wire: the rows shown, ranked
// among themselves (a shared rank stays shared), opponents' ranks as
// shown (0: an opponent not listed).
func standingsWire(t storage.TournamentRecord, section string, rr bool, tab *standings.Table, shown func(int) bool) *pb.StandingsResponse {
	out := &pb.StandingsResponse{TournamentId: t.ID, TournamentName: t.Name, AfterRound: int32(tab.After), Section: section, RoundRobin: rr}
	for _, tb := range tab.TieBreaks {
		out.TieBreaks = append(out.TieBreaks, tb.String())
	}
	rank := map[int]int{}
	prev := 0
	var rows []standings.Row
	for _, row := range tab.Rows {
		if !shown(row.Start) {
			continue
		}
		r := len(rows) + 1
		if len(rows) > 0 && row.Rank == prev {
			r = rank[rows[len(rows)-1].Start]
		}
		prev = row.Rank
		rank[row.Start] = r
		rows = append(rows, row)
	}
	for _, row := range rows {
		w := &pb.StandingsRow{Rank: int32(rank[row.Start]), Start: int32(row.Start), Title: row.Title, Name: row.Name,
			Rating: int32(row.Rating), Federation: row.Federation, Points: row.Points.String()}
		for _, v := range row.Values {
			w.TieBreaks = append(w.TieBreaks, v.String())
		}
		for _, c := range row.Rounds {
			if c.Result == standings.Pending {
				out.Provisional = true
			}
			w.Rounds = append(w.Rounds, &pb.CrosstableCell{Opponent: int32(c.Opponent), OpponentRank: int32(rank[c.Opponent]),
				Colour: colourCode(c.Colour), Result: resultCode(c.Result), Points: c.Points.String()})
		}
		out.Rows = append(out.Rows, w)
	}
	return out
}

func colourCode(c standings.Colour) string {
	switch c {
	case standings.White:
		return "w"
	case standings.Black:
		return "b"
	}
	return ""
}

// resultCode writes a round's result as a crosstable does.
func resultCode(r standings.Result) string {
	switch r {
	case standings.Win:
		return "1"
	case standings.Draw:
		return "½"
	case standings.Loss:
		return "0"
	case standings.ForfeitWin:
		return "+"
	case standings.ForfeitLoss:
		return "-"
	case standings.FullBye:
		return "F"
	case standings.HalfBye:
		return "H"
	case standings.ZeroBye:
		return "Z"
	case standings.PairingBye:
		return "U"
	case standings.Pending:
		return "*"
	}
	return strconv.Itoa(int(r))
}

// StandingsMark is a cheap mark of what a tournament's standings are made
// of as the hall holds them now: its rounds, their boards and each
// board's result that counts (live), and its tie-break lists. The feeds
// compute the standings again only when it changes (or when a result
// comes out of the broadcast delay: FeedStandings' until); a move on a
// board leaves it as it was.
func (a *Service) StandingsMark(tournament string) (string, error) {
	t, err := a.hall.Tournament(tournament)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s\x00%v\x00", t.TieBreaks, t.SectionTieBreaks)
	for _, r := range a.hall.Rounds(t.ID) {
		fmt.Fprintf(&b, "r%s\x00", r.ID)
		for _, bd := range a.hall.Boards(r.ID) {
			res := ""
			if st, _, ok := a.hub.State(bd.ID()); ok {
				res = st.GetCountingResult()
			}
			fmt.Fprintf(&b, "%s=%s\x00", bd.ID(), res)
		}
	}
	return b.String(), nil
}
