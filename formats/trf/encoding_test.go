package trf

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
)

// A Windows-1250 file, named so, reads with its names; played and
// exported, it goes back in Windows-1250, byte for byte the file; asked
// for UTF-8, in UTF-8. Not named, it is read as Windows-1252 and says
// that it assumed so.
func TestWindows1250(t *testing.T) {
	raw, err := os.ReadFile("testdata/constructed/windows-1250.trf")
	if err != nil {
		t.Fatal(err)
	}
	utf, err := charmap.Windows1250.NewDecoder().Bytes(raw)
	if err != nil {
		t.Fatal(err)
	}
	f, err := ReadWith(bytes.NewReader(raw), ReadOptions{Encoding: "windows-1250"})
	if err != nil {
		t.Fatal(err)
	}
	if enc, assumed := f.Encoding(); enc != "windows-1250" || assumed {
		t.Errorf("Encoding() = %q, %v", enc, assumed)
	}
	for rank, name := range map[int]string{1: "Łukasiewicz, Łucja", 2: "Šťastný, Bożena", 3: "Żółkiewski, Ödön", 6: "Szőke, Květa"} {
		if got := f.Player(rank).Name; got != name {
			t.Errorf("player %d is %q, want %q", rank, got, name)
		}
	}
	if f.Name() != "Memoriał Środkowoeuropejski 2025" {
		t.Errorf("Name() = %q", f.Name())
	}

	// Round 14 after pairing, played, exported: the file, in Windows-1250.
	ref := refRead(t, string(utf))
	paired, err := charmap.Windows1250.NewEncoder().String(afterPairing(ref, 14))
	if err != nil {
		t.Fatal(err)
	}
	f, err = ReadWith(strings.NewReader(paired), ReadOptions{Encoding: "cp1250"})
	if err != nil {
		t.Fatal(err)
	}
	r, err := f.Import(ImportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := f.SetRound(14, play(ref, 14, r.Boards), r.Byes, Scoring{}); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := f.Write(&out); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out.Bytes(), raw) {
		t.Errorf("exported otherwise than the file:\n%s", firstDiff(out.String(), string(raw)))
	}
	out.Reset()
	if err := f.WriteWith(&out, WriteOptions{Encoding: "UTF-8"}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out.Bytes(), utf) {
		t.Errorf("exported in UTF-8 otherwise than the file in UTF-8:\n%s", firstDiff(out.String(), string(utf)))
	}

	// Not named: read as Windows-1252, which has no character for ť
	// (0x9D), and refused saying so; without it, read and said so.
	_, err = Read(bytes.NewReader(raw))
	var e *Error
	if !errors.As(err, &e) || e.Line != 3 || e.Column != 16 || !strings.Contains(e.Msg, "windows-1252") || !strings.Contains(e.Msg, "name the file's encoding") {
		t.Errorf("Windows-1250 read without a name: %v; want line 3, column 16 (ť)", err)
	}
	someTe := bytes.ReplaceAll(bytes.ReplaceAll(raw, []byte{0x9d}, []byte("t")), []byte{0x8d}, []byte("T"))
	f, err = Read(bytes.NewReader(someTe))
	if err != nil {
		t.Fatal(err)
	}
	if enc, assumed := f.Encoding(); enc != "windows-1252" || !assumed {
		t.Errorf("Encoding() of a file read without a name = %q, %v; want windows-1252, assumed", enc, assumed)
	}
	if got := f.Player(1).Name; got != "£ukasiewicz, £ucja" {
		t.Errorf("player 1 read as Windows-1252 is %q", got)
	}

	// Named UTF-8, a file that is not is refused where it is not.
	_, err = ReadWith(bytes.NewReader(raw), ReadOptions{Encoding: "utf-8"})
	if !errors.As(err, &e) || e.Line != 1 || e.Column != 12 || !strings.Contains(e.Msg, "0xB3") {
		t.Errorf("reading Windows-1250 as UTF-8: %v; want line 1, column 12 (ł is 0xB3)", err)
	}
	if _, err := ReadWith(bytes.NewReader(raw), ReadOptions{Encoding: "klingon"}); err == nil || !strings.Contains(err.Error(), "windows-1250") {
		t.Errorf("an unknown encoding: %v; want an error listing those known", err)
	}
}

// A Windows-1252 file — what most Windows programs in Western Europe
// write — reads with its names (Š is 0x8A there, not a control
// character), and exports in Windows-1252, the file byte for byte but
// for the round.
func TestWindows1252(t *testing.T) {
	utf := strings.Replace(readText(t, pairedFile), "Schröder, Lukas   ", "Šarūnas, Žydrūnas ", 1)
	utf = strings.NewReplacer("ū", "u", "ą", "a").Replace(utf) // not in Windows-1252
	raw, err := charmap.Windows1252.NewEncoder().String(utf)
	if err != nil {
		t.Fatal(err)
	}
	if utf8.ValidString(raw) {
		t.Fatal("the file is valid UTF-8: it tests nothing")
	}
	f, err := Read(strings.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	if got := f.Player(7).Name; got != "Šarunas, Žydrunas" {
		t.Errorf("player 7 is %q", got)
	}
	if got := f.Player(6).Name; got != "Fernández López, Álvaro" {
		t.Errorf("player 6 is %q", got)
	}
	r, err := f.Round(5)
	if err != nil {
		t.Fatal(err)
	}
	for i := range r.Boards {
		r.Boards[i].WhiteResult, r.Boards[i].BlackResult = Draw, Draw
	}
	if err := f.SetRound(5, r.Boards, r.Byes, Scoring{}); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := f.Write(&out); err != nil {
		t.Fatal(err)
	}
	back, err := charmap.Windows1252.NewDecoder().String(out.String())
	if err != nil {
		t.Fatal(err)
	}
	if utf8.ValidString(out.String()) {
		t.Error("the export is UTF-8, the file was Windows-1252")
	}
	if err := sameOutside(utf, back, 5); err != nil {
		t.Errorf("the export differs from the file outside round 5: %v", err)
	}
	// 0x81 is no character of Windows-1252.
	_, err = Read(strings.NewReader(strings.Replace(raw, "Rossi", "Ro\x81si", 1)))
	var e *Error
	if !errors.As(err, &e) || e.Line != 25 || e.Column != 17 || !strings.Contains(e.Msg, "0x81") {
		t.Errorf("an undefined byte: %v; want line 25, column 17", err)
	}
}
