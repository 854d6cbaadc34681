package arbiter

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"unicode"

	"github.com/chesshall/hallclock/formats/pgn"
	"github.com/chesshall/hallclock/formats/roundcsv"
	"github.com/chesshall/hallclock/formats/trf"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
	"github.com/chesshall/hallclock/server/broadcast"
	"github.com/chesshall/hallclock/server/hall"
	"github.com/chesshall/hallclock/server/hallerr"
	"github.com/chesshall/hallclock/storage"
)

// game is a board of a round as an export sees it: its record and its
// state now.
type game struct {
	rec   storage.BoardRecord
	state rules.State
}

// lessThanOneMove reports whether a game lasted less than one move
// (Black never moved): TRF's W, D and L, not rated.
func (g game) lessThanOneMove() bool { return g.state.P[rules.Black].Moves == 0 }

// codes returns the TRF codes of the game's result ("*" blank).
func (g game) codes() (w, b trf.Code, err error) {
	return trf.Codes(g.state.Result, g.lessThanOneMove())
}

func (a *Service) ExportRound(ctx context.Context, req *pb.ExportRoundRequest) (*pb.ExportRoundResponse, error) {
	s := a
	r, err := s.hall.RoundRef(req.GetRoundId(), req.GetTournament(), req.GetNumber())
	if err != nil {
		return nil, err
	}
	info, err := s.roundWire(ctx, r, true)
	if err != nil {
		return nil, err
	}
	games, byes, err := s.roundGames(ctx, r)
	if err != nil {
		return nil, err
	}
	out := &pb.ExportRoundResponse{Final: info.GetStatus() == pb.RoundStatus_ROUND_STATUS_COMPLETE, Corrections: info.GetCorrections()}
	base := fmt.Sprintf("%s-r%d", slug(info.GetTournamentName()), r.Number)
	var buf bytes.Buffer
	switch req.GetFormat() {
	case pb.ExportFormat_EXPORT_FORMAT_CSV:
		err = s.exportCSV(&buf, r, games, byes)
		out.Filename = base + ".csv"
	case pb.ExportFormat_EXPORT_FORMAT_PGN:
		opts := pgn.Options{}
		if req.GetPgnRoundAndBoard() {
			opts.Round = pgn.RoundAndBoard
		}
		err = s.exportPGN(ctx, &buf, r, info.GetTournamentName(), games, opts)
		out.Filename = base + ".pgn"
	default:
		err = s.exportTRF(ctx, &buf, r, info.GetTournamentName(), games, byes)
		out.Filename = base + ".trf"
	}
	if err != nil {
		return nil, err
	}
	out.Content = buf.Bytes()
	return out, nil
}

// roundGames returns a round's boards as an export sees them, and its byes.
func (s *Service) roundGames(ctx context.Context, r storage.RoundRecord) ([]game, []storage.ByeRecord, error) {
	var games []game
	for _, b := range s.hall.Boards(r.ID) {
		rec, st, err := b.Game(ctx)
		if err != nil {
			return nil, nil, err
		}
		games = append(games, game{rec: rec, state: st})
	}
	byes, err := s.store.Byes(ctx, r.ID)
	return games, byes, err
}

// exportTRF writes the round's results into the TRF it was imported from
// (the pairing program reads it back before pairing the next round), or,
// for a round imported from a CSV or set up by hand, into a TRF of this
// round alone, players numbered by their pairing numbers if they all have
// one, else by rating.
func (s *Service) exportTRF(ctx context.Context, w *bytes.Buffer, r storage.RoundRecord, name string, games []game, byes []storage.ByeRecord) error {
	f, _, err := s.roundTRF(ctx, r, name, games, byes)
	if err != nil {
		return err
	}
	return f.Write(w)
}

