package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/mem"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// Watchers follow the whole hall: gRPC Watch.WatchHall streams, or the
// dashboard's server-sent events (/api/watch), each on its own
// connection. Only a sample of them decode what they get (the board ids
// and board_seq of every state, to time each press from its
// acknowledgement to the update that shows it); the others read and drop
// the bytes, so that the generator stays lighter than the server.

type watcherSet struct {
	kind    string // "gRPC" or "SSE"
	f       *fleet
	ws      []*watcher
	lat     atomic.Pointer[hist] // the measured window's latencies, nil outside one
	bytes   atomic.Int64
	updates atomic.Int64
	errs    atomic.Int64
	lastErr atomic.Value
	ages    atomic.Pointer[ageTracker] // the ages of the sampled watchers' views, while measured (age.go)
	crowd   *crowd                     // the watchers that only read, if in a process of their own
	ctx     context.Context
	cancel  context.CancelFunc
	wg      sync.WaitGroup
}

type watcher struct {
	set     *watcherSet
	sampled bool
	first   chan struct{} // closed after the first update

	mu        sync.Mutex
	seen      map[string]uint64 // sampled: board → highest board_seq seen
	ackCursor int               // sampled: its place in the fleet's ackLog (age.go)

	// A slow watcher stops reading when stall is closed, until resume is;
	// then it reports how it caught up.
	stall, resume chan struct{}
	caught        chan slowReport
	afterResume   atomic.Int64 // updates read since resuming (without a snapshot)
	stalledAt     atomic.Int64 // updates read when it stopped reading
	stalledFor    atomic.Int64 // how long it did not read, in nanoseconds
}

type slowReport struct {
	snapshot     bool          // a snapshot came
	after        time.Duration // from resuming to the snapshot
	bytesBefore  int64         // bytes read after resuming, before the snapshot
	updatesAhead int64         // updates read before it
}

// sseGzip: the SSE watchers ask for gzip, as browsers do (-sse-gzip).
var sseGzip = true

// rawCodec hands a gRPC client the message bytes undecoded.
type rawCodec struct{}

func (rawCodec) Marshal(v any) (mem.BufferSlice, error) {
	b, err := proto.Marshal(v.(proto.Message))
	return mem.BufferSlice{mem.SliceBuffer(b)}, err
}

func (rawCodec) Unmarshal(data mem.BufferSlice, v any) error {
	*(v.(*[]byte)) = data.Materialize()
	return nil
}

func (rawCodec) Name() string { return "proto" }

// startWatchers connects n watchers of kind ("grpc" or "sse") to s, sample
// of them decoding, using tokens round-robin, and waits until each got its
// first update (the snapshot of the hall).
func startWatchers(s *server, f *fleet, kind string, n, sample int, tokens []string, slow bool) (*watcherSet, error) {
	ctx, cancel := context.WithCancel(context.Background())
	set := &watcherSet{kind: kind, f: f, ctx: ctx, cancel: cancel}
	tr := &http.Transport{MaxIdleConnsPerHost: n + 1, DisableCompression: true, ReadBufferSize: 64 << 10}
	window := int32(1 << 20)
	if slow {
		// A slow watcher has small buffers, as a phone on venue Wi-Fi:
		// the server soon has to stop sending to it when it stops reading.
		window = 64 << 10
		tr.ReadBufferSize = 4 << 10
		tr.DialContext = (&net.Dialer{Control: func(_, _ string, c syscall.RawConn) error {
			var serr error
			if err := c.Control(func(fd uintptr) { serr = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 16<<10) }); err != nil {
				return err
			}
			return serr
		}}).DialContext
	}
	every := max(n/max(sample, 1), 1)
	if !slow && n > sample {
		// The sample here, the rest in a process of their own (crowd.go).
		c, err := startCrowd(s, kind, n-sample, tokens)
		if err != nil {
			return nil, fmt.Errorf("%s watchers: %w", kind, err)
		}
		set.crowd = c
		n, every = sample, 1
	}
	for i := range n {
		w := &watcher{set: set, sampled: sample > 0 && i%every == 0, first: make(chan struct{}), seen: map[string]uint64{}}
		if slow {
			w.stall, w.resume, w.caught = make(chan struct{}), make(chan struct{}), make(chan slowReport, 1)
		}
		set.start(w, i, s.grpc, s.http, tokens[i%len(tokens)], tr, window)
	}
	deadline := time.After(5 * time.Minute)
	for _, w := range set.ws {
		select {
		case <-w.first:
		case <-deadline:
			set.close()
			_, err := set.errors()
			return nil, fmt.Errorf("%s watchers: not all had their first update after 5 minutes (last error %v)", kind, err)
		}
	}
	if set.crowd != nil {
		if err := set.crowd.waitReady(deadline); err != nil {
			set.close()
			return nil, fmt.Errorf("%s watchers: %w", kind, err)
		}
	}
	return set, nil
}

