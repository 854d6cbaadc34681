package arbiter

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"
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

// game is a board of a round as an export sees it: its record, its state
// now and its log.
type game struct {
	rec    storage.BoardRecord
	state  rules.State
	events []storage.EventRecord
	// due: for a delayed reader, when the first event not shown yet that
	// changes the result that counts was committed (zero: none).
	due time.Time
}

// unplayed reports whether the game lasted less than one move, so is not
// rated (TRF's W, D and L): the arbiter marked it so with its result, or
// the clock shows it — a clock device reported the game's start, and
// neither side completed a move. A result from a scoresheet, or a game on
// a virtual clock nobody pressed, has no moves on the clock without that
// saying that none were played: unknown is not zero.
func (g game) unplayed() bool {
	started, marked := false, false
	for _, ev := range g.events {
		switch ev.Event.Kind {
		case rules.KindStart:
			started = started || ev.DeviceID != ""
		case rules.KindResult:
			marked = ev.Event.Unplayed // the last result recorded decides
		}
	}
	return marked || started && g.state.P[rules.White].Moves == 0 && g.state.P[rules.Black].Moves == 0
}

// codes returns the TRF codes of the result that counts ("*" blank): the
// board's result, or the favoured side's win for a draw under draw odds.
func (g game) codes() (w, b trf.Code, err error) {
	return trf.Codes(g.state.CountingResult(), g.unplayed())
}

// byePoints returns what a bye scores: as its file said, else as the
// round's scoring gives its kind.
func byePoints(b storage.ByeRecord, sc rules.Scoring) float64 {
	if b.Points != nil {
		return *b.Points
	}
	return trf.Score(trf.Code(b.Kind[0]), sc)
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
	encoding, err := trf.LookupEncoding(req.GetEncoding())
	if err != nil {
		return nil, err
	}
	// An arbiter limited to sections exports their sections only.
	rd := s.readerOf(ctx)
	all := s.hall.Boards(r.ID)
	games, byes, hiddenByes, err := s.roundGames(ctx, rd, r)
	if err != nil {
		return nil, err
	}
	if partial := hiddenByes || len(games) < len(all); partial && req.GetFormat() != pb.ExportFormat_EXPORT_FORMAT_CSV &&
		req.GetFormat() != pb.ExportFormat_EXPORT_FORMAT_PGN {
		return nil, fmt.Errorf("%w: a TRF holds the whole round, and %s reads sections %s only: export CSV or PGN (they hold your sections), or ask the chief arbiter for the TRF",
			hallerr.ErrPermission, rd.id.Actor(), strings.Join(rd.id.Sections, ", "))
	}
	out := &pb.ExportRoundResponse{Final: info.GetStatus() == pb.RoundStatus_ROUND_STATUS_COMPLETE, Corrections: info.GetCorrections()}
	base := fmt.Sprintf("%s-r%d", slug(info.GetTournamentName()), r.Number)
	var buf bytes.Buffer
	switch req.GetFormat() {
	case pb.ExportFormat_EXPORT_FORMAT_CSV:
		err = s.exportCSV(ctx, &buf, r, games, byes, encoding)
		out.Filename = base + ".csv"
	case pb.ExportFormat_EXPORT_FORMAT_PGN:
		opts := pgn.Options{LichessResults: req.GetPgnLichessResults()}
		if req.GetPgnRoundAndBoard() {
			opts.Round = pgn.RoundAndBoard
		}
		err = s.exportPGN(&buf, r, info.GetTournamentName(), games, opts)
		out.Filename = base + ".pgn"
	default:
		err = s.exportTRF(ctx, &buf, r, info.GetTournamentName(), games, byes, encoding)
		out.Filename = base + ".trf"
	}
	if err != nil {
		return nil, err
	}
	out.Content = buf.Bytes()
	return out, nil
}

