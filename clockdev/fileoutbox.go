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

	"google.golang.org/protobuf/encoding/protojson"

	hallv1 "github.com/chesshall/hallclock/proto/hall/v1"
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
//	{"op":"left","board":{...Assignment...}}         (compacted files, after the events) a board left whose events are kept
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
	opLeft     = "left"
)

// defaultCompactAfter is how many journal lines trigger a compaction (at
// least; a compaction also waits for four times the live content).
const defaultCompactAfter = 1024

// fileJournal is the journal of a file outbox.
type fileJournal struct {
	records
	path    string
	f       *os.File
	lines   int // lines in the journal
	compact int // compact once lines exceed this
	retryAt int // after a failed compaction: not before this many lines
	// broken: a compaction left no journal open to write to (the new
	// file is in place but did not open); every write fails from then.
	broken bool
}

// OpenFileOutbox opens (or creates) the Outbox journal at path. It
// survives a reboot: every Append, Ack, Renumber and SaveBoard is written
// and fsynced before it returns, so a device reopened on the same path
// resends the same pending events with the same numbers and recovers the
// board it played with that board's history. A journal whose last line is
// incomplete (a write cut by a power failure) is repaired by dropping that
// line; any other damage is an error.
func OpenFileOutbox(path string) (Outbox, error) {
	j := &fileJournal{path: path, compact: defaultCompactAfter}
	j.records.put = j.write
	l := newLedger()
	good, err := j.load(&l)
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
	j.f = f
	return &lockedOutbox{l: l, j: j}, nil
}

// load replays the journal into l and returns the length of its intact
// part.
func (j *fileJournal) load(l *ledger) (int64, error) {
	data, err := os.ReadFile(j.path)
	if errors.Is(err, os.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("clockdev: read outbox: %w", err)
	}
	good, lines, err := loadJournal(data, l)
	if err != nil {
		return 0, fmt.Errorf("clockdev: outbox %s %w", j.path, err)
	}
	j.lines = lines
	return good, nil
}

// loadJournal replays a journal's text into l and returns the length of
// its intact part and how many lines that holds. An unterminated or
// damaged last line is left out (its write did not complete); damage
// anywhere else is an error.
func loadJournal(data []byte, l *ledger) (good int64, lines int, err error) {
	r := bufio.NewReader(bytes.NewReader(data))
	for n := 1; ; n++ {
		line, err := r.ReadBytes('\n')
		if err == io.EOF {
			// An unterminated last line was cut short: drop it.
			return good, lines, nil
		}
		if err != nil {
			return 0, 0, err
		}
		perr := replay(l, bytes.TrimSpace(line))
		if perr != nil {
			if _, err := r.Peek(1); err == io.EOF {
				return good, lines, nil // a damaged last line: the write did not complete
			}
			return 0, 0, fmt.Errorf("line %d: %w", n, perr)
		}
		good += int64(len(line))
		lines++
	}
}

