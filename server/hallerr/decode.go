package hallerr

import (
	"bytes"
	"context"
	"crypto/rand"
	"fmt"

	"google.golang.org/grpc"
	"google.golang.org/grpc/encoding"
	"google.golang.org/grpc/mem"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	pb "github.com/chesshall/hallclock/proto/hall/v1"
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
	limit func(msg any) int // the most bytes a message of msg's type may have; nil: no limit of its own
	note  string            // what a refusal for size adds: which messages may be larger
}

// WithLimit sets the most bytes a message may have, by its type (limit
// is given the empty message to fill): a larger one is refused with
// ErrTooLarge, naming the limit (and adding note), before it is decoded.
// It returns d.
func (d *DecodeCheck) WithLimit(limit func(msg any) int, note string) *DecodeCheck {
	d.limit, d.note = limit, note
	return d
}

// The kinds of mark: what was wrong with the message.
const (
	markMalformed byte = 'm'
	markTooLarge  byte = 'l'
)

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
	m, ok := v.(proto.Message)
	if c.d.limit != nil && ok {
		if most, n := c.d.limit(v), data.Len(); n > most {
			c.d.mark(m, markTooLarge, fmt.Sprintf("%s is %s; at most %s are taken", m.ProtoReflect().Descriptor().FullName(),
				pb.Bytes(n), pb.Bytes(most)))
			return nil
		}
	}
	err := c.d.inner.Unmarshal(data, v)
	if err == nil || !ok {
		return err
	}
	c.d.mark(m, markMalformed, err.Error())
	return nil
}

// mark empties m and marks it as refused for why.
func (d *DecodeCheck) mark(m proto.Message, kind byte, why string) {
	proto.Reset(m)
	val := append(append(d.key[:], kind), why...)
	mark := protowire.AppendTag(nil, malformedField, protowire.BytesType)
	m.ProtoReflect().SetUnknown(protowire.AppendBytes(mark, val))
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
	if n < 0 || len(val) <= len(d.key) || !bytes.HasPrefix(val, d.key[:]) {
		return nil
	}
	kind, why := val[len(d.key)], val[len(d.key)+1:]
	if kind == markTooLarge {
		return fmt.Errorf("%w: %s%s", ErrTooLarge, why, d.note)
	}
	return BadRequest("the message is not a valid %s in protobuf: %s", m.ProtoReflect().Descriptor().FullName(), why)
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
