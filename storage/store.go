package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	_ "github.com/mattn/go-sqlite3" // the "sqlite3" database/sql driver
)

// Options configure a Store. The zero value is usable.
type Options struct {
	// Now is the wall clock for the times the store fills in (created,
	// received). Default time.Now.
	Now func() time.Time
	// MaxBatch is the most Write functions grouped into one transaction.
	// Default 1000; 1 commits every Write on its own.
	MaxBatch int
	// CommitEvery is the least time between the starts of two commits:
	// under load the writes that arrive meanwhile share the next commit
	// (fewer fsyncs, far less CPU); a write after a quiet spell commits at
	// once. Default 4 ms; negative: commit whenever the writer is free.
	CommitEvery time.Duration
	// Logger receives commit failures and replay fallbacks. Default: discard.
	Logger *slog.Logger
	// NewHall lets Open start a new hall in an existing file that holds
	// none: an empty file, or a SQLite database without the hall's tables.
	// Without it such a file is refused (ErrNoHall): a new hall is started
	// only where there was no file. A missing file always starts one.
	NewHall bool
	// Reserve is the free space the store keeps on its file system
	// (space.go): below it the store is not ready, below half of it it
	// refuses writes. Default 64 MiB, at most a quarter of the file
	// system.
	Reserve uint64
	// StallAfter is how long the oldest write may wait for its commit
	// before Health says the store is stalled (stall.go): a disk that
	// does not answer. Default 3 s.
	StallAfter time.Duration
	// BeforeCommit, if set, runs on the writer before each commit: for
	// tests, one that blocks is a disk that does not answer.
	BeforeCommit func()
}

const (
	defaultMaxBatch    = 1000
	defaultCommitEvery = 4 * time.Millisecond
	readConns          = 4        // the read pool; SQLite readers are CPU-bound and the hall has few cores
	busyTimeoutMs      = 5000     // how long a connection waits for a lock held elsewhere
	stmtCacheSize      = 64       // prepared statements kept per connection
	writeCacheKiB      = 64 << 10 // the writer's page cache: the pages thousands of boards append to
)

// Store is the hall's durable event store: one SQLite database. Its
// methods are safe for concurrent use. See the package documentation.
type Store struct {
	path string
	now  func() time.Time
	log  *slog.Logger

	wdb *sql.DB // one connection, used by the writer goroutine (and migrations before it starts)
	rdb *sql.DB // read-only pool
	cdb *sql.DB // one connection, for checkpoints (checkpoint.go)

	cpStop, cpStopped chan struct{} // stop the checkpoints; closed once they stopped
	cpSoon            chan struct{} // a checkpoint now, not at the next tick (checkpointSoon)

	maxBatch    int
	commitEvery time.Duration
	reserve     uint64        // Options.Reserve
	stallAfter  time.Duration // Options.StallAfter
	preCommit   func()        // Options.BeforeCommit
	spaceShort  atomic.Bool   // below the reserve's floor since the whole reserve was last free (space.go)
	mu          sync.RWMutex  // guards closing queue against sends
	closing     bool
	queue       chan *request
	stopped     chan struct{} // closed when the writer goroutine has returned
	closed      atomic.Bool   // set once Close began; reads fail with ErrClosed

	closeOnce sync.Once
	closeErr  error

	// The writer's SAVEPOINT and RELEASE, prepared on its connection
	// (writer goroutine only; prepareSavepoints).
	savepointStmt, releaseStmt *sql.Stmt

	seqs       *seqCache     // the writer's knowledge of boards' and devices' logs (writer goroutine only)
	outboxWake chan struct{} // a signal after commits that added outbox rows
	recent     recentOutbox  // the newest event rows, for the publisher (outbox_recent.go)

	commits, writes atomic.Uint64
	health          health        // what the writer learned about committing (Health)
	healthWake      chan struct{} // HealthChanged

	migrated int // migrations applied by Open (for tests)
}