// roundGames returns a round's boards as an export by rd sees them (its
// sections only), with their events, and its byes; hidden says byes of
// other sections were left out.
func (s *Service) roundGames(ctx context.Context, rd reader, r storage.RoundRecord) (games []game, byes []storage.ByeRecord, hidden bool, err error) {
	for _, b := range rd.boards(s.hall.Boards(r.ID)) {
		rec, st, err := b.Game(ctx)
		if err != nil {
			return nil, nil, false, err
		}
		evs, err := s.store.Events(ctx, rec.ID, 0)
		if err != nil {
			return nil, nil, false, err
		}
		if !rd.asOf.IsZero() {
			// A delayed reader: the game as its events up to asOf leave it.
			n := sort.Search(len(evs), func(i int) bool { return evs[i].Wall.After(rd.asOf) })
			if n < len(evs) {
				g := game{rec: rec, events: evs[:n]}
				if g.state, err = foldEvents(rec.Config, g.events); err != nil {
					return nil, nil, false, fmt.Errorf("board %d of round %d: %w", rec.Number, r.Number, err)
				}
				g.due = resultDue(g.state, evs[n:])
				games = append(games, g)
				continue
			}
		}
		games = append(games, game{rec: rec, state: st, events: evs})
	}
	byes, hidden, err = s.byes(ctx, rd, r.ID)
	return games, byes, hidden, err
}

// exportTRF writes the round's results into the TRF it was imported from
// (the pairing program reads it back before pairing the next round), in
// the encoding it came in unless another is asked for, or, for a round
// imported from a CSV or set up by hand, into a TRF of this round alone,
// players numbered by their pairing numbers if they all have one, else by
// rating.
func (s *Service) exportTRF(ctx context.Context, w *bytes.Buffer, r storage.RoundRecord, name string, games []game, byes []storage.ByeRecord, encoding string) error {
	f, _, err := s.roundTRF(ctx, s.readerOf(ctx), r, name, games, byes)
	if err != nil {
		return err
	}
	if err := f.WriteWith(w, trf.WriteOptions{Encoding: encoding}); err != nil {
		name, _ := f.Encoding()
		return hallerr.BadRequest("the TRF cannot be written in %s: %v; export it in utf-8", or(encoding, name), err)
	}
	return nil
}

// roundTRF is the TRF of a round with its results (exportTRF); paired
// says it is the pairing program's file, not one made of this round alone.
func (s *Service) roundTRF(ctx context.Context, rd reader, r storage.RoundRecord, name string, games []game, byes []storage.ByeRecord) (f *trf.File, paired bool, err error) {
	file, err := s.store.RoundFile(ctx, r.ID)
	switch {
	case err == nil && file.Format == "trf":
		if f, err = trf.ReadWith(bytes.NewReader(file.Content), trf.ReadOptions{Encoding: file.Encoding}); err != nil {
			return nil, false, fmt.Errorf("the TRF round %d was imported from no longer reads: %w", r.Number, err)
		}
		paired = true
	case errors.Is(err, storage.ErrNotFound) && !r.Rebuilt.IsZero():
		// Rebuilt from the clocks after a restore, its file lost with the
		// restore: the pairing program paired it from the previous
		// round's TRF with that round's results.
		if prev, ok := s.hall.RoundByNumber(r.TournamentID, r.Number-1); ok {
			pg, pb, _, err := s.roundGames(ctx, rd, prev)
			if err != nil {
				return nil, false, err
			}
			if pf, ok, err := s.roundTRF(ctx, rd, prev, name, pg, pb); err == nil && ok {
				f, paired = pf, true
			}
		}
	case err != nil && !errors.Is(err, storage.ErrNotFound):
		return nil, false, err
	}
	if f == nil {
		f = synthesizeTRF(name, games, byes)
	}
	if err := s.setResults(f, r, games, byes); err != nil {
		return nil, false, err
	}
	return f, paired, nil
}

