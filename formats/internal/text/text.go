// Package text decodes the text files that tournament programs write:
// UTF-8 when it is valid UTF-8 (a byte-order mark dropped), ISO 8859-1
// otherwise, as older Windows programs save them.
package text

import (
	"strings"
	"unicode/utf8"
)

// Decode returns data as text.
func Decode(data []byte) string {
	if utf8.Valid(data) {
		return strings.TrimPrefix(string(data), "\ufeff")
	}
	var b strings.Builder
	b.Grow(len(data))
	for _, c := range data {
		b.WriteRune(rune(c))
	}
	return b.String()
}
