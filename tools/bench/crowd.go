package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"runtime/debug"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// The crowd: the watchers that only read and drop what they get (all but
// the sample) run in a process of their own (bench -serve-crowd), so that
// the bench's clocks do not share a Go scheduler with a thousand readers.
// Sharing it, the pacers' heartbeats left seconds late while the readers
// decoded their first snapshots, and the hall cut thousands of clocks as
// silent for the bench's delay. The two processes still share the cores,
// as a hall's audience shares its network, but the kernel shares them
// fairly between threads, where Go's run queue would make a pacer wait
// behind every reader ready before it.
//
// The protocol: the bench writes the crowd's orders as one JSON line on
// its standard input; the crowd says "ready" once every watcher has its
// first update, then "stat <updates> <bytes> <errors> <last error>" every
// 100 ms; it stops when its standard input closes, after a last stat.

type crowdOrders struct {
	Kind   string   `json:"kind"`
	N      int      `json:"n"`
	GRPC   string   `json:"grpc"`
	HTTP   string   `json:"http"`
	Tokens []string `json:"tokens"`
	Gzip   bool     `json:"gzip"` // SSE: take gzip (sseGzip)
}

// crowd is the parent's handle on a crowd process.
type crowd struct {
	cmd     *exec.Cmd
	stdin   io.WriteCloser
	ready   chan struct{}
	done    chan struct{}
	updates atomic.Int64
	bytes   atomic.Int64
	errs    atomic.Int64
	lastErr atomic.Value // string
	exitErr error
}

// startCrowd starts n reading watchers of kind in a process of their own.
func startCrowd(s *server, kind string, n int, tokens []string) (*crowd, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	c := &crowd{cmd: exec.Command(self, "-serve-crowd"), ready: make(chan struct{}), done: make(chan struct{})}
	c.cmd.Stderr = os.Stderr
	out, err := c.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if c.stdin, err = c.cmd.StdinPipe(); err != nil {
		return nil, err
	}
	if err := c.cmd.Start(); err != nil {
		return nil, err
	}
	go c.read(out)
	orders, _ := json.Marshal(crowdOrders{Kind: kind, N: n, GRPC: s.grpc, HTTP: s.http, Tokens: tokens, Gzip: sseGzip})
	if _, err := fmt.Fprintf(c.stdin, "%s\n", orders); err != nil {
		c.stop()
		return nil, err
	}
	return c, nil
}

// read follows the crowd's reports until it exits.
func (c *crowd) read(out io.Reader) {
	defer close(c.done)
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		line := sc.Text()
		if line == "ready" {
			close(c.ready)
			continue
		}
		f := strings.SplitN(line, " ", 5)
		if len(f) < 4 || f[0] != "stat" {
			continue
		}
		u, _ := strconv.ParseInt(f[1], 10, 64)
		b, _ := strconv.ParseInt(f[2], 10, 64)
		e, _ := strconv.ParseInt(f[3], 10, 64)
		c.updates.Store(u)
		c.bytes.Store(b)
		c.errs.Store(e)
		if len(f) == 5 && f[4] != "" {
			c.lastErr.Store(f[4])
		}
	}
	c.exitErr = c.cmd.Wait()
}

// waitReady waits until every watcher of the crowd has its first update.
func (c *crowd) waitReady(deadline <-chan time.Time) error {
	select {
	case <-c.ready:
		return nil
	case <-c.done:
		return fmt.Errorf("the crowd of watchers exited before all were served: %v", c.exitErr)
	case <-deadline:
		return errors.New("not all of the crowd's watchers had their first update after 5 minutes")
	}
}

// stop ends the crowd and waits for its last report.
func (c *crowd) stop() {
	c.stdin.Close()
	select {
	case <-c.done:
	case <-time.After(30 * time.Second):
		c.cmd.Process.Kill()
		<-c.done
	}
}

// serveCrowd is the crowd process.
func serveCrowd() error {
	debug.SetGCPercent(benchGCPercent)
	in := bufio.NewReader(os.Stdin)
	line, err := in.ReadBytes('\n')
	if err != nil {
		return fmt.Errorf("reading orders: %w", err)
	}
	var o crowdOrders
	if err := json.Unmarshal(line, &o); err != nil {
		return fmt.Errorf("orders %q: %w", line, err)
	}
	sseGzip = o.Gzip
	ctx, cancel := context.WithCancel(context.Background())
	set := &watcherSet{kind: o.Kind, ctx: ctx, cancel: cancel}
	tr := &http.Transport{MaxIdleConnsPerHost: o.N + 1, DisableCompression: true, ReadBufferSize: 64 << 10}
	for i := range o.N {
		w := &watcher{set: set, first: make(chan struct{}), seen: map[string]uint64{}}
		set.start(w, i, o.GRPC, o.HTTP, o.Tokens[i%len(o.Tokens)], tr, 1<<20)
	}
	stat := func() {
		_, err := set.errors()
		msg := ""
		if err != nil {
			msg = strings.ReplaceAll(err.Error(), "\n", " ")
		}
		fmt.Printf("stat %d %d %d %s\n", set.updates.Load(), set.bytes.Load(), set.errs.Load(), msg)
	}
	stdinClosed := make(chan struct{})
	go func() { io.Copy(io.Discard, in); close(stdinClosed) }()
	go func() {
		for _, w := range set.ws {
			select {
			case <-w.first:
			case <-stdinClosed:
				return
			}
		}
		fmt.Println("ready")
	}()
	t := time.NewTicker(100 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			stat()
		case <-stdinClosed:
			set.close()
			stat()
			return nil
		}
	}
}
