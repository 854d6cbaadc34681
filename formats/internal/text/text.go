// Package text reads the text files that tournament programs write, as
// they wrote them: UTF-8 when the bytes are valid UTF-8 (a byte-order mark
// kept aside), else a legacy code page — one named by the caller, or
// Windows-1252, what Western European Windows programs save. It splits a
// file into lines at LF, CR LF and a lone CR alike (TRF-16 ends its lines
// with CR; Windows programs with CR LF; Unix ones with LF), keeping each
// line's own bytes and its own line end so a writer can give back what it
// did not change, byte for byte.
package text

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
)

// MaxLineBytes is the longest line a file may have. A TRF line of 99
// rounds is about 1,100 characters; a line a thousand times longer than
// anything a tournament program writes says the file is something else.
const MaxLineBytes = 64 << 10

// Charset is the character encoding of a file.
type Charset struct {
	Name string           // the canonical name, e.g. "windows-1250"
	cm   *charmap.Charmap // nil for UTF-8
}

// UTF8 is UTF-8.
var UTF8 = Charset{Name: "utf-8"}

// DefaultLegacy is the code page a file that is not UTF-8 is read with
// unless the caller names another.
var DefaultLegacy = Charset{Name: "windows-1252", cm: charmap.Windows1252}

// charsets are the encodings known by name, each with its spellings.
var charsets = []struct {
	cs    Charset
	names []string
}{
	{UTF8, []string{"utf8"}},
	{DefaultLegacy, []string{"cp1252", "win1252"}},
	{Charset{"windows-1250", charmap.Windows1250}, []string{"cp1250", "win1250"}},
	{Charset{"windows-1251", charmap.Windows1251}, []string{"cp1251", "win1251"}},
	{Charset{"windows-1253", charmap.Windows1253}, []string{"cp1253", "win1253"}},
	{Charset{"windows-1254", charmap.Windows1254}, []string{"cp1254", "win1254"}},
	{Charset{"windows-1257", charmap.Windows1257}, []string{"cp1257", "win1257"}},
	{Charset{"iso-8859-1", charmap.ISO8859_1}, []string{"latin1", "iso88591"}},
	{Charset{"iso-8859-2", charmap.ISO8859_2}, []string{"latin2", "iso88592"}},
	{Charset{"iso-8859-15", charmap.ISO8859_15}, []string{"latin9", "iso885915"}},
	{Charset{"cp437", charmap.CodePage437}, []string{"ibm437"}},
	{Charset{"cp850", charmap.CodePage850}, []string{"ibm850"}},
	{Charset{"cp852", charmap.CodePage852}, []string{"ibm852"}},
}

// Names returns the canonical names of the known encodings.
func Names() []string {
	var out []string
	for _, c := range charsets {
		out = append(out, c.cs.Name)
	}
	return out
}

// Lookup returns the encoding of a name, in any case, with or without
// hyphens ("Windows-1250", "cp1250", "latin2"). The empty name is the
// zero Charset: no choice made.
func Lookup(name string) (Charset, error) {
	if name == "" {
		return Charset{}, nil
	}
	key := strings.NewReplacer("-", "", "_", "", " ", "").Replace(strings.ToLower(name))
	for _, c := range charsets {
		if key == strings.ReplaceAll(c.cs.Name, "-", "") || slices.Contains(c.names, key) {
			return c.cs, nil
		}
	}
	return Charset{}, fmt.Errorf("unknown encoding %q (known: %s)", name, strings.Join(Names(), ", "))
}

// IsUTF8 reports whether the charset is UTF-8.
func (c Charset) IsUTF8() bool { return c.cm == nil }

// Line is one line of a file.
type Line struct {
	N    int    // from 1
	Raw  []byte // the line's bytes as read, without its line end
	Text string // the line decoded
	End  string // "\n", "\r\n", "\r", or "" for a last line without one
}

// Source is a file read as lines.
type Source struct {
	Charset Charset
	// Assumed is true when the file is not UTF-8 and no encoding was
	// named: it was read with DefaultLegacy, which may be wrong.
	Assumed bool
	BOM     bool // the file began with a UTF-8 byte-order mark
	Lines   []Line
}

// Error is what is wrong with a file's bytes, and where.
type Error struct {
	Line, Column int
	Msg          string
}

func (e *Error) Error() string { return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Column, e.Msg) }

var bom = []byte("\ufeff")