// start runs the i-th watcher w of the set until the set is closed, on
// its own connection to the server at grpcAddr or httpBase (by the set's
// kind), and paces the arrivals: a crowd arriving, not a stampede.
func (set *watcherSet) start(w *watcher, i int, grpcAddr, httpBase, token string, tr *http.Transport, window int32) {
	set.ws = append(set.ws, w)
	set.wg.Add(1)
	go func() {
		defer set.wg.Done()
		var err error
		if set.kind == "sse" {
			err = w.sse(set.ctx, tr, httpBase, token)
		} else {
			err = w.grpc(set.ctx, grpcAddr, token, window)
		}
		if err != nil && set.ctx.Err() == nil {
			set.errs.Add(1)
			set.lastErr.Store(errBox{err})
		}
	}()
	if i%50 == 49 {
		time.Sleep(20 * time.Millisecond)
	}
}

// counts returns the updates and bytes the set's watchers read so far,
// the crowd's included (as of its last report, at most 100 ms old).
func (set *watcherSet) counts() (updates, bytes int64) {
	updates, bytes = set.updates.Load(), set.bytes.Load()
	if c := set.crowd; c != nil {
		updates += c.updates.Load()
		bytes += c.bytes.Load()
	}
	return updates, bytes
}

func (set *watcherSet) errors() (int64, error) {
	b, _ := set.lastErr.Load().(errBox)
	err, n := b.err, set.errs.Load()
	if c := set.crowd; c != nil {
		n += c.errs.Load()
		if msg, _ := c.lastErr.Load().(string); msg != "" && err == nil {
			err = errors.New(msg)
		}
	}
	return n, err
}

func (set *watcherSet) close() {
	set.cancel()
	set.wg.Wait()
	if set.crowd != nil {
		set.crowd.stop()
	}
}

// grpc runs one Watch.WatchHall stream on a connection of its own.
func (w *watcher) grpc(ctx context.Context, addr, token string, window int32) error {
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithInitialWindowSize(window), grpc.WithInitialConnWindowSize(window))
	if err != nil {
		return err
	}
	defer conn.Close()
	ctx = metadata.AppendToOutgoingContext(ctx, "authorization", "Bearer "+token)
	stream, err := conn.NewStream(ctx, &pb.Watch_ServiceDesc.Streams[2], pb.Watch_WatchHall_FullMethodName, grpc.ForceCodecV2(rawCodec{}))
	if err != nil {
		return err
	}
	if err := stream.SendMsg(&pb.WatchHallRequest{}); err != nil {
		return err
	}
	if err := stream.CloseSend(); err != nil {
		return err
	}
	var slow slowTracker
	for n := 0; ; n++ {
		var raw []byte
		if err := stream.RecvMsg(&raw); err != nil {
			return err
		}
		now := time.Now()
		snapshot := w.protoUpdate(raw, now)
		w.got(n, len(raw), snapshot, &slow)
	}
}

