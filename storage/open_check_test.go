package storage

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chesshall/hallclock/internal/testkit/faultfs"
)

// A 0-byte hall.db holds no hall: Open refuses it, saying so, instead of
// starting a new hall (and a new chief token) over it; NewHall says to.
func TestOpenRefusesAnEmptyFile(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "hall.db")
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Open(context.Background(), path, Options{})
	if !errors.Is(err, ErrNoHall) || !strings.Contains(err.Error(), "empty (0 bytes)") {
		t.Fatalf("Open(empty file) = %v, want ErrNoHall saying it is empty", err)
	}
	if fi, _ := os.Stat(path); fi.Size() != 0 {
		t.Errorf("the refused file was written to (%d bytes)", fi.Size())
	}
	mustOpenAt(t, path, Options{NewHall: true})
}

// A SQLite database without the hall's tables is not a hall either.
func TestOpenRefusesAForeignDatabase(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "hall.db")
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`CREATE TABLE recipes (name TEXT)`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	_, err = Open(context.Background(), path, Options{})
	if !errors.Is(err, ErrNoHall) || !strings.Contains(err.Error(), "recipes") {
		t.Fatalf("Open(foreign database) = %v, want ErrNoHall naming its tables", err)
	}
}

// A file that is not SQLite at all is named as such.
func TestOpenRefusesGarbage(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "hall.db")
	if err := os.WriteFile(path, []byte(strings.Repeat("not a database ", 400)), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Open(context.Background(), path, Options{})
	if !errors.Is(err, ErrNotDatabase) {
		t.Fatalf("Open(garbage) = %v, want ErrNotDatabase", err)
	}
}

// A hall on a read-only file system says so, not "no such file or
// directory": whether the database is still to be created or is there.
func TestOpenSaysReadOnly(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name     string
		populate func(dir string)
	}{
		{"new hall", func(string) {}},
		{"existing hall", func(dir string) {
			s, err := Open(context.Background(), filepath.Join(dir, "hall.db"), Options{})
			if err != nil {
				t.Fatal(err)
			}
			s.Close()
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := faultfs.ReadOnly(t, c.populate)
			_, err := Open(context.Background(), filepath.Join(dir, "hall.db"), Options{})
			if !errors.Is(err, ErrNotWritable) {
				t.Fatalf("Open on a read-only directory = %v, want ErrNotWritable", err)
			}
			msg := err.Error()
			if strings.Contains(msg, "no such file") || !(strings.Contains(msg, "read-only file system") || strings.Contains(msg, "permission denied")) {
				t.Errorf("Open on a read-only directory says %q; want it to say read-only (or permission denied), not 'no such file'", msg)
			}
		})
	}
}

// A database deleted while its log stays is not silently replaced by a
// new hall.
func TestOpenRefusesANewHallOverAnotherHallsLog(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "hall.db")
	if err := os.WriteFile(path+"-wal", []byte("frames of another hall"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(context.Background(), path, Options{}); !errors.Is(err, ErrNoHall) {
		t.Fatalf("Open with a stray -wal = %v, want ErrNoHall", err)
	}
	mustOpenAt(t, path, Options{NewHall: true})
}
