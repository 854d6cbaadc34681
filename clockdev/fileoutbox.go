package clockdev

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"

	hallv1 "github.com/chesshall/hallclock/proto/hall/v1"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
)

// The file outbox is a journal of JSON lines, one operation a line, each
// written and fsynced before the operation returns:
//
//	{"op":"base","acked":12,"next":15}              first line of a compacted file
//	{"op":"board","board":{...Assignment...}}        SaveBoard (no "board": unassigned)
//	{"op":"event","event":{...DeviceEvent...},"applied":true}
//	{"op":"ack","seq":14}
//	{"op":"renumber","seq":42}
//	{"op":"resend","seq":9}                          Resend: acknowledged events from 9 pending again
//	{"op":"retain","seq":14}                         (compacted files) events up to 14 are acknowledged ones kept
//
// Messages are protojson. Opening replays the journal; a last line cut
// short by a power failure is dropped (its operation had not returned).
// When the journal holds many more lines than its live content, it is
// rewritten (base, board with its history, pending events) to a temporary
// file that replaces it atomically.
type fileRecord struct {
	Op      string          `json:"op"`
	Event   json.RawMessage `json:"event,omitempty"`
	Applied bool            `json:"applied,omitempty"`
	Seq     uint64          `json:"seq,omitempty"`
	Board   json.RawMessage `json:"board,omitempty"`
	Acked   uint64          `json:"acked,omitempty"`
	Next    uint64          `json:"next,omitempty"`
}

const (
	opBase     = "base"
	opBoard    = "board"
	opEvent    = "event"
	opAck      = "ack"
	opRenumber = "renumber"
	opResend   = "resend"
	opRetain   = "retain"
)

// defaultCompactAfter is how many journal lines trigger a compaction (at
// least; a compaction also waits for four times the live content).
const defaultCompactAfter = 1024

type fileOutbox struct {
	mu      sync.Mutex
	path    string
	f       *os.File
	l       ledger
	lines   int // lines in the journal
	compact int // compact once lines exceed this
	retryAt int // after a failed compaction: not before this many lines
	closed  bool
}

// OpenFileOutbox opens (or creates) the Outbox journal at path. It
// survives a reboot: every Append, Ack, Renumber and SaveBoard is written
// and fsynced before it returns, so a device reopened on the same path
// resends the same pending events with the same numbers and recovers the
// board it played with that board's history. A journal whose last line is
// incomplete (a write cut by a power failure) is repaired by dropping that
// line; any other damage is an error.
func OpenFileOutbox(path string) (Outbox, error) {
	o := &fileOutbox{path: path, l: newLedger(), compact: defaultCompactAfter}
	good, err := o.load()
	if err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("clockdev: open outbox: %w", err)
	}
	if err := f.Truncate(good); err != nil { // drops a torn last line
		f.Close()
		return nil, fmt.Errorf("clockdev: repair outbox: %w", err)
	}
	if _, err := f.Seek(good, io.SeekStart); err != nil {
		f.Close()
		return nil, fmt.Errorf("clockdev: open outbox: %w", err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return nil, fmt.Errorf("clockdev: open outbox: %w", err)
	}
	if good == 0 {
		syncDir(filepath.Dir(path))
	}
	o.f = f
	return o, nil
}

// load replays the journal and returns the length of its intact part.
func (o *fileOutbox) load() (int64, error) {
	data, err := os.ReadFile(o.path)
	if errors.Is(err, os.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("clockdev: read outbox: %w", err)
	}
	var good int64
	r := bufio.NewReader(bytes.NewReader(data))
	for n := 1; ; n++ {
		line, err := r.ReadBytes('\n')
		if err == io.EOF {
			// An unterminated last line was cut short: drop it.
			return good, nil
		}
		if err != nil {
			return 0, err
		}
		perr := o.replay(bytes.TrimSpace(line))
		if perr != nil {
			if _, err := r.Peek(1); err == io.EOF {
				return good, nil // a damaged last line: the write did not complete
			}
			return 0, fmt.Errorf("clockdev: outbox %s line %d: %w", o.path, n, perr)
		}
		good += int64(len(line))
		o.lines++
	}
}

func (o *fileOutbox) replay(line []byte) error {
	var rec fileRecord
	if err := json.Unmarshal(line, &rec); err != nil {
		return err
	}
	switch rec.Op {
	case opBase:
		o.l = newLedger()
		o.l.acked, o.l.next = rec.Acked, rec.Next
		if o.l.next == 0 {
			o.l.next = 1
		}
	case opBoard:
		if len(rec.Board) == 0 {
			o.l.setBoard(nil)
			return nil
		}
		a := &hallv1.Assignment{}
		if err := protojson.Unmarshal(rec.Board, a); err != nil {
			return err
		}
		o.l.setBoard(a)
	case opEvent:
		ev := &hallv1.DeviceEvent{}
		if err := protojson.Unmarshal(rec.Event, ev); err != nil {
			return err
		}
		if err := o.l.checkAppend(ev); err != nil {
			return err
		}
		o.l.append(ev, rec.Applied)
	case opAck:
		o.l.ack(rec.Seq)
	case opRenumber:
		o.l.renumber(rec.Seq)
	case opResend:
		o.l.resend(rec.Seq)
	case opRetain:
		o.l.retain(rec.Seq)
	default:
		return fmt.Errorf("unknown operation %q", rec.Op)
	}
	return nil
}