// roundTRF is the TRF of a round with its results (exportTRF); paired
// says it is the pairing program's file, not one made of this round alone.
func (s *Service) roundTRF(ctx context.Context, r storage.RoundRecord, name string, games []game, byes []storage.ByeRecord) (f *trf.File, paired bool, err error) {
	file, err := s.store.RoundFile(ctx, r.ID)
	switch {
	case err == nil && file.Format == "trf":
		if f, err = trf.Read(strings.NewReader(file.Content)); err != nil {
			return nil, false, fmt.Errorf("the TRF round %d was imported from no longer reads: %w", r.Number, err)
		}
		paired = true
	case errors.Is(err, storage.ErrNotFound) && !r.Rebuilt.IsZero():
		// Rebuilt from the clocks after a restore, its file lost with the
		// restore: the pairing program paired it from the previous
		// round's TRF with that round's results.
		if prev, ok := s.hall.RoundByNumber(r.TournamentID, r.Number-1); ok {
			pg, pb, err := s.roundGames(ctx, prev)
			if err != nil {
				return nil, false, err
			}
			if pf, ok, err := s.roundTRF(ctx, prev, name, pg, pb); err == nil && ok {
				f, paired = pf, true
			}
		}
	case err != nil && !errors.Is(err, storage.ErrNotFound):
		return nil, false, err
	}
	if f == nil {
		f = synthesizeTRF(name, games, byes)
	}
	var boards []trf.Board
	for _, g := range games {
		wc, bc, err := g.codes()
		if err != nil {
			return nil, false, err
		}
		if g.rec.White.StartRank == 0 || g.rec.Black.StartRank == 0 {
			return nil, false, fmt.Errorf("%w: board %d has a player without a pairing number; export the round as CSV", hallerr.ErrBadRequest, g.rec.Number)
		}
		boards = append(boards, trf.Board{Number: g.rec.Number, White: g.rec.White.StartRank, Black: g.rec.Black.StartRank, WhiteResult: wc, BlackResult: bc})
	}
	var tb []trf.Bye
	for _, b := range byes {
		tb = append(tb, trf.Bye{Player: b.Player.StartRank, Code: trf.Code(b.Kind[0])})
	}
	if err := f.SetRound(r.Number, boards, tb, s.hall.RoundScoring(r)); err != nil {
		return nil, false, err
	}
	return f, paired, nil
}

// synthesizeTRF builds a TRF of one round's players, numbering those
// without a pairing number after the highest one, by rating.
func synthesizeTRF(name string, games []game, byes []storage.ByeRecord) *trf.File {
	f := &trf.File{Header: []string{"012 " + name}}
	var players []*storage.PlayerRecord
	for i := range games {
		players = append(players, &games[i].rec.White, &games[i].rec.Black)
	}
	for i := range byes {
		players = append(players, &byes[i].Player)
	}
	next := 0
	for _, p := range players {
		next = max(next, p.StartRank)
	}
	var unnumbered []*storage.PlayerRecord
	for _, p := range players {
		if p.StartRank == 0 {
			unnumbered = append(unnumbered, p)
		}
	}
	sort.SliceStable(unnumbered, func(i, j int) bool { return unnumbered[i].Rating > unnumbered[j].Rating })
	for _, p := range unnumbered {
		next++
		p.StartRank = next
	}
	for _, p := range players {
		f.Players = append(f.Players, trf.Player{StartRank: p.StartRank, Name: p.Name, Title: p.Title, Rating: p.Rating, Federation: p.Federation, FideID: p.FideID})
	}
	return f
}

// exportCSV writes the round's results as CSV.
func (s *Service) exportCSV(w *bytes.Buffer, r storage.RoundRecord, games []game, byes []storage.ByeRecord) error {
	sc := s.hall.RoundScoring(r)
	out := &roundcsv.Round{Number: r.Number}
	for _, g := range games {
		wc, bc, err := g.codes()
		if err != nil {
			return err
		}
		res := g.state.Result
		if res == "" {
			res = rules.NoResult
		}
		out.Games = append(out.Games, roundcsv.Game{Section: g.rec.Section, Board: g.rec.Number,
			White: csvOf(g.rec.White), Black: csvOf(g.rec.Black), Result: res, Termination: string(g.state.Termination),
			WhitePoints: trf.Score(wc, sc), BlackPoints: trf.Score(bc, sc)})
	}
	for _, b := range byes {
		out.Byes = append(out.Byes, roundcsv.Bye{Section: b.Section, Player: csvOf(b.Player), Kind: roundcsv.ByeKind(b.Kind[0]),
			Points: trf.Score(trf.Code(b.Kind[0]), sc)})
	}
	return roundcsv.Write(w, out)
}

func csvOf(p storage.PlayerRecord) roundcsv.Player {
	return roundcsv.Player{Name: p.Name, Number: p.StartRank, Title: p.Title, Federation: p.Federation, Rating: p.Rating, FideID: p.FideID}
}

// exportPGN writes every game of the round, as the broadcast feeds do.
func (s *Service) exportPGN(ctx context.Context, w *bytes.Buffer, r storage.RoundRecord, name string, games []game, opts pgn.Options) error {
	round := broadcast.Round{ID: r.ID, Tournament: name, Number: r.Number, Venue: r.Venue}
	var out []pgn.Game
	for _, g := range games {
		evs, err := s.store.Events(ctx, g.rec.ID, 0)
		if err != nil {
			return err
		}
		out = append(out, broadcast.Game(round, hall.FeedBoard(&g.rec, 0), hall.FeedEvents(evs)))
	}
	return pgn.Write(w, out, opts)
}

// slug makes a file name of a tournament's name: "Nordic Autumn Open
// 2025" is "nordic-autumn-open-2025".
func slug(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
		} else {
			dash = true
		}
	}
	if b.Len() == 0 {
		return "round"
	}
	return b.String()
}
