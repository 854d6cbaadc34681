package fanout

import (
	"sync"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// Update is one update for watchers with its encodings, each made once
// however many watchers of the scope send it: the protobuf bytes of a
// Watch stream and the server-sent event of the dashboard's feed.
type Update struct {
	msg *pb.WatchUpdate
	id  EventID // the state it brings its watchers to

	protoOnce sync.Once
	protoB    []byte
	protoErr  error

	sseOnce sync.Once
	sseB    []byte
	sseErr  error
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