// replay applies one line of a journal to l.
func replay(l *ledger, line []byte) error {
	var rec fileRecord
	if err := json.Unmarshal(line, &rec); err != nil {
		return err
	}
	switch rec.Op {
	case opBase:
		keep := l.keep
		*l = newLedger()
		l.keep = keep
		l.acked, l.next = rec.Acked, rec.Next
		if l.next == 0 {
			l.next = 1
		}
	case opBoard:
		if len(rec.Board) == 0 {
			l.setBoard(nil)
			return nil
		}
		a := &hallv1.Assignment{}
		if err := protojson.Unmarshal(rec.Board, a); err != nil {
			return err
		}
		l.setBoard(a)
	case opLeft:
		a := &hallv1.Assignment{}
		if err := protojson.Unmarshal(rec.Board, a); err != nil {
			return err
		}
		if a.GetBoardId() == "" {
			return errors.New("a board left without an id")
		}
		l.left = append(l.withoutLeft(a.GetBoardId()), a)
	case opEvent:
		ev := &hallv1.DeviceEvent{}
		if err := protojson.Unmarshal(rec.Event, ev); err != nil {
			return err
		}
		if err := l.checkAppend(ev); err != nil {
			return err
		}
		l.append(ev, rec.Applied)
	case opAck:
		l.ack(rec.Seq)
	case opRenumber:
		l.renumber(rec.Seq)
	case opResend:
		l.resend(rec.Seq)
	case opRetain:
		l.retain(rec.Seq)
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
func (j *fileJournal) write(rec fileRecord) error {
	if j.broken {
		return ErrClosed
	}
	b, err := encodeRecord(rec)
	if err != nil {
		return err
	}
	if _, err := j.f.Write(b); err != nil {
		return fmt.Errorf("clockdev: write outbox: %w", err)
	}
	if err := j.f.Sync(); err != nil {
		return fmt.Errorf("clockdev: sync outbox: %w", err)
	}
	j.lines++
	return nil
}

// records writes the outbox's operations as journal records through put:
// the file's journal and a browser's store's (storeoutbox.go) write the
// same records, each to its own medium.
type records struct{ put func(fileRecord) error }

func (r records) event(ev *hallv1.DeviceEvent, applied bool) error {
	b, err := protojson.Marshal(ev)
	if err != nil {
		return err
	}
	return r.put(fileRecord{Op: opEvent, Event: b, Applied: applied})
}

func (r records) ack(upTo uint64) error       { return r.put(fileRecord{Op: opAck, Seq: upTo}) }
func (r records) resend(from uint64) error    { return r.put(fileRecord{Op: opResend, Seq: from}) }
func (r records) renumber(first uint64) error { return r.put(fileRecord{Op: opRenumber, Seq: first}) }

func (r records) board(a *hallv1.Assignment) error {
	rec := fileRecord{Op: opBoard}
	if a != nil {
		b, err := protojson.Marshal(a)
		if err != nil {
			return err
		}
		rec.Board = b
	}
	return r.put(rec)
}

func (j *fileJournal) close() error {
	if j.broken {
		return nil // closed when it broke
	}
	return j.f.Close()
}

// recorded rewrites the journal when it has grown well past its live
// content. A failed compaction leaves the old journal in use; it is tried
// again after twice as many lines.
func (j *fileJournal) recorded(l *ledger) {
	live := len(l.pending) + len(l.retained) + len(l.left) + 2
	if j.lines <= j.compact || j.lines <= 4*live || j.lines < j.retryAt {
		return
	}
	if err := j.rewrite(l); err != nil {
		j.retryAt = 2 * j.lines
		return
	}
	j.retryAt = 0
}

// compacted is the shortest journal of l: base, board with its history,
// the events held, the boards left. It returns the text and its lines.
func compacted(l *ledger) ([]byte, int, error) {
	var buf bytes.Buffer
	events := append(append([]*hallv1.DeviceEvent(nil), l.retained...), l.pending...)
	first := l.next - uint64(len(l.pending))
	if len(l.retained) > 0 {
		first = l.retained[0].GetSeq()
	}
	recs := []fileRecord{{Op: opBase, Acked: l.acked, Next: first}}
	if l.board != nil {
		b, err := protojson.Marshal(l.board)
		if err != nil {
			return nil, 0, err
		}
		recs = append(recs, fileRecord{Op: opBoard, Board: b})
	}
	for _, ev := range events {
		// Not "applied": the board record above already holds the history.
		b, err := protojson.Marshal(ev)
		if err != nil {
			return nil, 0, err
		}
		recs = append(recs, fileRecord{Op: opEvent, Event: b})
	}
	if n := len(l.retained); n > 0 {
		recs = append(recs, fileRecord{Op: opRetain, Seq: l.retained[n-1].GetSeq()})
	}
	// After the events: a board left is kept only while events of it are.
	for _, a := range l.left {
		b, err := protojson.Marshal(a)
		if err != nil {
			return nil, 0, err
		}
		recs = append(recs, fileRecord{Op: opLeft, Board: b})
	}
	for _, r := range recs {
		b, err := encodeRecord(r)
		if err != nil {
			return nil, 0, err
		}
		buf.Write(b)
	}
	return buf.Bytes(), len(recs), nil
}

func (j *fileJournal) rewrite(l *ledger) error {
	buf, lines, err := compacted(l)
	if err != nil {
		return err
	}
	tmp := j.path + ".tmp"
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	if _, err := f.Write(buf); err != nil {
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
	if err := os.Rename(tmp, j.path); err != nil {
		os.Remove(tmp)
		return err
	}
	syncDir(filepath.Dir(j.path))
	nf, err := os.OpenFile(j.path, os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		// The new journal is in place but cannot be opened: writing on to
		// the old descriptor would lose data, so fail loudly from now on.
		j.f.Close()
		j.broken = true
		return err
	}
	j.f.Close()
	j.f = nf
	j.lines = lines
	return nil
}

func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}
