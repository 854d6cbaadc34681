package qr

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
)

const link = "https://hall.local:7080/signin?code=sc_rRZCHCqLKUjEIwFBs3B2nbZG"

// The SVG draws exactly the code's dark modules: its path, read back into
// a grid, is the bitmap of the link (so the image is the link's code and
// nothing else).
func TestSVGDrawsTheLinksModules(t *testing.T) {
	want, err := Modules(link)
	if err != nil {
		t.Fatal(err)
	}
	svg, err := SVG(link)
	if err != nil {
		t.Fatal(err)
	}
	n := len(want)
	if !strings.Contains(svg, `viewBox="0 0 `+strconv.Itoa(n)+" "+strconv.Itoa(n)+`"`) {
		t.Fatalf("SVG's viewBox is not the code's %d modules: %.200s", n, svg)
	}
	got := make([][]bool, n)
	for i := range got {
		got[i] = make([]bool, n)
	}
	for _, m := range regexp.MustCompile(`M(\d+) (\d+)h(\d+)v1h-(\d+)z`).FindAllStringSubmatch(svg, -1) {
		x, _ := strconv.Atoi(m[1])
		y, _ := strconv.Atoi(m[2])
		run, _ := strconv.Atoi(m[3])
		for i := range run {
			got[y][x+i] = true
		}
	}
	for y := range want {
		for x := range want[y] {
			if got[y][x] != want[y][x] {
				t.Fatalf("module (%d,%d): SVG dark %v, code dark %v", x, y, got[y][x], want[y][x])
			}
		}
	}
	// Another link is another code.
	other, _ := SVG(link + "x")
	if other == svg {
		t.Errorf("two links drew the same image")
	}
}

// The terminal's drawing holds two rows of modules per line.
func TestTerminalHalvesTheRows(t *testing.T) {
	m, _ := Modules(link)
	txt, err := Terminal(link)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(txt, "\n"), "\n")
	if len(lines) != (len(m)+1)/2 {
		t.Errorf("%d lines for %d rows of modules, want %d", len(lines), len(m), (len(m)+1)/2)
	}
	for y, l := range lines {
		for x, r := range []rune(l) {
			top, bottom := m[2*y][x], 2*y+1 < len(m) && m[2*y+1][x]
			want := map[[2]bool]rune{{true, true}: '█', {true, false}: '▀', {false, true}: '▄', {false, false}: ' '}[[2]bool{top, bottom}]
			if r != want {
				t.Fatalf("line %d column %d = %q, want %q", y, x, r, want)
			}
		}
	}
}