// Open opens the store in the SQLite database at path, creating the file
// and its directory if missing and bringing its schema up to date with the
// migrations embedded in the binary. It starts the writer goroutine; call
// Close to stop it.
func Open(ctx context.Context, path string, opts Options) (*Store, error) {
	if path == "" {
		return nil, errors.New("storage: empty database path")
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("storage: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
		return nil, fmt.Errorf("storage: %w", err)
	}
	existed, err := checkFile(abs, opts.NewHall)
	if err != nil {
		return nil, err
	}
	s := &Store{
		path:     abs,
		now:      opts.Now,
		log:      opts.Logger,
		maxBatch: opts.MaxBatch,
		stopped:  make(chan struct{}),
		seqs:     newSeqCache(),

		outboxWake: make(chan struct{}, 1),
		healthWake: make(chan struct{}, 1),
		stallAfter: opts.StallAfter,
		preCommit:  opts.BeforeCommit,
	}
	if s.stallAfter <= 0 {
		s.stallAfter = defaultStallAfter
	}
	if s.now == nil {
		s.now = time.Now
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.maxBatch <= 0 {
		s.maxBatch = defaultMaxBatch
	}
	if s.reserve = opts.Reserve; s.reserve == 0 {
		s.reserve = defaultReserve
	}
	s.spaceShort.Store(true) // a hall starts with its whole reserve free
	switch s.commitEvery = opts.CommitEvery; {
	case s.maxBatch == 1 || s.commitEvery < 0:
		s.commitEvery = 0
	case s.commitEvery == 0:
		s.commitEvery = defaultCommitEvery
	}

	// The write connection: WAL so readers never block it, and FULL so a
	// COMMIT returns only once the WAL is on disk; a page cache that holds
	// the boards' ends of the indexes; no checkpoints (checkpoint.go).
	s.wdb = openWithPragmas(abs, url.Values{
		"_journal_mode":    {"WAL"},
		"_synchronous":     {"FULL"},
		"_foreign_keys":    {"1"},
		"_busy_timeout":    {fmt.Sprint(busyTimeoutMs)},
		"_txlock":          {"immediate"},
		"_stmt_cache_size": {fmt.Sprint(stmtCacheSize)},
		"_cache_size":      {fmt.Sprint(-writeCacheKiB)},
	}, "wal_autocheckpoint = 0")
	s.wdb.SetMaxOpenConns(1)
	s.wdb.SetMaxIdleConns(1)
	s.wdb.SetConnMaxLifetime(0)
	if err := s.wdb.PingContext(ctx); err != nil {
		s.wdb.Close()
		return nil, openError(abs, err)
	}
	if existed {
		if err := checkHall(ctx, s.wdb, abs, opts.NewHall); err != nil {
			s.wdb.Close()
			return nil, err
		}
	}
	if s.migrated, err = migrate(ctx, s.wdb, s.log); err != nil {
		s.wdb.Close()
		return nil, fmt.Errorf("storage: migrate %s: %w", abs, err)
	}

	// The read pool: read-only connections; in WAL mode each query reads
	// the last committed state without waiting for the writer.
	s.rdb, err = sql.Open("sqlite3", dsn(abs, url.Values{
		"mode":             {"ro"},
		"_busy_timeout":    {fmt.Sprint(busyTimeoutMs)},
		"_stmt_cache_size": {fmt.Sprint(stmtCacheSize)},
	}))
	if err != nil {
		s.wdb.Close()
		return nil, fmt.Errorf("storage: open %s: %w", abs, err)
	}
	s.rdb.SetMaxOpenConns(readConns)
	s.rdb.SetMaxIdleConns(readConns)
	if err := s.rdb.PingContext(ctx); err != nil {
		s.rdb.Close()
		s.wdb.Close()
		return nil, fmt.Errorf("storage: open %s: %w", abs, err)
	}

	// The checkpoints' connection.
	s.cdb, err = sql.Open("sqlite3", dsn(abs, url.Values{
		"_synchronous":  {"FULL"},
		"_busy_timeout": {fmt.Sprint(busyTimeoutMs)},
	}))
	if err != nil {
		s.rdb.Close()
		s.wdb.Close()
		return nil, fmt.Errorf("storage: open %s: %w", abs, err)
	}
	s.cdb.SetMaxOpenConns(1)
	s.cdb.SetMaxIdleConns(1)

	s.queue = make(chan *request, s.maxBatch)
	s.cpStop, s.cpStopped, s.cpSoon = make(chan struct{}), make(chan struct{}), make(chan struct{}, 1)
	go s.run()
	go s.checkpoints()
	return s, nil
}

// dsn returns the go-sqlite3 data source name of the file at abs.
func dsn(abs string, params url.Values) string {
	u := url.URL{Path: abs} // escapes '?', '#' and '%' in the path; SQLite decodes them
	return "file:" + u.EscapedPath() + "?" + params.Encode()
}

// Path returns the absolute path of the database file.
func (s *Store) Path() string { return s.path }

// Close stops accepting writes, waits until the writer has committed
// everything already queued (their Write calls return as usual), stops the
// writer goroutine and closes the database. A Write after Close returns
// ErrClosed, and so does a read. Close is idempotent.
func (s *Store) Close() error {
	s.closeOnce.Do(func() {
		s.closed.Store(true)
		s.mu.Lock()
		s.closing = true
		close(s.queue)
		s.mu.Unlock()
		<-s.stopped
		close(s.cpStop)
		<-s.cpStopped
		// The writer's statements before its connection, which would
		// otherwise stay open, its WAL not checkpointed, until the
		// collector finalized them.
		for _, st := range []*sql.Stmt{s.savepointStmt, s.releaseStmt} {
			if st != nil {
				st.Close()
			}
		}
		// Readers first, so that closing the writer's connection, the last
		// one, checkpoints the WAL into the database file.
		s.closeErr = errors.Join(s.cdb.Close(), s.rdb.Close(), s.wdb.Close())
	})
	return s.closeErr
}

// Stats returns how many transactions the writer committed and how many
// Write functions it ran (committed or not). writes/commits is the
// average group size.
func (s *Store) Stats() (commits, writes uint64) {
	return s.commits.Load(), s.writes.Load()
}

// wallMs returns t as Unix milliseconds, or now if t is zero.
func (s *Store) wallMs(t time.Time) int64 {
	if t.IsZero() {
		t = s.now()
	}
	return t.UnixMilli()
}

// fromMs turns stored Unix milliseconds back into a time.
func fromMs(ms int64) time.Time { return time.UnixMilli(ms).UTC() }

// fromNullMs turns a nullable column into a time, zero for NULL.
func fromNullMs(ms sql.NullInt64) time.Time {
	if !ms.Valid {
		return time.Time{}
	}
	return fromMs(ms.Int64)
}

// nullMs stores a zero time as NULL.
func nullMs(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t.UnixMilli()
}

// nullString stores "" as NULL.
func nullString(s string) any {
	if s == "" {
		return nil
	}
	return s
}
