package arbiter

import (
	"context"
	"errors"
	"fmt"
	"sort"

	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
	"github.com/chesshall/hallclock/server/hall"
	"github.com/chesshall/hallclock/storage"
)

// SourceClocks is the source of a round rebuilt from the clocks' records
// by a hall restored from a backup older than the round (Round.source).
const SourceClocks = "clocks"

var byeKinds = map[string]pb.ByeKind{storage.ByeHalf: pb.ByeKind_BYE_KIND_HALF, storage.ByeFull: pb.ByeKind_BYE_KIND_FULL,
	storage.ByePairing: pb.ByeKind_BYE_KIND_PAIRING, storage.ByeZero: pb.ByeKind_BYE_KIND_ZERO}

// roundWire returns a round with its status, tally and byes as the
// caller may see them (their sections' boards and byes; a broadcast token,
// as of the broadcast delay); with history, also when it was complete and
// how many results were corrected since (which reads every board's log).
func (s *Service) roundWire(ctx context.Context, r storage.RoundRecord, history bool) (*pb.Round, error) {
	rd := s.readerOf(ctx)
	t, _ := s.hall.TournamentByID(r.TournamentID)
	out := &pb.Round{RoundId: r.ID, TournamentId: r.TournamentID, Number: int32(r.Number), Config: s.hall.RoundConfig(r),
		TournamentName: t.Name, Venue: r.Venue, Tally: &pb.RoundTally{}}
	bs := rd.boards(s.hall.Boards(r.ID))
	tl := out.Tally
	started := 0
	for _, b := range bs {
		st, ok := rd.state(b.ID())
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
	byes, _, err := s.byes(ctx, rd, r.ID)
	if err != nil {
		return nil, err
	}
	sc := s.hall.RoundScoring(r)
	for _, b := range byes {
		out.Byes = append(out.Byes, &pb.Bye{Player: hall.PlayerWire(b.Player), Section: b.Section, Kind: byeKinds[b.Kind],
			Points: byePoints(b, sc)})
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
	case !r.Rebuilt.IsZero():
		out.Source = SourceClocks
	}
	if history && out.Status == pb.RoundStatus_ROUND_STATUS_COMPLETE {
		completed, corrections, err := s.roundHistory(ctx, rd, bs)
		if err != nil {
			return nil, err
		}
		out.CompletedUnixMs, out.Corrections = completed, int32(corrections)
	}
	return out, nil
}

// byes returns a round's byes of the sections the reader may read, and
// whether the round has others.
func (s *Service) byes(ctx context.Context, rd reader, roundID string) (out []storage.ByeRecord, hidden bool, err error) {
	all, err := s.store.Byes(ctx, roundID)
	if err != nil {
		return nil, false, err
	}
	for _, b := range all {
		if rd.sees(b.Section) {
			out = append(out, b)
		}
	}
	return out, len(out) < len(all), nil
}

// roundHistory reads the boards' logs, as far as the reader may see them:
// when the last of them got its result (server wall time), and how many
// events came after a board's result (the arbiter's corrections).
func (s *Service) roundHistory(ctx context.Context, rd reader, bs []*hall.Board) (completed int64, corrections int, err error) {
	for _, b := range bs {
		rec, err := b.Record(ctx)
		if err != nil {
			return 0, 0, err
		}
		evs, err := s.store.Events(ctx, rec.ID, 0)
		if err != nil {
			return 0, 0, err
		}
		st, err := rules.NewState(rec.Config)
		if err != nil {
			return 0, 0, err
		}
		over := false
		for _, e := range evs {
			if !rd.shows(e.Wall) {
				break
			}
			if over {
				corrections++
				continue
			}
			if st, err = rules.Apply(st, e.Event); err != nil {
				return 0, 0, fmt.Errorf("board %s: event %d: %w", rec.ID, e.BoardSeq, err)
			}
			if st.Over() {
				over = true
				completed = max(completed, e.Wall.UnixMilli())
			}
		}
	}
	return completed, corrections, nil
}

func (a *Service) ListTournaments(ctx context.Context, _ *pb.ListTournamentsRequest) (*pb.ListTournamentsResponse, error) {
	s := a
	out := &pb.ListTournamentsResponse{}
	numbers := map[string][]int32{}
	for _, r := range s.hall.Rounds("") {
		numbers[r.TournamentID] = append(numbers[r.TournamentID], int32(r.Number))
	}
	for _, t := range s.hall.Tournaments() {
		w := tournamentToWire(t)
		w.Rounds = numbers[t.ID]
		sort.Slice(w.Rounds, func(i, j int) bool { return w.Rounds[i] < w.Rounds[j] })
		out.Tournaments = append(out.Tournaments, w)
	}
	sort.Slice(out.Tournaments, func(i, j int) bool {
		x, y := out.Tournaments[i], out.Tournaments[j]
		if x.GetCreatedUnixMs() != y.GetCreatedUnixMs() {
			return x.GetCreatedUnixMs() < y.GetCreatedUnixMs()
		}
		return x.GetTournamentId() < y.GetTournamentId()
	})
	return out, nil
}

func (a *Service) ListRounds(ctx context.Context, req *pb.ListRoundsRequest) (*pb.ListRoundsResponse, error) {
	s := a
	tid := ""
	if req.GetTournament() != "" {
		t, err := s.hall.Tournament(req.GetTournament())
		if err != nil {
			return nil, err
		}
		tid = t.ID
	}
	rs := s.hall.Rounds(tid)
	created := func(r storage.RoundRecord) int64 {
		t, _ := s.hall.TournamentByID(r.TournamentID)
		return t.Created.UnixMilli()
	}
	sort.Slice(rs, func(i, j int) bool {
		if rs[i].TournamentID != rs[j].TournamentID {
			if ci, cj := created(rs[i]), created(rs[j]); ci != cj {
				return ci < cj
			}
			return rs[i].TournamentID < rs[j].TournamentID
		}
		return rs[i].Number < rs[j].Number
	})
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

func (a *Service) GetRound(ctx context.Context, req *pb.GetRoundRequest) (*pb.Round, error) {
	r, err := a.hall.RoundRef(req.GetRoundId(), req.GetTournament(), req.GetNumber())
	if err != nil {
		return nil, err
	}
	w, err := a.roundWire(ctx, r, true)
	return w, err
}
