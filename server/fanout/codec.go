package fanout

import (
	"google.golang.org/grpc/encoding"
	"google.golang.org/grpc/mem"
)

// Encoded is a message already in protobuf (Update.Proto); the Codec
// sends its bytes as they are, the same bytes to every watcher.
type Encoded []byte

// Codec returns a gRPC codec (grpc.ForceServerCodecV2): protobuf, except
// that an Encoded message is sent as it is.
func Codec() encoding.CodecV2 { return codec{encoding.GetCodecV2("proto")} }

type codec struct{ encoding.CodecV2 }

func (c codec) Marshal(v any) (mem.BufferSlice, error) {
	if e, ok := v.(Encoded); ok {
		return mem.BufferSlice{mem.SliceBuffer(e)}, nil
	}
	return c.CodecV2.Marshal(v)
}
