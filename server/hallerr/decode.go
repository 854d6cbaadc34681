package hallerr

import (
	"bytes"
	"context"
	"crypto/rand"

	"google.golang.org/grpc"
	"google.golang.org/grpc/encoding"
	"google.golang.org/grpc/mem"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
)

// A message that is not protobuf is the caller's fault: INVALID_ARGUMENT,
// counted like any call. grpc-go makes a codec's Unmarshal error INTERNAL
// and writes that status itself, before any interceptor sees it: a unary
// request is decoded before the chain runs (so the call was not even
// counted), and a stream's RecvMsg writes the status before returning.
//
// So a server's codec (DecodeCheck.Codec) never fails to decode: it
// empties the message it could not fill and marks it with an unknown field
// no client can forge (its value begins with a random key of this
// process), holding why; the door (DecodeCheck's interceptors, after
// metrics and logging and before anything that could answer first)
// refuses a marked message with INVALID_ARGUMENT before a handler sees it.
// The mark lives and dies with the message: nothing to remember, nothing
// to leak.

// malformedField is the field number of the mark: the highest there is,
// which no message of the contract uses.
const malformedField = protowire.MaxValidNumber

// DecodeCheck is the codec that marks what it cannot decode and the
// interceptors that refuse marked messages: made together, so that one is
// never installed without the others.
type DecodeCheck struct {
	key   [16]byte // this process's: a client cannot guess it
	inner encoding.CodecV2
}

// NewDecodeCheck returns the check of messages decoded by inner.
func NewDecodeCheck(inner encoding.CodecV2) *DecodeCheck {
	d := &DecodeCheck{inner: inner}
	_, _ = rand.Read(d.key[:])
	return d
}

// Codec is inner, except that a message it cannot decode is emptied and
// marked instead of failing: give it to grpc.ForceServerCodecV2, and the
// interceptors to the chain.
func (d *DecodeCheck) Codec() encoding.CodecV2 { return markingCodec{d} }

type markingCodec struct{ d *DecodeCheck }

func (c markingCodec) Name() string { return c.d.inner.Name() }

func (c markingCodec) Marshal(v any) (mem.BufferSlice, error) { return c.d.inner.Marshal(v) }

func (c markingCodec) Unmarshal(data mem.BufferSlice, v any) error {
	err := c.d.inner.Unmarshal(data, v)
	m, ok := v.(proto.Message)
	if err == nil || !ok {
		return err
	}
	proto.Reset(m)
	mark := protowire.AppendTag(nil, malformedField, protowire.BytesType)
	mark = protowire.AppendBytes(mark, append(c.d.key[:], err.Error()...))
	m.ProtoReflect().SetUnknown(mark)
	return nil
}

// refusal returns the refusal of a marked message, nil for any other.
func (d *DecodeCheck) refusal(v any) error {
	m, ok := v.(proto.Message)
	if !ok {
		return nil
	}
	u := m.ProtoReflect().GetUnknown()
	num, typ, n := protowire.ConsumeTag(u)
	if n < 0 || num != malformedField || typ != protowire.BytesType {
		return nil
	}
	val, n := protowire.ConsumeBytes(u[n:])
	if n < 0 || !bytes.HasPrefix(val, d.key[:]) {
		return nil
	}
	return BadRequest("the message is not a valid %s in protobuf: %s", m.ProtoReflect().Descriptor().FullName(), val[len(d.key):])
}

// UnaryServerInterceptor refuses a request Codec could not decode. Put it
// before anything that could answer first (auth): the request was decoded
// before the chain ran.
func (d *DecodeCheck) UnaryServerInterceptor() grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, _ *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		if err := d.refusal(req); err != nil {
			return nil, err
		}
		return handler(ctx, req)
	}
}

// StreamServerInterceptor refuses each message of a stream Codec could
// not decode: its RecvMsg fails.
func (d *DecodeCheck) StreamServerInterceptor() grpc.StreamServerInterceptor {
	return func(srv any, ss grpc.ServerStream, _ *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
		return handler(srv, checkedStream{ss, d})
	}
}

type checkedStream struct {
	grpc.ServerStream
	d *DecodeCheck
}

func (s checkedStream) RecvMsg(m any) error {
	if err := s.ServerStream.RecvMsg(m); err != nil {
		return err
	}
	return s.d.refusal(m)
}
