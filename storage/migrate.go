package storage

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"io/fs"
	"log/slog"
	"path"
	"strconv"
	"strings"
	"sync"

	"github.com/pressly/goose/v3"
)

// migrations holds the schema, one goose SQL file per version
// (migrations/NNNNN_name.sql with "-- +goose Up" and "-- +goose Down").
// Add a file to change the schema; never edit one that has shipped.
//
//go:embed migrations/*.sql
var migrations embed.FS

// schema is the migrations read once per process. goose records versions
// and runs each migration in its transaction; the files are handed to it
// as Go migrations that execute their Up section (SQLite runs a script of
// many statements, triggers included, in one Exec), because goose's own
// SQL parser allocates a large buffer per line, which under the race
// detector made every Open cost ~150 ms of CPU.
var schema = sync.OnceValues(func() ([]sqlMigration, error) { return readMigrations(migrations) })

// sqlMigration is one file's version and its two sections.
type sqlMigration struct {
	version  int64
	up, down string
}

// gooseMigrations returns fresh goose migrations for ms (goose keeps
// state in them, so a Provider gets its own).
func gooseMigrations(ms []sqlMigration) []*goose.Migration {
	out := make([]*goose.Migration, len(ms))
	for i, m := range ms {
		out[i] = goose.NewGoMigration(m.version, execTx(m.up), execTx(m.down))
	}
	return out
}

// readMigrations reads each NNNNN_name.sql file of fsys's migrations
// directory as the migration of version NNNNN.
func readMigrations(fsys fs.FS) ([]sqlMigration, error) {
	files, err := fs.Glob(fsys, "migrations/*.sql")
	if err != nil {
		return nil, err
	}
	var out []sqlMigration
	for _, f := range files {
		b, err := fs.ReadFile(fsys, f)
		if err != nil {
			return nil, err
		}
		name := path.Base(f)
		num, _, ok := strings.Cut(name, "_")
		version, err := strconv.ParseInt(num, 10, 64)
		if !ok || err != nil || version < 1 {
			return nil, fmt.Errorf("migration %s: the name must start with a positive version number and '_'", name)
		}
		up, down, err := splitMigration(string(b))
		if err != nil {
			return nil, fmt.Errorf("migration %s: %w", name, err)
		}
		out = append(out, sqlMigration{version, up, down})
	}
	return out, nil
}

// splitMigration returns the Up and Down sections of a goose SQL file:
// exactly one "-- +goose Up" line followed by exactly one "-- +goose
// Down" line. StatementBegin/End markers are comments to SQLite.
func splitMigration(text string) (up, down string, err error) {
	var sections [2]strings.Builder
	cur := -1
	for line := range strings.Lines(text) {
		switch t := strings.TrimSpace(line); {
		case t == "-- +goose Up":
			if cur != -1 {
				return "", "", fmt.Errorf("'-- +goose Up' must come once, first")
			}
			cur = 0
		case t == "-- +goose Down":
			if cur != 0 {
				return "", "", fmt.Errorf("'-- +goose Down' must come once, after '-- +goose Up'")
			}
			cur = 1
		case strings.HasPrefix(t, "-- +goose") && !strings.HasPrefix(t, "-- +goose Statement"):
			return "", "", fmt.Errorf("annotation %q is not supported (Up, Down, StatementBegin/End are)", t)
		default:
			if cur >= 0 {
				sections[cur].WriteString(line)
			}
		}
	}
	if cur != 1 {
		return "", "", fmt.Errorf("it needs a '-- +goose Up' and a '-- +goose Down' line")
	}
	return sections[0].String(), sections[1].String(), nil
}

func execTx(script string) *goose.GoFunc {
	return &goose.GoFunc{RunTx: func(ctx context.Context, tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, script)
		return err
	}}
}

// migrate brings db's schema up to date and returns how many migrations
// it applied. It refuses a database whose schema is newer than this binary.
func migrate(ctx context.Context, db *sql.DB, log *slog.Logger) (int, error) {
	ms, err := schema()
	if err != nil {
		return 0, err
	}
	p, err := goose.NewProvider(goose.DialectSQLite3, db, nil,
		goose.WithDisableGlobalRegistry(true), goose.WithGoMigrations(gooseMigrations(ms)...))
	if err != nil {
		return 0, err
	}
	// Not p.Close: it would close db.
	current, target, err := p.GetVersions(ctx)
	if err != nil {
		return 0, err
	}
	if current > target {
		return 0, fmt.Errorf("the database's schema version %d is newer than this program's (%d)", current, target)
	}
	results, err := p.Up(ctx)
	if err != nil {
		return 0, err
	}
	for _, r := range results {
		log.Info("storage: migrated", "version", r.Source.Version, "duration", r.Duration)
	}
	return len(results), nil
}
