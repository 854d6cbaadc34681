package storage

import (
	"database/sql"
)

// stmtCache keeps the writer's statements prepared. Preparing an INSERT
// costs SQLite about as much as running it, and every press runs three
// (the event, its outbox row, the device's sequence number) plus the
// savepoint around them: under load the writer would spend a third of
// its time parsing the same few texts. It lives on the writer goroutine.
//
// Statements are prepared once on the writer's database (one connection)
// and bound to each batch's transaction, which database/sql does without
// preparing again; the bound ones are closed with the transaction.
type stmtCache struct {
	prepared map[string]*sql.Stmt // on wdb
	bound    map[string]*sql.Stmt // on the batch's transaction
	tx       *sql.Tx              // the transaction bound holds statements of
	wanted   map[string]bool      // to prepare before the next batch
}

// maxStmts bounds the cache: the texts are the package's constants, but
// a text built at run time must not make it grow without end.
const maxStmts = 64

func newStmtCache() *stmtCache {
	return &stmtCache{prepared: map[string]*sql.Stmt{}, bound: map[string]*sql.Stmt{}, wanted: map[string]bool{}}
}

// stmt returns query prepared and bound to tx, or nil if it cannot be
// (the caller runs the text as it is; an error in it shows there).
func (c *stmtCache) stmt(tx *sql.Tx, query string) *sql.Stmt {
	if c.tx != tx {
		clear(c.bound)
		c.tx = tx
	}
	if st := c.bound[query]; st != nil {
		return st
	}
	p, known := c.prepared[query]
	if known && p == nil {
		return nil // does not prepare
	}
	if p == nil {
		// Prepared between batches: the writer's one connection is the
		// transaction's until it ends.
		if len(c.prepared)+len(c.wanted) < maxStmts {
			c.wanted[query] = true
		}
		return nil
	}
	st := tx.StmtContext(txCtx, p)
	c.bound[query] = st
	return st
}

// prepare prepares the statements run since the last call; no
// transaction may be open on db. A text that does not prepare is
// not asked again.
func (c *stmtCache) prepare(db *sql.DB) {
	for q := range c.wanted {
		p, err := db.PrepareContext(txCtx, q)
		if err != nil {
			p = nil
		}
		c.prepared[q] = p
	}
	clear(c.wanted)
}

// close closes the prepared statements (before the database).
func (c *stmtCache) close() {
	for _, p := range c.prepared {
		if p != nil {
			_ = p.Close()
		}
	}
	clear(c.prepared)
	clear(c.bound)
	c.tx = nil
}
