package storage

import (
	"context"
	"database/sql"
	"io/fs"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/pressly/goose/v3"
)

// The schema our reader of the migration files builds is the one goose's
// own SQL reader builds from the same files: same tables, indexes and
// triggers, same text, same recorded versions.
func TestMigrationsMatchGooseReadingThem(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	schemaOf := func(db *sql.DB) string {
		t.Helper()
		rows, err := db.QueryContext(ctx, `SELECT type, name, COALESCE(sql, '') FROM sqlite_master ORDER BY type, name`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var b strings.Builder
		for rows.Next() {
			var typ, name, text string
			if err := rows.Scan(&typ, &name, &text); err != nil {
				t.Fatal(err)
			}
			b.WriteString(typ + " " + name + ": " + text + "\n")
		}
		var versions string
		if err := db.QueryRowContext(ctx, `SELECT group_concat(version_id) FROM (SELECT version_id FROM goose_db_version ORDER BY version_id)`).Scan(&versions); err != nil {
			t.Fatal(err)
		}
		return b.String() + "versions " + versions
	}
	open := func(name string) *sql.DB {
		db, err := sql.Open("sqlite3", filepath.Join(t.TempDir(), name))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	}

	ours := open("ours.db")
	n, err := migrate(ctx, ours, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	files, _ := fs.Glob(migrations, "migrations/*.sql")
	if n != len(files) || n == 0 {
		t.Fatalf("applied %d migrations, want one per file (%d)", n, len(files))
	}

	theirs := open("goose.db")
	sub, _ := fs.Sub(migrations, "migrations")
	p, err := goose.NewProvider(goose.DialectSQLite3, theirs, sub, goose.WithDisableGlobalRegistry(true))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Up(ctx); err != nil {
		t.Fatal(err)
	}
	a, b := schemaOf(ours), schemaOf(theirs)
	if a != b {
		t.Fatalf("schemas differ:\nours:\n%s\ngoose's:\n%s", a, b)
	}
	if !strings.Contains(a, "table events") {
		t.Fatalf("no events table in the schema:\n%s", a)
	}

	// Up to date: a second run applies nothing.
	if n, err := migrate(ctx, ours, slog.New(slog.DiscardHandler)); err != nil || n != 0 {
		t.Fatalf("second run applied %d (%v), want 0", n, err)
	}
}

func TestMigrationFilesThatAreRefused(t *testing.T) {
	t.Parallel()
	for name, text := range map[string]string{
		"00001_no_down.sql":    "-- +goose Up\nCREATE TABLE a (x);\n",
		"00001_down_first.sql": "-- +goose Down\nDROP TABLE a;\n-- +goose Up\nCREATE TABLE a (x);\n",
		"00001_two_ups.sql":    "-- +goose Up\nCREATE TABLE a (x);\n-- +goose Up\n-- +goose Down\n",
		"00001_no_tx.sql":      "-- +goose NO TRANSACTION\n-- +goose Up\nCREATE TABLE a (x);\n-- +goose Down\n",
		"x_unnumbered.sql":     "-- +goose Up\n-- +goose Down\n",
	} {
		_, err := readMigrations(fstest.MapFS{"migrations/" + name: {Data: []byte(text)}})
		if err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("%s: got %v, want an error naming the file", name, err)
		}
	}
	ms, err := readMigrations(fstest.MapFS{"migrations/00007_ok.sql": {Data: []byte(
		"-- a comment\n-- +goose Up\n-- +goose StatementBegin\nCREATE TABLE a (x);\n-- +goose StatementEnd\n-- +goose Down\nDROP TABLE a;\n")}})
	if err != nil || len(ms) != 1 || ms[0].version != 7 || !strings.Contains(ms[0].up, "CREATE TABLE a") ||
		strings.Contains(ms[0].up, "DROP") || !strings.Contains(ms[0].down, "DROP TABLE a") {
		t.Fatalf("got %+v, %v", ms, err)
	}
}
