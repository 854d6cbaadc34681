package halltest

import "google.golang.org/grpc/mem"

// RawCodec is a client's gRPC codec that sends a []byte as it is and
// receives whatever comes into a *[]byte: a client that speaks junk
// (grpc.ForceCodecV2(halltest.RawCodec{})).
type RawCodec struct{}

// Name is "proto": the server takes the bytes for protobuf.
func (RawCodec) Name() string { return "proto" }

func (RawCodec) Marshal(v any) (mem.BufferSlice, error) {
	return mem.BufferSlice{mem.SliceBuffer(v.([]byte))}, nil
}

func (RawCodec) Unmarshal(data mem.BufferSlice, v any) error {
	*v.(*[]byte) = data.Materialize()
	return nil
}
