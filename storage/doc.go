// Package storage is the hall's durable event store: one SQLite database
// (github.com/mattn/go-sqlite3) holding every board's event log, the
// tournaments, rounds and boards, the audit log, arbiter commands,
// credentials and devices.
//
// Each board's log of [rules.Event]s is the truth. A board's state is
// the fold of its log with rules.Apply ([Store.Replay]); snapshots are a
// cache of it. Nothing is acknowledged before it is durable: a write
// returns only after its transaction has committed.
//
// # Usage
//
// Open the store once, at startup, and close it at shutdown:
//
//	st, err := storage.Open(ctx, "/var/lib/hall/hall.db", storage.Options{Logger: log})
//	...
//	defer st.Close()
//
// Open creates the file and its directory if they are missing and applies
// the schema migrations embedded in the binary (goose, migrations/*.sql);
// an existing database is only brought up to date. It says what is wrong
// with a file it cannot use: one that cannot be written (a read-only file
// system, permissions: ErrNotWritable), one that is not a SQLite database
// (ErrNotDatabase), and one that exists but holds no hall (an empty file, a
// foreign database: ErrNoHall), which it refuses unless Options.NewHall:
// a new hall never silently replaces a file that was there.
//
// Every change goes through [Store.Write] with a function that performs
// typed operations on a [Tx]. Everything one function does commits or
// rolls back together, so an event, its device acknowledgement, the audit
// record and the snapshot go in one Write:
//
//	rec := storage.EventRecord{BoardID: "b12", BoardSeq: last + 1, Event: ev,
//		DeviceID: "clk-7", DeviceSeq: 42, Actor: "clk-7"}
//	err := st.Write(ctx, func(tx *storage.Tx) error {
//		if err := tx.AppendEvent(&rec); err != nil {
//			return err // ErrDuplicate, ErrGap, ErrConflict...
//		}
//		if rec.BoardSeq%storage.SnapshotEvery == 0 || next.Over() {
//			if err := tx.PutSnapshot("b12", rec.BoardSeq, next); err != nil {
//				return err
//			}
//		}
//		tx.AfterCommit(func() { hub.Publish(rec, next) }) // runs in seq order, after the commit
//		return tx.AddAudit(&storage.AuditRecord{BoardID: "b12", Actor: "clk-7",
//			What: "press", Outcome: storage.OutcomeApplied, BoardSeq: rec.BoardSeq})
//	})
//	if err == nil {
//		// durable: acknowledge DeviceSeq 42 to the device
//	}
//
// A device event the rules refuse is not appended; acknowledge its
// sequence number with [Tx.AckDevice] and record the refusal with
// [Tx.AddAudit] (outcome [OutcomeRefused]) in one Write, so that the
// device can drop it and a resend is recognised as a duplicate.
//
// Reads ([Store.Board], [Store.Events], [Store.EventsSince], ...) see the
// last committed state. At startup, rebuild every board with
// [Store.LoadBoards] — each board as [Store.ReplayPassing] would replay
// it, with its [Head], in a few statements for the whole hall — and
// resend [Store.PendingCommands].
//
// # Concurrency
//
// All methods of a Store are safe for concurrent use. A single writer
// goroutine owns the one write connection. Write queues its function; the
// writer takes everything queued (up to Options.MaxBatch), runs the
// functions one after the other in one transaction, each under its own
// SAVEPOINT, and commits once: one fsync for the whole group (group
// commit). A function that returns an error is rolled back alone and its
// Write returns the error; the others commit. If the commit fails, every
// Write of the group returns the error. [Store.Stats] counts commits and
// writes.
//
// Functions run on the writer goroutine, so the store's throughput is the
// sum of their running times plus one commit per group: they must be
// short, must not block, and must not call Write (that would deadlock).
// Decide outside (apply the rules, check permissions), write inside.
//
// Ordering: Writes are taken in the order they reach the queue. The
// hall-wide sequence number ([EventRecord].Seq) is assigned in commit
// order: once a reader sees seq n, every event with a smaller seq is
// already visible, so a watcher that resumes with [Store.EventsSince]
// from the last seq it saw misses nothing. Two Writes from different
// goroutines return in no particular order; functions registered with
// [Tx.AfterCommit] run on the writer goroutine in seq order, before the
// Writes return, which is the place to hand events to a fan-out hub.
// Publish nothing before the commit: a function's work may still be
// rolled back.
//
// A context cancelled while its Write is queued makes Write return
// ctx.Err() without running the function. Once the function runs, the
// Write waits for the commit, whatever the context does.
//
// Reads use a separate pool of read-only connections. In WAL mode they
// neither wait for the writer nor delay it.
//
// # Durability
//
// The database runs in WAL mode with synchronous=FULL: COMMIT returns
// after the write-ahead log has been fsynced. Write returns nil only after
// that, so whatever was acknowledged survives a crash of the process or
// of the machine (TestDurabilityKill kills a writing process and finds
// every acknowledged event). The price is one fsync per commit, which is
// why writes are grouped: on the hall's disk a commit of one row costs
// about as much as a commit of a hundred.
//
// The log is append-only: nothing updates or deletes an event. Board
// sequence numbers have no holes (AppendEvent accepts only the next one)
// and neither do a device's sequence numbers (the next one, else
// ErrDuplicate or ErrGap), so a device can resend everything not
// acknowledged after a reconnect and nothing is applied twice.
//
// Snapshots are a cache: the server writes one every [SnapshotEvery]
// events of a board and when its game ends, in the same Write as the
// event. Replay starts from the snapshot and folds the events after it;
// [Store.ReplayFromScratch] ignores it; both give the same state. A
// snapshot that cannot be used (unreadable, or written for another shape
// of rules.State by an older binary) is ignored and the board replayed
// from its first event.
package storage
