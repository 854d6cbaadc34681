package arbiter

import (
	"bytes"
	"fmt"
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
	warnings []string
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

// readPairing reads the files of an import.
func readPairing(req *pb.ImportRoundRequest) (*pairing, error) {
	format := req.GetFormat()
	if format == pb.ImportFormat_IMPORT_FORMAT_UNSPECIFIED {
		format = pb.ImportFormat_IMPORT_FORMAT_CSV
		if isTRF(req.GetContent()) {
			format = pb.ImportFormat_IMPORT_FORMAT_TRF
		}
	}
	if format == pb.ImportFormat_IMPORT_FORMAT_TRF {
		return readTRF(req.GetContent(), req.GetPairings(), int(req.GetNumber()), req.GetSection())
	}
	if len(req.GetPairings()) > 0 {
		return nil, hallerr.BadRequest("a CSV carries its own pairings: pairings are for a TRF's players")
	}
	return readCSV(req.GetContent(), int(req.GetNumber()))
}

// isTRF reports whether a file has a TRF player line.
func isTRF(b []byte) bool {
	for _, l := range bytes.Split(b, []byte("\n")) {
		if bytes.HasPrefix(bytes.TrimPrefix(l, []byte("\ufeff")), []byte("001 ")) {
			return true
		}
	}
	return false
}

func trfPlayer(p *trf.Player) storage.PlayerRecord {
	return storage.PlayerRecord{Name: p.Name, FideID: p.FideID, Rating: p.Rating, StartRank: p.StartRank, Title: p.Title, Federation: p.Federation}
}

// readTRF reads a round from a TRF: from a pairing program's output if
// given, else from the round's columns.
func readTRF(content, pairings []byte, number int, section string) (*pairing, error) {
	f, err := trf.Read(bytes.NewReader(content))
	if err != nil {
		return nil, fmt.Errorf("TRF: %w", err)
	}
	played, scheduled := 0, 0 // the last round with a result, with any entry
	for _, p := range f.Players {
		for r, g := range p.Rounds {
			if g.Opponent > 0 || g.Result != trf.NoCode {
				scheduled = max(scheduled, r+1)
			}
			if g.Opponent > 0 && g.Result != trf.NoCode {
				played = max(played, r+1)
			}
		}
	}
	out := &pairing{format: "trf"}
	var round *trf.Round
	if len(pairings) > 0 {
		pairs, err := trf.ReadPairings(bytes.NewReader(pairings))
		if err != nil {
			return nil, fmt.Errorf("pairings: %w", err)
		}
		if number == 0 {
			number = played + 1
		}
		if round, err = f.Paired(number, pairs); err != nil {
			return nil, fmt.Errorf("pairings of round %d: %w", number, err)
		}
	} else {
		if number == 0 {
			number = scheduled
		}
		if number == 0 {
			return nil, hallerr.BadRequest("the TRF has no round columns: give the pairing program's output (pairings) with it")
		}
		if round, err = f.Round(number); err != nil {
			return nil, fmt.Errorf("TRF round %d: %w", number, err)
		}
		if len(round.Boards) == 0 {
			return nil, hallerr.BadRequest("the TRF's columns for round %d pair nobody: give the pairing program's output (pairings), or another round", number)
		}
	}
	out.number = number
	results := 0
	for _, b := range round.Boards {
		if b.WhiteResult != trf.NoCode {
			results++
		}
		out.games = append(out.games, pairedGame{section: section, board: b.Number,
			white: trfPlayer(f.Player(b.White)), black: trfPlayer(f.Player(b.Black))})
	}
	if results > 0 {
		out.warnings = append(out.warnings, fmt.Sprintf("the TRF has results for %d games of round %d: they are not imported; the hall records the results", results, number))
	}
	for _, b := range round.Byes {
		out.byes = append(out.byes, storage.ByeRecord{Section: section, Player: trfPlayer(f.Player(b.Player)), Kind: b.Code.String()})
	}
	return out, nil
}

func csvPlayer(p roundcsv.Player) storage.PlayerRecord {
	return storage.PlayerRecord{Name: p.Name, FideID: p.FideID, Rating: p.Rating, StartRank: p.Number, Title: p.Title, Federation: p.Federation}
}

// readCSV reads a round from a CSV of its pairings.
func readCSV(content []byte, number int) (*pairing, error) {
	r, err := roundcsv.Read(bytes.NewReader(content))
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
	out := &pairing{number: number, format: "csv"}
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