// sse reads the dashboard's event stream.
func (w *watcher) sse(ctx context.Context, tr *http.Transport, base, token string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/api/watch", nil)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	if sseGzip {
		req.Header.Set("Accept-Encoding", "gzip") // by hand: the transport leaves the body as it came
	}
	resp, err := (&http.Client{Transport: tr}).Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		return fmt.Errorf("GET /api/watch: %s: %s", resp.Status, b)
	}
	var body io.Reader = resp.Body
	var wire *wireCounter // gzipped: the bytes as they came on the wire
	var counted int64     // of wire.n, the bytes already counted with an update
	if resp.Header.Get("Content-Encoding") == "gzip" {
		if !w.sampled && w.stall == nil {
			return w.countDeflated(resp.Body)
		}
		wire = &wireCounter{r: resp.Body}
		zr, err := gzip.NewReader(wire)
		if err != nil {
			return fmt.Errorf("GET /api/watch: the gzip stream: %w", err)
		}
		body = zr
	}
	br := bufio.NewReaderSize(body, sseReadBuffer)
	var slow slowTracker
	for n := 0; ; {
		line, err := br.ReadSlice('\n')
		size := len(line)
		var data []byte
		if bytes.HasPrefix(line, []byte("data:")) {
			if w.sampled && errors.Is(err, bufio.ErrBufferFull) {
				// A long line: the sample needs it whole. Its head
				// is the reader's buffer, which reading on refills:
				// copied first.
				data = append([]byte(nil), line...)
				rest, err2 := br.ReadBytes('\n')
				data = append(data, rest...)
				size, err = len(data), err2
			} else if errors.Is(err, bufio.ErrBufferFull) {
				// Reading the rest of the line overwrites the
				// reader's buffer: keep the head, where the
				// snapshot flag is.
				data = append([]byte(nil), line[:min(len(line), jsonHead)]...)
			} else {
				data = line
			}
		}
		for errors.Is(err, bufio.ErrBufferFull) { // the rest of a long line
			line, err = br.ReadSlice('\n')
			size += len(line)
		}
		if err != nil {
			return err
		}
		if wire != nil {
			if data == nil {
				continue // counted with the update's data line
			}
			size, counted = int(wire.n-counted), wire.n // what came on the wire for it
		}
		if data == nil {
			w.set.bytes.Add(int64(size))
			continue
		}
		now := time.Now()
		snapshot := w.jsonUpdate(data, now)
		w.got(n, size, snapshot, &slow)
		n++
	}
}

// syncFlush ends each update of a gzipped event stream (the hall
// compresses each on its own and ends it with a sync flush:
// fanout.Update.SSEGzip).
var syncFlush = []byte{0, 0, 0xff, 0xff}

// countDeflated reads a gzipped event stream as a watcher that only
// reads does: it counts the bytes and, by their sync flushes, the
// updates, without decompressing them (a browser's work, on its own
// machine, not the bench's). The count can take a run of compressed bytes
// that happens to look like a flush for one (about once in 4 GB).
func (w *watcher) countDeflated(body io.Reader) error {
	buf := make([]byte, 3+64<<10)
	carry, n := 0, 0
	var slow slowTracker
	for {
		k, err := body.Read(buf[carry:])
		if k > 0 {
			w.set.bytes.Add(int64(k))
			seen := buf[:carry+k]
			for range bytes.Count(seen, syncFlush) {
				w.got(n, 0, false, &slow)
				n++
			}
			carry = copy(buf, seen[max(len(seen)-3, 0):]) // a flush cut between two reads
		}
		if err != nil {
			return err
		}
	}
}

// wireCounter counts the bytes read through it (one goroutine's).
type wireCounter struct {
	r io.Reader
	n int64
}

func (c *wireCounter) Read(p []byte) (int, error) {
	k, err := c.r.Read(p)
	c.n += int64(k)
	return k, err
}

// jsonHead is how far into an update's JSON its snapshot flag is looked for.
const jsonHead = 200

// slowTracker follows a slow watcher from its resumption to its snapshot.
type slowTracker struct {
	resumed       time.Time
	bytes, before int64
	done          bool
}

// got counts an update; a slow watcher stalls here when told to.
func (w *watcher) got(n, size int, snapshot bool, slow *slowTracker) {
	w.set.bytes.Add(int64(size))
	w.set.updates.Add(1)
	if n == 0 {
		close(w.first)
		return
	}
	if w.stall == nil {
		return
	}
	select {
	case <-w.stall:
		if slow.resumed.IsZero() {
			w.stalledAt.Store(int64(n))
			t := time.Now()
			<-w.resume
			slow.resumed = time.Now()
			w.stalledFor.Store(int64(slow.resumed.Sub(t)))
			return // this one was read before the stall
		}
	default:
		return
	}
	if slow.done {
		return
	}
	if snapshot {
		slow.done = true
		w.caught <- slowReport{snapshot: true, after: time.Since(slow.resumed), bytesBefore: slow.bytes, updatesAhead: slow.before}
		return
	}
	slow.bytes += int64(size)
	slow.before++
	w.afterResume.Add(1)
}

// protoUpdate reads a WatchUpdate's snapshot flag and, if sampled, its
// boards.
func (w *watcher) protoUpdate(b []byte, now time.Time) (snapshot bool) {
	w.noteAge(now)
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return snapshot
		}
		b = b[n:]
		switch {
		case num == 2 && typ == protowire.VarintType:
			v, n := protowire.ConsumeVarint(b)
			snapshot, b = v != 0, b[max(n, 0):]
			continue
		case num == 3 && typ == protowire.BytesType && w.sampled:
			board, n := protowire.ConsumeBytes(b)
			w.protoBoard(board, now)
			b = b[max(n, 0):]
			continue
		}
		n = protowire.ConsumeFieldValue(num, typ, b)
		if n < 0 {
			return snapshot
		}
		b = b[n:]
	}
	return snapshot
}

