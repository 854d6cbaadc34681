package storage

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"io/fs"
	"log/slog"

	"github.com/pressly/goose/v3"
)

// migrations holds the schema, one goose SQL file per version
// (migrations/NNNNN_name.sql with "-- +goose Up" and "-- +goose Down").
// Add a file to change the schema; never edit one that has shipped.
//
//go:embed migrations/*.sql
var migrations embed.FS

// migrate brings db's schema up to date and returns how many migrations
// it applied. It refuses a database whose schema is newer than this binary.
func migrate(ctx context.Context, db *sql.DB, log *slog.Logger) (int, error) {
	fsys, err := fs.Sub(migrations, "migrations")
	if err != nil {
		return 0, err
	}
	p, err := goose.NewProvider(goose.DialectSQLite3, db, fsys,
		goose.WithDisableGlobalRegistry(true))
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
		log.Info("storage: migrated", "version", r.Source.Version, "file", r.Source.Path, "duration", r.Duration)
	}
	return len(results), nil
}
