package text

import (
	"errors"
	"strings"
	"testing"
)

// Lines end at LF, CR LF and CR; each keeps its bytes and its own end; a
// byte-order mark is set aside; the last line may have no end.
func TestReadLines(t *testing.T) {
	src, err := Read([]byte("\ufeffa\r\nb\rc\n\nd"), Charset{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, l := range src.Lines {
		got = append(got, l.Text+"|"+l.End)
	}
	if want := "a|\r\n b|\r c|\n |\n d|"; strings.Join(got, " ") != want || !src.BOM || src.Charset != UTF8 {
		t.Errorf("lines %q (BOM %v, %s), want %q", strings.Join(got, " "), src.BOM, src.Charset.Name, want)
	}
}

// A file that is not UTF-8 is read in the code page named, else
// Windows-1252 and said so; a byte the page lacks, a line too long and a
// file named UTF-8 that is not are errors with their line and column.
func TestReadEncodings(t *testing.T) {
	cs, err := Lookup("CP-1250")
	if err != nil || cs.Name != "windows-1250" {
		t.Fatalf("Lookup(CP-1250) = %v, %v", cs, err)
	}
	src, err := Read([]byte("x\n\xa3\xf3d\x9f"), cs) // Łódź
	if err != nil || src.Lines[1].Text != "Łódź" || src.Assumed {
		t.Errorf("Windows-1250: %+v, %v", src, err)
	}
	src, err = Read([]byte("M\xfcller \x8a"), Charset{})
	if err != nil || src.Lines[0].Text != "Müller Š" || !src.Assumed || src.Charset.Name != "windows-1252" {
		t.Errorf("no name: %+v, %v", src, err)
	}
	for _, c := range []struct {
		data      string
		cs        string
		line, col int
	}{
		{"ok\nab\x81", "", 2, 3},
		{"ok\r\nok\rb\xfc", "utf-8", 3, 2},
		{"ok\n" + strings.Repeat("x", MaxLineBytes+1), "", 2, MaxLineBytes + 1},
	} {
		cs, _ := Lookup(c.cs)
		_, err := Read([]byte(c.data), cs)
		var e *Error
		if !errors.As(err, &e) || e.Line != c.line || e.Column != c.col {
			t.Errorf("Read(%.20q, %q) = %v; want line %d, column %d", c.data, c.cs, err, c.line, c.col)
		}
	}
	if _, err := Lookup("ebcdic"); err == nil || !strings.Contains(err.Error(), "windows-1252") {
		t.Errorf("Lookup(ebcdic) = %v", err)
	}
}

// Encode writes a code page, refusing a character it lacks by column;
// ByteOffset finds a column in a line's bytes.
func TestEncodeAndOffsets(t *testing.T) {
	cs, _ := Lookup("windows-1250")
	if b, err := cs.Encode("Łódź"); err != nil || string(b) != "\xa3\xf3d\x9f" {
		t.Errorf("Encode(Łódź) = %q, %v", b, err)
	}
	if _, err := cs.Encode("abÆ"); err == nil || !strings.Contains(err.Error(), "column 3") {
		t.Errorf("Encode(abÆ) = %v", err)
	}
	if got := UTF8.ByteOffset([]byte("Łódź x"), 5); got != 7 {
		t.Errorf("UTF-8 ByteOffset = %d, want 7", got)
	}
	if got := cs.ByteOffset([]byte("\xa3\xf3d\x9f x"), 5); got != 4 {
		t.Errorf("Windows-1250 ByteOffset = %d, want 4", got)
	}
	if got := Quote(strings.Repeat("y", 100), 5); got != `"yyyyy"…` {
		t.Errorf("Quote = %s", got)
	}
}
