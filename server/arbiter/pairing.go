package arbiter

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/chesshall/hallclock/formats/roundcsv"
	"github.com/chesshall/hallclock/formats/trf"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
	"github.com/chesshall/hallclock/server/hallerr"
	"github.com/chesshall/hallclock/storage"
)

// pairing is a round's pairings as read from a pairing program's file.
type pairing struct {
	number   int
	format   string // "trf" or "csv"
	games    []pairedGame
	byes     []storage.ByeRecord
	absent   []storage.PlayerRecord // players the pairings leave out (allow_absent)
	warnings []string
	encoding string // what the file was read in: "utf-8", "windows-1250"...
	// The TRF's point system, when a line of it states one (XXS, BBW...,
	// 162): the tournament must score the same.
	points *trf.PointSystem
}

type pairedGame struct {
	section      string
	board        int
	white, black storage.PlayerRecord
	// blind: the board's play under the rules for visually disabled
	// players, from a CSV's Blind column; nil: the round's.
	blind *rules.BlindPlay
	line  int // where the file gives it, 0 if unknown
}

// readPairing reads the files of an import, in the encoding the request
// names (a file that is valid UTF-8 is UTF-8 whatever it names).
func readPairing(req *pb.ImportRoundRequest) (*pairing, error) {
	encoding, err := trf.LookupEncoding(req.GetEncoding())
	if err != nil {
		return nil, err
	}
	format := req.GetFormat()
	if format == pb.ImportFormat_IMPORT_FORMAT_UNSPECIFIED {
		format = pb.ImportFormat_IMPORT_FORMAT_CSV
		if trf.IsTRF(req.GetContent()) {
			format = pb.ImportFormat_IMPORT_FORMAT_TRF
		}
	}
	var p *pairing
	switch {
	case format == pb.ImportFormat_IMPORT_FORMAT_TRF:
		p, err = readTRF(req, encoding)
	case len(req.GetPairings()) > 0:
		return nil, hallerr.BadRequest("a CSV carries its own pairings: pairings are for a TRF's players")
	case req.GetAllowAbsent():
		return nil, hallerr.BadRequest("allow_absent is for a TRF with pairings: a CSV lists whom it pairs")
	default:
		p, err = readCSV(req.GetContent(), int(req.GetNumber()), encoding)
	}
	if err != nil {
		return nil, err
	}
	if err := p.check(int(req.GetFirstTable())); err != nil {
		return nil, hallerr.Invalid(fmt.Errorf("%s: %w", strings.ToUpper(p.format), err))
	}
	return p, nil
}

// clamp32 is v as an int32, the nearest one beyond its range.
func clamp32(v int) int32 { return int32(max(min(v, 1<<31-1), -1<<31)) }

// check holds what the file gave to the checks of a request that would
// give the same: names without control characters or direction controls,
// numbers of rounds, boards and tables 1 to 10,000.
func (p *pairing) check(firstTable int) error {
	if err := pb.ValidateNumber("round", "round", p.number); err != nil {
		return err
	}
	player := func(field string, r storage.PlayerRecord) error {
		return pb.ValidatePlayer(field, &pb.Player{Name: r.Name, FideId: r.FideID, Rating: clamp32(r.Rating), StartRank: clamp32(r.StartRank),
			Title: r.Title, Federation: r.Federation})
	}
	tables := p.tables(firstTable)
	for i := range p.games {
		g := &p.games[i]
		at := fmt.Sprintf("board %d", g.board)
		if g.line > 0 {
			at += fmt.Sprintf(" (line %d)", g.line)
		}
		if err := pb.First(pb.ValidateNumber(at, "board", g.board), pb.ValidateNumber(at, "table", tables[g]),
			pb.ValidateSection(at+": section", g.section), player(at+": white", g.white), player(at+": black", g.black)); err != nil {
			return err
		}
	}
	for _, b := range p.byes {
		if err := player("bye", b.Player); err != nil {
			return err
		}
	}
	for _, a := range p.absent {
		if err := player("absent", a); err != nil {
			return err
		}
	}
	return nil
}

