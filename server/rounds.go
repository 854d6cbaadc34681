package server

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/chesshall/hallclock/formats/trf"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
	"github.com/chesshall/hallclock/server/hallerr"
	"github.com/chesshall/hallclock/storage"
)

// tournamentRef finds a tournament by its id, or by its name (any case).
func (s *Server) tournamentRef(ref string) (storage.TournamentRecord, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if t, ok := s.tournaments[ref]; ok {
		return t, nil
	}
	var found []storage.TournamentRecord
	for _, t := range s.tournaments {
		if strings.EqualFold(strings.TrimSpace(t.Name), strings.TrimSpace(ref)) {
			found = append(found, t)
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		names := make([]string, 0, len(s.tournaments))
		for _, t := range s.tournaments {
			names = append(names, fmt.Sprintf("%q", t.Name))
		}
		sort.Strings(names)
		return storage.TournamentRecord{}, fmt.Errorf("%w: no tournament has the id or name %q (there are %s)", storage.ErrNotFound, ref, strings.Join(names, ", "))
	}
	return storage.TournamentRecord{}, hallerr.BadRequest("%d tournaments are called %q: give the id", len(found), ref)
}

// roundRef finds a round by its id, or by its tournament (id or name) and
// number.
func (s *Server) roundRef(id, tournament string, number int32) (storage.RoundRecord, error) {
	if id != "" {
		s.mu.Lock()
		r, ok := s.rounds[id]
		s.mu.Unlock()
		if !ok {
			return r, fmt.Errorf("%w: round %q", storage.ErrNotFound, id)
		}
		return r, nil
	}
	t, err := s.tournamentRef(tournament)
	if err != nil {
		return storage.RoundRecord{}, err
	}
	if r, ok := s.roundByNumber(t.ID, int(number)); ok {
		return r, nil
	}
	return storage.RoundRecord{}, fmt.Errorf("%w: %s has no round %d", storage.ErrNotFound, t.Name, number)
}

func (s *Server) roundByNumber(tournamentID string, number int) (storage.RoundRecord, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, r := range s.rounds {
		if r.TournamentID == tournamentID && r.Number == number {
			return r, true
		}
	}
	return storage.RoundRecord{}, false
}

// roundBoards returns a round's boards by section and number.
func (s *Server) roundBoards(roundID string) []*board {
	s.mu.Lock()
	var bs []*board
	for _, b := range s.boards {
		if b.rec.RoundID == roundID {
			bs = append(bs, b)
		}
	}
	s.mu.Unlock()
	sort.Slice(bs, func(i, j int) bool {
		if bs[i].rec.Section != bs[j].rec.Section {
			return bs[i].rec.Section < bs[j].rec.Section
		}
		return bs[i].rec.Number < bs[j].rec.Number
	})
	return bs
}

// roundScoring returns the scoring of a round's games.
func (s *Server) roundScoring(r storage.RoundRecord) rules.Scoring {
	if r.Config != nil {
		return r.Config.Regulations.Scoring
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.tournaments[r.TournamentID].Config.Regulations.Scoring
}

var byeKinds = map[string]pb.ByeKind{storage.ByeHalf: pb.ByeKind_BYE_KIND_HALF, storage.ByeFull: pb.ByeKind_BYE_KIND_FULL,
	storage.ByePairing: pb.ByeKind_BYE_KIND_PAIRING, storage.ByeZero: pb.ByeKind_BYE_KIND_ZERO}

// roundWire returns a round with its status, tally and byes; with
// history, also when it was complete and how many results were corrected
// since (which reads every board's log).
func (s *Server) roundWire(ctx context.Context, r storage.RoundRecord, history bool) (*pb.Round, error) {
	s.mu.Lock()
	t := s.tournaments[r.TournamentID]
	s.mu.Unlock()
	out := &pb.Round{RoundId: r.ID, TournamentId: r.TournamentID, Number: int32(r.Number), Config: s.roundConfig(r),
		TournamentName: t.Name, Venue: r.Venue, Tally: &pb.RoundTally{}}
	bs := s.roundBoards(r.ID)
	tl := out.Tally
	started := 0
	for _, b := range bs {
		st, _, ok := s.hub.State(b.rec.ID)
		if !ok {
			continue
		}
		tl.Boards++
		switch st.GetStatus() {
		case pb.BoardStatus_BOARD_STATUS_FINISHED:
			tl.Finished++
			tl.WhitePoints += st.GetWhiteScore()
			tl.BlackPoints += st.GetBlackScore()
			started++
		case pb.BoardStatus_BOARD_STATUS_WAITING:
			tl.Waiting++
		default:
			tl.Playing++
			started++
		}
	}
	byes, err := s.store.Byes(ctx, r.ID)
	if err != nil {
		return nil, err
	}
	sc := s.roundScoring(r)
	for _, b := range byes {
		out.Byes = append(out.Byes, &pb.Bye{Player: playerWire(b.Player), Section: b.Section, Kind: byeKinds[b.Kind],
			Points: trf.Score(trf.Code(b.Kind[0]), sc)})
	}
	tl.Byes = int32(len(byes))
	switch {
	case tl.Boards == 0:
		out.Status = pb.RoundStatus_ROUND_STATUS_EMPTY
	case tl.Finished == tl.Boards:
		out.Status = pb.RoundStatus_ROUND_STATUS_COMPLETE
	case started == 0:
		out.Status = pb.RoundStatus_ROUND_STATUS_PAIRED
	default:
		out.Status = pb.RoundStatus_ROUND_STATUS_PLAYING
	}
	f, err := s.store.RoundFile(ctx, r.ID)
	switch {
	case err == nil:
		out.Source, out.ImportedUnixMs = f.Format, f.Imported.UnixMilli()
	case !errors.Is(err, storage.ErrNotFound):
		return nil, err
	}
	if history && out.Status == pb.RoundStatus_ROUND_STATUS_COMPLETE {
		completed, corrections, err := s.roundHistory(ctx, bs)
		if err != nil {
			return nil, err
		}
		out.CompletedUnixMs, out.Corrections = completed, int32(corrections)
	}
	return out, nil
}

// roundHistory reads the boards' logs: when the last of them got its
// result (server wall time), and how many events came after a board's
// result (the arbiter's corrections).
func (s *Server) roundHistory(ctx context.Context, bs []*board) (completed int64, corrections int, err error) {
	for _, b := range bs {
		evs, err := s.store.Events(ctx, b.rec.ID, 0)
		if err != nil {
			return 0, 0, err
		}
		st, err := rules.NewState(b.rec.Config)
		if err != nil {
			return 0, 0, err
		}
		over := false
		for _, e := range evs {
			if over {
				corrections++
				continue
			}
			if st, err = rules.Apply(st, e.Event); err != nil {
				return 0, 0, fmt.Errorf("board %s: event %d: %w", b.rec.ID, e.BoardSeq, err)
			}
			if st.Over() {
				over = true
				completed = max(completed, e.Wall.UnixMilli())
			}
		}
	}
	return completed, corrections, nil
}

func (a *arbiterService) ListTournaments(ctx context.Context, _ *pb.ListTournamentsRequest) (*pb.ListTournamentsResponse, error) {
	s := a.s
	s.mu.Lock()
	out := &pb.ListTournamentsResponse{}
	numbers := map[string][]int32{}
	for _, r := range s.rounds {
		numbers[r.TournamentID] = append(numbers[r.TournamentID], int32(r.Number))
	}
	for _, t := range s.tournaments {
		w := tournamentToWire(t)
		w.Rounds = numbers[t.ID]
		sort.Slice(w.Rounds, func(i, j int) bool { return w.Rounds[i] < w.Rounds[j] })
		out.Tournaments = append(out.Tournaments, w)
	}
	s.mu.Unlock()
	sort.Slice(out.Tournaments, func(i, j int) bool {
		x, y := out.Tournaments[i], out.Tournaments[j]
		if x.GetCreatedUnixMs() != y.GetCreatedUnixMs() {
			return x.GetCreatedUnixMs() < y.GetCreatedUnixMs()
		}
		return x.GetTournamentId() < y.GetTournamentId()
	})
	return out, nil
}

func (a *arbiterService) ListRounds(ctx context.Context, req *pb.ListRoundsRequest) (*pb.ListRoundsResponse, error) {
	s := a.s
	tid := ""
	if req.GetTournament() != "" {
		t, err := s.tournamentRef(req.GetTournament())
		if err != nil {
			return nil, err
		}
		tid = t.ID
	}
	s.mu.Lock()
	var rs []storage.RoundRecord
	for _, r := range s.rounds {
		if tid == "" || r.TournamentID == tid {
			rs = append(rs, r)
		}
	}
	created := func(r storage.RoundRecord) int64 { return s.tournaments[r.TournamentID].Created.UnixMilli() }
	sort.Slice(rs, func(i, j int) bool {
		if rs[i].TournamentID != rs[j].TournamentID {
			if ci, cj := created(rs[i]), created(rs[j]); ci != cj {
				return ci < cj
			}
			return rs[i].TournamentID < rs[j].TournamentID
		}
		return rs[i].Number < rs[j].Number
	})
	s.mu.Unlock()
	out := &pb.ListRoundsResponse{}
	for _, r := range rs {
		w, err := s.roundWire(ctx, r, false)
		if err != nil {
			return nil, err
		}
		out.Rounds = append(out.Rounds, w)
	}
	return out, nil
}

func (a *arbiterService) GetRound(ctx context.Context, req *pb.GetRoundRequest) (*pb.Round, error) {
	r, err := a.s.roundRef(req.GetRoundId(), req.GetTournament(), req.GetNumber())
	if err != nil {
		return nil, err
	}
	w, err := a.s.roundWire(ctx, r, true)
	return w, err
}

// roundVenue returns the venue of a round ("" the hall).
func (s *Server) roundVenue(roundID string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.rounds[roundID].Venue
}
