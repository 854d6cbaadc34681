package server_test

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"reflect"
	"regexp"
	"testing"

	_ "github.com/mattn/go-sqlite3"

	"github.com/chesshall/hallclock/internal/testkit/halltest"
	"github.com/chesshall/hallclock/storage"
)

// TestTestHallsStartAsANewHall: halltest starts a hall from a copy of a
// database storage.Open made, not by migrating each one; the copy must be
// what a new hall gets — the same schema, versions and rows as a store
// opened on an empty file, and a hall id of its own.
func TestTestHallsStartAsANewHall(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "new.db")
	st, err := storage.Open(context.Background(), path, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	want := describeDB(t, path)

	a, b := halltest.Start(t), halltest.Start(t)
	ids := map[string]bool{want.hallID: true}
	for _, h := range []*halltest.Hall{a, b} {
		h.Restart(t) // a closed store, its log checkpointed: the file alone
		got := describeDB(t, h.DBPath)
		if !reflect.DeepEqual(got.schema, want.schema) {
			t.Errorf("a test hall's schema differs from a new hall's:\n got %q\nwant %q", got.schema, want.schema)
		}
		if !reflect.DeepEqual(got.versions, want.versions) {
			t.Errorf("a test hall's migrations %v, a new hall's %v", got.versions, want.versions)
		}
		if !regexp.MustCompile(`^hall-[0-9a-f]{8}$`).MatchString(got.hallID) || ids[got.hallID] {
			t.Errorf("a test hall's id %q: want hall- and 8 hex digits, not another hall's (%v)", got.hallID, ids)
		}
		ids[got.hallID] = true
	}
}

type dbDescription struct {
	schema   []string // sqlite_master, one "type name: sql" each
	versions []int64  // goose's applied versions
	hallID   string
}

func describeDB(t *testing.T, path string) dbDescription {
	t.Helper()
	db, err := sql.Open("sqlite3", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var d dbDescription
	rows, err := db.Query(`SELECT type, name, coalesce(sql, '') FROM sqlite_master ORDER BY type, name`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var typ, name, text string
		if err := rows.Scan(&typ, &name, &text); err != nil {
			t.Fatal(err)
		}
		d.schema = append(d.schema, fmt.Sprintf("%s %s: %s", typ, name, text))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	rows, err = db.Query(`SELECT version_id FROM goose_db_version WHERE is_applied ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var v int64
		if err := rows.Scan(&v); err != nil {
			t.Fatal(err)
		}
		d.versions = append(d.versions, v)
	}
	if err := db.QueryRow(`SELECT hall_id FROM hall`).Scan(&d.hallID); err != nil {
		t.Fatal(err)
	}
	return d
}
