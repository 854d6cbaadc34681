package storage

import (
	"context"
	"log/slog"
	"reflect"
	"testing"
)

// Audit rows written before kinds come through the migration with their
// English words as the kind "text" (a refusal's reason, an alert's words,
// without "refused: " or "alert: "); a row that says nothing more than
// applied has no kind. A row written now keeps its kind and parameters.
func TestMigrationKeepsOldAuditWordsAsText(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path, db, _ := migratedBelow(t, 170)
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
