package storage

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"
)

// A request is one Write waiting for the writer goroutine.
type request struct {
	fn     func(*Tx) error
	state  atomic.Int32 // queued, taken or abandoned
	done   chan outcome // buffered: the writer never waits for the caller
	queued time.Time    // when Write queued it (Options.Now): how long it waits (stall.go)
}

const (
	queued int32 = iota
	taken
	abandoned
)

type outcome struct {
	err      error
	panicked bool
	pval     any
}

// Write runs fn in a write transaction and returns once that transaction
// has committed (nil) or failed. Writes from many goroutines are grouped:
// the writer goroutine takes every queued fn (up to Options.MaxBatch) and
// runs them one after the other inside ONE transaction, each under its own
// SAVEPOINT, then commits once.
//
//   - If fn returns an error, its changes are rolled back alone, Write
//     returns that error, and the other functions of the batch commit.
//   - If fn panics, its changes are rolled back and Write panics with the
//     same value in the caller's goroutine.
//   - If the COMMIT fails, every Write of the batch returns the error.
//   - If ctx is done before fn has started, Write returns ctx.Err() and fn
//     never runs. Once fn has started, Write waits for the commit and
//     returns its result whatever ctx does: nothing is half-known.
//   - After Close, Write returns ErrClosed.
//
// fn runs on the writer goroutine, so it must be quick and must not wait
// for anything (no network, no Write of its own, which would deadlock), and
// it must not keep tx. fn runs at most once.
//
// Whatever fn registers with tx.AfterCommit runs after the commit, on the
// writer goroutine, in commit order, before Write returns.
func (s *Store) Write(ctx context.Context, fn func(tx *Tx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	r := &request{fn: fn, done: make(chan outcome, 1), queued: s.now()}
	s.mu.RLock()
	if s.closing {
		s.mu.RUnlock()
		return ErrClosed
	}
	select {
	case s.queue <- r:
		s.mu.RUnlock()
	case <-ctx.Done():
		s.mu.RUnlock()
		return ctx.Err()
	}
	var o outcome
	select {
	case o = <-r.done:
	case <-ctx.Done():
		if r.state.CompareAndSwap(queued, abandoned) {
			return ctx.Err() // the writer will skip it
		}
		o = <-r.done // already running: the commit decides
	}
	if o.panicked {
		panic(o.pval)
	}
	return o.err
}

// run is the writer goroutine: it takes batches off the queue until Close
// closes it, then returns once the last batch has committed.
//
// A commit costs the same whether it holds one write or a thousand: its
// fsync, hundreds of microseconds of CPU on a virtual disk. Under load the
// writer therefore starts commits at most every commitEvery, gathering
// what arrives meanwhile into the next one; a write arriving after a quiet
// spell commits at once.
//
// Each gathering has a timer of its own, stopped after it: a Reset of a
// timer the runtime may still hold in its heap (one waited on before)
// makes the runtime look through every timer of the processor when it
// comes due, and a hall with 10,000 clocks keeps some 40,000 (gRPC's
// keepalives, the silence watchdogs): with a Reset per commit that scan
// was a tenth of the hall's CPU at 1,000 presses a second.
func (s *Store) run() {
	defer close(s.stopped)
	batch := make([]*request, 0, s.maxBatch)
	var lastStart time.Time
	for {
		r, ok := <-s.queue
		if !ok {
			return
		}
		batch = append(batch[:0], r)
		closed := false
	fill:
		for len(batch) < s.maxBatch {
			select {
			case r, ok := <-s.queue:
				if !ok {
					closed = true
					break fill
				}
				batch = append(batch, r)
			default:
				break fill
			}
		}
		if wait := s.commitEvery - time.Since(lastStart); wait > 0 && !closed && len(batch) < s.maxBatch {
			gather := time.NewTimer(wait)
		more:
			for len(batch) < s.maxBatch {
				select {
				case r, ok := <-s.queue:
					if !ok {
						break more
					}
					batch = append(batch, r)
				case <-gather.C:
					break more
				}
			}
			gather.Stop()
		}
		lastStart = time.Now()
		s.commitBatch(batch)
		clear(batch)
	}
}

// commitBatch runs the batch's functions in one transaction and commits.
func (s *Store) commitBatch(batch []*request) {
	live := make([]*request, 0, len(batch))
	for _, r := range batch {
		if r.state.CompareAndSwap(queued, taken) {
			live = append(live, r)
		}
	}
	if len(live) == 0 {
		return
	}
	// The batch ends before its writes are answered, so that whoever
	// has an answer finds the store no longer waiting (Health); the
	// deferred call covers a panic.
	s.beginBatch(live[0].queued) // the queue is in order: the oldest
	defer s.endBatch()
	fail := func(err error) {
		s.seqs.reset()
		s.noteCommit(err)
		s.endBatch()
		for _, r := range live {
			r.done <- outcome{err: err}
		}
	}
	// Below the floor of the disk's reserve nothing is written: the room
	// left is for writing the log back (space.go).
	short, err := s.beforeCommit()
	if err != nil {
		s.log.Error("storage: writes refused", "err", err)
		fail(err)
		return
	}
	// A background context: a caller's cancellation must not roll back
	// the others' work.
	ctx := context.Background()
	if err := s.prepareSavepoints(ctx); err != nil {
		s.log.Error("storage: prepare failed", "err", err)
		fail(err)
		return
	}
	sqlTx, err := s.wdb.BeginTx(ctx, nil)
	if err != nil {
		s.log.Error("storage: begin failed", "err", err)
		fail(fmt.Errorf("storage: begin: %w", err))
		return
	}
	savepoint, release := sqlTx.StmtContext(ctx, s.savepointStmt), sqlTx.StmtContext(ctx, s.releaseStmt)
	outcomes := make([]outcome, len(live))
	txs := make([]*Tx, len(live))
	for i, r := range live {
		if _, err := savepoint.ExecContext(ctx); err != nil {
			s.abort(sqlTx, fail, fmt.Errorf("storage: savepoint: %w", err))
			return
		}
		tx := &Tx{s: s, tx: sqlTx}
		mark := s.seqs.mark()
		outcomes[i] = call(r.fn, tx)
		tx.done = true
		txs[i] = tx
		if outcomes[i].err != nil || outcomes[i].panicked {
			tx.after = nil
			s.seqs.rollback(mark)
			if _, err := sqlTx.ExecContext(ctx, "ROLLBACK TO w"); err != nil {
				// SQLite may have rolled back the whole transaction
				// (disk full, I/O error): nothing of the batch stands.
				s.abort(sqlTx, fail, fmt.Errorf("storage: rollback to savepoint after %v: %w", outcomes[i].err, err))
				return
			}
		}
		if _, err := release.ExecContext(ctx); err != nil {
			s.abort(sqlTx, fail, fmt.Errorf("storage: release savepoint: %w", err))
			return
		}
	}
	s.writes.Add(uint64(len(live)))
	if s.preCommit != nil {
		s.preCommit()
	}
	if err := sqlTx.Commit(); err != nil {
		s.log.Error("storage: commit failed", "err", err, "writes", len(live))
		fail(fmt.Errorf("storage: commit: %w", err))
		return
	}
	s.commits.Add(1)
	s.seqs.committed()
	if short {
		s.checkpointSoon()
	}
	// A write whose statement failed for the store's sake (the disk full)
	// was rolled back alone; the store is no healthier for the others.
	var failed error
	for _, o := range outcomes {
		if f := fault(o.err); f != nil {
			failed = f
		}
	}
	s.noteCommit(failed)
	for _, tx := range txs {
		for _, f := range tx.after {
			s.afterCommit(f)
		}
	}
	s.endBatch()
	for i, r := range live {
		r.done <- outcomes[i]
	}
}

// prepareSavepoints prepares the SAVEPOINT and RELEASE that surround each
// Write of a batch, once, on the writer's connection (before a batch takes
// it: it has only one). An Exec without arguments bypasses the driver's
// statement cache, so they were parsed anew for every Write: 1.4% of the
// hall's CPU at 5,000 presses a second, 0.2% prepared.
func (s *Store) prepareSavepoints(ctx context.Context) error {
	var err error
	if s.savepointStmt == nil {
		if s.savepointStmt, err = s.wdb.PrepareContext(ctx, "SAVEPOINT w"); err != nil {
			return fmt.Errorf("storage: prepare savepoint: %w", err)
		}
	}
	if s.releaseStmt == nil {
		if s.releaseStmt, err = s.wdb.PrepareContext(ctx, "RELEASE w"); err != nil {
			return fmt.Errorf("storage: prepare release: %w", err)
		}
	}
	return nil
}

// abort rolls the batch's transaction back and fails every Write of it.
func (s *Store) abort(sqlTx interface{ Rollback() error }, fail func(error), err error) {
	s.log.Error("storage: batch aborted", "err", err)
	_ = sqlTx.Rollback()
	fail(err)
}

// call runs fn, turning a panic into an outcome the caller re-raises.
func call(fn func(*Tx) error, tx *Tx) (o outcome) {
	defer func() {
		if v := recover(); v != nil {
			o = outcome{panicked: true, pval: v}
		}
	}()
	return outcome{err: fn(tx)}
}

// afterCommit runs one AfterCommit function; a panic in it is logged, not
// allowed to stop the writer (what it followed is committed).
func (s *Store) afterCommit(f func()) {
	defer func() {
		if v := recover(); v != nil {
			s.log.Error("storage: AfterCommit function panicked", "panic", v)
		}
	}()
	f()
}

// seqCache is what the writer knows of the logs it appends to: each
// board's last board_seq and each device's committed sequence number, as
// committed plus what the batch being written changed. It spares a query
// per appended event (the board's log, the device's sequence). It lives on
// the writer goroutine; a Tx reads it through boardLog and DeviceAcked,
// which fall back to the database for what it does not hold.
//
// Every change a Write function makes is logged so that it can be taken
// back: with the function's savepoint when it fails, with the batch when
// the commit fails or the batch is aborted.
type seqCache struct {
	boards  map[string]uint64 // board id → last board_seq; present only for boards that exist
	devices map[string]uint64 // device id → highest sequence number committed
	undo    []seqUndo         // the batch's changes, oldest first
}

type seqUndo struct {
	devices bool
	key     string
	old     uint64
	had     bool
}

func newSeqCache() *seqCache {
	return &seqCache{boards: map[string]uint64{}, devices: map[string]uint64{}}
}

func (c *seqCache) table(devices bool) map[string]uint64 {
	if devices {
		return c.devices
	}
	return c.boards
}

// learn records a value read from the database inside the batch: not a
// change, since nothing of the batch wrote it (that would have gone
// through set).
func (c *seqCache) learn(devices bool, key string, v uint64) { c.table(devices)[key] = v }

// set changes a value for the batch; drop forgets a board that was deleted.
func (c *seqCache) set(devices bool, key string, v uint64) {
	m := c.table(devices)
	old, had := m[key]
	c.undo = append(c.undo, seqUndo{devices: devices, key: key, old: old, had: had})
	m[key] = v
}

func (c *seqCache) drop(devices bool, key string) {
	m := c.table(devices)
	if old, had := m[key]; had {
		c.undo = append(c.undo, seqUndo{devices: devices, key: key, old: old, had: true})
		delete(m, key)
	}
}

// mark returns the position to roll back to.
func (c *seqCache) mark() int { return len(c.undo) }

// rollback takes back the changes made since mark.
func (c *seqCache) rollback(mark int) {
	for i := len(c.undo) - 1; i >= mark; i-- {
		u := c.undo[i]
		if u.had {
			c.table(u.devices)[u.key] = u.old
		} else {
			delete(c.table(u.devices), u.key)
		}
	}
	c.undo = c.undo[:mark]
}

// committed keeps the batch's changes.
func (c *seqCache) committed() { c.undo = c.undo[:0] }

// reset forgets everything: after a commit that failed, what the database
// holds is read again rather than guessed.
func (c *seqCache) reset() {
	clear(c.boards)
	clear(c.devices)
	c.undo = c.undo[:0]
}
