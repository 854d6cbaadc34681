package roundcsv

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
)

// LF, CR LF and a lone CR all end a row: the same pairing list reads the
// same, rows on the same lines, whatever its line ends.
func TestLineEnds(t *testing.T) {
	b, err := os.ReadFile("testdata/swiss-manager-round5.csv") // CR LF
	if err != nil {
		t.Fatal(err)
	}
	want, err := Read(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	for name, end := range map[string]string{"LF": "\n", "CR": "\r"} {
		got, err := Read(strings.NewReader(strings.ReplaceAll(string(b), "\r\n", end)))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if len(got.Games) != len(want.Games) || len(got.Byes) != len(want.Byes) || got.Games[8] != want.Games[8] {
			t.Errorf("%s: %d games, %d byes; board 9 %+v\nwant %+v", name, len(got.Games), len(got.Byes), got.Games[8], want.Games[8])
		}
	}
}

// A file that is not the CSV it was taken for — a TRF with CR line ends
// — is refused without being pasted whole into the message.
func TestErrorsQuoteLittle(t *testing.T) {
	trf := strings.Repeat("001    1      Berzins, Arturs                   2587 LAT    11604514 1993/05/02  4.0    1    11 w 1\r", 50)
	_, err := Read(strings.NewReader("012 Nordic Autumn Open 2025\r" + trf))
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("err = %v, want an *Error", err)
	}
	if len(e.Error()) > 300 || strings.Count(e.Error(), "Berzins") > 1 {
		t.Errorf("the error pastes the file (%d bytes): %s", len(e.Error()), e.Error())
	}
	_, err = Read(strings.NewReader("Board,White,Black,Rating\n1,A,B," + strings.Repeat("9", 5000) + "\n"))
	if err == nil || len(err.Error()) > 300 {
		t.Errorf("a long rating: %v", err)
	}
}

// A Windows-1250 pairing list, named so, reads with its names; written
// back in Windows-1250 on request. Not named, a file that is not UTF-8 is
// read as Windows-1252, and says so.
func TestEncodings(t *testing.T) {
	utf := "Bo.;White;Rtg;Black;Rtg\r\n1;Łukasiewicz, Łucja;2100;Šťastný, Bożena;2050\r\n"
	raw, err := charmap.Windows1250.NewEncoder().String(utf)
	if err != nil {
		t.Fatal(err)
	}
	r, err := ReadWith(strings.NewReader(raw), ReadOptions{Encoding: "windows-1250"})
	if err != nil {
		t.Fatal(err)
	}
	if r.Games[0].White.Name != "Łukasiewicz, Łucja" || r.Games[0].Black.Name != "Šťastný, Bożena" || r.Encoding != "windows-1250" || r.EncodingAssumed {
		t.Errorf("read %+v, encoding %q %v", r.Games[0], r.Encoding, r.EncodingAssumed)
	}
	var out bytes.Buffer
	if err := WriteWith(&out, r, WriteOptions{Encoding: r.Encoding}); err != nil {
		t.Fatal(err)
	}
	if utf8.Valid(out.Bytes()) {
		t.Error("written in UTF-8, asked for Windows-1250")
	}
	back, err := ReadWith(&out, ReadOptions{Encoding: "cp1250"})
	if err != nil || back.Games[0].Black.Name != "Šťastný, Bożena" {
		t.Errorf("read back: %v, %+v", err, back)
	}
	if err := WriteWith(&out, &Round{Games: []Game{{White: Player{Name: "Ωmega"}, Black: Player{Name: "B"}}}}, WriteOptions{Encoding: "windows-1250"}); err == nil ||
		!strings.Contains(err.Error(), "line 2") {
		t.Errorf("a name Windows-1250 cannot write: %v", err)
	}

	latin := strings.Replace(strings.Replace(utf, "Łukasiewicz, Łucja", "Müller, Jürgen", 1), "Šťastný, Bożena", "Šarūnas", 1)
	raw, err = charmap.Windows1252.NewEncoder().String(strings.Replace(latin, "ū", "u", 1))
	if err != nil {
		t.Fatal(err)
	}
	r, err = Read(strings.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	if r.Games[0].White.Name != "Müller, Jürgen" || r.Games[0].Black.Name != "Šarunas" || r.Encoding != "windows-1252" || !r.EncodingAssumed {
		t.Errorf("read %+v, encoding %q %v", r.Games[0], r.Encoding, r.EncodingAssumed)
	}
}
