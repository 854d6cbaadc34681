package halltest

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"sync"

	_ "github.com/mattn/go-sqlite3" // the store's driver, for freshen

	"github.com/chesshall/hallclock/storage"
)

// freshDB is the database file of a hall just created, made once per
// process by storage.Open (every migration, the way a new hall is made):
// a test hall on a fresh database starts from a copy of it instead of
// running the migrations again. Opening a new store costs ~25 ms (a
// commit per migration) under the race detector, a copy ~4 ms, and the
// server package alone starts a few hundred halls.
var freshDB = sync.OnceValues(func() ([]byte, error) {
	dir, err := os.MkdirTemp("", "halltest-fresh-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "hall.db")
	st, err := storage.Open(context.Background(), path, storage.Options{})
	if err != nil {
		return nil, err
	}
	// Closing the last connection checkpoints the log into the file.
	if err := st.Close(); err != nil {
		return nil, err
	}
	if _, err := os.Stat(path + "-wal"); err == nil {
		return nil, fmt.Errorf("halltest: the fresh database %s kept its log after Close", path)
	}
	return os.ReadFile(path)
})

// copyFresh writes a fresh hall's database at path, then gives it what
// the migrations give every new hall for itself: its own random id and
// its creation time (the same expressions as migration 00050).
func copyFresh(path string) error {
	b, err := freshDB()
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		return err
	}
	// A fixture not yet a hall's: no need to wait for the disk.
	db, err := sql.Open("sqlite3", "file:"+(&url.URL{Path: path}).EscapedPath()+"?_synchronous=OFF")
	if err != nil {
		return err
	}
	defer db.Close()
	_, err = db.Exec(`
UPDATE hall SET hall_id = 'hall-' || lower(hex(randomblob(4))),
    created_ms = CAST(unixepoch('subsec') * 1000 AS INTEGER);
UPDATE outbox SET created_ms = (SELECT created_ms FROM hall) WHERE kind = 'hall';`)
	return err
}