func encodeRecord(rec fileRecord) ([]byte, error) {
	b, err := json.Marshal(rec)
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// write appends rec to the journal and fsyncs it.
func (o *fileOutbox) write(rec fileRecord) error {
	if o.closed {
		return ErrClosed
	}
	b, err := encodeRecord(rec)
	if err != nil {
		return err
	}
	if _, err := o.f.Write(b); err != nil {
		return fmt.Errorf("clockdev: write outbox: %w", err)
	}
	if err := o.f.Sync(); err != nil {
		return fmt.Errorf("clockdev: sync outbox: %w", err)
	}
	o.lines++
	return nil
}

// maybeCompact rewrites the journal when it has grown well past its live
// content. A failed compaction leaves the old journal in use; it is tried
// again after twice as many lines.
func (o *fileOutbox) maybeCompact() {
	live := len(o.l.pending) + len(o.l.retained) + 2
	if o.lines <= o.compact || o.lines <= 4*live || o.lines < o.retryAt {
		return
	}
	if err := o.rewrite(); err != nil {
		o.retryAt = 2 * o.lines
		return
	}
	o.retryAt = 0
}

func (o *fileOutbox) rewrite() error {
	var buf bytes.Buffer
	events := append(append([]*hallv1.DeviceEvent(nil), o.l.retained...), o.l.pending...)
	first := o.l.next - uint64(len(o.l.pending))
	if len(o.l.retained) > 0 {
		first = o.l.retained[0].GetSeq()
	}
	recs := []fileRecord{{Op: opBase, Acked: o.l.acked, Next: first}}
	if o.l.board != nil {
		b, err := protojson.Marshal(o.l.board)
		if err != nil {
			return err
		}
		recs = append(recs, fileRecord{Op: opBoard, Board: b})
	}
	for _, ev := range events {
		// Not "applied": the board record above already holds the history.
		b, err := protojson.Marshal(ev)
		if err != nil {
			return err
		}
		recs = append(recs, fileRecord{Op: opEvent, Event: b})
	}
	if n := len(o.l.retained); n > 0 {
		recs = append(recs, fileRecord{Op: opRetain, Seq: o.l.retained[n-1].GetSeq()})
	}
	for _, r := range recs {
		b, err := encodeRecord(r)
		if err != nil {
			return err
		}
		buf.Write(b)
	}
	tmp := o.path + ".tmp"
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	if _, err := f.Write(buf.Bytes()); err != nil {
		f.Close()
		os.Remove(tmp)
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		os.Remove(tmp)
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, o.path); err != nil {
		os.Remove(tmp)
		return err
	}
	syncDir(filepath.Dir(o.path))
	nf, err := os.OpenFile(o.path, os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		// The new journal is in place but cannot be opened: keep writing
		// to the old descriptor would lose data, so fail loudly from now on.
		o.f.Close()
		o.closed = true
		return err
	}
	o.f.Close()
	o.f = nf
	o.lines = len(recs)
	return nil
}

func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

func (o *fileOutbox) NextSeq() uint64 {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.l.next
}

func (o *fileOutbox) AckedSeq() uint64 {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.l.acked
}

func (o *fileOutbox) Pending() []*hallv1.DeviceEvent {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.l.pendingCopy()
}

func (o *fileOutbox) PendingCount() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return len(o.l.pending)
}

func (o *fileOutbox) PendingRange(after, upTo uint64) []*hallv1.DeviceEvent {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.l.pendingRange(after, upTo)
}

func (o *fileOutbox) Append(ev *hallv1.DeviceEvent, applied bool) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if err := o.l.checkAppend(ev); err != nil {
		return err
	}
	b, err := protojson.Marshal(ev)
	if err != nil {
		return err
	}
	if err := o.write(fileRecord{Op: opEvent, Event: b, Applied: applied}); err != nil {
		return err
	}
	o.l.append(proto.Clone(ev).(*hallv1.DeviceEvent), applied)
	o.maybeCompact()
	return nil
}

func (o *fileOutbox) Ack(upTo uint64) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if upTo <= o.l.acked && (len(o.l.pending) == 0 || o.l.pending[0].GetSeq() > upTo) {
		return nil // nothing changes: keep the journal short
	}
	if err := o.write(fileRecord{Op: opAck, Seq: upTo}); err != nil {
		return err
	}
	o.l.ack(upTo)
	o.maybeCompact()
	return nil
}

func (o *fileOutbox) Resend(from uint64) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed {
		return 0, ErrClosed
	}
	if len(o.l.retained) == 0 || o.l.retained[len(o.l.retained)-1].GetSeq() < from {
		return 0, nil // nothing held: keep the journal short
	}
	if err := o.write(fileRecord{Op: opResend, Seq: from}); err != nil {
		return 0, err
	}
	n := o.l.resend(from)
	o.maybeCompact()
	return n, nil
}

func (o *fileOutbox) Renumber(first uint64) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if err := o.write(fileRecord{Op: opRenumber, Seq: first}); err != nil {
		return err
	}
	o.l.renumber(first)
	o.maybeCompact()
	return nil
}

func (o *fileOutbox) SaveBoard(a *hallv1.Assignment) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	rec := fileRecord{Op: opBoard}
	if a.GetBoardId() != "" {
		a = proto.Clone(a).(*hallv1.Assignment)
		b, err := protojson.Marshal(a)
		if err != nil {
			return err
		}
		rec.Board = b
	} else {
		a = nil
	}
	if err := o.write(rec); err != nil {
		return err
	}
	o.l.setBoard(a)
	o.maybeCompact()
	return nil
}

func (o *fileOutbox) Board() *hallv1.Assignment {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.l.boardCopy()
}

func (o *fileOutbox) Close() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed {
		return nil
	}
	o.closed = true
	return o.f.Close()
}