func trfPlayer(p *trf.Player) storage.PlayerRecord {
	return storage.PlayerRecord{Name: p.Name, FideID: p.FideID, Rating: p.Rating, StartRank: p.StartRank, Title: p.Title, Federation: p.Federation}
}

// readTRF reads a round from a TRF — from a pairing program's output if
// given, else from the round's columns — as trf's Import finds and checks
// it: the round is the first the TRF has not paired (byes entered for
// rounds ahead pair nobody), every round before it is read and checked,
// and the pairings must agree with what the TRF says of the round.
func readTRF(req *pb.ImportRoundRequest, encoding string) (*pairing, error) {
	f, err := trf.ReadWith(bytes.NewReader(req.GetContent()), trf.ReadOptions{Encoding: encoding})
	if err != nil {
		return nil, fmt.Errorf("TRF: %w", err)
	}
	opt := trf.ImportOptions{Round: int(req.GetNumber()), AllowAbsent: req.GetAllowAbsent()}
	if len(req.GetPairings()) > 0 {
		if opt.Pairings, err = trf.ReadPairings(bytes.NewReader(req.GetPairings())); err != nil {
			return nil, err
		}
	} else if req.GetAllowAbsent() {
		return nil, hallerr.BadRequest("allow_absent is for a TRF with pairings: from its own columns, a player without a game or a bye is absent anyway")
	}
	round, err := f.Import(opt)
	if err != nil {
		var te *trf.Error
		if errors.As(err, &te) && !te.Pairings {
			return nil, fmt.Errorf("TRF: %w", err)
		}
		return nil, err
	}
	out := &pairing{format: "trf", number: round.Number}
	out.encoding, _ = f.Encoding()
	if name, assumed := f.Encoding(); assumed {
		out.warnings = append(out.warnings, fmt.Sprintf("the TRF is not UTF-8 and no encoding was named: it was read as %s; if its names look wrong, import it again naming its encoding (hallctl import-round -encoding windows-1250; known: %s)",
			name, strings.Join(trf.Encodings(), ", ")))
	}
	ps, stated := f.PointSystem()
	if stated {
		out.points = &ps
	}
	if bad := f.CheckPoints(); len(bad) > 0 {
		out.warnings = append(out.warnings, pointsWarning(bad, ps, stated))
	}
	section := req.GetSection()
	results := 0
	for _, b := range round.Boards {
		if b.WhiteResult != trf.NoCode {
			results++
		}
		out.games = append(out.games, pairedGame{section: section, board: b.Number,
			white: trfPlayer(f.Player(b.White)), black: trfPlayer(f.Player(b.Black))})
	}
	if results > 0 {
		out.warnings = append(out.warnings, fmt.Sprintf("the TRF has results for %d games of round %d: they are not imported; the hall records the results", results, round.Number))
	}
	for _, b := range round.Byes {
		bye := storage.ByeRecord{Section: section, Player: trfPlayer(f.Player(b.Player)), Kind: b.Code.String()}
		if stated {
			v := ps.Score(trf.Game{Colour: trf.NoColour, Result: b.Code})
			bye.Points = &v
		}
		out.byes = append(out.byes, bye)
	}
	if len(round.Absent) > 0 {
		var names []string
		for _, a := range round.Absent {
			out.absent = append(out.absent, trfPlayer(f.Player(a.Player)))
			names = append(names, fmt.Sprintf("%d %s", a.Player, a.Name))
		}
		out.warnings = append(out.warnings, fmt.Sprintf("%d players are neither paired nor given a bye in round %d, and are left out of it: %s",
			len(round.Absent), round.Number, listed(names)))
	}
	return out, nil
}