func (w *watcher) protoBoard(b []byte, now time.Time) {
	var id string
	var seq uint64
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return
		}
		b = b[n:]
		switch {
		case num == 1 && typ == protowire.BytesType:
			v, n := protowire.ConsumeBytes(b)
			id, b = string(v), b[max(n, 0):]
			continue
		case num == 13 && typ == protowire.VarintType:
			v, n := protowire.ConsumeVarint(b)
			seq, b = v, b[max(n, 0):]
			continue
		}
		n = protowire.ConsumeFieldValue(num, typ, b)
		if n < 0 {
			return
		}
		b = b[n:]
	}
	w.saw(id, seq, now)
}

var (
	jsonSnapshot = []byte(`"snapshot":`)
	jsonBoardID  = []byte(`"boardId":`)
	jsonBoardSeq = []byte(`"boardSeq":`)
)

// jsonUpdate reads a data: line of protojson (which may put a space after
// a colon) for its snapshot flag and, if sampled, its boards.
func (w *watcher) jsonUpdate(line []byte, now time.Time) (snapshot bool) {
	head := line[:min(len(line), jsonHead)]
	if i := bytes.Index(head, jsonSnapshot); i >= 0 {
		snapshot = bytes.HasPrefix(bytes.TrimLeft(head[i+len(jsonSnapshot):], " "), []byte("true"))
	}
	if !w.sampled {
		return snapshot
	}
	w.noteAge(now)
	rest := line
	for {
		i := bytes.Index(rest, jsonBoardID)
		if i < 0 {
			return snapshot
		}
		rest = rest[i+len(jsonBoardID):]
		id, _ := jsonString(rest)
		end := bytes.Index(rest, jsonBoardID)
		obj := rest
		if end >= 0 {
			obj = rest[:end]
		}
		var seq uint64
		if j := bytes.Index(obj, jsonBoardSeq); j >= 0 {
			v, _ := jsonString(obj[j+len(jsonBoardSeq):])
			seq, _ = strconv.ParseUint(v, 10, 64)
		}
		w.saw(id, seq, now)
	}
}

// jsonString reads a JSON string (without escapes) after optional spaces.
func jsonString(b []byte) (string, bool) {
	b = bytes.TrimLeft(b, " ")
	if len(b) == 0 || b[0] != '"' {
		return "", false
	}
	end := bytes.IndexByte(b[1:], '"')
	if end < 0 {
		return "", false
	}
	return string(b[1 : 1+end]), true
}

// saw records that a sampled watcher saw the board at seq: each press of
// the measured window up to it is timed from its acknowledgement (0 if
// the update came first).
func (w *watcher) saw(board string, seq uint64, now time.Time) {
	c := w.set.f.byBoard[board]
	if c == nil {
		return
	}
	w.mu.Lock()
	last := w.seen[board]
	if seq <= last {
		w.mu.Unlock()
		return
	}
	w.seen[board] = seq
	w.mu.Unlock()
	h := w.set.lat.Load()
	if h == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for q := last + 1; q <= seq; q++ {
		at, ok := c.acks[q]
		switch {
		case !ok: // not a press of the window
		case at.IsZero(): // the update came before the acknowledgement
			h.add(0)
		default:
			h.add(max(now.Sub(at), 0))
		}
	}
}

// lost counts, for each sampled watcher, the acknowledged presses of the
// window it never saw.
func (set *watcherSet) lost(h *hist) int64 {
	var n int64
	for _, w := range set.ws {
		if !w.sampled {
			continue
		}
		w.mu.Lock()
		for _, c := range set.f.clocks {
			c.mu.Lock()
			for q, at := range c.acks {
				if !at.IsZero() && q > w.seen[c.board] {
					h.add(never)
					n++
				}
			}
			c.mu.Unlock()
		}
		w.mu.Unlock()
	}
	return n
}

// resetAcks forgets the acknowledgement times of an earlier window.
func (f *fleet) resetAcks() {
	f.ackLog.reset()
	for _, c := range f.clocks {
		c.mu.Lock()
		clear(c.acks)
		c.mu.Unlock()
	}
}

// sseReadBuffer is an SSE watcher's read buffer: an update's data line
// may be longer (a snapshot of 10,000 boards is megabytes of JSON).
const sseReadBuffer = 256 << 10