// setResults writes a round's results into f: each board's result that
// counts and its byes, scored as the round scores.
func (s *Service) setResults(f *trf.File, r storage.RoundRecord, games []game, byes []storage.ByeRecord) error {
	var boards []trf.Board
	for _, g := range games {
		wc, bc, err := g.codes()
		if err != nil {
			return err
		}
		if g.rec.White.StartRank == 0 || g.rec.Black.StartRank == 0 {
			return fmt.Errorf("%w: board %d has a player without a pairing number; export the round as CSV", hallerr.ErrBadRequest, g.rec.Number)
		}
		boards = append(boards, trf.Board{Number: g.rec.Number, White: g.rec.White.StartRank, Black: g.rec.Black.StartRank, WhiteResult: wc, BlackResult: bc})
	}
	var tb []trf.Bye
	for _, b := range byes {
		tb = append(tb, trf.Bye{Player: b.Player.StartRank, Code: trf.Code(b.Kind[0])})
	}
	return f.SetRound(r.Number, boards, tb, s.hall.RoundScoring(r))
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

// exportCSV writes the round's results as CSV: in the encoding asked
// for, else in that of the CSV the round was imported from, else UTF-8.
func (s *Service) exportCSV(ctx context.Context, w *bytes.Buffer, r storage.RoundRecord, games []game, byes []storage.ByeRecord, encoding string) error {
	sc := s.hall.RoundScoring(r)
	if encoding == "" {
		file, err := s.store.RoundFile(ctx, r.ID)
		switch {
		case err == nil && file.Format == "csv":
			encoding = file.Encoding
		case err != nil && !errors.Is(err, storage.ErrNotFound):
			return err
		}
	}
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
			White: csvOf(g.rec.White), Black: csvOf(g.rec.Black), Result: res, Counts: g.state.CountingResult(), Termination: string(g.state.Termination),
			WhitePoints: trf.Score(wc, sc), BlackPoints: trf.Score(bc, sc)})
	}
	for _, b := range byes {
		out.Byes = append(out.Byes, roundcsv.Bye{Section: b.Section, Player: csvOf(b.Player), Kind: roundcsv.ByeKind(b.Kind[0]),
			Points: byePoints(b, sc)})
	}
	if err := roundcsv.WriteWith(w, out, roundcsv.WriteOptions{Encoding: encoding}); err != nil {
		return hallerr.BadRequest("the CSV cannot be written in %s: %v; export it in utf-8", encoding, err)
	}
	return nil
}

func csvOf(p storage.PlayerRecord) roundcsv.Player {
	return roundcsv.Player{Name: p.Name, Number: p.StartRank, Title: p.Title, Federation: p.Federation, Rating: p.Rating, FideID: p.FideID}
}

// exportPGN writes every game of the round, as the broadcast feeds do.
func (s *Service) exportPGN(w *bytes.Buffer, r storage.RoundRecord, name string, games []game, opts pgn.Options) error {
	round := broadcast.Round{ID: r.ID, Tournament: name, Number: r.Number, Venue: r.Venue}
	// Each game's place in the whole round, as the feeds number it,
	// whoever exports.
	place := map[string]int{}
	for i, b := range s.hall.Boards(r.ID) {
		place[b.ID()] = i + 1
	}
	var out []pgn.Game
	for _, g := range games {
		b := hall.FeedBoard(&g.rec, 0)
		b.Place = place[g.rec.ID]
		out = append(out, broadcast.Game(round, b, hall.FeedEvents(g.events)))
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

// foldEvents is the game after evs.
func foldEvents(cfg rules.Config, evs []storage.EventRecord) (rules.State, error) {
	events := make([]rules.Event, len(evs))
	for i, e := range evs {
		events[i] = e.Event
	}
	return rules.Fold(cfg, events)
}

// resultDue returns the wall time of the first of hidden (the events after
// st) that changes the result that counts, zero if none does.
func resultDue(st rules.State, hidden []storage.EventRecord) time.Time {
	was := st.CountingResult()
	for _, e := range hidden {
		next, err := rules.Apply(st, e.Event)
		if err != nil {
			return e.Wall // as if it did: the reader is told again then
		}
		if st = next; st.CountingResult() != was {
			return e.Wall
		}
	}
	return time.Time{}
}