// Read splits data into lines and decodes them: as UTF-8 if data is
// valid UTF-8, else with legacy (DefaultLegacy if zero). A line longer
// than MaxLineBytes, or a byte the code page has no character for, is an
// *Error.
func Read(data []byte, legacy Charset) (*Source, error) {
	src := &Source{Charset: UTF8}
	if bytes.HasPrefix(data, bom) {
		src.BOM, data = true, data[len(bom):]
	}
	if !utf8.Valid(data) {
		if legacy.Name == "" {
			legacy, src.Assumed = DefaultLegacy, true
		}
		if legacy.IsUTF8() {
			return nil, notUTF8(data)
		}
		src.Charset = legacy
	}
	for n, rest := 1, data; len(rest) > 0; n++ {
		i := bytes.IndexAny(rest, "\r\n")
		raw, end := rest, ""
		if i >= 0 {
			raw, end = rest[:i], "\n"
			if rest[i] == '\r' {
				end = "\r"
				if i+1 < len(rest) && rest[i+1] == '\n' {
					end = "\r\n"
				}
			}
		}
		if len(raw) > MaxLineBytes {
			return nil, &Error{Line: n, Column: MaxLineBytes + 1, Msg: fmt.Sprintf("the line is longer than %d bytes, the limit for a line: is this the right file?", MaxLineBytes)}
		}
		rest = rest[len(raw)+len(end):]
		l := Line{N: n, Raw: raw, End: end}
		var err error
		if l.Text, err = src.Charset.Decode(raw); err != nil {
			e := err.(*Error)
			e.Line = n
			if src.Assumed {
				e.Msg = fmt.Sprintf("byte 0x%02X has no character in %s, the encoding a file that is not UTF-8 is read in unless another is named: name the file's encoding (e.g. windows-1250)", raw[e.Column-1], src.Charset.Name)
			}
			return nil, e
		}
		src.Lines = append(src.Lines, l)
	}
	return src, nil
}

func notUTF8(data []byte) error {
	line, col := 1, 1
	for len(data) > 0 {
		r, size := utf8.DecodeRune(data)
		if r == utf8.RuneError && size <= 1 {
			return &Error{Line: line, Column: col, Msg: fmt.Sprintf("byte 0x%02X is not UTF-8: name the file's encoding (e.g. windows-1250)", data[0])}
		}
		col++
		if r == '\n' || r == '\r' && (len(data) < 2 || data[1] != '\n') {
			line, col = line+1, 1
		}
		data = data[size:]
	}
	return nil
}

// Decode returns a line's bytes as text; a byte the code page has no
// character for is an *Error naming its column (Line 0).
func (c Charset) Decode(raw []byte) (string, error) {
	if c.cm == nil {
		return string(raw), nil
	}
	var b strings.Builder
	b.Grow(len(raw))
	for i, x := range raw {
		r := c.cm.DecodeByte(x)
		if r == utf8.RuneError {
			return "", &Error{Column: i + 1, Msg: fmt.Sprintf("byte 0x%02X has no character in %s: name the file's encoding", x, c.Name)}
		}
		b.WriteRune(r)
	}
	return b.String(), nil
}

// Encode returns s in the charset; a character it has no byte for is an
// error naming its column (from 1).
func (c Charset) Encode(s string) ([]byte, error) {
	if c.cm == nil {
		return []byte(s), nil
	}
	out := make([]byte, 0, len(s))
	col := 0
	for _, r := range s {
		col++
		b, ok := c.cm.EncodeRune(r)
		if !ok {
			return nil, fmt.Errorf("column %d: %q cannot be written in %s", col, r, c.Name)
		}
		out = append(out, b)
	}
	return out, nil
}

// ByteOffset returns the offset in raw of the character at column col
// (from 1) of a line in the charset: the column itself less one for a
// single-byte code page, the rune boundary in UTF-8; len(raw) past the end.
func (c Charset) ByteOffset(raw []byte, col int) int {
	if c.cm != nil {
		return min(col-1, len(raw))
	}
	off := 0
	for k := 1; k < col && off < len(raw); k++ {
		_, size := utf8.DecodeRune(raw[off:])
		off += size
	}
	return off
}

// Quote returns s quoted for an error message, cut to n characters with
// "…" so that a file read the wrong way is never pasted whole into a
// message.
func Quote(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return fmt.Sprintf("%q", s)
	}
	return fmt.Sprintf("%q…", string([]rune(s)[:n]))
}

// Cut returns s cut to n characters, with "…" if it was longer.
func Cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n]) + "…"
}
