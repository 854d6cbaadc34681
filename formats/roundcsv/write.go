package roundcsv

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/chesshall/hallclock/formats/internal/text"
)

// header is the header row Write writes.
var header = []string{
	"Round", "Section", "Board",
	"White No", "White", "White Title", "White Fed", "White Rating", "White FIDE ID",
	"Black No", "Black", "Black Title", "Black Fed", "Black Rating", "Black FIDE ID",
	"Result", "Termination", "White Points", "Black Points",
}

// WriteOptions change how Write writes a round.
type WriteOptions struct {
	// Encoding to write in ("windows-1250", ...); empty: UTF-8. A round
	// imported from a CSV goes back in the encoding it came in
	// (Round.Encoding) unless the arbiter asks for another.
	Encoding string
}

// Write writes the round as a results CSV in UTF-8: the header, a row per
// game in the order given, then a row per bye.
func Write(w io.Writer, r *Round) error { return WriteWith(w, r, WriteOptions{}) }

// WriteWith writes the round as a results CSV with options. A name the
// encoding cannot write is an error naming its line and column.
func WriteWith(w io.Writer, r *Round, opt WriteOptions) error {
	cs, err := text.Lookup(opt.Encoding)
	if err != nil {
		return fmt.Errorf("roundcsv: %w", err)
	}
	var buf bytes.Buffer
	if err := write(&buf, r); err != nil {
		return err
	}
	if cs.Name == "" || cs.IsUTF8() {
		_, err = w.Write(buf.Bytes())
		return err
	}
	var out bytes.Buffer
	for i, l := range strings.SplitAfter(buf.String(), "\n") {
		b, err := cs.Encode(l)
		if err != nil {
			return fmt.Errorf("roundcsv: line %d: %w", i+1, err)
		}
		out.Write(b)
	}
	_, err = w.Write(out.Bytes())
	return err
}

func write(w io.Writer, r *Round) error {
	cw := csv.NewWriter(w)
	counts := false // a Counts column, when draw odds changed a result
	for _, g := range r.Games {
		counts = counts || g.Counts != "" && g.Counts != g.Result
	}
	head := header
	if counts {
		head = append(append([]string(nil), header...), "Counts")
	}
	if err := cw.Write(head); err != nil {
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
		if counts {
			c := ""
			if g.Counts != res {
				c = string(g.Counts)
			}
			rec = append(rec, c)
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	for _, b := range r.Byes {
		rec := []string{round, b.Section, ""}
		rec = append(rec, playerFields(b.Player)...)
		rec = append(rec, "", "bye", "", "", "", "", b.Kind.String(), "", pts(b.Points), "")
		if counts {
			rec = append(rec, "")
		}
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
