// Package pgncheck reads PGN the hall wrote with an independent reader,
// pgn-extract (Debian package pgn-extract), for tests: a file it reads
// without a complaint, game by game, with the tags and the moves it made
// of them. Tests skip, saying how to install it, when it is missing.
package pgncheck

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Game is a game as pgn-extract read it.
type Game struct {
	Tags  map[string]string
	Moves []string // SAN, as pgn-extract writes it
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
	prog := Program(t)
	file := filepath.Join(t.TempDir(), "games.pgn")
	if err := os.WriteFile(file, pgn, 0o600); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(prog, "--quiet", "--json", file)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("pgn-extract: %v\n%s", err, stderr.String())
	}
	if s := strings.TrimSpace(stderr.String()); s != "" {
		t.Fatalf("pgn-extract complains:\n%s\nof\n%s", s, pgn)
	}
	var raw []map[string]json.RawMessage
	if err := json.Unmarshal(stdout.Bytes(), &raw); err != nil {
		t.Fatalf("pgn-extract's JSON: %v\n%s", err, stdout.String())
	}
	var out []Game
	for _, r := range raw {
		g := Game{Tags: map[string]string{}}
		for k, v := range r {
			if k == "Moves" {
				var ms []struct {
					Move string `json:"move"`
				}
				if err := json.Unmarshal(v, &ms); err != nil {
					t.Fatalf("pgn-extract's moves: %v", err)
				}
				for _, m := range ms {
					g.Moves = append(g.Moves, m.Move)
				}
				continue
			}
			var s string
			if err := json.Unmarshal(v, &s); err == nil {
				g.Tags[k] = s
			}
		}
		out = append(out, g)
	}
	return out
}
