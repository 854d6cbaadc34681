package server_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"

	"github.com/chesshall/hallclock/internal/testkit/halltest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// junk returns n random byte strings, most of them not protobuf.
func junk(r *rand.Rand, n int) [][]byte {
	out := [][]byte{
		{0xff},                         // a tag of field 0...
		{0x0a, 0x05, 'a'},              // a string longer than what follows
		{0x08, 0xff, 0xff, 0xff, 0xff}, // a varint cut short
		{0x0a, 0x02, 0xc3, 0x28},       // invalid UTF-8 in a string
		{0x07},                         // wire type 7 does not exist
	}
	for len(out) < n {
		b := make([]byte, 1+r.IntN(40))
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		out = append(out, b)
	}
	return out
}

// decodes reports whether b is a valid message of the method's input type.
func decodes(t *testing.T, in protoreflect.MessageDescriptor, b []byte) bool {
	t.Helper()
	mt, err := protoregistry.GlobalTypes.FindMessageByName(in.FullName())
	if err != nil {
		t.Fatal(err)
	}
	return proto.Unmarshal(b, mt.New().Interface()) == nil
}

// Junk instead of protobuf is the caller's fault: INVALID_ARGUMENT, on
// unary calls and streams, and counted in grpc_server_handled_total like
// any call (grpc-go answered INTERNAL before any interceptor ran, so unary
// calls were not counted at all). Without a token, the call is refused
// UNAUTHENTICATED on its headers: the junk is never read.
func TestJunkMessagesAreInvalidArgumentAndCounted(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t)
	b := h.Round(t, "180+2", 1)[0]
	conn := h.Conn(t)
	chief := halltest.Ctx(context.Background(), h.Chief)
	r := rand.New(rand.NewPCG(22, 8))
	inputs := junk(r, 160)
	arbiter := pb.File_hall_v1_hall_proto.Services().ByName("Arbiter")
	methods := arbiter.Methods()
	invalid := map[string]int{} // method → INVALID_ARGUMENT answers
	undecodable := 0
	for i, in := range inputs {
		md := methods.Get(i % methods.Len())
		ctx := chief
		if i%7 == 0 {
			ctx = context.Background() // no token
		}
		ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
		var out []byte
		err := conn.Invoke(ctx, fmt.Sprintf("/%s/%s", arbiter.FullName(), md.Name()), in, &out, grpc.ForceCodecV2(halltest.RawCodec{}))
		cancel()
		code := status.Code(err)
		if code == codes.Internal || code == codes.Unknown {
			t.Errorf("%s(% x) = %v; want the caller's fault, never the server's", md.Name(), in, err)
		}
		if i%7 == 0 {
			if code != codes.Unauthenticated {
				t.Errorf("%s(% x) without a token = %v; want UNAUTHENTICATED before the junk is read", md.Name(), in, err)
			}
			continue
		}
		if !decodes(t, md.Input(), in) {
			undecodable++
			if code != codes.InvalidArgument || !strings.Contains(status.Convert(err).Message(), string(md.Input().FullName())) {
				t.Errorf("%s(% x) = %v; want INVALID_ARGUMENT naming %s", md.Name(), in, err, md.Input().FullName())
			}
		}
		if code == codes.InvalidArgument {
			invalid[string(md.Name())]++
		}
	}
	if undecodable < len(inputs)*6/7/2 {
		t.Fatalf("only %d of %d junk inputs fail to decode; the test needs more junk", undecodable, len(inputs))
	}

	// Streams: a clock's first message, a watcher's request.
	dev := h.DeviceToken(t, b.GetDeviceId())
	for _, c := range []struct {
		name string
		desc *grpc.StreamDesc
		ctx  context.Context
	}{
		{"/hall.v1.ClockLink/Connect", &pb.ClockLink_ServiceDesc.Streams[0], halltest.Ctx(context.Background(), dev)},
		{"/hall.v1.Watch/WatchHall", &grpc.StreamDesc{ServerStreams: true}, chief},
	} {
		ctx, cancel := context.WithTimeout(c.ctx, 5*time.Second)
		s, err := conn.NewStream(ctx, c.desc, c.name, grpc.ForceCodecV2(halltest.RawCodec{}))
		if err != nil {
			t.Fatal(err)
		}
		if err := s.SendMsg([]byte{0x0a, 0x05, 'a'}); err != nil && !errors.Is(err, io.EOF) {
			t.Fatal(err)
		}
		_ = s.CloseSend()
		var out []byte
		for err == nil {
			err = s.RecvMsg(&out)
		}
		cancel()
		if status.Code(err) != codes.InvalidArgument || !strings.Contains(status.Convert(err).Message(), "protobuf") {
			t.Errorf("%s with junk ended with %v; want INVALID_ARGUMENT saying the message is not protobuf", c.name, err)
		}
	}

	// Every INVALID_ARGUMENT was counted, under its method.
	resp := get(t, h.HTTP(t)+"/metrics", "")
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for m, n := range invalid {
		re := regexp.MustCompile(`(?m)^grpc_server_handled_total\{grpc_code="InvalidArgument",grpc_method="` + m + `",grpc_service="hall.v1.Arbiter",grpc_type="unary"\} ([0-9.e+]+)$`)
		got := -1.0
		if v := re.FindSubmatch(body); v != nil {
			got, _ = strconv.ParseFloat(string(v[1]), 64)
		}
		if got != float64(n) {
			t.Errorf("grpc_server_handled_total of %s, INVALID_ARGUMENT = %v; want %d (every answer counted)", m, got, n)
		}
	}
	for _, m := range []string{"Connect", "WatchHall"} {
		if !regexp.MustCompile(`(?m)^grpc_server_handled_total\{grpc_code="InvalidArgument",grpc_method="` + m + `",[^}]*\} 1$`).Match(body) {
			t.Errorf("/metrics does not count %s's junk as one INVALID_ARGUMENT", m)
		}
	}
}
