package roundcsv

import (
	"encoding/csv"
	"io"
	"strconv"
)

// header is the header row Write writes.
var header = []string{
	"Round", "Section", "Board",
	"White No", "White", "White Title", "White Fed", "White Rating", "White FIDE ID",
	"Black No", "Black", "Black Title", "Black Fed", "Black Rating", "Black FIDE ID",
	"Result", "Termination", "White Points", "Black Points",
}

// Write writes the round as a results CSV: the header, a row per game in
// the order given, then a row per bye.
func Write(w io.Writer, r *Round) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(header); err != nil {
		return err
	}
	round := num(r.Number)
	for _, g := range r.Games {
		rec := []string{round, g.Section, num(g.Board)}
		rec = append(rec, playerFields(g.White)...)
		rec = append(rec, playerFields(g.Black)...)
		res := g.Result
		if res == "" {
			res = "*"
		}
		rec = append(rec, string(res), g.Termination, pts(g.WhitePoints), pts(g.BlackPoints))
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	for _, b := range r.Byes {
		rec := []string{round, b.Section, ""}
		rec = append(rec, playerFields(b.Player)...)
		rec = append(rec, "", "bye", "", "", "", "", b.Kind.String(), "", pts(b.Points), "")
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

func playerFields(p Player) []string {
	return []string{num(p.Number), p.Name, p.Title, p.Federation, num(p.Rating), p.FideID}
}

func num(n int) string {
	if n == 0 {
		return ""
	}
	return strconv.Itoa(n)
}

func pts(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
