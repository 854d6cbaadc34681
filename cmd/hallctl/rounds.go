package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

func (c *cli) tournaments(args []string) error {
	if err := need(args, 0, "tournaments"); err != nil {
		return err
	}
	r, err := c.arb.ListTournaments(c.ctx, &pb.ListTournamentsRequest{})
	if err != nil {
		return err
	}
	if len(r.GetTournaments()) == 0 {
		fmt.Fprintln(c.out, "no tournaments (hallctl tournament NAME -tc TC creates one)")
		return nil
	}
	tw := tabwriter.NewWriter(c.out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "TOURNAMENT\tTIME CONTROL\tVENUE\tROUNDS\tID")
	for _, t := range r.GetTournaments() {
		var rounds []string
		for _, n := range t.GetRounds() {
			rounds = append(rounds, fmt.Sprint(n))
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", t.GetName(), or(t.GetDefaultConfig().GetTimeControl(), "-"), or(t.GetVenue(), "hall"),
			or(strings.Join(rounds, ","), "-"), t.GetTournamentId())
	}
	return tw.Flush()
}

func (c *cli) rounds(args []string) error {
	if len(args) > 1 {
		return fmt.Errorf("%w: want rounds [TOURNAMENT]", errUsage)
	}
	req := &pb.ListRoundsRequest{}
	if len(args) == 1 {
		req.Tournament = args[0]
	}
	r, err := c.arb.ListRounds(c.ctx, req)
	if err != nil {
		return err
	}
	if len(r.GetRounds()) == 0 {
		fmt.Fprintln(c.out, "no rounds")
		return nil
	}
	tw := tabwriter.NewWriter(c.out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "TOURNAMENT\tROUND\tSTATUS\tBOARDS\tFINISHED\tPLAYING\tWAITING\tBYES\tSCORE\tFROM\tID")
	for _, rd := range r.GetRounds() {
		t := rd.GetTally()
		fmt.Fprintf(tw, "%s\t%d\t%s\t%d\t%d\t%d\t%d\t%d\t%s\t%s\t%s\n", rd.GetTournamentName(), rd.GetNumber(), roundStatus(rd), t.GetBoards(),
			t.GetFinished(), t.GetPlaying(), t.GetWaiting(), t.GetByes(), fmt.Sprintf("%s–%s", points(t.GetWhitePoints()), points(t.GetBlackPoints())),
			or(rd.GetSource(), "hand"), rd.GetRoundId())
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, rd := range r.GetRounds() {
		if rd.GetSource() == "clocks" {
			fmt.Fprintf(c.out, "%s round %d was rebuilt from its clocks' records after a restore: its byes and its boards without a clock are not known (hallctl audit BOARD says what each board got back)\n",
				rd.GetTournamentName(), rd.GetNumber())
		}
	}
	return nil
}

func roundStatus(r *pb.Round) string {
	return strings.ToLower(strings.TrimPrefix(r.GetStatus().String(), "ROUND_STATUS_"))
}

// points writes a score with halves: "4½", "½", "0".
func points(v float64) string {
	whole := int(v)
	switch {
	case v-float64(whole) < 0.25:
		return fmt.Sprint(whole)
	case whole == 0:
		return "½"
	}
	return fmt.Sprintf("%d½", whole)
}

func (c *cli) importRound(args []string) error {
	var number, firstTable int
	var replace, allowAbsent bool
	var venue, section, tc, format, encoding string
	pos, err := parse(args, func(fs *flag.FlagSet) {
		fs.BoolVar(&allowAbsent, "allow-absent", false, "import although the pairings leave out players the TRF gives no bye (they are listed)")
		fs.StringVar(&encoding, "encoding", "", "the code page of a file that is not UTF-8: windows-1250, cp852... (default windows-1252)")
		fs.IntVar(&number, "round", 0, "the round (default: the file's)")
		fs.BoolVar(&replace, "replace", false, "replace the round if imported already and not started")
		fs.StringVar(&venue, "venue", "", "whose hall plan gives the clocks (default: the tournament's)")
		fs.IntVar(&firstTable, "first-table", 0, "the table of board 1 (default 1)")
		fs.StringVar(&section, "section", "", "the section of a TRF's boards")
		fs.StringVar(&tc, "tc", "", "the round's time control, if not the tournament's")
		fs.StringVar(&format, "format", "", "trf or csv (default: told from the file)")
	})
	if err != nil {
		return err
	}
	if len(pos) < 2 || len(pos) > 3 {
		return fmt.Errorf("%w: want import-round TOURNAMENT FILE [PAIRINGS]", errUsage)
	}
	req := &pb.ImportRoundRequest{Tournament: pos[0], Number: int32(number), Replace: replace, Venue: venue,
		FirstTable: int32(firstTable), Section: section, AllowAbsent: allowAbsent, Encoding: encoding}
	if req.Content, err = readImportFile(pos[1], 0, emptyRound); err != nil {
		return err
	}
	if len(pos) == 3 {
		if req.Pairings, err = readImportFile(pos[2], int64(len(req.Content)), emptyPairings); err != nil {
			return err
		}
	}
	switch strings.ToLower(format) {
	case "":
	case "trf":
		req.Format = pb.ImportFormat_IMPORT_FORMAT_TRF
	case "csv":
		req.Format = pb.ImportFormat_IMPORT_FORMAT_CSV
	default:
		return fmt.Errorf("%w: -format %q: trf or csv", errUsage, format)
	}
	if tc != "" {
		req.Config = &pb.ClockConfig{TimeControl: tc}
	}
	r, err := c.arb.ImportRound(c.ctx, req)
	if err != nil {
		return err
	}
	rd := r.GetRound()
	fmt.Fprintf(c.out, "%s round %d: %d boards, %d byes (from %s, %s)\n", rd.GetTournamentName(), rd.GetNumber(), len(r.GetBoards()),
		len(rd.GetByes()), rd.GetSource(), r.GetEncoding())
	tw := tabwriter.NewWriter(c.out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "BOARD\tTABLE\tWHITE\tBLACK\tCLOCK")
	for _, b := range r.GetBoards() {
		fmt.Fprintf(tw, "%s%d\t%d\t%s\t%s\t%s\n", b.GetSection(), b.GetNumber(), b.GetTable(), playerName(b.GetWhite()),
			playerName(b.GetBlack()), or(b.GetDeviceId(), "-"))
	}
	for _, b := range rd.GetByes() {
		fmt.Fprintf(tw, "bye\t\t%s\t%s (%s)\t\n", playerName(b.GetPlayer()), strings.ToLower(strings.TrimPrefix(b.GetKind().String(), "BYE_KIND_")),
			points(b.GetPoints()))
	}
	for _, p := range r.GetAbsent() {
		fmt.Fprintf(tw, "absent\t\t%s\t\t\n", playerName(p))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, w := range r.GetWarnings() {
		fmt.Fprintln(c.out, "warning:", w)
	}
	return nil
}

func (c *cli) exportRound(args []string) error {
	var format, file, encoding string
	var lichess bool
	pos, err := parse(args, func(fs *flag.FlagSet) {
		fs.StringVar(&format, "format", "trf", "trf, csv or pgn")
		fs.StringVar(&file, "o", "-", "write to this file, or to the suggested name in this directory (default \"-\": standard output)")
		fs.BoolVar(&lichess, "lichess", false, "PGN as lichess broadcasts want it: Round tags as 5.12 (round.board), its results 0-0, 1/2-0 and 0-1/2")
		fs.StringVar(&encoding, "encoding", "", "TRF and CSV: the encoding to write (default: the imported file's; utf-8 for a round set up by hand)")
	})
	if err != nil {
		return err
	}
	if err := need(pos, 1, "export-round ROUND [-format trf|csv|pgn] [-o FILE|DIR|-] [-encoding E] [-lichess]"); err != nil {
		return err
	}
	rd, err := c.round(pos[0])
	if err != nil {
		return err
	}
	req := &pb.ExportRoundRequest{RoundId: rd.GetRoundId(), PgnRoundAndBoard: lichess, PgnLichessResults: lichess, Encoding: encoding}
	switch strings.ToLower(format) {
	case "trf":
		req.Format = pb.ExportFormat_EXPORT_FORMAT_TRF
	case "csv":
		req.Format = pb.ExportFormat_EXPORT_FORMAT_CSV
	case "pgn":
		req.Format = pb.ExportFormat_EXPORT_FORMAT_PGN
	default:
		return fmt.Errorf("%w: -format %q: trf, csv or pgn", errUsage, format)
	}
	r, err := c.arb.ExportRound(c.ctx, req)
	if err != nil {
		return err
	}
	state := "not complete: results still to come"
	if r.GetFinal() {
		state = "final"
		if r.GetCorrections() > 0 {
			state += fmt.Sprintf(", %d results corrected since completion (hallctl audit shows by whom)", r.GetCorrections())
		}
	}
	if file == "-" || file == "" {
		_, err := c.out.Write(r.GetContent())
		fmt.Fprintf(os.Stderr, "hallctl: %s round %d: %s\n", rd.GetTournamentName(), rd.GetNumber(), state)
		return err
	}
	if fi, err := os.Stat(file); err == nil && fi.IsDir() {
		file = filepath.Join(file, r.GetFilename())
	}
	if err := os.WriteFile(file, r.GetContent(), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(c.out, "wrote %s (%d bytes) at %s: %s\n", file, len(r.GetContent()), at(time.Now().UnixMilli(), "15:04:05", c.zone("")), state)
	return nil
}

// What import-round wants in each of its files, said when one is empty.
const (
	emptyRound    = "FILE is the pairing program's file of the round: a TRF-16 (its players' lines begin 001) or a CSV whose first line names its columns (Board, White, Black...)"
	emptyPairings = "PAIRINGS is the pairing program's output for the TRF (JaVaFo, bbpPairings): the number of pairs on the first line, then one line \"WHITE BLACK\" of starting ranks per pair"
)

// readImportFile reads a file of an import, refusing one that would take
// the import (with what the other file took already) past what the hall
// takes, or an empty one (saying what it wants), before anything is sent.
func readImportFile(name string, already int64, want string) ([]byte, error) {
	fi, err := os.Stat(name)
	if err != nil {
		return nil, err
	}
	if size := fi.Size(); size+already > pb.MaxImportBytes {
		return nil, fmt.Errorf("%s is %s: an import takes at most %s (the TRF and the pairings together); is it the pairing program's file?",
			name, pb.Bytes(int(size)), pb.Bytes(pb.MaxImportBytes))
	}
	b, err := os.ReadFile(name)
	if err == nil && len(b) == 0 {
		return nil, fmt.Errorf("%s is empty: %s", name, want)
	}
	return b, err
}
