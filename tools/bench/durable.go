package main

import (
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// The durable echo: the echo server, but each press is appended to a file
// and acknowledged only once an fdatasync has made it durable, presses of
// many clocks in one write and one sync (group commit), at most one commit
// every -echo-commit-every, as the hall's storage writer commits (by
// default every 4 ms at most; storage.Options.CommitEvery). It is what
// durability alone costs on this disk: the hall's figures less the
// durable echo's are what the hall adds on top (rules, SQLite, the
// stream, fan-out).
type durableLog struct {
	f     *os.File
	every time.Duration

	mu    sync.Mutex
	queue []durableReq
	wake  chan struct{}

	commits atomic.Int64 // commits done (a test's figure)
}

// durableReq is one press waiting for its commit: the bytes to append,
// and where to say it is durable.
type durableReq struct {
	rec  []byte
	done chan error
}

// echoCommitEvery is the hall's default commit interval (storage's
// defaultCommitEvery).
const echoCommitEvery = 4 * time.Millisecond

func openDurable(path string, every time.Duration) (*durableLog, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND|os.O_TRUNC, 0o644)
	if err != nil {
		return nil, err
	}
	l := &durableLog{f: f, every: every, wake: make(chan struct{}, 1)}
	go l.run()
	return l, nil
}

// append queues a press of dev (its sequence and device time) and waits
// until it is durable; done is the caller's own channel, reused.
func (l *durableLog) append(dev string, seq uint64, t int64, done chan error) error {
	rec := make([]byte, 0, len(dev)+32)
	rec = append(rec, dev...)
	rec = append(rec, ' ')
	rec = strconv.AppendUint(rec, seq, 10)
	rec = append(rec, ' ')
	rec = strconv.AppendInt(rec, t, 10)
	rec = append(rec, '\n')
	l.mu.Lock()
	l.queue = append(l.queue, durableReq{rec: rec, done: done})
	l.mu.Unlock()
	select {
	case l.wake <- struct{}{}:
	default:
	}
	return <-done
}

// run is the writer: it takes every queued press, writes them in one
// piece, syncs and answers them, then waits for more (and for the
// interval since the last commit's start to pass).
func (l *durableLog) run() {
	var (
		buf  []byte
		last time.Time
	)
	for range l.wake {
		if d := l.every - time.Since(last); d > 0 {
			time.Sleep(d)
		}
		l.mu.Lock()
		batch := l.queue
		l.queue = nil
		l.mu.Unlock()
		if len(batch) == 0 {
			continue
		}
		last = time.Now()
		buf = buf[:0]
		for _, r := range batch {
			buf = append(buf, r.rec...)
		}
		_, err := l.f.Write(buf)
		if err == nil {
			err = fdatasync(l.f)
		}
		l.commits.Add(1)
		for _, r := range batch {
			r.done <- err
		}
	}
}
