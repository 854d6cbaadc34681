// Package pgncheck reads PGN the hall wrote with an independent reader,
// pgn-extract (Debian package pgn-extract), for tests: a file it reads
// without a complaint, game by game, with the tags and the moves it made
// of them. Tests skip, saying how to install it, when it is missing.
package pgncheck

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Game is a game as pgn-extract read it.
type Game struct {
	Tags  map[string]string
	Moves []string // SAN, as pgn-extract writes it
	// Comments holds, for each move, the comments pgn-extract wrote after
	// it (joined by a space; "" if none). ReadWithComments only.
	Comments []string
}

// Program returns pgn-extract's path, or skips the test.
func Program(t testing.TB) string {
	t.Helper()
	for _, p := range []string{"/usr/games/pgn-extract", "pgn-extract"} {
		if path, err := exec.LookPath(p); err == nil {
			return path
		}
	}
	t.Skip("pgn-extract is not installed (apt-get install pgn-extract): the PGN is not checked by an independent reader")
	return ""
}

// Read has pgn-extract read the PGN and fails the test if it reports
// anything (an illegal move, a malformed tag, a missing result).
func Read(t testing.TB, pgn []byte) []Game {
	t.Helper()
	return read(t, pgn, false)
}

// ReadWithComments is Read keeping the comments after each move (clock
// comments such as [%clk 0:01:58] among them), as pgn-extract wrote them
// back.
func ReadWithComments(t testing.TB, pgn []byte) []Game {
	t.Helper()
	return read(t, pgn, true)
}

func read(t testing.TB, pgn []byte, comments bool) []Game {
	t.Helper()
	prog := Program(t)
	file := filepath.Join(t.TempDir(), "games.pgn")
	if err := os.WriteFile(file, pgn, 0o600); err != nil {
		t.Fatal(err)
	}
	// pgn-extract writes the games again, without comments, NAGs or
	// variations, each game's moves on one line; its JSON output is not
	// used: it breaks long games (v19).
	var stdout, stderr bytes.Buffer
	args := []string{"--quiet", "-C", "-N", "-V", "-w100000", "-Wsan", file}
	if comments {
		args = append(args[:1], args[2:]...)
	}
	cmd := exec.Command(prog, args...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("pgn-extract: %v\n%s", err, stderr.String())
	}
	if s := strings.TrimSpace(stderr.String()); s != "" {
		t.Fatalf("pgn-extract complains:\n%s\nof\n%s", s, pgn)
	}
	var out []Game
	var g *Game
	for _, line := range strings.Split(stdout.String(), "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "":
		case strings.HasPrefix(line, "["):
			if g == nil {
				out = append(out, Game{Tags: map[string]string{}})
				g = &out[len(out)-1]
			}
			name, value, ok := strings.Cut(strings.TrimSuffix(strings.TrimPrefix(line, "["), "]"), " ")
			if !ok {
				t.Fatalf("pgn-extract wrote the tag %q", line)
			}
			v, err := strconv.Unquote(value)
			if err != nil {
				t.Fatalf("pgn-extract wrote the tag %q: %v", line, err)
			}
			g.Tags[name] = v
		default:
			if g == nil {
				t.Fatalf("pgn-extract wrote moves without tags: %q", line)
			}
			for _, w := range movetext(line) {
				switch {
				case strings.HasPrefix(w, "{"):
					if len(g.Moves) > 0 {
						c := &g.Comments[len(g.Moves)-1]
						*c = strings.TrimSpace(*c + " " + strings.TrimSpace(strings.Trim(w, "{}")))
					}
				case w == "1-0" || w == "0-1" || w == "1/2-1/2" || w == "*" || strings.HasSuffix(w, "."):
				default:
					g.Moves = append(g.Moves, w)
					g.Comments = append(g.Comments, "")
				}
			}
			g = nil
		}
	}
	return out
}

// movetext splits a line of movetext into words and whole comments.
func movetext(line string) []string {
	var out []string
	for line != "" {
		line = strings.TrimLeft(line, " \t")
		if line == "" {
			break
		}
		end := strings.IndexAny(line, " \t")
		if line[0] == '{' {
			end = strings.IndexByte(line, '}') + 1
		}
		if end <= 0 {
			end = len(line)
		}
		out = append(out, line[:end])
		line = line[end:]
	}
	return out
}

// Plies says how far each game of a PGN document the hall wrote is, in
// document order, without a reader: its moves (counted by their [%clk]
// comments), and one more once it has a result. A broadcast that only
// moves forward never shows a game with fewer.
func Plies(doc string) []int {
	var out []int
	for _, g := range strings.Split(doc, "[Event ")[1:] {
		n := 2 * strings.Count(g, "[%clk")
		if !strings.Contains(g, `[Result "*"]`) {
			n++
		}
		out = append(out, n)
	}
	return out
}
