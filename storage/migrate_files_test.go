package storage

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"log/slog"
	"path/filepath"
	"testing"

	"github.com/pressly/goose/v3"
)

// A hall that kept its files as text and let tournaments share a name
// comes through the migration to files kept as bytes and one tournament
// to a name: its files unchanged, the later namesakes renamed (and
// published again), a new namesake refused in any case.
func TestMigrationToFilesAsWrittenAndUniqueNames(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path, db, left := migratedBelow(t, 100)
	trfText := "012 Open\r001    1 m    Berzins, Arturs\r"
	for _, q := range []string{
		`INSERT INTO tournaments (id, name, config_json, created_ms) VALUES ('t-a', 'Open', '{}', 1), ('t-b', ' open ', '{}', 2), ('t-c', 'OPEN', '{}', 3), ('t-d', 'Blitz', '{}', 4)`,
		`INSERT INTO rounds (id, tournament_id, number, config_json, created_ms) VALUES ('r-1', 't-a', 1, '{}', 5)`,
		`INSERT INTO round_files (round_id, format, content, pairings, imported_ms) VALUES ('r-1', 'trf', '` + trfText + `', '1` + "\n" + `1 2` + "\n" + `', 6)`,
		`INSERT INTO round_byes (round_id, player_json, kind) VALUES ('r-1', '{}', 'H')`,
	} {
		if _, err := db.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	if n, err := migrate(ctx, db, slog.New(slog.DiscardHandler)); err != nil || n != left {
		t.Fatalf("migrate: %d, %v", n, err)
	}
	rows, err := db.QueryContext(ctx, `SELECT ref FROM outbox WHERE kind = 'tournament' ORDER BY id DESC LIMIT 2`)
	if err != nil {
		t.Fatal(err)
	}
	var refs []string
	for rows.Next() {
		var r string
		_ = rows.Scan(&r)
		refs = append(refs, r)
	}
	rows.Close()
	if len(refs) != 2 || refs[0] != "t-c" || refs[1] != "t-b" {
		t.Errorf("the renamed tournaments last in the outbox: %v, want t-b then t-c", refs)
	}
	db.Close()

	s := mustOpenAt(t, path, Options{})
	f, err := s.RoundFile(ctx, "r-1")
	if err != nil || !bytes.Equal(f.Content, []byte(trfText)) || string(f.Pairings) != "1\n1 2\n" || f.Encoding != "" || f.Format != "trf" {
		t.Errorf("round file after the migration = %+v, %v", f, err)
	}
	byes, err := s.Byes(ctx, "r-1")
	if err != nil || len(byes) != 1 || byes[0].Points != nil {
		t.Errorf("byes after the migration = %+v, %v; want one scored by the round", byes, err)
	}
	ts, err := s.Tournaments(ctx)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]string{}
	for _, tr := range ts {
		names[tr.ID] = tr.Name
	}
	want := map[string]string{"t-a": "Open", "t-b": "open (t-b)", "t-c": "OPEN (t-c)", "t-d": "Blitz"}
	for id, name := range want {
		if names[id] != name {
			t.Errorf("tournament %s is called %q, want %q", id, names[id], name)
		}
	}
	err = s.Write(ctx, func(tx *Tx) error { return tx.CreateTournament(&TournamentRecord{ID: "t-e", Name: "  bLITZ"}) })
	if !errors.Is(err, ErrDuplicate) || !bytes.Contains([]byte(err.Error()), []byte(`"bLITZ"`)) {
		t.Errorf("a second Blitz: %v, want ErrDuplicate naming it", err)
	}
}

// migratedBelow is a new database at a path of its own with every
// migration before version applied, as a hall that last ran before it
// kept it, and how many migrations are left to apply; the caller closes
// it.
func migratedBelow(t *testing.T, version int64) (path string, db *sql.DB, left int) {
	t.Helper()
	path = filepath.Join(t.TempDir(), "hall.db")
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	ms, err := schema()
	if err != nil {
		t.Fatal(err)
	}
	var before []sqlMigration
	for _, m := range ms {
		if m.version < version {
			before = append(before, m)
		}
	}
	p, err := goose.NewProvider(goose.DialectSQLite3, db, nil, goose.WithDisableGlobalRegistry(true), goose.WithGoMigrations(gooseMigrations(before)...))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Up(context.Background()); err != nil {
		t.Fatal(err)
	}
	return path, db, len(ms) - len(before)
}
