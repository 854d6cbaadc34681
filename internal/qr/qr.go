// Package qr draws a text (a sign-in link) as a QR code a phone's camera
// reads: as an SVG image for the web pages (drawn by the server, so the
// page loads no script from elsewhere) and as text for a terminal. The
// encoding is github.com/skip2/go-qrcode's (ISO/IEC 18004), at error
// correction level M.
//
// # Usage
//
//	svg, err := qr.SVG("https://hall.local:7080/signin?code=sc_...")
//	txt, err := qr.Terminal(link)
package qr

import (
	"fmt"
	"strings"

	qrcode "github.com/skip2/go-qrcode"
)

// Modules returns the code's modules, true for dark, row by row, with the
// four-module quiet zone around it that readers need.
func Modules(text string) ([][]bool, error) {
	q, err := qrcode.New(text, qrcode.Medium)
	if err != nil {
		return nil, fmt.Errorf("qr code of %d bytes: %w", len(text), err)
	}
	return q.Bitmap(), nil
}

// SVG returns the code as an SVG image, one module per user unit, dark on
// white, scaled to whatever size the page gives it (crisp edges).
func SVG(text string) (string, error) {
	m, err := Modules(text)
	if err != nil {
		return "", err
	}
	n := len(m)
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" shape-rendering="crispEdges" role="img" aria-label="QR code of the link">`, n, n)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="#fff"/><path fill="#000" d="`, n, n)
	for y, row := range m {
		for x := 0; x < len(row); {
			if !row[x] {
				x++
				continue
			}
			run := 0
			for x+run < len(row) && row[x+run] {
				run++
			}
			fmt.Fprintf(&b, "M%d %dh%dv1h-%dz", x, y, run, run)
			x += run
		}
	}
	b.WriteString(`"/></svg>`)
	return b.String(), nil
}

// Terminal returns the code as lines of text, two rows of modules per
// line (the half-block characters ▀ ▄ █), dark on a light terminal's
// background shown as spaces; print it on a light background, or invert
// the terminal's colours if a camera does not read it.
func Terminal(text string) (string, error) {
	m, err := Modules(text)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for y := 0; y < len(m); y += 2 {
		for x := range m[y] {
			top, bottom := m[y][x], y+1 < len(m) && m[y+1][x]
			switch {
			case top && bottom:
				b.WriteString("█")
			case top:
				b.WriteString("▀")
			case bottom:
				b.WriteString("▄")
			default:
				b.WriteString(" ")
			}
		}
		b.WriteString("\n")
	}
	return b.String(), nil
}
