package storage

import (
	"context"
	"database/sql"
	"log/slog"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/pressly/goose/v3"
)

// Audit rows written before kinds come through the migration with their
// English words as the kind "text" (a refusal's reason, an alert's words,
// without "refused: " or "alert: "); a row that says nothing more than
// applied has no kind. A row written now keeps its kind and parameters.
func TestMigrationKeepsOldAuditWordsAsText(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "hall.db")
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
		if m.version < 170 {
			before = append(before, m)
		}
	}
	p, err := goose.NewProvider(goose.DialectSQLite3, db, nil, goose.WithDisableGlobalRegistry(true), goose.WithGoMigrations(gooseMigrations(before)...))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Up(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ExecContext(ctx, `INSERT INTO audit (board_id, wall_ms, actor, what, outcome) VALUES
		('b1', 1, 'arbiter:Anna', 'add_time white +60000ms', 'refused: add_time refused: the clock must be stopped first (FIDE 2023 Art. 6.10.2)'),
		('b1', 2, 'server', 'display check', 'alert: device CLK-1 shows white 1 ms'),
		('b1', 3, 'arbiter:Anna', 'pause', 'applied')`); err != nil {
		t.Fatal(err)
	}
	if _, err := migrate(ctx, db, slog.New(slog.DiscardHandler)); err != nil {
		t.Fatal(err)
	}
	db.Close()

	s := mustOpenAt(t, path, Options{})
	mustWrite(t, s, func(tx *Tx) error {
		return tx.AddAudit(&AuditRecord{BoardID: "b1", Actor: "arbiter:Anna", What: "pause", Outcome: OutcomeRefused("x"),
			Kind: "refused.game_over", Params: map[string]string{"event": "pause", "text": "x"}})
	})
	mustWrite(t, s, func(tx *Tx) error {
		return tx.AddAudit(&AuditRecord{BoardID: "b1", Actor: "server", What: "restore", Outcome: OutcomeAlert("the backup is older")})
	})
	recs, err := s.Audit(ctx, "b1", 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		kind   string
		params map[string]string
	}{
		{"text", map[string]string{"text": "add_time refused: the clock must be stopped first (FIDE 2023 Art. 6.10.2)"}},
		{"text", map[string]string{"text": "device CLK-1 shows white 1 ms"}},
		{"", nil},
		{"refused.game_over", map[string]string{"event": "pause", "text": "x"}},
		{"text", map[string]string{"text": "the backup is older"}}, // written without a kind
	}
	if len(recs) != len(want) {
		t.Fatalf("%d rows, want %d", len(recs), len(want))
	}
	for i, w := range want {
		if recs[i].Kind != w.kind || !reflect.DeepEqual(recs[i].Params, w.params) {
			t.Errorf("row %d (%q): kind %q params %v, want %q %v", i+1, recs[i].Outcome, recs[i].Kind, recs[i].Params, w.kind, w.params)
		}
	}
}
