package storage

import (
	"context"
	"fmt"
	"sync/atomic"
)

// A request is one Write waiting for the writer goroutine.
type request struct {
	fn    func(*Tx) error
	state atomic.Int32 // queued, taken or abandoned
	done  chan outcome // buffered: the writer never waits for the caller
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
	r := &request{fn: fn, done: make(chan outcome, 1)}
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
func (s *Store) run() {
	defer close(s.stopped)
	batch := make([]*request, 0, s.maxBatch)
	for {
		r, ok := <-s.queue
		if !ok {
			return
		}
		batch = append(batch[:0], r)
	fill:
		for len(batch) < s.maxBatch {
			select {
			case r, ok := <-s.queue:
				if !ok {
					break fill
				}
				batch = append(batch, r)
			default:
				break fill
			}
		}
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
	fail := func(err error) {
		s.noteCommit(err)
		for _, r := range live {
			r.done <- outcome{err: err}
		}
	}
	// A background context: a caller's cancellation must not roll back
	// the others' work.
	ctx := context.Background()
	sqlTx, err := s.wdb.BeginTx(ctx, nil)
	if err != nil {
		s.log.Error("storage: begin failed", "err", err)
		fail(fmt.Errorf("storage: begin: %w", err))
		return
	}
	outcomes := make([]outcome, len(live))
	txs := make([]*Tx, len(live))
	for i, r := range live {
		if _, err := sqlTx.ExecContext(ctx, "SAVEPOINT w"); err != nil {
			s.abort(sqlTx, fail, fmt.Errorf("storage: savepoint: %w", err))
			return
		}
		tx := &Tx{s: s, tx: sqlTx}
		outcomes[i] = call(r.fn, tx)
		tx.done = true
		txs[i] = tx
		if outcomes[i].err != nil || outcomes[i].panicked {
			tx.after = nil
			if _, err := sqlTx.ExecContext(ctx, "ROLLBACK TO w"); err != nil {
				// SQLite may have rolled back the whole transaction
				// (disk full, I/O error): nothing of the batch stands.
				s.abort(sqlTx, fail, fmt.Errorf("storage: rollback to savepoint after %v: %w", outcomes[i].err, err))
				return
			}
		}
		if _, err := sqlTx.ExecContext(ctx, "RELEASE w"); err != nil {
			s.abort(sqlTx, fail, fmt.Errorf("storage: release savepoint: %w", err))
			return
		}
	}
	s.writes.Add(uint64(len(live)))
	if err := sqlTx.Commit(); err != nil {
		s.log.Error("storage: commit failed", "err", err, "writes", len(live))
		fail(fmt.Errorf("storage: commit: %w", err))
		return
	}
	s.commits.Add(1)
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
	for i, r := range live {
		r.done <- outcomes[i]
	}
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
