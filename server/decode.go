package server

import (
	"bytes"
	"context"
	"crypto/rand"

	"google.golang.org/grpc"
	"google.golang.org/grpc/encoding"
	"google.golang.org/grpc/mem"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/chesshall/hallclock/server/hallerr"
)

// A message that is not protobuf is the caller's fault: INVALID_ARGUMENT,
// counted like any call. grpc-go makes a codec's Unmarshal error INTERNAL
// and writes that status itself, before any interceptor sees it: a unary
// request is decoded before the chain runs (so the call was not even
// counted), and a stream's RecvMsg writes the status before returning.
//
// So the server's codec never fails to decode: it empties the message it
// could not fill and marks it with an unknown field no client can forge
// (its value begins with a random key of this process), holding why; the
// door (decodeCheck's interceptors, after metrics and logging and before
// anything that could answer first) refuses a marked message with
// INVALID_ARGUMENT before a handler sees it. The mark lives and dies with
// the message: nothing to remember, nothing to leak.

// malformedField is the field number of the mark: the highest there is,
// which no message of the contract uses.
const malformedField = protowire.MaxValidNumber

// decodeCheck is the codec that marks what it cannot decode and the
// interceptors that refuse marked messages: made together, so that one is
// never installed without the others.
type decodeCheck struct {
	key   [16]byte // this process's: a client cannot guess it
	inner encoding.CodecV2
}

func newDecodeCheck(inner encoding.CodecV2) *decodeCheck {
	d := &decodeCheck{inner: inner}
	_, _ = rand.Read(d.key[:])
	return d
}

// codec is inner, except that a message it cannot decode is emptied and
// marked instead of failing.
func (d *decodeCheck) codec() encoding.CodecV2 { return markingCodec{d} }

type markingCodec struct{ d *decodeCheck }

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
func (d *decodeCheck) refusal(v any) error {
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
	return hallerr.BadRequest("the message is not a valid %s in protobuf: %s", m.ProtoReflect().Descriptor().FullName(), val[len(d.key):])
}

func (d *decodeCheck) unary(ctx context.Context, req any, _ *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	if err := d.refusal(req); err != nil {
		return nil, err
	}
	return handler(ctx, req)
}

func (d *decodeCheck) stream(srv any, ss grpc.ServerStream, _ *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
	return handler(srv, checkedStream{ss, d})
}

type checkedStream struct {
	grpc.ServerStream
	d *decodeCheck
}

func (s checkedStream) RecvMsg(m any) error {
	if err := s.ServerStream.RecvMsg(m); err != nil {
		return err
	}
	return s.d.refusal(m)
}
