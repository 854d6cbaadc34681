package fanout

import (
	"bytes"
	"compress/flate"
	"sync"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// Update is one update for watchers with its encodings, each made once
// however many watchers of the scope send it: the protobuf bytes of a
// Watch stream and the server-sent event of the dashboard's feed, as it
// is and gzipped.
type Update struct {
	msg *pb.WatchUpdate
	id  EventID // the state it brings its watchers to

	protoOnce sync.Once
	protoB    []byte
	protoErr  error

	sseOnce sync.Once
	sseB    []byte
	sseErr  error

	gzOnce sync.Once
	gzB    []byte
}

func newUpdate(m *pb.WatchUpdate, id EventID) *Update { return &Update{msg: m, id: id} }

// Msg returns the update; it is shared: do not modify it.
func (u *Update) Msg() *pb.WatchUpdate { return u.msg }

// ID names the state of the hub the update brings its watchers to.
func (u *Update) ID() EventID { return u.id }

// Proto returns the update in protobuf.
func (u *Update) Proto() ([]byte, error) {
	u.protoOnce.Do(func() { u.protoB, u.protoErr = proto.Marshal(u.msg) })
	return u.protoB, u.protoErr
}

// SSE returns the update as a server-sent event: its EventID as the
// event id and its protojson as the data, so a browser's EventSource
// resumes from Last-Event-ID exactly.
func (u *Update) SSE() ([]byte, error) {
	u.sseOnce.Do(func() {
		js, err := protojson.Marshal(u.msg)
		if err != nil {
			u.sseErr = err
			return
		}
		b := make([]byte, 0, len(js)+32)
		b = append(b, "id: "...)
		b = u.id.appendTo(b)
		b = append(b, "\ndata: "...)
		b = append(b, js...)
		u.sseB = append(b, "\n\n"...)
	})
	return u.sseB, u.sseErr
}

// SSEGzip returns the server-sent event (SSE) compressed for a stream
// sent with Content-Encoding gzip: DEFLATE blocks that refer to nothing
// before them, ended by a sync flush and never a final block, so that the
// same bytes continue any such stream after its gzip header (SendSSE)
// and the client can read the event whole as soon as they arrive.
func (u *Update) SSEGzip() ([]byte, error) {
	b, err := u.SSE()
	if err != nil {
		return nil, err
	}
	u.gzOnce.Do(func() { u.gzB = deflateAlone(b) })
	return u.gzB, nil
}

// deflaters keep the compressors' state (hundreds of KB each) between
// updates.
var deflaters = sync.Pool{New: func() any {
	w, _ := flate.NewWriter(nil, flate.BestSpeed)
	return w
}}

// deflateAlone compresses b on its own (no earlier bytes to refer to)
// and ends it with a sync flush.
func deflateAlone(b []byte) []byte {
	var out bytes.Buffer
	out.Grow(len(b)/4 + 64)
	w := deflaters.Get().(*flate.Writer)
	w.Reset(&out)
	_, _ = w.Write(b) // a bytes.Buffer does not fail
	_ = w.Flush()
	deflaters.Put(w)
	return out.Bytes()
}
