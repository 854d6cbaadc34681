package i18n

import (
	"strings"
	"unicode"
)

// A small JavaScript lexer, enough to find the string literals a page's
// script shows to people (see pagescan_test.go for the rule).

type tok struct {
	kind byte // 's' string (quoted or a template's text), 'i' identifier, 'p' punctuation
	text string
	line int
}

// lexJS splits src into identifiers, punctuation and strings; comments
// and regular expression literals are dropped. A template literal's text
// parts are strings; its ${…} expressions are lexed as code.
func lexJS(src string) []tok {
	var out []tok
	line := 1
	i := 0
	var tmplDepth []int // brace depth at which each open template's ${ began
	depth := 0
	regexOK := func() bool {
		if len(out) == 0 {
			return true
		}
		p := out[len(out)-1]
		if p.kind == 'p' {
			return !strings.Contains(")]}", p.text)
		}
		return p.kind == 'i' && (p.text == "return" || p.text == "typeof" || p.text == "case")
	}
	readTemplate := func() {
		// i is just after ` or after the } closing a ${…}
		var b strings.Builder
		for i < len(src) {
			c := src[i]
			if c == '\\' && i+1 < len(src) {
				b.WriteString(unescape(src[i+1]))
				i += 2
				continue
			}
			if c == '`' {
				i++
				out = append(out, tok{'s', b.String(), line})
				return
			}
			if c == '$' && i+1 < len(src) && src[i+1] == '{' {
				i += 2
				out = append(out, tok{'s', b.String(), line})
				out = append(out, tok{'p', "(", line}) // an expression inside text
				tmplDepth = append(tmplDepth, depth)
				depth++
				return
			}
			if c == '\n' {
				line++
			}
			b.WriteByte(c)
			i++
		}
	}
	for i < len(src) {
		c := src[i]
		switch {
		case c == '\n':
			line++
			i++
		case c == ' ' || c == '\t' || c == '\r':
			i++
		case strings.HasPrefix(src[i:], "//"):
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case strings.HasPrefix(src[i:], "/*"):
			end := strings.Index(src[i+2:], "*/")
			if end < 0 {
				return out
			}
			line += strings.Count(src[i:i+2+end], "\n")
			i += end + 4
		case c == '"' || c == '\'':
			q := c
			i++
			var b strings.Builder
			for i < len(src) && src[i] != q && src[i] != '\n' {
				if src[i] == '\\' && i+1 < len(src) {
					b.WriteString(unescape(src[i+1]))
					i += 2
					continue
				}
				b.WriteByte(src[i])
				i++
			}
			i++
			out = append(out, tok{'s', b.String(), line})
		case c == '`':
			i++
			readTemplate()
		case c == '/' && regexOK():
			i++
			inClass := false
			for i < len(src) && src[i] != '\n' {
				if src[i] == '\\' {
					i += 2
					continue
				}
				if src[i] == '[' {
					inClass = true
				} else if src[i] == ']' {
					inClass = false
				} else if src[i] == '/' && !inClass {
					i++
					break
				}
				i++
			}
			for i < len(src) && (unicode.IsLetter(rune(src[i]))) {
				i++
			}
		case c == '_' || c == '$' || unicode.IsLetter(rune(c)) || unicode.IsDigit(rune(c)):
			j := i
			for j < len(src) && (src[j] == '_' || src[j] == '$' || src[j] == '.' && j > i && unicode.IsDigit(rune(src[i])) ||
				unicode.IsLetter(rune(src[j])) || unicode.IsDigit(rune(src[j]))) {
				j++
			}
			out = append(out, tok{'i', src[i:j], line})
			i = j
		default:
			if c == '{' {
				depth++
			}
			if c == '}' {
				depth--
				if n := len(tmplDepth); n > 0 && tmplDepth[n-1] == depth {
					tmplDepth = tmplDepth[:n-1]
					i++
					out = append(out, tok{'p', ")", line})
					readTemplate()
					continue
				}
			}
			// two- and three-character operators matter only as "not an
			// assignment": keep = apart from ==, =>, <=, >=, !=, +=.
			for _, op := range []string{"===", "!==", "==", "!=", "<=", ">=", "=>", "+=", "&&", "||", "??", "?."} {
				if strings.HasPrefix(src[i:], op) {
					out = append(out, tok{'p', op, line})
					i += len(op)
					goto next
				}
			}
			out = append(out, tok{'p', string(c), line})
			i++
		next:
		}
	}
	return out
}

// unescape is the character an escape \c stands for (\n, \t: white space).
func unescape(c byte) string {
	switch c {
	case 'n':
		return "\n"
	case 't':
		return "\t"
	case 'r':
		return "\r"
	}
	return string(c)
}