// pointsWarning says whose points are not what their rounds score.
func pointsWarning(bad []trf.PointsMismatch, ps trf.PointSystem, stated bool) string {
	var names []string
	for _, m := range bad {
		names = append(names, fmt.Sprintf("%d (line %d) has %s, its rounds score %s", m.Player, m.Line, pointsText(m.Points), pointsText(m.Rounds)))
	}
	how := "as the TRF states (" + ps.String() + ")"
	if !stated {
		how = "1-0.5-0, since no line of the TRF states its point system (XXS, BBW..., 162)"
	}
	return fmt.Sprintf("the points of %d players are not what their rounds score %s: %s; the export moves each player's points by this round's result, so a pairing program will find them wrong too",
		len(bad), how, listed(names))
}

func pointsText(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// listed joins the first names of a list, saying how many more there are.
func listed(names []string) string {
	const most = 10
	if len(names) <= most {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:most], ", ") + fmt.Sprintf(" and %d more", len(names)-most)
}

func csvPlayer(p roundcsv.Player) storage.PlayerRecord {
	return storage.PlayerRecord{Name: p.Name, FideID: p.FideID, Rating: p.Rating, StartRank: p.Number, Title: p.Title, Federation: p.Federation}
}

// readCSV reads a round from a CSV of its pairings.
func readCSV(content []byte, number int, encoding string) (*pairing, error) {
	r, err := roundcsv.ReadWith(bytes.NewReader(content), roundcsv.ReadOptions{Encoding: encoding})
	if err != nil {
		return nil, fmt.Errorf("CSV: %w", err)
	}
	switch {
	case number == 0 && r.Number == 0:
		return nil, hallerr.BadRequest("the CSV has no Round column: say which round it is (number)")
	case number == 0:
		number = r.Number
	case r.Number != 0 && r.Number != number:
		return nil, hallerr.BadRequest("the CSV is round %d, not round %d", r.Number, number)
	}
	out := &pairing{number: number, format: "csv", encoding: r.Encoding}
	if r.EncodingAssumed {
		out.warnings = append(out.warnings, fmt.Sprintf("the CSV is not UTF-8 and no encoding was named: it was read as %s; if its names look wrong, import it again naming its encoding (hallctl import-round -encoding windows-1250; known: %s)",
			r.Encoding, strings.Join(trf.Encodings(), ", ")))
	}
	results := 0
	for _, g := range r.Games {
		if g.Result != "*" && g.Result != "" {
			results++
		}
		out.games = append(out.games, pairedGame{section: g.Section, board: g.Board, white: csvPlayer(g.White), black: csvPlayer(g.Black),
			blind: g.Blind, line: g.Line})
	}
	if results > 0 {
		out.warnings = append(out.warnings, fmt.Sprintf("the CSV has results for %d games: they are not imported; the hall records the results", results))
	}
	for _, b := range r.Byes {
		out.byes = append(out.byes, storage.ByeRecord{Section: b.Section, Player: csvPlayer(b.Player), Kind: b.Kind.String()})
	}
	return out, nil
}

// tables numbers the tables of the boards: board n of the first section
// at firstTable+n-1, each further section after the last board of the
// one before, sections in the order the file gives them.
func (p *pairing) tables(firstTable int) map[*pairedGame]int {
	if firstTable <= 0 {
		firstTable = 1
	}
	var order []string
	last := map[string]int{}
	for _, g := range p.games {
		if _, ok := last[g.section]; !ok {
			order = append(order, g.section)
		}
		last[g.section] = max(last[g.section], g.board)
	}
	offset := map[string]int{}
	next := firstTable
	for _, s := range order {
		offset[s] = next - 1
		next += last[s]
	}
	out := map[*pairedGame]int{}
	for i := range p.games {
		g := &p.games[i]
		out[g] = offset[g.section] + g.board
	}
	return out
}

func (p *pairing) describe() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d boards", len(p.games))
	var blind []string
	for _, g := range p.games {
		if g.blind != nil && g.blind.Applies() {
			blind = append(blind, fmt.Sprintf("%s%d %s", g.section, g.board, g.blind))
		}
	}
	if len(blind) > 0 {
		fmt.Fprintf(&b, " (under the rules for visually disabled players: %s)", strings.Join(blind, "; "))
	}
	if len(p.byes) > 0 {
		fmt.Fprintf(&b, ", %d byes", len(p.byes))
	}
	return b.String()
}
